#!/usr/bin/env bash
# Install what is missing, build, and pass every test (CTest; GPU tests on lavapipe with
# validation and synchronization validation), then the sanitizer build's tests and a fuzz
# smoke of every fuzz target (scripts/sanitize.sh; SANITIZE=0 skips that part).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
scripts/sanitize.sh
