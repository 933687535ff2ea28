#!/usr/bin/env python3
"""One line a run of a gpu_bench.sh results folder: shadow and frame GPU time, spikes, pages
rendered, sun lag and the passes' medians, and VSM/CSM shadow ratios by path.
Usage: bench/summarize.py RESULTS_DIR"""
import json, math, pathlib, sys

OMEGA = 15.0 * 20.0 / 3600.0 / 60.0  # deg a frame: the hour angle at 20x, 60 frames a second
BUDGET = 64                           # the default --vsm-budget


def lag_bound(pf, budget=BUDGET, omega=OMEGA):
    """The refresh-cycle bound of docs/SHADOWS.md frame by frame: k(t) is the fewest frames
    back from t whose refresh renders (static pages rendered less the new, back-in-view or
    dirty ones) add up to the pages requested at the window's start; lag(t) <= omega (k + 1).
    Returns (frames checked, frames over, worst lag/bound, closed form with the run's means)."""
    refresh = [f["vsm_pages_rendered_static"] - f.get("vsm_pages_rendered_fresh", 0) for f in pf]
    checked = over = 0
    worst = 0.0
    for t, f in enumerate(pf):
        total, k = 0, 0
        while t - k >= 0:
            total += refresh[t - k]
            k += 1
            if total >= pf[t - k + 1]["vsm_pages_requested"]:
                break
        else:
            continue  # the window reaches before the first timed frame
        bound = omega * (k + 1)
        checked += 1
        over += f["vsm_sun_lag_deg"] > bound + 1e-6
        worst = max(worst, f["vsm_sun_lag_deg"] / bound)
    mean = lambda key: sum(f.get(key, 0) for f in pf) / max(len(pf), 1)
    left = budget - mean("vsm_pages_rendered_dynamic") - mean("vsm_pages_rendered_fresh")
    closed = omega * (math.ceil(mean("vsm_pages_requested") / left) + 1) if left > 0 else float("inf")
    return checked, over, worst, closed

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
        if lag > 0 and pf and "vsm_pages_rendered_fresh" in pf[0]:
            checked, over, worst, closed = lag_bound(pf)
            print(f"{'':24s} lag bound: {over} of {checked} frames over omega (k(t) + 1), worst {worst:.2f} of it;"
                  f" closed form with the run's means {closed:.4f} deg")
    for path in ("static", "sun", "walk_sun"):
        c, v = runs.get(f"csm_{path}"), runs.get(f"vsm_{path}")
        if c and v:
            print(f"VSM/CSM shadow median on {path}: {v['shadow']['median_ms'] / c['shadow']['median_ms']:.3f}x")

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
