#!/bin/sh
# usage: view_golden.sh GNOMON PNG_MATCH SCRIPT GOLDEN WORKDIR FRAMES
# Runs `gnomon view --script` in a virtual X server (xvfb-run) with validation on, and fails
# unless: it exits 0 with no validation message; it presented FRAMES frames into the window;
# the screenshot matches the golden image (identical on lavapipe, elsewhere within 8 a channel
# on 1% of the pixels); and after the script's resize the swapchain was remade and the output
# is 192x128. Exits 77 (skipped) without xvfb-run.
set -u
gnomon=$1 match=$2 script=$3 golden=$4 work=$5 frames=$6
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "xvfb-run not found (Debian: xvfb, xauth; scripts/deps.sh installs them)"
    exit 77
fi
mkdir -p "$work" && cd "$work" || exit 1
rm -f view_fly.png view_resized.png out.txt err.txt
GNOMON_VALIDATION=1 xvfb-run -a -s "-screen 0 1024x768x24" "$gnomon" view --size 256x256 --msaa 1 --csm-resolution 512 \
    --script "$script" >out.txt 2>err.txt
code=$?
cat out.txt
cat err.txt >&2
fail() {
    echo "view_golden: $*" >&2
    exit 1
}
[ "$code" -eq 0 ] || fail "gnomon view exited $code"
! grep -q "validation" err.txt || fail "validation messages on stderr"
grep -q "^presented $frames frames (0 while minimised" out.txt || fail "expected 'presented $frames frames'"
grep -q "swapchains remade" out.txt && ! grep -q " 0 swapchains remade" out.txt ||
    fail "the resize did not remake the swapchain"
grep -q "^screenshot view_resized.png (192x128)" out.txt || fail "the output did not follow the window to 192x128"
[ -f view_fly.png ] || fail "no screenshot view_fly.png"
if grep -q llvmpipe out.txt; then
    "$match" view_fly.png "$golden" 0 0
else
    "$match" view_fly.png "$golden" 8 0.01
fi
