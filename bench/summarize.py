#!/usr/bin/env python3
"""One line a run of a gpu_bench.sh results folder: shadow and frame GPU time, spikes, pages
rendered, sun lag and the passes' medians, and VSM/CSM shadow ratios by path.
Usage: bench/summarize.py RESULTS_DIR"""
import json, pathlib, sys

def ms(d):
    return f"{d['median_ms']:.2f} / {d['p99_ms']:.2f} / {d['max_ms']:.2f}"

def main(folder):
    runs = {}
    for p in sorted(pathlib.Path(folder).glob("*.json")):
        d = json.loads(p.read_text())
        runs[p.stem] = d
        pf = d.get("per_frame", [])
        rendered = [f.get("vsm_pages_rendered_static", 0) + f.get("vsm_pages_rendered_dynamic", 0) for f in pf]
        lag = max((f.get("vsm_sun_lag_deg", 0.0) for f in pf), default=0.0)
        passes = ", ".join(f"{k} {v['median_ms']:.3f}" for k, v in d["passes"].items() if k.startswith(("vsm", "csm")))
        print(f"{p.stem:24s} shadow {ms(d['shadow'])}  frame {ms(d['frame'])}  spike {d['frame_spike']:.2f}"
              f"  cpu {d['cpu']['median_ms']:.1f}  rendered med/max {sorted(rendered)[len(rendered)//2] if rendered else 0}"
              f"/{max(rendered, default=0)}  lag {lag:.4f}  | {passes}")
    for path in ("static", "sun", "walk_sun"):
        c, v = runs.get(f"csm_{path}"), runs.get(f"vsm_{path}")
        if c and v:
            print(f"VSM/CSM shadow median on {path}: {v['shadow']['median_ms'] / c['shadow']['median_ms']:.3f}x")

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
