/* SPDX-License-Identifier: BSD-3-Clause */
/* suggest.c: the nearest name to a misspelt one, by edit distance. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strncasecmp */

#include "suggest.h"

/* Names are short (an identifier, a command, an option): longer words are
 * compared only up to this many characters. */
#define MAX_WORD 64

static bool same_letter(char a, char b) { return tolower((unsigned char)a) == tolower((unsigned char)b); }

static size_t min3(size_t a, size_t b, size_t c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

/* Do a and b (n letters each) differ by one swap of two letters, neighbours
 * or not ("dwar" for "draw")?  People swap letters across a word as readily
 * as next to each other, so that too is one slip. */
static bool one_swap_apart(const char *a, const char *b, size_t n) {
  size_t first = n, second = n;
  for (size_t i = 0; i < n; i++) {
    if (same_letter(a[i], b[i]))
      continue;
    if (first == n)
      first = i;
    else if (second == n)
      second = i;
    else
      return false;
  }
  return second < n && same_letter(a[first], b[second]) && same_letter(a[second], b[first]);
}

size_t edit_distance(const char *a, const char *b, size_t limit) {
  size_t n = strnlen(a, MAX_WORD), m = strnlen(b, MAX_WORD);
  if (n == m && one_swap_apart(a, b, n))
    return limit >= 1 ? 1 : limit + 1;
  if ((n > m ? n - m : m - n) > limit)
    return limit + 1;
  /* Three rows of the dynamic programme: d[i][j] is the distance between
   * the first i letters of a and the first j of b. */
  size_t rows[3][MAX_WORD + 1];
  size_t *before = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++)
    prev[j] = j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = i;
    size_t row_min = cur[0];
    for (size_t j = 1; j <= m; j++) {
      size_t cost = same_letter(a[i - 1], b[j - 1]) ? 0 : 1;
      cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1]) && before[j - 2] + 1 < cur[j])
        cur[j] = before[j - 2] + 1;
      if (cur[j] < row_min)
        row_min = cur[j];
    }
    if (row_min > limit)
      return limit + 1;
    size_t *oldest = before;
    before = prev;
    prev = cur;
    cur = oldest;
  }
  return prev[m];
}

/* How many edits a word of this length may be from what was meant: none but
 * letter case for one or two letters (any two-letter name is two edits from
 * any other), one for a short word, up to three for a long one. */
static size_t allowed_edits(size_t len) {
  if (len <= 2)
    return 0;
  if (len <= 5)
    return 1;
  return len <= 9 ? 2 : 3;
}

suggestion suggestion_start(const char *word) { return (suggestion){word, NULL, 0, 0, NULL, 0}; }

void suggestion_offer(suggestion *s, const char *candidate) {
  size_t len = strlen(s->word), limit = allowed_edits(len);
  size_t d = edit_distance(s->word, candidate, limit + 1);
  /* "int" could be int8 as well as int16: a word that several names extend,
   * each about as near as the nearest, is too short to tell them apart. */
  if (d <= limit + 1 && strlen(candidate) > len && strncasecmp(candidate, s->word, len) == 0 &&
      (s->extension == NULL || strcmp(candidate, s->extension) != 0)) {
    s->extension = candidate;
    s->extensions++;
  }
  if (d > limit)
    return;
  if (s->best == NULL || d < s->distance) {
    s->best = candidate;
    s->distance = d;
    s->ties = 0;
  } else if (d == s->distance && strcmp(candidate, s->best) != 0) {
    s->ties++;
  }
}

const char *suggestion_result(const suggestion *s) { return s->ties == 0 && s->extensions < 2 ? s->best : NULL; }

const char *suggest_from(const char *word, const char *const *names) {
  suggestion s = suggestion_start(word);
  for (size_t i = 0; names[i] != NULL; i++)
    suggestion_offer(&s, names[i]);
  return suggestion_result(&s);
}
