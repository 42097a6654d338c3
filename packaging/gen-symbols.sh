#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates packaging/debian/libcutelayout1.symbols, the symbols file of
# Debian's libcutelayout1, from a built library's exported, versioned symbols:
#
#   packaging/gen-symbols.sh build/src/libcutelayout.so.1 [VERSION]
#
# Symbols already in the file keep the version they have there; new ones get
# VERSION (default: the project version in meson.build), the first upstream
# version that has them.  A symbol the library no longer exports is dropped,
# and reported: that is an ABI break (docs/abi-and-packaging.md, "ABI policy").  Needs dpkg-dev
# (dpkg-gensymbols).  Review the diff and commit it.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
symbols=$here/debian/libcutelayout1.symbols
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 LIBRARY [VERSION]" >&2; exit 2; }
library=$1
version=${2:-$(sed -n "s/^  version : '\([^']*\)',\$/\1/p" "$here/../meson.build")}
[ -n "$version" ] || { echo "$0: no version given and none found in meson.build" >&2; exit 2; }

# dpkg-gensymbols reads debian/ of the current directory when there is one;
# run it where there is none, on the library alone (-c0: never fail).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
library=$(cd "$(dirname "$library")" && pwd)/$(basename "$library")
(cd "$work" && dpkg-gensymbols -plibcutelayout1 "-v$version" "-e$library" -c0 "-O$work/fresh") >"$work/log" 2>&1 ||
  { cat "$work/log" >&2; exit 1; }
touch "$work/old"
[ -f "$symbols" ] && cp "$symbols" "$work/old"

# Symbols the old file has keep its version.  The -dev package names the
# build dependency that pulls the library in (for dpkg-shlibdeps).
awk 'NR == FNR { if (/^ /) old[$1] = $2; next }
     /^ / && ($1 in old) { $0 = " " $1 " " old[$1] }
     { print }
     FNR == 1 { print "* Build-Depends-Package: libcutelayout-dev" }' "$work/old" "$work/fresh" > "$work/symbols"

names() { sed -n 's/^ \([^ ]*\) .*/\1/p' "$1" | sort; }
comm -13 <(names "$work/old") <(names "$work/symbols") | sed 's/^/new: /' >&2 || true
comm -23 <(names "$work/old") <(names "$work/symbols") | sed 's/^/gone (an ABI break): /' >&2 || true
mv "$work/symbols" "$symbols"
echo "$symbols: $(grep -c '^ ' "$symbols") symbols"
