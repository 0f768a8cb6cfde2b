#!/usr/bin/python3
"""Bode speed against the peers, ratios measured in the same run (issue #22).

    PYTHONPATH=build/python bench/bode_compare.py [--rounds 5] [--bench build/bin/frequency_bench]

Python: aerolin.bode against scipy.signal.freqresp on the same state-space
model and the same frequencies, in this process, each round timing both
(best of 5 × 20 calls each): the P2V-7's θ/δe (4 states) at 1000 frequencies
log-spaced from 1e-3 to 1e2 rad/s. scipy gets (A, b, c, d) of aerolin's model
as a scipy.signal.StateSpace, built once outside the timing. aerolin.bode
returns more than scipy's G(jω) (|G|, dB, the unwrapped and principal phase,
the transfer function, resonances, bandwidth); its arrays are read in a
second timing. Its per-call overhead is aerolin.bode at one frequency.
Before timing, the script checks that both give the same G(jω) (1e-8
relative: scipy's freqresp goes through the polynomial form).

C++: runs the Google Benchmark program (if it is built) with 5 repetitions
and prints the median CPU time of each method per channel and the ratios
Hessenberg/modal and direct/modal.

Prints per round the times and the ratio scipy/aerolin, then the
min/median/max of the ratios; then the same ratio for every channel of the
table below (θ/δe again, q/δe, u/δe, α/δe and the lateral φ/δa, r/δr, β/δr),
each timed in every round.
"""

import argparse
import json
import statistics
import subprocess
import sys
import timeit
import warnings
from pathlib import Path

import numpy as np
import scipy.signal

import aerolin

ROOT = Path(__file__).resolve().parent.parent
P2V7 = ROOT / "data/derivatives/p2v7.toml"


def best(f, number=20, repeat=5):
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number


def python_rounds(rounds):
    ac = aerolin.load(str(P2V7))
    sys_ = ac.with_outputs("longitudinal")
    i = [s.name for s in sys_.inputs].index("elevator")
    k = [s.name for s in sys_.outputs].index("theta")
    ss = scipy.signal.StateSpace(sys_.A, sys_.B[:, [i]], sys_.C[[k]], sys_.D[[k]][:, [i]])
    omega = np.logspace(-3, 2, 1000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's BadCoefficients on the polynomial form
        _, h = scipy.signal.freqresp(ss, omega)
        ours = aerolin.bode(ac, "elevator", "theta", omega=omega).value
        if not np.allclose(ours, h, rtol=1e-8, atol=0):
            print("aerolin and scipy disagree:", np.max(np.abs(ours - h) / np.abs(h)))
            return 1
        print("θ/δe of the P2V-7, 1000 frequencies (1e-3 to 1e2 rad/s); times per call [µs]")
        print(f"{'round':>5} {'scipy freqresp':>15} {'aerolin.bode':>13} {'+ arrays':>9} "
              f"{'1 frequency':>12} {'ratio':>7}")
        ratios = []
        for r in range(rounds):
            t_scipy = best(lambda: scipy.signal.freqresp(ss, omega))
            t_bode = best(lambda: aerolin.bode(ac, "elevator", "theta", omega=omega))

            def with_arrays():
                b = aerolin.bode(ac, "elevator", "theta", omega=omega)
                return b.magnitude_db, b.phase_deg

            t_arrays = best(with_arrays)
            t_one = best(lambda: aerolin.bode(ac, "elevator", "theta", omega=[1.0]), number=200)
            ratios.append(t_scipy / t_bode)
            print(f"{r + 1:>5} {t_scipy * 1e6:>15.1f} {t_bode * 1e6:>13.1f} {t_arrays * 1e6:>9.1f} "
                  f"{t_one * 1e6:>12.1f} {ratios[-1]:>6.2f}×")
    print(f"aerolin.bode / scipy freqresp: min {min(ratios):.2f}×, median "
          f"{statistics.median(ratios):.2f}×, max {max(ratios):.2f}× (speed-up)")
    channel_rounds(ac, omega, rounds)
    return 0


# Every channel of the P2V-7 the CLI's examples use, each its own SISO
# state-space model for scipy: the Hessenberg fallback near a zero of G
# (q/δe, the lateral channels) costs more than θ/δe's modal form.
CHANNELS = [("longitudinal", "elevator", "theta"), ("longitudinal", "elevator", "q"),
            ("longitudinal", "elevator", "u"), ("longitudinal", "elevator", "alpha"),
            ("lateral", "aileron", "phi"), ("lateral", "rudder", "r"), ("lateral", "rudder", "beta")]


def channel_rounds(ac, omega, rounds):
    print("\nEvery channel, 1000 frequencies: per round aerolin.bode and scipy freqresp [µs], "
          "ratios min / median / max")
    print(f"{'channel':<16} {'n':>2} {'aerolin.bode':>20} {'scipy freqresp':>20} {'ratio':>22}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for axis, inp, out in CHANNELS:
            sys_ = ac.with_outputs(axis)
            i = [s.name for s in sys_.inputs].index(inp)
            k = [s.name for s in sys_.outputs].index(out)
            ss = scipy.signal.StateSpace(sys_.A, sys_.B[:, [i]], sys_.C[[k]], sys_.D[[k]][:, [i]])
            ours, theirs = [], []
            for _ in range(rounds):
                ours.append(best(lambda: aerolin.bode(ac, inp, out, omega=omega)))
                theirs.append(best(lambda: scipy.signal.freqresp(ss, omega)))
            r = [t / o for t, o in zip(theirs, ours)]
            print(f"{out + '/' + inp:<16} {sys_.A.shape[0]:>2} "
                  f"{min(ours) * 1e6:>9.1f}–{max(ours) * 1e6:<9.1f} "
                  f"{min(theirs) * 1e6:>9.1f}–{max(theirs) * 1e6:<9.1f} "
                  f"{min(r):>6.2f} / {statistics.median(r):.2f} / {max(r):.2f}×")


def cpp(bench):
    if not Path(bench).exists():
        print(f"{bench}: not built (configure with -DAEROLIN_BUILD_BENCHMARKS=ON)")
        return
    out = subprocess.run([bench, "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
                          "--benchmark_format=json"], capture_output=True, text=True, check=True).stdout
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            medians[(b["run_name"].split("/")[0], b.get("label", ""))] = b["cpu_time"]
    print("\nC++ kernel, 1000 frequencies, median CPU time of 5 repetitions [µs]")
    print(f"{'channel':<16} {'modal':>8} {'Hessenberg':>11} {'direct LU':>10} {'Hess/modal':>11} {'LU/modal':>9}")
    for label in ("theta/elevator", "q/elevator", "phi/aileron"):
        m = medians.get(("BM_Modal1000", label))
        h = medians.get(("BM_Hessenberg1000", label))
        d = medians.get(("BM_Direct1000", label))
        if m is None:
            continue
        print(f"{label:<16} {m:>8.1f} {h:>11.1f} {d:>10.1f} {h / m:>10.1f}× {d / m:>8.1f}×")
    for label in ("theta/elevator", "phi/aileron"):
        s = medians.get(("BM_ModalSetUp", label))
        if s is not None:
            print(f"decomposition alone ({label}): {s:.1f} µs")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bench", default=str(ROOT / "build/bin/frequency_bench"))
    args = parser.parse_args()
    status = python_rounds(args.rounds)
    cpp(args.bench)
    return status


if __name__ == "__main__":
    sys.exit(main())
