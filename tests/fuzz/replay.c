/* SPDX-License-Identifier: BSD-3-Clause */
/* replay.c: runs a fuzz target once on each input file, for builds without
 * libFuzzer (gcc, the default build): the committed corpora and crash
 * regressions are then ordinary tests.
 *
 *   replay_<target> PATH...   each PATH a file or a directory of files */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  size_t cap = 4096, len = 0;
  uint8_t *data = malloc(cap);
  size_t got;
  while (data != NULL && (got = fread(data + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      uint8_t *bigger = realloc(data, cap * 2);
      if (bigger == NULL) {
        free(data);
        data = NULL;
      }
      data = bigger;
      cap *= 2;
    }
  }
  fclose(f);
  if (data == NULL) {
    fprintf(stderr, "replay: out of memory reading %s\n", path);
    return 1;
  }
  LLVMFuzzerTestOneInput(data, len);
  free(data);
  return 0;
}

/* Files of a directory in name order, so that runs are reproducible. */
static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir, int *count) {
  DIR *d = opendir(dir);
  if (d == NULL) {
    fprintf(stderr, "replay: cannot open directory %s\n", dir);
    return 1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  int failed = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      char **bigger = realloc(names, cap * sizeof *names);
      if (bigger == NULL) {
        failed = 1;
        break;
      }
      names = bigger;
    }
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    if ((names[n] = malloc(len)) == NULL) {
      failed = 1;
      break;
    }
    snprintf(names[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  if (n > 0)
    qsort(names, n, sizeof *names, compare_names);
  for (size_t i = 0; i < n; i++) {
    if (!failed)
      failed |= replay_file(names[i]);
    (*count)++;
    free(names[i]);
  }
  free(names);
  return failed;
}

int main(int argc, char **argv) {
  int failed = 0, count = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
      failed = 1;
    } else if (S_ISDIR(st.st_mode)) {
      failed |= replay_dir(argv[i], &count);
    } else {
      failed |= replay_file(argv[i]);
      count++;
    }
  }
  printf("replayed %d inputs\n", count);
  return failed;
}
