"""qualities, tf, bode, sensitivities, sweep and locus against the CLI's JSON
(both print shortest round-trip doubles, so values compare exactly), and
frequency_response against a direct solve."""

import numpy as np
import pytest

import aerolin
from conftest import AIRCRAFT, P2V7, cli_json


def roots(entries):
    return [complex(e["re"], e["im"]) for e in entries]


@pytest.mark.parametrize("path", AIRCRAFT, ids=lambda p: p.stem)
def test_qualities_equal_cli(path):
    aircraft = aerolin.load(str(path))
    expected = cli_json("qualities", path, "--category", "all", "--json")
    grades = aerolin.qualities(aircraft, category="all")
    assert [g.category for g in grades] == [c["category"] for c in expected["categories"]]
    for grade, want in zip(grades, expected["categories"]):
        assert grade.aircraft_class == expected["class"]
        assert grade.n_alpha == expected["n_alpha_g_per_rad"]
        assert grade.level == want["level"] and grade.mode_levels == want["mode_levels"]
        assert len(grade.requirements) == len(want["requirements"])
        for r, w in zip(grade.requirements, want["requirements"]):
            assert (r.mode, r.criterion, r.unit, r.level, r.paragraph, r.note) == (
                w["mode"], w["criterion"], w["unit"], w["level"], w["paragraph"], w["note"])
            # JSON has no infinity or NaN: null stands for a value that is not a
            # number (an unbounded time, or a ζ/ωn of a divergent real root:
            # the F-16's unstable short period).
            if w["value"] is None:
                assert not np.isfinite(r.value)
            else:
                assert r.value == w["value"]
            for level, (low, high) in enumerate(r.limits, start=1):
                side = w["limits"][str(level)]
                if side.get("permitted") is False:
                    assert low == np.inf
                    continue
                assert (low, high) == (side["min"], side["max"])


def test_qualities_class_and_category(p2v7):
    (grade,) = aerolin.qualities(p2v7, aircraft_class="IV", category="A", combat=True)
    assert (grade.aircraft_class, grade.category) == ("IV", "A")
    with pytest.raises(ValueError, match="II-C"):
        aerolin.qualities(p2v7, aircraft_class="II")


@pytest.mark.parametrize("channel", [("elevator", "q"), ("elevator", "u"), ("elevator", "nz"),
                                     ("aileron", "phi"), ("rudder", "r"), ("rudder", "ay")])
def test_tf_equals_cli(p2v7, channel):
    control, output = channel
    tf = aerolin.tf(p2v7, control, output)
    want = cli_json("tf", P2V7, "--input", control, "--output", output, "--json")
    assert tf.gain == want["gain"] and tf.relative_degree == want["relative_degree"]
    assert tf.dc_gain == want["dc_gain"] and tf.integrators == want["integrators"]
    assert tf.non_minimum_phase == want["non_minimum_phase"]
    assert list(tf.numerator) == want["numerator"] and list(tf.denominator) == want["denominator"]
    assert sorted(tf.zeros, key=lambda z: (z.real, z.imag)) == sorted(
        roots(want["zeros"]), key=lambda z: (z.real, z.imag))
    assert sorted(tf.poles, key=lambda z: (z.real, z.imag)) == sorted(
        roots(want["poles"]), key=lambda z: (z.real, z.imag))
    assert tf.input.name == control and tf.output.name == output
    # Oracle: G(s) = c (sI − A)⁻¹ b + d by a direct solve.
    axis = "longitudinal" if output in ("u", "alpha", "q", "theta", "nz", "gamma") else "lateral"
    sys = p2v7.with_outputs(axis)
    i = [s.name for s in sys.inputs].index(control)
    k = [s.name for s in sys.outputs].index(output)
    for s in (0.3j, 1.0 + 2.0j, 7.0j):
        direct = sys.C[k] @ np.linalg.solve(s * np.eye(sys.A.shape[0]) - sys.A, sys.B[:, i]) + sys.D[k, i]
        assert abs(tf(s) - direct) <= 1e-10 * abs(direct)
    values = tf(np.array([[0.3j, 7.0j]]))
    assert values.shape == (1, 2) and values.dtype == np.complex128


def test_bode_equals_cli(p2v7):
    want = cli_json("bode", P2V7, "--input", "elevator", "--output", "q,theta", "--json")
    curves = aerolin.bode(p2v7, "elevator", ["q", "theta"])
    assert len(curves) == 2
    for bode, w in zip(curves, want["curves"]):
        assert bode.tf.output.name == w["output"]
        for name in ("omega", "magnitude", "magnitude_db", "phase_deg", "phase_principal_deg"):
            column = getattr(bode, name)
            assert column.dtype == np.float64 and column.shape == (400,)
            assert list(column) == [p[name] for p in w["points"]], name
        assert bode.bandwidth == w["bandwidth"]
        assert [r["mode"] for r in bode.resonances] == [r["mode"] for r in w["resonances"]]
    one = aerolin.bode(p2v7, "elevator", "q", omega=[0.1, 1.0, 10.0])
    assert isinstance(one, aerolin.Bode) and list(one.omega) == [0.1, 1.0, 10.0]
    assert np.allclose(one.value, [curves[0].tf(1j * w) for w in (0.1, 1.0, 10.0)], rtol=1e-12)


def test_bode_repeated_on_one_aircraft_equals_cli_each_time():
    # aerolin.bode keeps each channel's decomposition and transfer functions
    # on the aircraft: later calls, other frequencies, other channels and a
    # rejected request in between leave every answer the CLI's.
    aircraft = aerolin.load(str(P2V7))
    omega = [0.01, 0.3, 1.0, 2.5, 40.0]
    want = cli_json("bode", P2V7, "--input", "elevator", "--output", "theta", "--json",
                    "--omega", ",".join(map(str, omega)))["curves"][0]["points"]
    wide = cli_json("bode", P2V7, "--input", "elevator", "--output", "theta", "--json",
                    "--points", "50")["curves"][0]["points"]
    for _ in range(2):
        with pytest.raises(ValueError, match="unknown output 'thetaa'"):
            aerolin.bode(aircraft, "elevator", "thetaa")
        for got, points in ((aerolin.bode(aircraft, "elevator", "theta", omega=omega), want),
                            (aerolin.bode(aircraft, "elevator", "theta", points=50), wide),
                            (aerolin.bode(aircraft, "elevator", ["q", "theta"], omega=omega)[1], want)):
            for name in ("omega", "magnitude", "phase_deg", "phase_principal_deg"):
                assert list(getattr(got, name)) == [p[name] for p in points], name
        assert aerolin.bode(aircraft, "aileron", "phi", omega=omega).tf.output.name == "phi"


def test_frequency_response_matches_a_direct_solve(p2v7):
    sys = p2v7.with_outputs("lateral")
    omega = np.logspace(-2, 1, 7)
    g = aerolin.frequency_response(sys, omega)
    assert g.shape == (7, 6, 2) and g.dtype == np.complex128
    for k, w in enumerate(omega):
        direct = sys.C @ np.linalg.solve(1j * w * np.eye(5) - sys.A, sys.B) + sys.D
        assert np.allclose(g[k], direct, rtol=1e-10, atol=1e-14)
    with pytest.raises(aerolin.NumericalError):
        aerolin.frequency_response(sys, [0.0])  # the heading integrator


def test_sensitivities_equal_cli(p2v7):
    want = cli_json("modes", P2V7, "--sensitivity", "--json")["modes"]
    got = aerolin.sensitivities(p2v7)
    assert [s.mode.name for s in got] == [w["name"] for w in want]
    for s, w in zip(got, want):
        assert s.mode.eigenvalue == complex(w["eigenvalue_per_s"]["re"], w["eigenvalue_per_s"]["im"])
        by_key = dict(zip(s.keys, s.dlambda))
        assert set(by_key) == set(w["sensitivity"])
        for key, d in w["sensitivity"].items():
            assert by_key[key] == complex(d["re"], d["im"]), key
        if "top_damping" in w:
            assert s.top == w["top_damping"]
        assert s.dlambda.dtype == np.complex128 and s.values.shape == (len(s.keys),)


def test_sensitivity_against_a_central_difference(p2v7):
    """Oracle: the short period's λ of the file with Mq moved by ±h."""
    text = P2V7.read_text()
    mq = p2v7.keys["longitudinal.Mq"]
    line = next(l for l in text.splitlines() if l.split("=")[0].strip() == "Mq")
    h = 1e-4

    def short_period(value):
        moved = aerolin.loads(text.replace(line, f"Mq = {value!r}"), "moved.toml")
        return aerolin.modes(moved, "longitudinal")[0].eigenvalue

    difference = (short_period(mq + h) - short_period(mq - h)) / (2 * h)
    sp = aerolin.sensitivities(p2v7)[0]
    exact = sp.dlambda[sp.keys.index("longitudinal.Mq")]
    assert abs(exact - difference) < 1e-6 * abs(exact)


def test_sweep_equals_cli(p2v7):
    want = cli_json("sweep", P2V7, "--param", "longitudinal.Mq", "--from", -0.5, "--to", -8,
                    "--steps", 16, "--json")
    study = aerolin.sweep(p2v7, "longitudinal.Mq", -0.5, -8, 16)
    assert list(study.values) == [p["value"] for p in want["points"]]
    columns = study.columns
    rows = [(p["value"], m) for p in want["points"] for m in p["modes"]]
    assert len(columns["name"]) == len(rows)
    for k, (value, m) in enumerate(rows):
        assert columns["longitudinal.Mq"][k] == value
        assert columns["name"][k] == m["name"] and columns["origin"][k] == m["origin"]
        assert columns["eigenvalue"][k] == complex(m["eigenvalue_per_s"]["re"], m["eigenvalue_per_s"]["im"])
        assert columns["wn"][k] == m["wn"] and columns["zeta"][k] == m["zeta"]
    assert [c["value"] for c in study.changes] == [c["value"] for c in want["structure_changes"]]
    with pytest.raises(ValueError):
        aerolin.sweep(p2v7, "longitudinal.Nope", 0, 1, 3)


def test_locus_equals_cli(p2v7):
    want = cli_json("locus", P2V7, "--loop", "rudder:r", "--washout", 1, "--gain", "0,0.5,1,2",
                    "--json")
    locus = aerolin.locus(p2v7, "rudder", "r", [0, 0.5, 1, 2], washout=1.0)
    assert locus.axis == want["axis"] and locus.gain_unit == want["gain_unit"]
    assert list(locus.open_loop_poles) == roots(want["open_loop_poles"])
    assert list(locus.zeros) == roots(want["zeros"])
    got = locus.study.columns
    rows = [m for p in want["points"] for m in p["modes"]]
    assert got["name"] == [m["name"] for m in rows]
    assert list(got["eigenvalue"]) == [complex(m["eigenvalue_per_s"]["re"], m["eigenvalue_per_s"]["im"])
                                       for m in rows]


def test_maximize_damping_equals_cli_and_its_zeta_is_the_locus_own(p2v7):
    want = cli_json("locus", P2V7, "--loop", "rudder:r", "--washout", 1.5, "--gain", "0:3:31",
                    "--maximize", "dutch-roll", "--json")["maximize"]
    gains = [3.0 * k / 30 for k in range(31)]  # the CLI's FROM:TO:N grid, bit for bit
    got = aerolin.maximize_damping(p2v7, "rudder", "r", gains, "dutch roll", washout=1.5)
    assert got == want
    assert got["refined"]["status"] == "refined"
    # The locus evaluated at the refined gain itself tracks the same root there.
    k = got["refined"]["gain"]
    at = aerolin.locus(p2v7, "rudder", "r", sorted(gains + [k]), washout=1.5).study.columns
    rows = [i for i, (v, o) in enumerate(zip(at["gain"], at["origin"])) if v == k and o == "dutch roll"]
    assert rows, "no Dutch roll at the refined gain"
    assert at["zeta"][rows[0]] == pytest.approx(got["refined"]["zeta"], abs=1e-9)
    # and no listed gain damps it more.
    assert got["refined"]["zeta"] >= got["zeta"]
    with pytest.raises(ValueError):
        aerolin.maximize_damping(p2v7, "flaps", "r", gains, "dutch roll")
