#!/usr/bin/env bash
# Runs ON the GPU machine, from the repository root, with .gl (Debian's libvulkan1 and the
# glvnd packages) and .devbin (bench/pack_devbin.sh) carried. Runs every line of a runs file
# (bench/runs/*.txt: "tag | gnomon bench arguments") for FRAMES frames, and packs the JSON,
# plots and logs into $OUT/results.tar (the device tool returns at most 8 files).
#   device run: bash bench/gpu_bench.sh bench/runs/csm.txt     carry: [".gl", ".devbin"] (and ".devdata" for maps)
set -u
RUNS=${1:-bench/runs/foundation.txt}
FRAMES=${FRAMES:-300}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/.devbin
G=.devbin/gnomon
OUTDIR=${OUT:-/tmp/out}
R=$OUTDIR/results
mkdir -p "$R"
if ! $G info >"$R/info.txt" 2>&1; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  $G info >"$R/info.txt" 2>&1
fi
cat "$R/info.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$R/nvidia-smi.txt" 2>&1 || true
grep -v '^#' "$RUNS" | while IFS='|' read -r tag args; do
  tag=$(echo "$tag" | xargs)
  [ -n "$tag" ] || continue
  echo "== $tag: gnomon bench $args --frames $FRAMES"
  # shellcheck disable=SC2086
  $G bench $args --frames "$FRAMES" --json "$R/$tag.json" --plot "$R/$tag.png" 2>"$R/$tag.err"
  echo "exit $?"
done
tar -C "$OUTDIR" -cf "$OUTDIR/results.tar" results && rm -rf "$R"
