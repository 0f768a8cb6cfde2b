#!/usr/bin/python3
"""Byte-for-byte comparison of `aerolin sweep` and `aerolin locus` output
between two builds (a speed change must not change a single byte).

    bench/sweep_bench_compare.py REFERENCE_AEROLIN CANDIDATE_AEROLIN [--quick] [--numbers-within REL]

Runs, on every bundled aircraft (data/derivatives/*.toml except the
coefficient file, and data/avl/b737.toml, which sweep refuses: its exit code
and message are compared too), for both binaries:
  - a sweep of every numeric key of [longitudinal] and [lateral] over two
    ranges: value -> 4 x value (a stiffening that crosses structure changes,
    short period to overdamped, Dutch roll to real roots, roll and spiral
    coalescing) and value -> -value (through zero, sign changes);
  - the first non-zero key of each section swept over 1100 and 1024 points
    (several chunks of study::kSweepChunk points), value -> 4 x value and
    value -> -value;
  - a sweep of condition.U0 over 0.6 x .. 1.5 x;
  - root loci: pitch damper elevator:q, yaw damper rudder:r with and without
    a 1.5 s washout, aileron:p, rudder:beta, elevator:alpha with a 2 s
    washout, elevator:theta, each over negative and positive gains; and two
    loci of over 1000 negative gains (several chunks of grid points, the last
    one ending within a chunk and at a chunk's end).
JSON and text reports are compared (stdout, stderr and exit code). Prints
the number of runs compared and every difference; exits 1 on any.

With --numbers-within REL, a run whose output differs only in its numbers
(every other character the same, the same count of numbers) passes when each
number is within REL of the reference's, relative to the larger magnitude
(or within REL absolutely where both are below 1): for a change that moves
the last digits of printed roots and nothing else (names, structure changes,
notes, exit codes). Prints the largest difference found.
"""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def files():
    out = sorted(p for p in (ROOT / "data/derivatives").glob("*.toml") if "_coefficients" not in p.name)
    out.append(ROOT / "data/avl/b737.toml")
    return out


def numeric_keys(path):
    """[(section.key, value)] of the numeric keys of [longitudinal] and [lateral]."""
    keys, section = [], None
    for line in path.read_text().splitlines():
        m = re.match(r"\s*\[([^\]]+)\]", line)
        if m:
            section = m.group(1).strip()
            continue
        m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([-+0-9.eE]+)\s*(#.*)?$", line)
        if m and section in ("longitudinal", "lateral"):
            keys.append((f"{section}.{m.group(1)}", float(m.group(2))))
    return keys


def u0_of(path):
    for line in path.read_text().splitlines():
        m = re.match(r"\s*U0\s*=\s*([-+0-9.eE]+)", line)
        if m:
            return float(m.group(1))
    return None


LOOPS = [
    (["--loop", "elevator:q"], "-2:2:41"),
    (["--loop", "rudder:r"], "-3:3:41"),
    (["--loop", "rudder:r", "--washout", "1.5"], "0:3:61"),
    (["--loop", "rudder:r", "--washout", "1.5"], "-3:0:31"),
    (["--loop", "aileron:p"], "-2:2:41"),
    (["--loop", "rudder:beta"], "-4:4:41"),
    (["--loop", "elevator:alpha", "--washout", "2"], "-5:5:41"),
    (["--loop", "elevator:theta"], "-3:3:31"),
    # Negative gains over several chunks of study::kSweepChunk grid points:
    # the last chunk ending within (1099 of 1100 gains below 0: 512 + 512 + 76 points, K = 0
    # first) and exactly at a chunk's end (1023 gains: 2 x 512).
    (["--loop", "elevator:q"], "-3:0:1100"),
    (["--loop", "rudder:r", "--washout", "1.5"], "-3:-0.003:1023"),
    # Both halves over several chunks (1100 gains each side of 0): the K > 0
    # half's first chunk is computed beside the K < 0 half's first pass.
    (["--loop", "elevator:q"], "-3:3:2201"),
]


def runs(quick):
    for f in files():
        rel = str(f.relative_to(ROOT))
        for key, v in numeric_keys(f):
            if v == 0.0:
                ranges = [(-1.0, 1.0)]
            else:
                ranges = [(v, 4.0 * v), (v, -v)]
            for a, b in ranges[: 1 if quick else None]:
                base = ["sweep", rel, "--param", key, "--from", repr(a), "--to", repr(b), "--steps", "80"]
                yield base + ["--json"]
                if not quick:
                    yield base
        # Over several chunks of study::kSweepChunk points (the axis the key
        # does not enter is held at every point: planned without its sets),
        # the last chunk ending within one (1100 = 512 + 512 + 76) and at a
        # chunk's end (1024): the first non-zero key of each section.
        for section in ("longitudinal.", "lateral."):
            key, v = next(((k, x) for k, x in numeric_keys(f) if k.startswith(section) and x != 0.0), (None, 0.0))
            if key and not quick:
                for b, steps in ((4.0 * v, "1100"), (-v, "1024")):
                    yield ["sweep", rel, "--param", key, "--from", repr(v), "--to", repr(b), "--steps", steps, "--json"]
        u0 = u0_of(f)
        if u0:
            yield ["sweep", rel, "--param", "condition.U0", "--from", repr(0.6 * u0), "--to", repr(1.5 * u0),
                   "--steps", "120", "--json"]
        for loop, gains in LOOPS[: 3 if quick else None]:
            yield ["locus", rel] + loop + ["--gain=" + gains, "--json"]
            if not quick:
                yield ["locus", rel] + loop + ["--gain=" + gains]


NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def numbers_differ(a, b, rel):
    """None if a and b differ only in numbers within rel; else a reason.
    Returns (reason, largest relative difference)."""
    text_a, text_b = NUMBER.sub(b"#", a), NUMBER.sub(b"#", b)
    if text_a != text_b:
        return "text differs", None
    worst = 0.0
    for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
        if x == y:
            continue
        fx, fy = float(x), float(y)
        d = abs(fx - fy) / max(abs(fx), abs(fy), 1.0)
        worst = max(worst, d)
    return (None if worst <= rel else f"a number differs by {worst:.3g}"), worst


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    ref, new = sys.argv[1], sys.argv[2]
    quick = "--quick" in sys.argv[3:]
    rel = None
    if "--numbers-within" in sys.argv[3:]:
        i = sys.argv.index("--numbers-within") + 1
        try:
            rel = float(sys.argv[i])
        except (IndexError, ValueError):
            print("--numbers-within needs a relative bound, e.g. --numbers-within 1e-9", file=sys.stderr)
            return 2
    compared, differ, exits, in_numbers, worst, kinds = 0, 0, {}, 0, 0.0, {}
    for args in runs(quick):
        a = subprocess.run([ref] + args, cwd=ROOT, capture_output=True)
        b = subprocess.run([new] + args, cwd=ROOT, capture_output=True)
        compared += 1
        exits[a.returncode] = exits.get(a.returncode, 0) + 1
        if (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr):
            continue
        if rel is not None and (a.returncode, a.stderr) == (b.returncode, b.stderr):
            reason, d = numbers_differ(a.stdout, b.stdout, rel)
            if d is not None:
                worst = max(worst, d)
            if reason is None:
                in_numbers += 1
                kinds["JSON" if "--json" in args else "text"] = kinds.get("JSON" if "--json" in args else "text", 0) + 1
                continue
        else:
            reason = f"exit {a.returncode} vs {b.returncode}"
        differ += 1
        print("DIFFERS:", " ".join(args), f"({reason})")
    print(f"{compared} runs compared, {differ} differ"
          + (f", {in_numbers} only in numbers within {rel:g} (largest {worst:.3g}; "
             + ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items())) + ")" if rel is not None else "")
          + "; exit codes of the reference: " + ", ".join(f"{k}: {v}" for k, v in sorted(exits.items())))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
