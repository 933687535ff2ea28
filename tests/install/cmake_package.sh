#!/bin/sh
# usage: cmake_package.sh CMAKE GENERATOR CC PREFIX EXAMPLES_DIR OUT_DIR
# The examples built against the installed tree alone by a small CMake project that asks
# find_package(gnomon) (tests/install/consumer), then run; the libraries are found through
# the build's RPATH, without LD_LIBRARY_PATH.
set -eu
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
cmake=$1
generator=$2
cc=$3
prefix=$4
examples=$5
out=$6
size=160x90
rm -rf "$out"
"$cmake" -S "$(dirname "$0")/consumer" -B "$out" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_PREFIX_PATH="$prefix" -DGN_EXAMPLES_DIR="$examples" -DGN_EXPECT_PREFIX="$prefix" ||
    fail "the consumer project did not configure"
"$cmake" --build "$out" || fail "the consumer project did not build"
unset LD_LIBRARY_PATH
run_example "$size" "$out/hello.png" "$out/hello" "$out/hello.png" "$size"
run_example "$size" "$out/custom.png" "$out/custom_scene" "$out/custom.png" "$size"
