#!/bin/sh
# usage: bench_floors.sh <gnomon binary> <folder>
# gnomon bench --floors on the built-in town, a few frames at 128x128 (run with
# GNOMON_VALIDATION=1: any validation message fails bench with exit 3): it exits 0, prints the
# floors table and each pass against its floor, and its JSON holds the floors, measured
# (floors_json.py --measured: every figure positive and finite, the floor the better of before
# and after, each multiple the pass's median over its floor), with the depth prepass held against
# the triangle floor, the forward pass against the fill floor and the culling against none. Only
# ratios are checked: on lavapipe absolute times mean nothing. Exit 77 (skipped) without python3.
set -e
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
mkdir -p "$2"
"$1" bench --floors --size 128x128 --frames 3 --warmup 1 --json "$2/bench.json" >"$2/stdout.txt"
cat "$2/stdout.txt"
for want in "floors at 128x128, 4x MSAA" "triangles (M/s)" "fill (M samples/s)" "resolve depth (ms)" \
    "x floor" "held against"; do
    grep -qF "$want" "$2/stdout.txt" || { echo "bench_floors: the table lacks '$want'" >&2; exit 1; }
done
grep -qE '^depth prepass +[0-9.]+ +[0-9.]+ +[0-9.]+x +triangles: ' "$2/stdout.txt" ||
    { echo "bench_floors: the depth prepass is not held against the triangle floor" >&2; exit 1; }
grep -qE '^forward +[0-9.]+ +[0-9.]+ +[0-9.]+x +fill: 128x128 x 4 samples' "$2/stdout.txt" ||
    { echo "bench_floors: the forward pass is not held against the fill floor" >&2; exit 1; }
grep -qE '^cull +[0-9.]+ +- +- +-$' "$2/stdout.txt" ||
    { echo "bench_floors: the culling has a floor" >&2; exit 1; }
python3 "$(dirname "$0")/floors_json.py" "$2/bench.json" --measured
python3 - "$2/bench.json" <<'PY'
import json, math, sys
b = json.load(open(sys.argv[1]))
m = b["floor_multiples"]
for name, kind in (("depth prepass", "triangles"), ("forward", "fill"), ("tonemap", "fill")):
    assert m[name]["floor"] == kind and math.isfinite(m[name]["multiple"]) and m[name]["multiple"] > 0, (name, m[name])
assert m["depth prepass"]["work"] > 0 and m["forward"]["work"] == 128 * 128 * 4, m
assert m["cull"]["floor"] is None and m["cull"]["multiple"] is None, m["cull"]
print("bench_floors: ok (depth prepass %.2fx its floor, forward %.2fx)"
      % (m["depth prepass"]["multiple"], m["forward"]["multiple"]))
PY
