#!/usr/bin/env bash
# Runs ON the GPU machine, from the repository root, with .gl (Debian's libvulkan1) and
# .devbin (bench/pack_devbin.sh) carried. Writes everything under $OUT/results.tar
# (the device tool returns at most 8 files) and prints the tables.
#   device run: bash bench/gpu_bench.sh        carry: [".gl", ".devbin"]
# Arguments: the scales and sizes to measure (default: 1 8 / 1920x1080 3840x2160).
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/.devbin
G=.devbin/gnomon
R=${OUT:-/tmp/out}/results
mkdir -p "$R"
if ! $G info >"$R/info.txt" 2>&1; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  $G info >"$R/info.txt" 2>&1
fi
cat "$R/info.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$R/nvidia-smi.txt" 2>&1 || true
SCALES=${SCALES:-"1 8"}
SIZES=${SIZES:-"1920x1080 3840x2160"}
FRAMES=${FRAMES:-300}
PATHS=${PATHS:-"walk-sun"}
for scale in $SCALES; do
  for size in $SIZES; do
    for path in $PATHS; do
      tag="s${scale}_${size}_${path}"
      echo "== gnomon bench --scale $scale --size $size --path $path --frames $FRAMES"
      $G bench --scale "$scale" --size "$size" --path "$path" --frames "$FRAMES" \
        --json "$R/bench_$tag.json" --plot "$R/bench_$tag.png" 2>"$R/bench_$tag.err"
      echo "exit $?"
    done
  done
done
$G render --size 1920x1080 --out "$R/town_1080p.png" --stats "$R/town_1080p.json"
tar -C "${OUT:-/tmp/out}" -cf "${OUT:-/tmp/out}/results.tar" results && rm -rf "$R"
