#!/usr/bin/env bash
# Runs ON the GPU machine, from the repository root: an A/B of two gnomon binaries over the same
# runs file, each run of the file by A then B (so drift over the call falls on both alike).
# .devbin holds the libraries (bench/pack_devbin.sh) and the binaries named in BINS (default
# "gnomon_before gnomon"); results go to $OUT/results.tar as <tag>.<binary>.json and .png.
#   device run, carry [".gl", ".devbin"]:  bash bench/gpu_ab.sh bench/runs/refactor.txt
set -u
RUNS=${1:-bench/runs/refactor.txt}
FRAMES=${FRAMES:-300}
BINS=${BINS:-gnomon_before gnomon}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/.devbin
OUTDIR=${OUT:-/tmp/out}
R=$OUTDIR/results
mkdir -p "$R"
first=${BINS%% *}
if ! ".devbin/$first" info >"$R/info.txt" 2>&1; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  ".devbin/$first" info >"$R/info.txt" 2>&1
fi
head -20 "$R/info.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$R/nvidia-smi.txt" 2>&1 || true
grep -v '^#' "$RUNS" | while IFS='|' read -r tag args; do
  tag=$(echo "$tag" | xargs)
  [ -n "$tag" ] || continue
  for b in $BINS; do
    echo "== $tag ($b): gnomon bench $args --frames $FRAMES"
    # shellcheck disable=SC2086
    ".devbin/$b" bench $args --frames "$FRAMES" --json "$R/$tag.$b.json" --plot "$R/$tag.$b.png" 2>"$R/$tag.$b.err"
    echo "exit $?"
  done
done
tar -C "$OUTDIR" -cf "$OUTDIR/results.tar" results && rm -rf "$R"
