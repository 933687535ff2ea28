#!/bin/sh
# usage: json_parses.sh <test_cli_json binary> <folder>
# Has the JSON unit test write its documents into the folder, then reads each back with
# python's json module (an independent parser) and checks bench.json's keys, and those --floors
# adds in bench_floors.json (floors_json.py). Exit 77, which
# CTest reports as skipped, where python3 is missing.
set -e
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
mkdir -p "$2"
"$1" "$2"
for f in escapes render_stats bench bench_floors; do
    python3 -m json.tool "$2/$f.json" >/dev/null || { echo "$2/$f.json does not parse" >&2; exit 1; }
done
python3 - "$2" <<'PY'
import json, sys
d = sys.argv[1]
b = json.load(open(d + "/bench.json"))
want = {"device", "scene", "size", "msaa", "path", "frames", "passes", "frame", "cpu", "counters"}
assert want <= set(b), "bench.json lacks %s" % (want - set(b))
assert b["size"] == [1920, 1080] and b["frames"] == 9, b
assert set(b["probes"]) == {"count", "rendered", "made_ms", "ray_triangles"}, b["probes"]
stats = {"min_ms", "median_ms", "p99_ms", "max_ms"}
for name, s in list(b["passes"].items()) + [("frame", b["frame"]), ("cpu", b["cpu"])]:
    assert set(s) == stats, (name, s)
    assert s["min_ms"] <= s["median_ms"] <= s["p99_ms"] <= s["max_ms"], (name, s)
assert 'shadow "csm"' in b["passes"], b["passes"].keys()
assert {"draws", "triangles", "instances_visible", "instances_drawn", "instances_phase1", "instances_phase2",
        "instances_total", "clusters_drawn", "draw_groups", "lights",
        "light_overflow_max", "decals_drawn", "decals_culled", "particles_live", "particles_spawned",
        "vsm_pages_rendered_median",
        "vsm_pages_rendered_max", "vsm_sun_lag_max_deg"} == set(b["counters"])
# one entry a frame, each with its GPU time and the virtual shadow map's page counts
frame_keys = {"frame", "gpu_ms", "cpu_ms", "probes_ms", "materials_ms", "animation_ms", "shadow_ms", "vsm_pages_requested", "vsm_pages_resident",
              "vsm_pages_rendered_static", "vsm_pages_rendered_dynamic", "vsm_pages_rendered_fresh", "vsm_pages_evicted",
              "vsm_overflow", "vsm_pages_waiting", "vsm_pairs_phase1", "vsm_pairs_waiting",
              "vsm_pairs_phase2", "vsm_sun_lag_deg", "exposure_ev100"}
assert len(b["per_frame"]) == b["frames_timed"] and all(set(f) == frame_keys for f in b["per_frame"]), b["per_frame"]
assert "floors" not in b and "floor_multiples" not in b, "floors without --floors"
e = json.load(open(d + "/escapes.json"))
assert e["s"] == 'a"b\\c\nd\te\x01f' and e["nan"] is None and e["a"] == [1, 2], e
r = json.load(open(d + "/render_stats.json"))
assert r["device"] == 'GPU "test"' and r["passes"]["gbuffer"]["draws"] == 30, r
assert "decals_drawn" in r and "decals_culled" in r, r.keys()
assert "particles_live" in r and "particles_spawned" in r, r.keys()
print("json_parses: ok")
PY
# bench --floors' members (floors_json.py), and the made-up passes held against the right floors
python3 "$(dirname "$0")/floors_json.py" "$2/bench_floors.json"
python3 - "$2/bench_floors.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["floor_multiples"]
assert m["depth prepass"]["floor"] == "triangles" and m["depth prepass"]["work"] == 411522, m
assert m["forward"]["floor"] == "fill" and m["forward"]["work"] == 1920 * 1080 * 4, m
assert m['shadow "csm"']["floor"] is None and m['shadow "csm"']["multiple"] is None, m
PY
