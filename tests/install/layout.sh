#!/bin/sh
# usage: layout.sh PREFIX VERSION
# The installed tree holds what a user needs and nothing internal: exactly the files listed
# here (so no header of src/ or shaders/ comes along), a shared library named by its SONAME,
# and a static archive that holds every object its own references need.
set -eu
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
prefix=$1
version=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$prefix"

cat >"$tmp/expected" <<LIST
bin/gnomon
include/gnomon.h
lib/cmake/gnomon/gnomonConfig.cmake
lib/cmake/gnomon/gnomonConfigVersion.cmake
lib/cmake/gnomon/gnomonTargets-CONFIG.cmake
lib/cmake/gnomon/gnomonTargets.cmake
lib/libgnomon.a
lib/libgnomon.so
lib/libgnomon.so.0
lib/libgnomon.so.$version
lib/pkgconfig/gnomon.pc
LIST
# gnomonTargets-<config>.cmake is named for the build type (none for an empty one).
find . \( -type f -o -type l \) | sed 's|^\./||; s|gnomonTargets-[a-z]*\.cmake|gnomonTargets-CONFIG.cmake|' |
    LC_ALL=C sort >"$tmp/got"
diff "$tmp/expected" "$tmp/got" >"$tmp/diff" || fail "the installed files are not the expected ones (<: missing, >: extra):
$(cat "$tmp/diff")"
echo "ok: the $(wc -l <"$tmp/got") installed files are the expected ones; the one header is include/gnomon.h"

[ "$(readlink lib/libgnomon.so)" = libgnomon.so.0 ] || fail "lib/libgnomon.so -> $(readlink lib/libgnomon.so)"
[ "$(readlink lib/libgnomon.so.0)" = "libgnomon.so.$version" ] ||
    fail "lib/libgnomon.so.0 -> $(readlink lib/libgnomon.so.0)"
soname=$(readelf -d "lib/libgnomon.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
[ "$soname" = libgnomon.so.0 ] || fail "SONAME is '$soname', expected libgnomon.so.0"
if readelf -d "lib/libgnomon.so.$version" | grep -q '(R[UN]*PATH)'; then
    fail "the installed libgnomon.so.$version keeps an RPATH or RUNPATH"
fi
echo "ok: lib/libgnomon.so -> libgnomon.so.0 -> libgnomon.so.$version, SONAME $soname, no RPATH"

# Every gn_ function the archive's objects call is defined in the archive: the decide and
# base objects are in it, not only in the build's internal gnomon_decide.
nm lib/libgnomon.a 2>/dev/null | awk '$1 == "U" && $2 ~ /^gn_/ { print $2 }' | sort -u >"$tmp/used"
nm --defined-only lib/libgnomon.a 2>/dev/null | awk 'NF == 3 && $3 ~ /^gn_/ { print $3 }' | sort -u >"$tmp/defined"
comm -23 "$tmp/used" "$tmp/defined" >"$tmp/missing"
[ ! -s "$tmp/missing" ] || fail "lib/libgnomon.a calls gn_ functions it does not define: $(tr '\n' ' ' <"$tmp/missing")"
echo "ok: lib/libgnomon.a defines all $(wc -l <"$tmp/used") gn_ functions its objects call"

grep -qx "Version: $version" lib/pkgconfig/gnomon.pc || fail "lib/pkgconfig/gnomon.pc lacks 'Version: $version'"
echo "ok: gnomon.pc is version $version"
