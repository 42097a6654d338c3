#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Debian packages of packaging/debian, proven end to end:
#
#   deb_test.sh SRCDIR WORKDIR VERSION CONSUME...
#
# copies the source tree (git's tracked and unignored files) into WORKDIR with
# debian/ at its root; builds libcutelayout1, libcutelayout-dev and cute-layout
# (dpkg-buildpackage -b, which runs the test suite); checks what each package
# holds, its dependencies, that the symbols file fails the build on a lost
# symbol but not on a new one, that nothing carries an RPATH, and that
# debian/copyright quotes LICENSE; runs lintian (no errors allowed); installs
# the packages; runs CONSUME... --installed (tests/abi/consume.py: every header
# alone, C and C++ programs through `pkg-config --cflags --libs cute-layout`,
# shared and static, and the installed tool); and purges the packages again.
#
# Skipped (77) without root, the build tools, lintian or a git checkout, or
# when the packages are installed already (the test would replace them);
# CUTE_LAYOUT_REQUIRE_PACKAGING=1 (CI) turns such a skip into a failure.
set -euo pipefail

skip() {
  if [ "${CUTE_LAYOUT_REQUIRE_PACKAGING:-}" = 1 ]; then
    echo "CUTE_LAYOUT_REQUIRE_PACKAGING=1 but the packaging test cannot run: $*"
    exit 1
  fi
  echo "$*: skipping"
  exit 77
}
fail() {
  echo "DEB TEST FAILED: $*"
  exit 1
}

[ $# -ge 4 ] || { echo "usage: $0 SRCDIR WORKDIR VERSION CONSUME..." >&2; exit 2; }
src=$(cd "$1" && pwd)
work=$2
version=$3
shift 3
packages=(libcutelayout1 libcutelayout-dev cute-layout)

[ "$(id -u)" = 0 ] || skip "not root (installing the packages needs it)"
for tool in dpkg-buildpackage dpkg-checkbuilddeps dpkg-architecture dpkg-parsechangelog lintian git flock readelf; do
  command -v "$tool" >/dev/null || skip "$tool is not installed"
done
[ -e "$src/.git" ] || skip "the source tree is not a git checkout"
unmet=$(dpkg-checkbuilddeps "$src/packaging/debian/control" 2>&1) || skip "$unmet"

# --- The source tree, as a Debian source package would unpack it. -----------
rm -rf "$work"
debver=$(dpkg-parsechangelog -l "$src/packaging/debian/changelog" -SVersion)
[ "${debver%-*}" = "$version" ] ||
  fail "packaging/debian/changelog is for $debver, the project is $version: add an entry (dch -v $version-1)"
tree=$work/cute-layout-$version
mkdir -p "$tree"
# A CI job may run as another user than the one owning the checkout.
git -c safe.directory="$src" -C "$src" ls-files -z --cached --others --exclude-standard |
  tar -C "$src" --null --files-from=- --ignore-failed-read -cf - | tar -C "$tree" -xf -
cp -a "$tree/packaging/debian" "$tree/debian"

# --- Build: the upstream test suite runs inside (dh_auto_test), where the
# dist check must skip (no git checkout), as on a distribution's builder, and
# so must the playground's browser test (debian/rules does not build the page)
# and the bindings' tests where their tools are not build dependencies;
# as there, only the system's programs are on the PATH (not a user's rustup
# or pyenv, which debhelper's private HOME would break anyway). -------------
echo "==== dpkg-buildpackage -b -us -uc in $tree"
(cd "$tree" && env -u CUTE_LAYOUT_REQUIRE_DIST -u CUTE_LAYOUT_REQUIRE_PACKAGING -u CUTE_LAYOUT_REQUIRE_WEB -u CUTE_LAYOUT_REQUIRE_BINDINGS PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -b -us -uc) ||
  fail "dpkg-buildpackage failed"

arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=usr/lib/$multiarch
deb() { echo "$work/${1}_${debver}_${arch}.deb"; }
for p in "${packages[@]}"; do
  [ -f "$(deb "$p")" ] || fail "$(deb "$p") was not built"
done

# --- What each package holds. ------------------------------------------------
holds() {  # holds PACKAGE PATH...: each PATH is in PACKAGE
  local p=$1 listing
  shift
  listing=$(dpkg-deb -c "$(deb "$p")" | awk '{ print $6 }')
  for path in "$@"; do
    grep -qxF "./$path" <<<"$listing" || fail "$p does not hold /$path"
  done
}
abi_major=$(sed -n 's/^abi_major = \([0-9]*\)$/\1/p' "$src/meson.build")
holds libcutelayout1 "$libdir/libcutelayout.so.$abi_major" usr/share/doc/libcutelayout1/copyright
holds libcutelayout-dev usr/include/cutelayout/cutelayout.h "$libdir/libcutelayout.so" "$libdir/libcutelayout.a" \
  "$libdir/pkgconfig/cute-layout.pc"
holds cute-layout usr/bin/cute-layout usr/share/man/man1/cute-layout.1.gz
for p in libcutelayout-dev cute-layout; do
  if dpkg-deb -c "$(deb "$p")" | awk '{ print $6 }' | grep -q "libcutelayout\.so\.$abi_major"; then
    fail "$p holds the shared library, which is libcutelayout1's"
  fi
done

# The symbols file is shipped and gives the tool its dependency.
dpkg-deb -I "$(deb libcutelayout1)" symbols | grep -q "^ cl_layout_parse@CUTELAYOUT_$abi_major\.0 " ||
  fail "libcutelayout1 has no symbols file with cl_layout_parse"
depends=$(dpkg-deb -f "$(deb cute-layout)" Depends)
grep -q "libcutelayout1 (>= $version)" <<<"$depends" || fail "cute-layout depends on '$depends'"

# The symbols file as the package build applies it (dh_makeshlibs at
# dpkg-gensymbols' default check level): a function the library has beyond
# the file only warns (new functions land before the file is regenerated), a
# symbol the file lists that the library lacks fails the build.
# The new function is listed with the upstream version, as lintian wants.
symbols=$tree/debian/libcutelayout1.symbols
shipped=$tree/debian/libcutelayout1/DEBIAN/symbols
cp "$symbols" "$work/symbols.orig"
grep -v '^ cl_layout_parse@' "$work/symbols.orig" > "$symbols"
(cd "$tree" && debian/rules override_dh_makeshlibs) || fail "a function missing from the symbols file fails the build"
grep -qxF " cl_layout_parse@CUTELAYOUT_$abi_major.0 $version" "$shipped" ||
  fail "a function missing from the symbols file is not shipped with version $version: $(grep cl_layout_parse@ "$shipped")"
{ cat "$work/symbols.orig"; echo " cl_no_such_function@CUTELAYOUT_$abi_major.0 $version"; } > "$symbols"
if (cd "$tree" && debian/rules override_dh_makeshlibs); then
  fail "a symbol that the library lacks does not fail the build"
fi
cp "$work/symbols.orig" "$symbols"

# Installed programs find the library through the system's path, never an RPATH.
x=$work/contents
for p in libcutelayout1 cute-layout; do dpkg-deb -x "$(deb "$p")" "$x"; done
for f in "$x/usr/bin/cute-layout" "$x/$libdir/libcutelayout.so.$abi_major"; do
  if readelf -d "$f" | grep -E '\((RPATH|RUNPATH)\)'; then fail "$f has a library search path"; fi
done

# debian/copyright quotes LICENSE: the same holder and year, the same text.
license_head=$(sed -n 's/^Copyright (c) \([0-9-]*\), \(.*\)$/Copyright: \1 \2/p' "$src/LICENSE")
grep -qxF "$license_head" "$tree/debian/copyright" ||
  fail "debian/copyright has no line '$license_head' (LICENSE's copyright line)"
quoted=$(sed -n '/^License: BSD-3-Clause$/,/^$/p' "$tree/debian/copyright" | sed -n '/^ /p' | sed -e 's/^ //' -e 's/^\.$//')
[ "$quoted" = "$(sed -n '/^Redistribution/,$p' "$src/LICENSE")" ] ||
  fail "the licence text in debian/copyright differs from LICENSE"

# --- lintian: errors fail, warnings are shown. -------------------------------
echo "==== lintian"
lintian --fail-on error "$work/cute-layout_${debver}_${arch}.changes" || fail "lintian reports errors"

# --- Install, use, remove. ---------------------------------------------------
# One test at a time installs: the packages are the system's while it runs.
exec 9>/run/lock/cute-layout-deb-test.lock
flock 9
known_to_dpkg() { dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -qv '^un'; }
for p in "${packages[@]}"; do
  if known_to_dpkg "$p"; then
    skip "$p is installed already (dpkg-query -W $p), and this test would replace and then purge it"
  fi
done
purge() {
  echo "==== dpkg --purge ${packages[*]}"
  dpkg --purge "${packages[@]}"
}
trap purge EXIT
echo "==== dpkg -i"
dpkg -i "$(deb libcutelayout1)" "$(deb libcutelayout-dev)" "$(deb cute-layout)" || fail "dpkg -i failed"

echo "==== consume the installed packages"
"$@" --installed --prefix /usr --libdir "lib/$multiarch" --includedir include --bindir bin --mandir share/man \
  --version "$version" --static || fail "the installed packages cannot be used"
answer=$(/usr/bin/cute-layout eval 'logical_divide(make_layout((256,512)),(128,64))')
[ "$answer" = '((128,2),(64,8)):((1,128),(256,16384))' ] || fail "the installed tool answered '$answer'"

trap - EXIT
purge || fail "dpkg --purge failed"
for p in "${packages[@]}"; do
  if known_to_dpkg "$p"; then fail "$p is still known to dpkg after the purge"; fi
done
for f in /usr/bin/cute-layout "/$libdir/libcutelayout.so.$abi_major" /usr/include/cutelayout "/$libdir/pkgconfig/cute-layout.pc"; do
  if [ -e "$f" ]; then fail "$f is still there after the purge"; fi
done
rm -rf "$work"
echo "the Debian packages build, pass lintian, install, work and purge cleanly"
