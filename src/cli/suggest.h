/* SPDX-License-Identifier: BSD-3-Clause */
/* suggest.h: "did you mean ...?" for a misspelt name (a function of the eval
 * language, a command, an option or an option's value). */
#ifndef CLI_SUGGEST_H
#define CLI_SUGGEST_H

#include <stddef.h>

/* The edit distance between a and b (optimal string alignment: insertions,
 * deletions, substitutions and swaps of two neighbours cost one each; so does
 * a swap of any two letters when that is the only difference, "dwar" for
 * "draw"; letters differing only in case cost nothing), or a number above
 * `limit` once it is certain to exceed it. */
size_t edit_distance(const char *a, const char *b, size_t limit);

/* Collects the candidate nearest to `word`: offer each candidate in turn,
 * then read suggestion_result().  */
typedef struct suggestion {
  const char *word;
  const char *best;  /* NULL while none is close enough */
  size_t distance;
  int ties;          /* other names as near as best */
  const char *extension; /* a name that starts with word, within one edit more than allowed */
  int extensions;        /* 1, or more when several different names do */
} suggestion;

suggestion suggestion_start(const char *word);
void suggestion_offer(suggestion *s, const char *candidate);
/* The one candidate close enough to be what was meant, or NULL: none is
 * close enough for the word's length, two different names are as close, or
 * the word is the start of several names ("int": int8, int16, ...). */
const char *suggestion_result(const suggestion *s);

/* suggestion_result over a NULL-terminated list of names. */
const char *suggest_from(const char *word, const char *const *names);

#endif
