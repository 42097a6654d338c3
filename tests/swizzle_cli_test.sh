#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# swizzle_cli_test.sh: `cute-layout eval` against a file of known answers
# (cute_swizzle.tsv for swizzles and composed layouts, cute_more.tsv for the
# rest of CuTe's functions and the whitepaper's algebra): EXPR<TAB>EXPECTED, made by compiling
# each EXPR with CUTLASS include/cute, every integer static; EXPECTED "error"
# where CuTe rejects the call; print_layout tables with newlines as \n).
#
# usage: swizzle_cli_test.sh CUTE_LAYOUT_EXE CUTE_SWIZZLE_TSV
set -u
exe=$1
cases=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/wrap_tool.sh"
exe=$(wrapped_tool "$exe" "$work")
failures=0

grep -v '^#' "$cases" | grep -v '^$' > "$work/cases"
grep -v '^print_layout' "$work/cases" > "$work/batch"
cut -f1 "$work/batch" > "$work/batch.in"
"$exe" eval - < "$work/batch.in" > "$work/batch.out"
if [ "$(wc -l < "$work/batch.out")" != "$(wc -l < "$work/batch")" ]; then
  echo "FAIL: output line count" >&2
  failures=$((failures + 1))
fi
paste "$work/batch" "$work/batch.out" | awk -F'\t' '
  { want = $2; got = $3
    ok = (want == "error") ? (substr(got, 1, 7) == "error: ") : (got == want)
    if (!ok) { bad++; if (bad <= 20) printf "  %s\n    CuTe: %s\n    ours: %s\n", $1, want, got } }
  END { if (bad) { printf "%d of %d differ from CuTe\n", bad, NR; exit 1 } }' >&2 ||
  failures=$((failures + 1))
# Each error line names the function that failed (error_names.awk).
paste "$work/batch" "$work/batch.out" | awk -f "$(dirname "$0")/error_names.awk" >&2 || failures=$((failures + 1))
while IFS=$'\t' read -r expr want; do
  got=$("$exe" eval "$expr" 2>&1)
  if [ "$want" = error ]; then
    case $got in error:*) ;; *) echo "FAIL: $expr: CuTe rejects it, ours: $got" >&2; failures=$((failures + 1)) ;; esac
  else
    want=${want//\\n/$'\n'}
    if [ "$got" != "${want%$'\n'}" ]; then
      echo "FAIL: $expr: table differs from CuTe's" >&2
      failures=$((failures + 1))
    fi
  fi
done < <(grep '^print_layout' "$work/cases")

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all $(wc -l < "$work/cases") CuTe answers match"
