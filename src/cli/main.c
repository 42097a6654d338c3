#include <stdio.h>
#include <cutelayout/cutelayout.h>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    cl_layout_t *l;
    if (cl_layout_parse(argv[i], &l) != CL_OK) { printf("error: %s\n", cl_last_error()); continue; }
    char buf[256]; cl_layout_format(l, buf, sizeof buf); printf("%s size=%lld cosize=%lld\n", buf, (long long)cl_layout_size(l), (long long)cl_layout_cosize(l));
    for (int64_t k = 0; k < cl_layout_size(l); k++) { int64_t v; cl_layout_eval(l, k, &v); printf("%lld ", (long long)v);} printf("\n");
    cl_layout_free(l);
  }
}
