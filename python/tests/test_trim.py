"""aerolin.trim and aerolin.linearize: the documents of `aerolin trim --json`
and `aerolin linearize --json`, SI keywords, the round trip through the
written file, and TrimError."""

import math

import numpy as np
import pytest

import aerolin
from conftest import AIRCRAFT, P2V7, cli_json

FT = 0.3048  # m per ft


def variable(doc, name):
    return next(v["value"] for v in doc["variables"] if v["name"] == name)


def test_trim_is_the_cli_document_with_si_keywords():
    # The CLI takes the file's units (ft, ft/s, deg); Python SI and radians.
    py = aerolin.trim(str(P2V7), speed=293.8 * FT, altitude=1000 * FT, turn_rate=math.radians(3))
    cli = cli_json("trim", str(P2V7), "--speed", "293.8", "--altitude", "1000", "--turn-rate", "3",
                   "--json")
    assert py["schema"] == "aerolin.trim/1"
    assert py["variables"] == cli["variables"]
    assert py["residuals"] == cli["residuals"]


def test_trim_defaults_to_the_files_reference():
    doc = aerolin.trim(aerolin.load(str(P2V7)))
    assert variable(doc, "alpha") == pytest.approx(0.0, abs=1e-12)
    assert variable(doc, "elevator") == pytest.approx(0.0, abs=1e-12)


def test_no_trim_raises_trim_error_naming_the_limit():
    with pytest.raises(aerolin.TrimError, match="alpha would be .* beyond its limit max"):
        aerolin.trim(str(P2V7), speed=150 * FT, altitude=0.0)
    with pytest.raises(ValueError):
        aerolin.trim(str(P2V7), turn_rate=0.1, bank=0.3)


@pytest.mark.parametrize("path", AIRCRAFT, ids=lambda p: p.name)
def test_linearize_round_trip_through_the_written_file(path):
    original = aerolin.load(str(path))
    doc = aerolin.linearize(original)
    back = aerolin.loads(doc["toml"])
    for axis in ("longitudinal", "lateral"):
        a, b = getattr(back, axis), getattr(original, axis)
        scale = np.abs(b.A).max()
        assert np.abs(a.A - b.A).max() <= 1e-9 * scale, axis
        assert np.abs(a.B - b.B).max() <= 1e-9 * max(np.abs(b.B).max(), 1e-300), axis
    assert doc["accuracy"]["derivative_error"] < 1e-9


def test_sweep_trim_speed_equals_cli_in_si():
    # The CLI takes ft/s for the P2V-7; Python m/s. The grids' interior values
    # round differently in the two units, so the roots agree to 1e-9, not bit for bit.
    want = cli_json("sweep", str(P2V7), "--trim-speed", "--from", "260", "--to", "320", "--steps", "4",
                    "--json")
    assert want["param"] == "trim speed [ft/s]"
    study = aerolin.sweep_trim_speed(aerolin.load(str(P2V7)), 260 * FT, 320 * FT, 4)
    assert study.param == "trim speed [m/s]"
    assert list(study.values) == pytest.approx([p["value"] * FT for p in want["points"]], rel=1e-15)
    rows = [m for p in want["points"] for m in p["modes"]]
    columns = study.columns
    assert list(columns["name"]) == [m["name"] for m in rows]
    for k, m in enumerate(rows):
        want_root = complex(m["eigenvalue_per_s"]["re"], m["eigenvalue_per_s"]["im"])
        assert abs(columns["eigenvalue"][k] - want_root) <= 1e-9 * max(1.0, abs(want_root))
    with pytest.raises(aerolin.TrimError, match="at trim speed .*: no trim"):
        aerolin.sweep_trim_speed(aerolin.load(str(P2V7)), 100 * FT, 120 * FT, 2)
