#!/usr/bin/python3
"""The exact step against its floor, ratios measured in the same run (issue #22).

    bench/exact_step_compare.py [--rounds 3] [--bench build/bin/sim_bench]

Each round runs the Google Benchmark program sim_bench once, with
BM_Slice/exact (one exact zero-order-hold slice of the P2V-7: Φ x + Γ δ and
the position's 4-node Gauss–Legendre quadrature of the NED velocity, through
the scenario-a doublet), BM_Slice/rk45 (the RK45 slice, for comparison) and
BM_BareStep (the issue's floor: a bare fixed-size 9 × 9 mat-vec plus the
three sincos of the attitude) and BM_FourNodeVelocities (the NED velocity at
the quadrature's 4 nodes with libm's 20 sincos: the position's share of an
exact slice before sim::SinCosTable) and BM_TurbulentSlice/exact and /rk45
(the same slices in moderate Dryden turbulence: a new disturbance every
slice; "nan" for a sim_bench without them),
5 repetitions each, and prints the median CPU time of each and the ratios to
the bare step. Then the min/median/max
of the ratios over the rounds. Issue #22's goal: exact/bare <= 2.5.
"""

import argparse
import json
import statistics
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"exact": "BM_Slice/exact_median", "rk45": "BM_Slice/rk45_median", "bare": "BM_BareStep_median",
         "nodes": "BM_FourNodeVelocities_median", "turbulent_exact": "BM_TurbulentSlice/exact_median",
         "turbulent_rk45": "BM_TurbulentSlice/rk45_median"}


def round_times(bench):
    out = subprocess.run([bench, "--benchmark_filter=BM_Slice/|BM_TurbulentSlice/|BM_BareStep|BM_FourNode", "--benchmark_format=json",
                          "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"],
                         check=True, capture_output=True, text=True).stdout
    times = {b["name"]: b["cpu_time"] for b in json.loads(out)["benchmarks"]}
    # A sim_bench from before BM_TurbulentSlice: those columns empty.
    return {key: times.get(name, float("nan")) for key, name in NAMES.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bench", default=str(ROOT / "build/bin/sim_bench"))
    args = ap.parse_args()
    ratios = {"exact": [], "nodes": [], "rk45": [], "turbulent_exact": [], "turbulent_rk45": []}
    for r in range(args.rounds):
        t = round_times(args.bench)
        for key in ratios:
            ratios[key].append(t[key] / t["bare"])
        print(f"round {r + 1}: bare step {t['bare']:6.1f} ns, exact slice {t['exact']:6.1f} ns "
              f"({ratios['exact'][-1]:.2f}x), 4 node velocities {t['nodes']:6.1f} ns ({ratios['nodes'][-1]:.2f}x), RK45 slice {t['rk45']:6.1f} ns ({ratios['rk45'][-1]:.2f}x), "
              f"turbulent exact slice {t['turbulent_exact']:6.1f} ns ({ratios['turbulent_exact'][-1]:.2f}x), "
              f"turbulent RK45 slice {t['turbulent_rk45']:6.1f} ns ({ratios['turbulent_rk45'][-1]:.2f}x)",
              flush=True)
    print()
    for key, x in ratios.items():
        print(f"{key} / bare step: min {min(x):.2f}x  median {statistics.median(x):.2f}x  max {max(x):.2f}x")


if __name__ == "__main__":
    main()
