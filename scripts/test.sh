#!/usr/bin/env bash
# Install what is missing, build, and pass every test (CTest; GPU tests on lavapipe with
# validation and synchronization validation).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
