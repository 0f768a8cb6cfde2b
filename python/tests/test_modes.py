"""aerolin.modes against `aerolin modes --json` and the eigen-equation."""

import math

import numpy as np
import pytest

import aerolin
from conftest import AIRCRAFT, cli_json

FIELDS = {  # Mode attribute -> JSON key (seconds and rad/s as the CLI writes them)
    "wn": "natural_frequency_rad_s",
    "zeta": "damping_ratio",
    "period": "damped_period_s",
    "t_half": "time_to_half_s",
    "t_double": "time_to_double_s",
    "tau": "time_constant_s",
    "cycles_to_half": "cycles_to_half",
    "oscillatory": "oscillatory",
    "stable": "stable",
    "qualifier": "qualifier",
}


@pytest.mark.parametrize("path", AIRCRAFT, ids=lambda p: p.stem)
def test_modes_equal_cli_json(path):
    aircraft = aerolin.load(str(path))
    expected = cli_json("modes", path, "--json")
    modes = aerolin.modes(aircraft)
    want = [(axis, m) for axis in ("longitudinal", "lateral") for m in expected[axis]["modes"]]
    assert len(modes) == len(want)
    for mode, (axis, m) in zip(modes, want):
        assert mode.axis == axis
        # Both are shortest round-trip doubles: equal to the bit.
        assert mode.eigenvalue == complex(m["eigenvalue_per_s"]["re"], m["eigenvalue_per_s"]["im"])
        assert mode.name.startswith(m["name"]) and mode.qualifier == m["qualifier"]
        for attribute, key in FIELDS.items():
            assert getattr(mode, attribute) == m[key], (mode.name, attribute)
        assert mode.evidence == m["dominant_states"]
        assert mode.shape_reference == m["shape_reference"]
        assert mode.states == expected[axis]["states"]
        for value, state, entry in zip(mode.shape, mode.states, m["shape"]):
            assert state == entry["state"]
            magnitude = abs(value)  # SI: the JSON's u component is per m/s too
            assert magnitude == entry["magnitude"]
            phase = math.degrees(np.angle(value)) if magnitude > 0 else 0.0
            assert phase == pytest.approx(entry["phase_deg"], rel=4e-16, abs=1e-13)


@pytest.mark.parametrize("path", AIRCRAFT, ids=lambda p: p.stem)
def test_shapes_are_eigenvectors(path):
    """Oracle: A v = λ v with the A of aircraft.<axis>, and wᴴ v = 1."""
    aircraft = aerolin.load(str(path))
    for mode in aerolin.modes(aircraft):
        A = getattr(aircraft, mode.axis).A
        v = mode.shape
        assert v.dtype == np.complex128 and v.shape == (A.shape[0],)
        residual = np.linalg.norm(A @ v - mode.eigenvalue * v)
        assert residual <= 1e-12 * np.linalg.norm(A) * np.linalg.norm(v)
        assert v[mode.states.index(mode.shape_reference)] == 1.0
        if mode.left.size:
            assert abs(np.vdot(mode.left, v) - 1.0) < 1e-10


def test_one_axis_and_kinds(p2v7):
    lon = aerolin.modes(p2v7, axis="longitudinal")
    assert [m.kind for m in lon] == ["short-period", "phugoid"]
    assert [m.kind for m in aerolin.modes(p2v7, "lateral")] == [
        "roll", "dutch-roll", "spiral", "heading"]
    with pytest.raises(ValueError, match="unknown axis"):
        aerolin.modes(p2v7, axis="up")
