#!/bin/sh
# usage: install_tree.sh CMAKE BUILD_DIR PREFIX
# The fixture of the install tests: a fresh `cmake --install` of the build tree into PREFIX.
set -eu
cmake=$1
build=$2
prefix=$3
rm -rf "$prefix"
"$cmake" --install "$build" --prefix "$prefix"
