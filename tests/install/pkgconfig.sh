#!/bin/sh
# usage: pkgconfig.sh CC PREFIX EXAMPLES_DIR OUT_DIR
# The examples built against the installed tree alone with pkg-config, as the README says,
# and run: against the shared library (found through LD_LIBRARY_PATH), and custom_scene also
# against the static archive with `pkg-config --static` (which must list all it needs).
set -eu
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
cc=$1
prefix=$2
examples=$3
out=$4
size=160x90
rm -rf "$out"
mkdir -p "$out"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cflags="-std=c11 -Wall -Wextra -Werror -pedantic"

for e in hello custom_scene; do
    # shellcheck disable=SC2046,SC2086 # pkg-config's output is meant to be split
    "$cc" $cflags "$examples/$e.c" $(pkg-config --cflags --libs gnomon) -lstb -o "$out/$e" ||
        fail "$e did not build with pkg-config"
    readelf -d "$out/$e" | grep -q 'NEEDED.*\[libgnomon\.so\.0\]' || fail "$out/$e does not load libgnomon.so.0"
done
# The whole archive, so that every object's dependencies must be listed, not only those of
# the objects custom_scene happens to call; --as-needed drops the -lgnomon pkg-config adds.
# shellcheck disable=SC2046,SC2086
"$cc" $cflags -Wl,--as-needed "$examples/custom_scene.c" $(pkg-config --cflags gnomon) \
    -Wl,--whole-archive "$prefix/lib/libgnomon.a" -Wl,--no-whole-archive $(pkg-config --static --libs gnomon) \
    -lstb -o "$out/custom_scene_static" ||
    fail "custom_scene did not link the static archive with pkg-config --static"
if readelf -d "$out/custom_scene_static" | grep -q 'NEEDED.*libgnomon'; then
    fail "custom_scene_static loads libgnomon.so"
fi
echo "ok: built hello and custom_scene (shared) and custom_scene_static with pkg-config"

lib="LD_LIBRARY_PATH=$prefix/lib"
expect_failure 2 "usage: " env "$lib" "$out/hello"
expect_failure 2 "usage: " env "$lib" "$out/custom_scene" "$out/x.png" 0x0
expect_failure 1 "custom_scene: cannot write $out/no-such-dir/x.png" env "$lib" "$out/custom_scene" \
    "$out/no-such-dir/x.png" 64x36
run_example "$size" "$out/hello.png" env "$lib" "$out/hello" "$out/hello.png" "$size"
run_example "$size" "$out/custom.png" env "$lib" "$out/custom_scene" "$out/custom.png" "$size"
run_example "$size" "$out/static.png" "$out/custom_scene_static" "$out/static.png" "$size"
