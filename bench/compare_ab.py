#!/usr/bin/env python3
"""Compares the A/B runs of bench/gpu_ab.sh: for every run tag, each pass's median GPU time under
A and B, their ratio, and the frame's GPU and CPU medians; marks a pass whose median moved more
than the tolerance (default 3%) and by more than 0.01 ms (below that, timestamp noise).

    bench/compare_ab.py DIR [--a gnomon_before] [--b gnomon] [--tolerance 0.03]
"""
import argparse
import glob
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--a", default="gnomon_before")
    ap.add_argument("--b", default="gnomon")
    ap.add_argument("--tolerance", type=float, default=0.03)
    o = ap.parse_args()
    tags = sorted({os.path.basename(p).split(".")[0] for p in glob.glob(os.path.join(o.dir, "*.json"))})
    moved = 0
    for tag in tags:
        pa, pb = (os.path.join(o.dir, f"{tag}.{x}.json") for x in (o.a, o.b))
        if not (os.path.exists(pa) and os.path.exists(pb)):
            continue
        a, b = load(pa), load(pb)
        print(f"\n### {tag} ({a.get('size')}, {a.get('path')}, {a.get('frames_timed')} frames)\n")
        print(f"| pass | {o.a} median | {o.b} median | ratio | |")
        print("| --- | --- | --- | --- | --- |")
        rows = [(n, a["passes"][n]["median_ms"], b["passes"].get(n, {}).get("median_ms")) for n in a["passes"]]
        rows += [(n, None, v["median_ms"]) for n, v in b["passes"].items() if n not in a["passes"]]
        rows += [("frame (GPU)", a["frame"]["median_ms"], b["frame"]["median_ms"]),
                 ("CPU", a["cpu"]["median_ms"], b["cpu"]["median_ms"])]
        for name, x, y in rows:
            if x is None or y is None:
                print(f"| {name} | {x if x is not None else '-'} | {y if y is not None else '-'} | | only one |")
                continue
            r = y / x if x > 0 else float("nan")
            flag = ""
            if abs(r - 1.0) > o.tolerance and abs(y - x) > 0.01:
                flag = "moved"
                if name != "CPU" or r > 1.0:
                    moved += 1
            print(f"| {name} | {x:.3f} ms | {y:.3f} ms | {r:.3f} | {flag} |")
    print(f"\n{moved} median(s) moved by more than {o.tolerance:.0%} (and 0.01 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
