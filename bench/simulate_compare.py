#!/usr/bin/python3
"""Byte-for-byte comparison of two aerolin builds' simulate output.

    bench/simulate_compare.py OLD_AEROLIN NEW_AEROLIN [--integrator exact]

Runs `simulate ... --csv FILE` with each binary on every bundled aircraft
file, with each pilot script of examples/scripts/, a mode excitation,
Dryden turbulence, discrete gusts and a shorter slice, and compares the
CSV files (every state at every slice, in shortest round-trip form) byte
for byte. The summary's slice cost is a timing and is not compared. Prints
the cases that differ or that one binary refused, and exits 1 if any did.
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cases():
    files = sorted((ROOT / "data/derivatives").glob("*.toml"))
    scripts = sorted((ROOT / "examples/scripts").glob("*.txt"))
    for f in files:
        for s in scripts:
            yield [str(f), "--script", str(s), "--duration", "60"]
        yield [str(f), "--excite", "dutch-roll", "--duration", "30"]
        yield [str(f), "--excite", "phugoid", "--duration", "120", "--dt", "0.02"]
        yield [str(f), "--script", str(scripts[0]), "--duration", "60", "--turbulence", "moderate"]
        yield [str(f), "--script", str(scripts[1]), "--duration", "40", "--turbulence", "severe",
               "--gust", "w:5:100:2", "--gust", "v:3:50"]
        yield [str(f), "--duration", "20", "--gust", "u:4:80:1", "--dt", "0.05"]


def run(binary, args, csv):
    r = subprocess.run([binary, "simulate", *args, "--csv", csv, "--quiet"], capture_output=True, text=True)
    return r.returncode, r.stderr, Path(csv).read_bytes() if r.returncode == 0 else b""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--integrator", default="exact")
    a = ap.parse_args()
    differ = refused = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for c in cases():
            args = c + ["--integrator", a.integrator]
            total += 1
            old = run(a.old, args, f"{tmp}/old.csv")
            new = run(a.new, args, f"{tmp}/new.csv")
            label = " ".join(Path(x).name if "/" in x else x for x in args)
            if old[0] != 0 or new[0] != 0:
                refused += 1
                same = old[:2] == new[:2]
                print(f"refused ({'both, same message' if same else 'DIFFERENTLY'}): {label}: "
                      f"{(old[1] or new[1]).strip().splitlines()[0] if (old[1] or new[1]) else ''}")
                if not same:
                    differ += 1
            elif old[2] != new[2]:
                differ += 1
                print(f"DIFFERENT CSV: {label}")
    print(f"{total} runs, {differ} different, {refused} refused")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
