#!/usr/bin/python3
"""Tracked sweeps and root loci against numpy's batched eigvals, ratios
measured in the same run (issue #22).

    PYTHONPATH=build/python bench/sweep_numpy_compare.py [--rounds 3] [--bench build/bin/sweep_bench]

Each round runs, back to back:
  - aerolin: the Google Benchmark program's BM_Sweep1000 (the P2V-7's
    longitudinal.Mq, 1000 points from -0.992 to -10), BM_SweepLateral1000
    (lateral.Nr, -0.215 to -2.15) and BM_Locus1000 (the pitch damper
    elevator:q, 1000 gains from -2 to 2) on 2 threads: named, tracked points
    per second (continuation, names, pointwise names, structure changes);
  - numpy: one np.linalg.eigvals call on the (1000, n, n) stack of the same
    system matrices (the swept axis: 4x4 longitudinal, 5x5 lateral, the 4x4
    closed loop A + K b c of the locus), built once outside the timing with
    aerolin.loads on the file with the key's value replaced; best of 5.
numpy's eigvals returns the eigenvalues alone, unnamed and untracked, of the
swept axis alone; aerolin's sweep point holds both axes' named modes.
Prints each round's points per second and the ratio aerolin/numpy, then
min/median/max of the ratios. Also timed in each round, for scale: one
np.linalg.eig call on the same stack (values and right eigenvectors, which
the tracking needs for its matching and slopes; eigvals computes no vectors).
"""

import argparse
import json
import re
import statistics
import subprocess
import timeit
from pathlib import Path

import numpy as np

import aerolin

ROOT = Path(__file__).resolve().parent.parent
P2V7 = ROOT / "data/derivatives/p2v7.toml"
N = 1000


def with_value(text, section, key, value):
    """The file's text with `key` of [section] set to `value`."""
    out, current = [], None
    for line in text.splitlines():
        m = re.match(r"\s*\[([^\]]+)\]", line)
        if m:
            current = m.group(1).strip()
        elif current == section and re.match(rf"\s*{key}\s*=", line):
            line = f"{key} = {value!r}"
        out.append(line)
    return "\n".join(out) + "\n"


def families():
    text = P2V7.read_text()
    grid = lambda a, b: [b if k == N - 1 else a + (b - a) * k / (N - 1) for k in range(N)]
    lon = np.stack([aerolin.loads(with_value(text, "longitudinal", "Mq", v)).longitudinal.A
                    for v in grid(-0.992, -10.0)])
    lat = np.stack([aerolin.loads(with_value(text, "lateral", "Nr", v)).lateral.A
                    for v in grid(-0.215, -2.15)])
    sys_ = aerolin.load(str(P2V7)).longitudinal
    b = sys_.B[:, [s.name for s in sys_.inputs].index("elevator")]
    c = np.zeros(4)
    c[[s.name for s in sys_.states].index("q")] = 1.0
    loop = np.stack([sys_.A + k * np.outer(b, c) for k in grid(-2.0, 2.0)])
    return {"BM_Sweep1000/2/real_time": ("sweep Mq (4x4)", lon),
            "BM_SweepLateral1000/2/real_time": ("sweep Nr (5x5)", lat),
            "BM_Locus1000/2/real_time": ("locus elevator:q (4x4)", loop)}


def numpy_rate(stack, solve=np.linalg.eigvals):
    solve(stack)  # warm
    t = min(timeit.repeat(lambda: solve(stack), number=1, repeat=5))
    return len(stack) / t


def aerolin_rates(bench):
    out = subprocess.run([bench, "--benchmark_filter=/2/", "--benchmark_format=json",
                          "--benchmark_min_time=0.5"], check=True, capture_output=True, text=True).stdout
    return {b["name"]: b["points_per_s"] for b in json.loads(out)["benchmarks"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bench", default=str(ROOT / "build/bin/sweep_bench"))
    args = ap.parse_args()
    fam = families()
    ratios = {name: [] for name in fam}
    eig_ratios = {name: [] for name in fam}
    for r in range(args.rounds):
        ours = aerolin_rates(args.bench)
        for name, (label, stack) in fam.items():
            theirs = numpy_rate(stack)
            with_vectors = numpy_rate(stack, np.linalg.eig)
            ratio = ours[name] / theirs
            ratios[name].append(ratio)
            eig_ratios[name].append(ours[name] / with_vectors)
            print(f"round {r + 1}: {label:24s} aerolin {ours[name]:9.0f} points/s (2 threads), "
                  f"numpy eigvals {theirs:9.0f} matrices/s: {ratio:.2f}x "
                  f"(numpy eig {with_vectors:9.0f}/s: {eig_ratios[name][-1]:.2f}x)", flush=True)
    print()
    for name, (label, _) in fam.items():
        x, y = ratios[name], eig_ratios[name]
        print(f"{label:24s} aerolin/numpy min {min(x):.2f}x  median {statistics.median(x):.2f}x  max {max(x):.2f}x"
              f"   (against eig: {min(y):.2f} / {statistics.median(y):.2f} / {max(y):.2f}x)")


if __name__ == "__main__":
    main()
