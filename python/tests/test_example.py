"""examples/python/p2v7_doublet.py runs headless and draws its figure."""

import os
import subprocess
import sys
from pathlib import Path

import matplotlib.image
import numpy as np

import aerolin
from conftest import P2V7, SOURCE

EXAMPLE = SOURCE / "examples" / "python" / "p2v7_doublet.py"
# matplotlib's default cycle: α, θ, q, u, Δh (and black for the elevator).
COLOURS = {"alpha": "#1f77b4", "theta": "#ff7f0e", "q": "#2ca02c", "u": "#d62728",
           "altitude": "#9467bd", "elevator": "#000000"}


def pixels_near(image, hex_colour, tolerance=0.08):
    rgb = np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return int(np.sum(np.all(np.abs(image[:, :, :3] - rgb) < tolerance, axis=2)))


def test_example_prints_modes_and_writes_the_figure(tmp_path):
    out = tmp_path / "doublet.png"
    # The package this test imported, whatever the working directory.
    env = dict(os.environ, PYTHONPATH=str(Path(aerolin.__file__).resolve().parents[1]),
               MPLBACKEND="")
    done = subprocess.run([sys.executable, str(EXAMPLE), "--out", str(out)], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for mode in aerolin.modes(aerolin.load(str(P2V7))):
        row = next(line for line in lines if line.startswith(mode.name + " "))
        assert f"{mode.wn:.4f}" in row and f"{mode.zeta:.3f}" in row
    assert lines[-1] == f"wrote {out}"
    image = matplotlib.image.imread(out)
    assert image.shape[:2] == (900, 800)
    for name, colour in COLOURS.items():
        # Each curve is drawn: a line of ~1.5 px over most of a 700 px axis.
        assert pixels_near(image, colour) > 400, name
