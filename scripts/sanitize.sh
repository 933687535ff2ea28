#!/usr/bin/env bash
# The sanitizer part of the test command (scripts/test.sh runs it after the main suite):
#  1. an AddressSanitizer + UBSan build (float-cast-overflow included, no recovery: any report
#     fails its test) in build-asan/, and every test that is not labelled gpu run in it: the
#     unit, scene, loader and CLI tests (the CLI ones render on lavapipe, uninstrumented);
#  2. a fuzz smoke: both libFuzzer targets (clang) built in build-fuzz/ and run for
#     FUZZ_SECONDS each (default 20) from their seed corpora (scripts/fuzz.sh).
# SANITIZE=0 skips it all (a quick local run of the main suite).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SANITIZE:-1}" = "0" ]; then
  echo "sanitize: skipped (SANITIZE=0)"
  exit 0
fi
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGN_SANITIZE=ON \
  -DGN_WITH_EMBREE=OFF -DGN_WITH_VIEWER=OFF >/dev/null
ninja -C build-asan
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0"
# Leaks are checked in the unit and scene tests (no Vulkan). A test that runs the CLI creates a
# Vulkan instance, and the loader unloads the driver and the layer before exit: their leftover
# allocations then come from "<unknown module>" and cannot be told from gnomon's by any
# suppression, so those run with leak detection off (every other check stays on).
no_vulkan='^(unit|scene)_'
runs_cli='^scene_gltf_fuzz_'
ASAN_OPTIONS="detect_leaks=1:halt_on_error=1" \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE gpu -R "$no_vulkan" -E "$runs_cli"
ASAN_OPTIONS="detect_leaks=0:halt_on_error=1" \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE gpu -E "$no_vulkan"
ASAN_OPTIONS="detect_leaks=0:halt_on_error=1" \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE gpu -R "$runs_cli"
FUZZ_SECONDS="${FUZZ_SECONDS:-20}" scripts/fuzz.sh
