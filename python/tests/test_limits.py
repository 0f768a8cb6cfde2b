"""The command line's limits hold in Python too (issue #27), with the same
messages (aerolin/study/limits.hpp): ValueError, not gigabytes and minutes."""

import math
import os

import pytest

import aerolin
from conftest import P2V7, run_cli


@pytest.fixture(scope="module")
def p2v7():
    return aerolin.load(str(P2V7))


def test_sweep_steps_are_capped_as_on_the_command_line(p2v7):
    with pytest.raises(ValueError, match=r"steps: 100001 not in range 2 to 100000"):
        aerolin.sweep(p2v7, "lateral.Nr", -1.0, 0.0, 100001)
    with pytest.raises(ValueError, match=r"steps: 1 not in range 2 to 100000"):
        aerolin.sweep(p2v7, "lateral.Nr", -1.0, 0.0, 1)
    done = run_cli("sweep", P2V7, "--param", "lateral.Nr", "--from", "-1", "--to", "0",
                   "--steps", "100001", expect=2)
    assert "100001 not in range 2 to 100000" in done.stderr


def test_locus_gains_are_bounded_and_finite(p2v7):
    with pytest.raises(ValueError, match=r"gains: more than 100000 gains \(100001 given\)"):
        aerolin.locus(p2v7, "rudder", "r", [0.0] * 100001)
    with pytest.raises(ValueError, match=r"gains: gain nan \(index 1\) is not a finite number"):
        aerolin.locus(p2v7, "rudder", "r", [0.0, math.nan])
    with pytest.raises(ValueError, match=r"gains: gain inf \(index 0\) is not a finite number"):
        aerolin.maximize_damping(p2v7, "rudder", "r", [math.inf, 1.0], "dutch roll")
    with pytest.raises(ValueError, match=r"gains: no gains given"):
        aerolin.locus(p2v7, "rudder", "r", [])


def test_maximize_damping_refuses_an_unknown_mode(p2v7):
    with pytest.raises(ValueError, match=r"maximize_damping: no mode named 'dutchroll'"):
        aerolin.maximize_damping(p2v7, "rudder", "r", [0.0, 0.5, 1.0], "dutchroll")
    # A mode kind this locus lacks is an answer, not a typo (as the CLI).
    assert aerolin.maximize_damping(p2v7, "rudder", "r", [0.0, 0.5, 1.0], "dutch-roll")


def test_bode_points_outputs_and_an_empty_omega(p2v7):
    with pytest.raises(ValueError, match=r"points: 1000001 not in range 2 to 1000000"):
        aerolin.bode(p2v7, "elevator", "q", points=1000001)
    with pytest.raises(ValueError, match=r"output: 'q' is given more than once"):
        aerolin.bode(p2v7, "elevator", ["q", "alpha", "q"])
    with pytest.raises(ValueError, match=r"points: 200000 frequencies x 6 outputs = 1200000 "
                                         r"values, more than the limit of 1000000"):
        aerolin.bode(p2v7, "elevator", ["u", "alpha", "q", "theta", "nz", "gamma"],
                     points=200000)
    with pytest.raises(ValueError, match=r"omega: 0 frequencies not in range 1 to 1000000"):
        aerolin.bode(p2v7, "elevator", "q", omega=[])
    for args, message in [(("--output", "q,q"), "--output: 'q' is given more than once"),
                          (("--output", "u,alpha,q,theta,nz,gamma", "--points", "200000"),
                           "--points: 200000 frequencies x 6 outputs")]:
        done = run_cli("bode", P2V7, "--input", "elevator", *args, expect=2)
        assert message in done.stderr, done.stderr


def test_simulate_caps_the_number_of_slices(p2v7):
    with pytest.raises(ValueError, match=r"duration 1e\+11 s is 1e\+12 slices of 0.1 s, more "
                                         r"than the limit of 1e\+08 slices"):
        aerolin.simulate(p2v7, 1e11)
    done = run_cli("simulate", P2V7, "--duration", "1e11", expect=2)
    assert ("--duration/--dt: duration 1e+11 s is 1e+12 slices of 0.1 s, more than the limit "
            "of 1e+08 slices") in done.stderr, done.stderr


def test_load_says_what_the_path_is(tmp_path):
    with pytest.raises(IsADirectoryError, match="aircraft data file is a directory"):
        aerolin.load(str(tmp_path))
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    with pytest.raises(aerolin.DataError, match=r"not a regular file \(a device, FIFO or socket\)"):
        aerolin.load(str(fifo))
    with pytest.raises(aerolin.DataError, match=r"/dev/zero:0: not a regular file"):
        aerolin.load("/dev/zero")
    with pytest.raises(FileNotFoundError, match="aircraft data file not found"):
        aerolin.load(str(tmp_path / "missing.toml"))


def test_sweep_range_and_locus_gain_overflows_are_named_as_on_the_command_line(p2v7):
    step = (r"the range from -1e\+308 to 1e\+308 is too wide: its step overflows")
    with pytest.raises(ValueError, match=step):
        aerolin.sweep(p2v7, "lateral.Nr", -1e308, 1e308, 3)
    done = run_cli("sweep", P2V7, "--param", "lateral.Nr", "--from", "-1e308", "--to", "1e308",
                   "--steps", "3", expect=2)
    assert "the range from -1e+308 to 1e+308 is too wide: its step overflows" in done.stderr
    gain = r"at K = 1e\+300 the closed-loop system matrix is not finite"
    with pytest.raises(ValueError, match=gain):
        aerolin.locus(p2v7, "rudder", "r", [0.0, 1e300], washout=1e-300)
    done = run_cli("locus", P2V7, "--loop", "rudder:r", "--gain", "0,1e300", "--washout", "1e-300",
                   expect=2)
    assert "at K = 1e+300 the closed-loop system matrix is not finite" in done.stderr
