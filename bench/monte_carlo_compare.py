#!/usr/bin/python3
"""A rough-air Monte Carlo: aerolin.monte_carlo against numpy propagating every
run in one array, measured side by side in the same process, three rounds.

    PYTHONPATH=build/python bench/monte_carlo_compare.py [--runs 1000] [--duration 60]

Both fly RUNS hands-off flights of the Navion through moderate Dryden turbulence
at 300 m, Δt = 0.1 s, the exact step per slice, and summarize each run (RMS,
peak and its time, zero up-crossings of the 16 outputs). The numpy peer builds
the same matrices itself (scipy's expm for Φ, Γ, the filters' A_d and Q_d from
MIL-F-8785C's formulas) and draws its normals with numpy's default generator;
its runs are statistically, not bitwise, the same flights: the script checks
that the mean RMS of α agrees within 5 standard errors before timing.
Prints per round the runs/s of each and the ratio aerolin/numpy, then the
min/median/max of the ratios.
"""

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.linalg

import aerolin

ROOT = Path(__file__).resolve().parent.parent
NAVION = ROOT / "data/derivatives/navion_cruise_sl.toml"
HEIGHT = 300.0
DT = 0.1


def dryden_filters(U0, span, height, w20_kt=30.0):
    """(A, B, C) of the u, v, w, p Dryden filters (sim/turbulence.hpp), low altitude."""
    h_ft = height / 0.3048
    s = 0.177 + 0.000823 * h_ft
    L_w = h_ft * 0.3048
    L_u = L_v = h_ft / s**1.2 * 0.3048
    sigma_w = 0.1 * w20_kt * 1852 / 3600
    sigma_u = sigma_v = sigma_w / s**0.4
    A = np.zeros((6, 6)); B = np.zeros((6, 4)); C = np.zeros((4, 6))
    tu = L_u / U0
    A[0, 0] = -1 / tu; B[0, 0] = 1; C[0, 0] = sigma_u * math.sqrt(2 * tu) / tu
    for o, (sig, L, out) in ((1, (sigma_v, L_v, 1)), (3, (sigma_w, L_w, 2))):
        t = L / U0
        A[o, o + 1] = 1; A[o + 1, o] = -1 / t**2; A[o + 1, o + 1] = -2 / t; B[o + 1, out] = 1
        k = sig * math.sqrt(t) / t**2
        C[out, o] = k; C[out, o + 1] = k * math.sqrt(3) * t
    tp = 4 * span / (math.pi * U0)
    gain = sigma_w * math.sqrt(0.8 * math.pi / U0) * (math.pi / (4 * span))**(1 / 6) / L_w**(1 / 3)
    A[5, 5] = -1 / tp; B[5, 3] = 1; C[3, 5] = gain / tp
    return A, B, C


def numpy_monte_carlo(ac, runs, slices, rng):
    U0 = ac.condition.U0
    A = scipy.linalg.block_diag(ac.longitudinal.A, ac.lateral.A)
    E = np.asarray(ac.gust_input)
    M = np.zeros((13, 13)); M[:9, :9] = A * DT; M[:9, 9:] = E * DT
    F = scipy.linalg.expm(M); Phi, Gam = F[:9, :9], F[:9, 9:]
    Af, Bf, Cf = dryden_filters(U0, 10.18, HEIGHT)
    n = 6
    V = np.zeros((2 * n, 2 * n)); V[:n, :n] = -Af * DT; V[:n, n:] = Bf @ Bf.T * DT; V[n:, n:] = Af.T * DT
    G = scipy.linalg.expm(V); Ad = G[n:, n:].T; Qd = Ad @ G[:n, n:]
    Lq = np.linalg.cholesky(0.5 * (Qd + Qd.T))
    P = scipy.linalg.solve_continuous_lyapunov(Af, -Bf @ Bf.T)
    Lp = np.linalg.cholesky(0.5 * (P + P.T))
    # Outputs: 9 states, nz, gamma, ay (rows from the models' derived outputs), 4 gusts.
    Cy = np.zeros((16, 9)); Dy = np.zeros((16, 4)); Cy[:9, :9] = np.eye(9); Dy[12:, :] = np.eye(4)
    g = ac.condition.g
    Cy[9, :4] = (U0 / g) * (np.eye(4)[2] - A[1, :4]); Dy[9] = -(U0 / g) * E[1]
    Cy[10, 3] = 1; Cy[10, 1] = -1
    Cy[11, 4:9] = (U0 / g) * (A[4, 4:9] + np.eye(5)[2]); Cy[11, 7] -= 1; Dy[11] = (U0 / g) * E[4]
    X = np.zeros((9, runs)); Xi = Lp @ rng.standard_normal((n, runs)); D = np.zeros((4, runs))
    sum2 = np.zeros((16, runs)); peak = np.zeros((16, runs)); peak_t = np.zeros((16, runs))
    ups = np.zeros((16, runs)); prev = np.zeros((16, runs))
    for k in range(1, slices + 1):
        D = Cf @ Xi
        Xi = Ad @ Xi + Lq @ rng.standard_normal((n, runs))
        X = Phi @ X + Gam @ D
        Y = Cy @ X + Dy @ D
        sum2 += Y * Y
        bigger = np.abs(Y) > np.abs(peak)
        peak = np.where(bigger, Y, peak); peak_t = np.where(bigger, k * DT, peak_t)
        ups += (prev < 0) & (Y >= 0)
        prev = Y
    return np.sqrt(sum2 / (slices + 1)).T


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=0, help="aerolin's threads (0: every core)")
    args = ap.parse_args()
    ac = aerolin.load(str(NAVION))
    slices = round(args.duration / DT)
    kw = dict(runs=args.runs, duration=args.duration, turbulence="moderate", altitude=HEIGHT,
              threads=args.threads)
    # The two agree on the statistics first.
    ours = aerolin.monte_carlo(ac, **kw)["rms"][:, 1]
    peer = numpy_monte_carlo(ac, args.runs, slices, np.random.default_rng(1))[:, 1]
    se = math.sqrt(ours.var(ddof=1) / ours.size + peer.var(ddof=1) / peer.size)
    print(f"mean RMS of alpha: aerolin {ours.mean():.5g} rad, numpy {peer.mean():.5g} rad "
          f"(difference {abs(ours.mean() - peer.mean()) / se:.2f} standard errors)")
    if abs(ours.mean() - peer.mean()) > 5 * se:
        sys.exit("the peer does not fly the same statistics: timing would compare unlike work")
    ratios = []
    for r in range(args.rounds):
        t0 = time.perf_counter(); aerolin.monte_carlo(ac, **kw); t1 = time.perf_counter()
        numpy_monte_carlo(ac, args.runs, slices, np.random.default_rng(r)); t2 = time.perf_counter()
        a, b = args.runs / (t1 - t0), args.runs / (t2 - t1)
        ratios.append(a / b)
        print(f"round {r + 1}: aerolin {a:8.0f} runs/s, numpy batched {b:8.0f} runs/s, ratio {a / b:.2f}x")
    print(f"ratio aerolin/numpy over {args.rounds} rounds: min {min(ratios):.2f}x, "
          f"median {statistics.median(ratios):.2f}x, max {max(ratios):.2f}x "
          f"({args.runs} runs x {slices} slices)")


if __name__ == "__main__":
    main()
