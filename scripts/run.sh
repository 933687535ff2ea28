#!/usr/bin/env bash
# The main job: install what is missing, build, render the built-in town to out/town.png
# and print the per-pass GPU timings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
build/gnomon render --scene town --size 1280x720 --out out/town.png --stats out/town.json "$@"
