#!/bin/sh
# usage: exports.sh LIBGNOMON_SO GNOMON_H
# The shared library exports the public API and nothing else: its defined dynamic symbols
# are exactly the functions declared in gnomon.h (all gn_*). A function added to the header
# without GN_API is missing from the library and fails this too.
set -eu
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
lib=$1
header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Symbols: the dynamic table's defined names, less the linker's own markers.
nm -D --defined-only "$lib" | awk '{ print $NF }' | grep -v -x -e _init -e _fini -e _edata -e _end -e __bss_start |
    sort -u >"$tmp/exported"
# Declarations: the name before the first '(' of each GN_API line (one declaration a line).
grep -E '^[[:space:]]*GN_API[[:space:]]' "$header" | sed -E 's/\(.*//; s/.*[^A-Za-z0-9_]([A-Za-z0-9_]+)[[:space:]]*$/\1/' |
    sort -u >"$tmp/declared"
# Functions declared without GN_API: a prototype at the start of a line whose name is gn_*.
grep -E '^[A-Za-z_][A-Za-z0-9_ *]*[ *]gn_[A-Za-z0-9_]+\(' "$header" | grep -v -E '^[[:space:]]*(GN_API|typedef)' \
    >"$tmp/unmarked" || true
[ ! -s "$tmp/unmarked" ] || fail "$header declares functions without GN_API:
$(cat "$tmp/unmarked")"
[ -s "$tmp/declared" ] || fail "no GN_API declarations found in $header"

grep -v '^gn_' "$tmp/exported" >"$tmp/foreign" || true
[ ! -s "$tmp/foreign" ] || fail "$lib exports symbols outside the gn_ namespace: $(tr '\n' ' ' <"$tmp/foreign")"
comm -23 "$tmp/exported" "$tmp/declared" >"$tmp/internal"
[ ! -s "$tmp/internal" ] || fail "$lib exports gn_ symbols gnomon.h does not declare: $(tr '\n' ' ' <"$tmp/internal")"
comm -13 "$tmp/exported" "$tmp/declared" >"$tmp/absent"
[ ! -s "$tmp/absent" ] || fail "$lib does not export functions gnomon.h declares: $(tr '\n' ' ' <"$tmp/absent")"
echo "ok: $lib exports exactly the $(wc -l <"$tmp/declared") functions of $header"
