#!/usr/bin/env python3
# usage: floors_json.py BENCH.json [--measured]
# Checks the "floors" and "floor_multiples" members of a `gnomon bench --floors` JSON document
# (tools/gnomon/bench_floors.c): every figure of the three sets (before, after, floor), the floor
# the better of the two figure by figure, one multiple a pass of "passes", each the pass's median
# over its floor. --measured: the document comes from a real run, so every figure must be a
# positive, finite number (no absolute value is checked: on lavapipe only ratios mean anything).
import json, math, sys

doc = json.load(open(sys.argv[1]))
measured = "--measured" in sys.argv[2:]
fl = doc["floors"]
assert set(fl) == {"grid_triangles", "fill_layers", "repeats", "size", "msaa", "before", "after", "floor"}, fl.keys()
assert fl["size"] == doc["size"] and fl["msaa"] == doc["msaa"], (fl["size"], fl["msaa"], doc["size"], doc["msaa"])
assert fl["grid_triangles"] == 2097152 and fl["fill_layers"] >= 1 and fl["repeats"] >= 1, fl
figures = {"triangles_ms", "triangles_per_second", "ms_per_million_triangles", "fill_ms", "samples_per_second",
           "clear_depth_ms", "clear_color_ms", "resolve_color_ms", "resolve_depth_ms"}
rates = {"triangles_per_second", "samples_per_second"}
resolves = {"resolve_color_ms", "resolve_depth_ms"}
for when in ("before", "after", "floor"):
    f = fl[when]
    assert set(f) == figures, (when, f.keys())
    for k in figures:
        if k in resolves and fl["msaa"] == 1:
            assert f[k] is None, (when, k, f[k])  # nothing to resolve
        elif measured:
            assert isinstance(f[k], (int, float)) and math.isfinite(f[k]) and f[k] > 0, (when, k, f[k])
    if f["triangles_ms"]:
        ratio = f["triangles_per_second"] * f["triangles_ms"] * 1e-3 / fl["grid_triangles"]
        assert abs(ratio - 1) < 1e-6, (when, ratio)
for k in figures:
    a, b, best = fl["before"][k], fl["after"][k], fl["floor"][k]
    if best is None:
        continue
    assert best == (max(a, b) if k in rates else min(a, b)), (k, a, b, best)

fm = doc["floor_multiples"]
assert set(fm) == set(doc["passes"]), (set(fm) ^ set(doc["passes"]))
for name, m in fm.items():
    assert set(m) == {"floor", "work", "median_ms", "floor_ms", "multiple"}, (name, m)
    assert m["floor"] in ("triangles", "fill", None), (name, m)
    assert m["median_ms"] == doc["passes"][name]["median_ms"], (name, m)
    if m["floor"] is None:
        assert m["work"] is None and m["floor_ms"] is None and m["multiple"] is None, (name, m)
    if m["floor_ms"] is not None and m["median_ms"] is not None:
        rate = fl["floor"]["triangles_per_second" if m["floor"] == "triangles" else "samples_per_second"]
        assert abs(m["floor_ms"] / (m["work"] / rate * 1e3) - 1) < 1e-6, (name, m)
        assert abs(m["multiple"] / (m["median_ms"] / m["floor_ms"]) - 1) < 1e-6, (name, m)
    else:
        assert m["multiple"] is None, (name, m)
print("floors_json: %s ok (%d passes, %d held against a floor)"
      % (sys.argv[1], len(fm), sum(1 for m in fm.values() if m["multiple"] is not None)))
