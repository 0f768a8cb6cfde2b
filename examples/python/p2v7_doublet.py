#!/usr/bin/env python3
"""Load the P2V-7, print its modes, fly an elevator doublet and plot it.

    PYTHONPATH=build/python python3 examples/python/p2v7_doublet.py [FILE] [--out PNG]

Headless: matplotlib's Agg backend writes the PNG, no display is needed.
"""

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import numpy as np  # noqa: E402

import aerolin  # noqa: E402

HERE = Path(__file__).resolve().parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=HERE / "../../data/derivatives/p2v7.toml")
    parser.add_argument("--out", default="p2v7_doublet.png", help="figure path (PNG)")
    args = parser.parse_args()

    aircraft = aerolin.load(str(args.file))
    print(f"{aircraft.name}: U0 = {aircraft.condition.U0:.1f} m/s")
    print(f"{'mode':<20} {'eigenvalue [1/s]':>24} {'wn [rad/s]':>11} {'zeta':>7} {'period [s]':>11}")
    for mode in aerolin.modes(aircraft):
        period = f"{mode.period:.2f}" if mode.period else "-"
        print(f"{mode.name:<20} {mode.eigenvalue:>24.4f} {mode.wn:>11.4f} {mode.zeta:>7.3f} {period:>11}")

    # Elevator doublet: +2° for 1 s, −2° for 1 s, from t = 1 s; held per 0.1 s slice.
    dt, duration = 0.1, 60.0
    t = np.arange(round(duration / dt)) * dt
    elevator = np.where((t >= 1.0) & (t < 2.0), 1.0, 0.0) - np.where((t >= 2.0) & (t < 3.0), 1.0, 0.0)
    elevator = np.radians(2.0) * elevator
    flight = aerolin.simulate(aircraft, duration, dt=dt, controls={"elevator": elevator})

    deg = np.degrees
    fig, axes = plt.subplots(4, 1, sharex=True, figsize=(8, 9), constrained_layout=True)
    axes[0].step(flight["t"], deg(flight["elevator"]), where="pre", color="k")
    axes[0].set_ylabel("elevator δe [deg]")
    axes[1].plot(flight["t"], deg(flight["alpha"]), label="α")
    axes[1].plot(flight["t"], deg(flight["theta"]), label="θ")
    axes[1].set_ylabel("angle [deg]")
    axes[1].legend(loc="upper right")
    axes[2].plot(flight["t"], deg(flight["q"]), color="tab:green")
    axes[2].set_ylabel("pitch rate q [deg/s]")
    axes[3].plot(flight["t"], flight["u"], label="u [m/s]", color="tab:red")
    axes[3].plot(flight["t"], -flight["down"], label="altitude change [m]", color="tab:purple")
    axes[3].set_ylabel("u, Δh")
    axes[3].legend(loc="upper right")
    axes[3].set_xlabel("time t [s]")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    short, phugoid = aerolin.modes(aircraft, "longitudinal")[:2]
    fig.suptitle(f"{aircraft.name}: elevator doublet ±2°\n"
                 f"{short.name} T = {short.period:.2f} s, ζ = {short.zeta:.2f}; "
                 f"{phugoid.name} T = {phugoid.period:.1f} s, ζ = {phugoid.zeta:.3f}")
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
