"""aerolin.load: the aircraft, its state-space models, and located errors."""

import numpy as np
import pytest

import aerolin
from conftest import AIRCRAFT, FIXTURES, P2V7, SOURCE, cli_json, run_cli

DEFECTS = sorted(p for p in (FIXTURES / "derivatives").glob("*.toml")
                 if not p.name.startswith(("valid_", "warning_")))


def test_defect_fixtures_exist():
    assert len(DEFECTS) >= 20


@pytest.mark.parametrize("path", AIRCRAFT, ids=lambda p: p.stem)
def test_matrices_equal_cli(path):
    aircraft = aerolin.load(str(path))
    expected = cli_json("matrices", path, "--json")
    for axis in ("longitudinal", "lateral"):
        model = getattr(aircraft, axis)
        for name in ("A", "B"):
            got = getattr(model, name)
            assert got.dtype == np.float64
            want = np.array(expected[axis][name], dtype=np.float64).reshape(got.shape)
            assert np.array_equal(got, want), (axis, name)
        n = len(model.states)
        assert model.A.shape == (n, n)
        assert model.B.shape == (n, len(model.inputs))
        assert model.C.shape == (n, n) and model.D.shape == (n, len(model.inputs))
    assert aircraft.name == expected["aircraft"]


def test_p2v7_signals_and_condition(p2v7):
    assert [(s.name, s.unit) for s in p2v7.longitudinal.states] == [
        ("u", "m/s"), ("alpha", "rad"), ("q", "rad/s"), ("theta", "rad")]
    assert [(s.name, s.unit) for s in p2v7.lateral.states] == [
        ("beta", "rad"), ("p", "rad/s"), ("r", "rad/s"), ("phi", "rad"), ("psi", "rad")]
    assert [s.name for s in p2v7.longitudinal.inputs] == ["elevator", "throttle"]
    assert [c.name for c in p2v7.controls] == ["elevator", "throttle", "aileron", "rudder"]
    # 293.8 ft/s in the file, SI inside.
    assert p2v7.condition.U0 == pytest.approx(293.8 * 0.3048, rel=1e-15)
    assert p2v7.aircraft_class == "III"
    assert p2v7.path == str(P2V7)
    assert p2v7.keys["longitudinal.Mq"] == pytest.approx(-0.992)


def test_derived_outputs(p2v7):
    lon = p2v7.with_outputs("longitudinal")
    assert [s.name for s in lon.outputs][-2:] == ["nz", "gamma"]
    assert lon.C.shape == (6, 4) and lon.D.shape == (6, 2)
    # gamma = theta - alpha in stability axes.
    assert np.array_equal(lon.C[5], np.array([0.0, -1.0, 0.0, 1.0]))
    with pytest.raises(ValueError, match="unknown axis"):
        p2v7.with_outputs("vertical")
    assert p2v7.gust_input.shape == (9, 4)


@pytest.mark.parametrize("path", DEFECTS, ids=lambda p: p.stem)
def test_defects_raise_the_cli_message(path):
    relative = path.relative_to(SOURCE)
    done = run_cli("modes", relative, expect=1)
    assert done.stderr.startswith("error: ")
    with pytest.raises(aerolin.DataError) as caught:
        aerolin.load(str(relative))
    # The CLI prints "error: " + the same what(): path:line: problem (hint) lines.
    assert done.stderr[len("error: "):].rstrip("\n") == str(caught.value)
    assert isinstance(caught.value, ValueError)
    for (where, line, message), text in zip(caught.value.defects, str(caught.value).splitlines()):
        assert text == f"{where}:{line}: {message}"
        assert where == str(relative)


def test_several_defects_each_located():
    with pytest.raises(aerolin.DataError) as caught:
        aerolin.load("tests/fixtures/derivatives/several_defects.toml")
    lines = [(w, n) for w, n, _ in caught.value.defects]
    assert lines == [("tests/fixtures/derivatives/several_defects.toml", 17),
                     ("tests/fixtures/derivatives/several_defects.toml", 33)]


def test_missing_file_is_file_not_found():
    with pytest.raises(FileNotFoundError, match="no_such.toml"):
        aerolin.load("no_such.toml")


def test_loads_text_and_warnings():
    text = (FIXTURES / "derivatives" / "warning_positive_Ma.toml").read_text()
    aircraft = aerolin.loads(text, "memory.toml")
    assert aircraft.warnings and all(w.startswith("memory.toml:") for w in aircraft.warnings)
    with pytest.raises(aerolin.DataError, match=r"^bad\.toml:\d+: "):
        aerolin.loads(text.replace("[lateral]", "[lateral]\nNrr = 1.0"), "bad.toml")
