"""Equation error of `aerolin identify` against numpy's least squares.

Usage: identify_lstsq.py FLIGHT.csv MATRICES.json IDENTIFY.json

Builds the regressors of the pitch equation from the CSV as docs/identify.md
states them (the 5-point Savitzky-Golay derivative of q; the states averaged
with weights (2, 5, 6, 5, 2)/20 and the held controls with (2, 3, 3, 2)/10),
moves the fixed part of A's and B's q row (aerolin matrices --json) to the left,
and solves for Ma, Mq, elevator M and the bias with numpy.linalg.lstsq. Exits 1
unless identify's estimates and conventional standard errors agree to rounding.
"""
import csv
import json
import sys

import numpy as np

flight, matrices, identified = sys.argv[1:4]
with open(flight) as f:
    rows = list(csv.DictReader(f))
t = np.array([float(r["t"]) for r in rows])
x = np.array([[float(r[n]) for n in ("u", "alpha", "q", "theta")] for r in rows])
u = np.array([[float(r[n]) for n in ("elevator", "throttle")] for r in rows])
dt = t[1] - t[0]
k = np.arange(2, len(t) - 2)
z = (-2 * x[k - 2, 2] - x[k - 1, 2] + x[k + 1, 2] + 2 * x[k + 2, 2]) / (10 * dt)
xbar = (2 * x[k - 2] + 5 * x[k - 1] + 6 * x[k] + 5 * x[k + 1] + 2 * x[k + 2]) / 20
ubar = (2 * u[k - 1] + 3 * u[k] + 3 * u[k + 1] + 2 * u[k + 2]) / 10

lon = json.load(open(matrices))["longitudinal"]
A = np.array(lon["A"])
B = np.array(lon["B"])
est = {e["key"]: e for e in json.load(open(identified))["estimates"]}
start = {key: est[key]["start"] for key in ("longitudinal.Ma", "longitudinal.Mq", "controls.elevator.M")}
# A[q, alpha] = Ma + Madot A[alpha, alpha], A[q, q] = Mq + ..., B[q, elevator] = M + ...:
# each free key enters its entry with coefficient 1 (Madot fixed).
fixed_A = A[2].copy()
fixed_A[1] -= start["longitudinal.Ma"]
fixed_A[2] -= start["longitudinal.Mq"]
fixed_B = B[2].copy()
fixed_B[0] -= start["controls.elevator.M"]
y = z - xbar @ fixed_A - ubar @ fixed_B
X = np.column_stack([xbar[:, 1], xbar[:, 2], ubar[:, 0], np.ones(len(k))])
theta, *_ = np.linalg.lstsq(X, y, rcond=None)
r = y - X @ theta
s2 = r @ r / (len(y) - X.shape[1])
se = np.sqrt(np.diag(s2 * np.linalg.inv(X.T @ X)))

ok = True
for i, key in enumerate(["longitudinal.Ma", "longitudinal.Mq", "controls.elevator.M", "bias.qdot"]):
    ours, ours_se = est[key]["value"], est[key]["std_error_cramer_rao"]
    agree = abs(ours - theta[i]) <= 1e-9 * max(abs(theta[i]), se[i]) and abs(ours_se - se[i]) <= 1e-7 * se[i]
    ok = ok and agree
    print(f"{key:22s} numpy {theta[i]: .15g} ± {se[i]:.6g}   identify {ours: .15g} ± {ours_se:.6g}   {'ok' if agree else 'DIFFER'}")
sys.exit(0 if ok else 1)
