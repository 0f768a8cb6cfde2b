"""aerolin.lqr, aerolin.place and aerolin.augment against scipy (an
independent implementation) and against `aerolin augment --json`."""

import itertools
import warnings

import numpy as np
import pytest
import scipy.linalg
import scipy.signal

import aerolin
from conftest import AIRCRAFT, P2V7, cli_json, run_cli

# K and X against scipy's solve_continuous_are (its own Schur solver, with
# its own balancing): both backward stable, the CARE well conditioned here.
RICCATI_RTOL = 1e-9
# Achieved against requested poles, relative to max(1, |λ|).
POLE_TOL = 1e-8


def columns(system, names):
    index = [s.name for s in system.inputs]
    return system.B[:, [index.index(n) for n in names]]


def plants():
    """(label, A, B) of every bundled aircraft's design: longitudinal with the
    elevator, lateral (beta, p, r, phi) with aileron and rudder."""
    out = []
    for path in AIRCRAFT:
        a = aerolin.load(str(path))
        out.append((f"{path.name} lon", a.longitudinal.A, columns(a.longitudinal, ["elevator"])))
        out.append((f"{path.name} lat", a.lateral.A[:4, :4],
                    columns(a.lateral, ["aileron", "rudder"])[:4, :]))
    return out


PLANTS = plants()


def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)


@pytest.mark.parametrize("label,A,B", PLANTS, ids=[p[0] for p in PLANTS])
def test_lqr_matches_scipy(label, A, B):
    n, m = B.shape
    Q = np.diag(np.linspace(1.0, 30.0, n))
    R = np.diag(np.linspace(0.5, 2.0, m))
    K, X, E = aerolin.lqr(A, B, Q, R)
    X_ref = scipy.linalg.solve_continuous_are(A, B, Q, R)
    K_ref = np.linalg.solve(R, B.T @ X_ref)
    assert rel(X, X_ref) < RICCATI_RTOL
    assert rel(K, K_ref) < RICCATI_RTOL
    assert np.all(E.real < 0)
    np.testing.assert_allclose(np.sort_complex(E), np.sort_complex(np.linalg.eigvals(A - B @ K)),
                               rtol=1e-10, atol=1e-12)


def test_lqr_with_cross_weight_matches_scipy():
    a = aerolin.load(str(P2V7))
    A, B = a.longitudinal.A, columns(a.longitudinal, ["elevator"])
    Q, R = np.diag([1e-3, 50.0, 20.0, 10.0]), np.array([[4.0]])
    N = np.array([[0.0], [0.5], [0.2], [0.0]])
    K, X, _ = aerolin.lqr(A, B, Q, R, N)
    X_ref = scipy.linalg.solve_continuous_are(A, B, Q, R, s=N)
    assert rel(X, X_ref) < RICCATI_RTOL
    assert rel(K, np.linalg.solve(R, B.T @ X_ref + N.T)) < RICCATI_RTOL


def moved_poles(A):
    return [complex(-2 * abs(l.real) - 0.5, l.imag) for l in np.linalg.eigvals(A)]


def assert_placed(A, B, K, poles):
    got = np.sort_complex(np.linalg.eigvals(A - B @ K))
    want = np.sort_complex(np.array(poles))
    assert np.all(np.abs(got - want) <= POLE_TOL * np.maximum(1.0, np.abs(want))), (got, want)


@pytest.mark.parametrize("label,A,B", PLANTS, ids=[p[0] for p in PLANTS])
def test_place_against_scipy(label, A, B):
    poles = moved_poles(A)
    K = aerolin.place(A, B, poles)
    assert_placed(A, B, K, poles)
    # scipy's KNV0 takes real poles only; its default, Tits-Yang (YT), takes
    # complex ones: the independent reference here.
    ref = scipy.signal.place_poles(A, B, poles, method="YT")
    if B.shape[1] == 1:
        # One input: the gain is unique.
        assert rel(K, ref.gain_matrix) < 1e-8
    else:
        # Several: not unique. Report both methods' gain norm and eigenvector
        # condition (pytest -s shows it); require only that ours is as robust
        # within a factor of 10.
        def cond(k):
            return np.linalg.cond(np.linalg.eig(A - B @ k)[1])
        print(f"\n{label}: |K| aerolin {np.linalg.norm(K, 2):.4g} scipy YT {np.linalg.norm(ref.gain_matrix, 2):.4g}; "
              f"cond(V) aerolin {cond(K):.4g} scipy YT {cond(ref.gain_matrix):.4g}")
        assert cond(K) < 10 * cond(ref.gain_matrix)


def test_place_real_poles_against_scipy_knv0():
    """Real poles: scipy's KNV0 itself, the same method; gains near each other."""
    for label, A, B in PLANTS:
        if B.shape[1] == 1:
            continue
        poles = [-0.5, -1.0, -2.0, -3.0]
        K = aerolin.place(A, B, poles)
        assert_placed(A, B, K, poles)
        ref = scipy.signal.place_poles(A, B, poles, method="KNV0", maxiter=100)
        def cond(k):
            return np.linalg.cond(np.linalg.eig(A - B @ k)[1])
        print(f"\n{label} real poles: |K| aerolin {np.linalg.norm(K, 2):.4g} scipy KNV0 "
              f"{np.linalg.norm(ref.gain_matrix, 2):.4g}; cond(V) aerolin {cond(K):.4g} "
              f"scipy KNV0 {cond(ref.gain_matrix):.4g}")
        assert cond(K) < 10 * cond(ref.gain_matrix)


def test_place_errors():
    a = aerolin.load(str(P2V7))
    A, B = a.longitudinal.A, columns(a.longitudinal, ["elevator"])
    with pytest.raises(ValueError, match="complex poles must come in conjugate pairs"):
        aerolin.place(A, B, [-1 + 1j, -1 - 1j, -2 + 1j, -3])
    with pytest.raises(ValueError, match=r"more than rank\(B\) = 1"):
        aerolin.place(A, B, [-1, -1, -2, -3])
    with pytest.raises(ValueError, match="R is not positive definite"):
        aerolin.lqr(A, B, np.eye(4), np.zeros((1, 1)))
    with pytest.raises(ValueError, match="Q is not positive semidefinite"):
        aerolin.lqr(A, B, -np.eye(4), np.eye(1))


@pytest.mark.parametrize("path", AIRCRAFT, ids=[p.name for p in AIRCRAFT])
def test_augment_equals_cli_json(path):
    lat = aerolin.augment(str(path), "lateral")
    assert lat == cli_json("augment", path, "--axis", "lateral", "--lqr", "--json")
    lon = aerolin.augment(aerolin.load(str(path)), "longitudinal",
                          place="short-period:wn=3,zeta=0.7")
    assert lon == cli_json("augment", path, "--axis", "longitudinal",
                           "--place", "short-period:wn=3,zeta=0.7", "--json")
    # The requested short period is achieved; the phugoid stays where it was.
    achieved = [complex(p["re"], p["im"]) for p in lon["poles"]["achieved"]]
    requested = [complex(p["re"], p["im"]) for p in lon["poles"]["requested"]]
    assert np.allclose(achieved, requested, rtol=0, atol=POLE_TOL * 3)
    sp = [m for m in lon["closed_loop"]["modes"] if m["name"] == "short period"]
    assert len(sp) == 1 and sp[0]["damping_ratio"] == pytest.approx(0.7, abs=1e-9)
    assert sp[0]["natural_frequency_rad_s"] == pytest.approx(3.0, rel=1e-9)
    # The gain in the document closes the loop the document describes.
    a = aerolin.load(str(path))
    K = np.array(lat["gain"]["values"])
    B = columns(a.lateral, lat["gain"]["rows"])
    assert lat["gain"]["columns"] == ["beta", "p", "r", "phi", "psi"]
    assert np.all(K[:, 4] == 0.0)  # psi: a free integrator, zero gain
    eig = np.linalg.eigvals(a.lateral.A - B @ K)
    got = np.sort_complex(np.array([complex(e["re"], e["im"]) for e in lat["closed_loop"]["eigenvalues_per_s"]]))
    np.testing.assert_allclose(np.sort_complex(eig), got, atol=1e-12)


def test_augment_bryson_maxima_with_units():
    doc = aerolin.augment(str(P2V7), "longitudinal", maximum={"alpha": "1deg", "q": 0.1})
    assert doc["weights"]["rule"] == "bryson"
    assert doc["weights"]["maxima"]["alpha"] == pytest.approx(np.pi / 180)
    assert doc["weights"]["maxima"]["q"] == 0.1
    assert doc["weights"]["Q"][1][1] == pytest.approx(1 / (np.pi / 180) ** 2)
    with pytest.raises(ValueError, match="is not a value of alpha"):
        aerolin.augment(str(P2V7), "longitudinal", maximum={"alpha": "2 furlongs"})


def test_augment_loops_equal_cli_json_and_close_a_minus_bkc():
    """Several loops at once (delta = K*y): the same document as `aerolin augment
    --loop`, and the closed loop's roots those of A - B K C built here."""
    loops = ["aileron:p=0.3", "rudder:r=1.2"]
    doc = aerolin.augment(str(P2V7), loops=loops)
    assert doc == cli_json("augment", P2V7, "--loop", loops[0], "--loop", loops[1], "--json")
    assert doc["method"] == "loops" and doc["axis"] == "lateral"
    a = aerolin.load(str(P2V7))
    A = a.lateral.A.copy()
    A[:, 1] += columns(a.lateral, ["aileron"])[:, 0] * 0.3  # p
    A[:, 2] += columns(a.lateral, ["rudder"])[:, 0] * 1.2   # r
    got = np.array([complex(e["re"], e["im"]) for e in doc["closed_loop"]["eigenvalues_per_s"]])
    np.testing.assert_allclose(np.sort_complex(np.linalg.eigvals(A)), np.sort_complex(got), atol=1e-10)
    washed = aerolin.augment(str(P2V7), "lateral", loops=["rudder:r=1.7,washout=1.5"])
    assert washed["gain"]["columns"][-1] == "r_washout"
    assert washed == cli_json("augment", P2V7, "--loop", "rudder:r=1.7,washout=1.5", "--json")
    with pytest.raises(ValueError, match="is given twice"):
        aerolin.augment(str(P2V7), loops=["rudder:r=1", "rudder:r=2"])


def test_augment_loops_of_both_axes_equal_cli_json():
    """A pitch and a yaw damper in one call: the document of `aerolin augment
    --loop ... --loop ...` (aerolin.augment/2), each axis the single-axis design."""
    loops = ["elevator:q=0.5", "rudder:r=0.5,washout=1.5"]
    doc = aerolin.augment(str(P2V7), loops=loops)
    assert doc == cli_json("augment", P2V7, "--loop", loops[0], "--loop", loops[1], "--json")
    assert doc["schema"] == "aerolin.augment/2"
    assert [d["axis"] for d in doc["axes"]] == ["longitudinal", "lateral"]
    assert doc["axes"][0]["gain"] == aerolin.augment(str(P2V7), loops=loops[:1])["gain"]
    assert doc["axes"][1]["gain"] == aerolin.augment(str(P2V7), loops=loops[1:])["gain"]
    with pytest.raises(ValueError, match="one design closes the loops of one axis"):
        aerolin.augment(str(P2V7), "lateral", loops=loops)


def test_augment_acceleration_loop_is_the_file_python_loads(tmp_path):
    """A loop on n_z (D != 0): the same document as `aerolin augment --loop`,
    the gain the loop closed by substitution, -K/(1 - K d) * c_nz (d, c_nz
    the bare airframe's n_z row), and the file --write writes loads in Python
    with the closed loop augment reported."""
    K = 0.05
    doc = aerolin.augment(str(P2V7), loops=[f"elevator:n_z={K}"])
    assert doc == cli_json("augment", P2V7, "--loop", f"elevator:n_z={K}", "--json")
    assert doc["loops"][0]["output"] == "nz" and doc["loops"][0]["gain_unit"] == "rad/g"
    bare = aerolin.load(str(P2V7)).with_outputs("longitudinal")
    row = [s.name for s in bare.outputs].index("nz")
    e = [s.name for s in bare.inputs].index("elevator")
    d = bare.D[row, e]
    assert d != 0
    np.testing.assert_allclose(doc["gain"]["values"][0], -K / (1 - K * d) * bare.C[row], rtol=1e-12)
    assert doc["command"]["values"][0][e] == pytest.approx(1 / (1 - K * d), rel=1e-14)
    out = tmp_path / "p2v7_nz.toml"
    run_cli("augment", P2V7, "--loop", f"elevator:n_z={K}", "--write", out)
    closed = aerolin.load(str(out)).longitudinal
    got = np.array([complex(v["re"], v["im"]) for v in doc["closed_loop"]["eigenvalues_per_s"]])
    np.testing.assert_allclose(np.sort_complex(np.linalg.eigvals(closed.A)), np.sort_complex(got), atol=1e-9)


def test_washout_loop_file_loads_with_its_filter_state(tmp_path):
    """A washed-out yaw damper written by --write: Python's load gives the
    closed loop with the filter state, the modes and Bode of the CLI to the
    bit, and the flight and Monte Carlo fly it."""
    out = tmp_path / "p2v7_washout.toml"
    run_cli("augment", P2V7, "--loop", "rudder:r=1.7,washout=1.5", "--write", out)
    a = aerolin.load(str(out))
    assert a.lateral.A.shape == (6, 6)
    assert [s.name for s in a.lateral.states][-1] == "r_washout"
    expected = cli_json("modes", out, "--json")
    lateral = aerolin.modes(a, "lateral")
    want = expected["lateral"]["modes"]
    assert len(lateral) == len(want)
    for mode, m in zip(lateral, want):
        assert mode.eigenvalue == complex(m["eigenvalue_per_s"]["re"], m["eigenvalue_per_s"]["im"])
        assert mode.name.startswith(m["name"])
    filter_root = expected["lateral"]["washout_filters"][0]["eigenvalue_per_s"]["re"]
    assert min(abs(v - filter_root) for v in np.linalg.eigvals(a.lateral.A)) < 1e-9
    bode = aerolin.bode(a, "rudder", "r", omega=[0.3, 1.0, 3.0])
    cli = cli_json("bode", out, "--input", "rudder", "--output", "r", "--omega", "0.3,1,3", "--json")
    assert list(bode.magnitude) == [p["magnitude"] for p in cli["curves"][0]["points"]]
    # The flight carries the filter state, and so does a batched Monte Carlo
    # (test_monte_carlo.py checks its runs against the flights).
    assert aerolin.simulate(a, duration=1.0).integrator == "rk45"
    assert aerolin.monte_carlo(a, runs=2, duration=1.0, turbulence="light")["rms"].shape[0] == 2


def worst_over_signs(doc, stated):
    """The command of each row of the document's gain at the stated
    magnitudes {state: SI}: the largest |K x| over every sign combination."""
    K = np.array(doc["gain"]["values"])
    columns = doc["gain"]["columns"]
    worst = np.zeros(K.shape[0])
    for signs in itertools.product([1.0, -1.0], repeat=len(stated)):
        x = np.zeros(K.shape[1])
        for sign, (name, value) in zip(signs, stated.items()):
            x[columns.index(name)] = sign * value
        worst = np.maximum(worst, np.abs(K @ x))
    return worst


def test_augment_disturbance_equals_cli_json_and_the_gain_times_the_vector():
    """aerolin.augment(disturbance=...): the CLI's document, each input's command
    the gain times the stated vector at its worst signs (numpy, here), a warning
    iff the command exceeds the stop."""
    deg = np.pi / 180
    doc = aerolin.augment(str(P2V7), "lateral", disturbance={"beta": "5deg", "r": "2deg/s"})
    assert doc == cli_json("augment", P2V7, "--axis", "lateral", "--lqr", "--disturbance", "beta=5deg,r=2deg/s",
                           "--json")
    command = worst_over_signs(doc, {"beta": 5 * deg, "r": 2 * deg})
    got = [i["command"] for i in doc["saturation"]["inputs"]]
    assert [i["input"] for i in doc["saturation"]["inputs"]] == ["aileron", "rudder"]
    np.testing.assert_allclose(got, command, rtol=1e-14)
    assert all(i["limit"] is None and i["saturates"] is None for i in doc["saturation"]["inputs"])
    # Radians as typed, the text form and SI numbers: the same numbers.
    rad = aerolin.augment(str(P2V7), "lateral", disturbance="beta=0.0872665,r=0.034906585rad/s")
    np.testing.assert_allclose([i["command"] for i in rad["saturation"]["inputs"]], command, rtol=1e-6)
    si = aerolin.augment(str(P2V7), "lateral", disturbance={"beta": 5 * deg, "r": 2 * deg})
    np.testing.assert_allclose([i["command"] for i in si["saturation"]["inputs"]], command, rtol=1e-15)
    assert "saturation" not in aerolin.augment(str(P2V7), "lateral")
    # A rudder stop 10% below and above the command.
    for factor in (0.9, 1.1):
        stop = f"rudder=0.05:{float(factor * command[1] / deg)!r}"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            doc = aerolin.augment(str(P2V7), "lateral", disturbance={"beta": "5deg", "r": "2deg/s"},
                                  actuators=[stop])
        rudder = doc["saturation"]["inputs"][1]
        assert rudder["saturates"] == (factor < 1)
        assert rudder["ratio"] == pytest.approx(1 / factor, rel=1e-13)
        assert [str(w.message).startswith("rudder would saturate") for w in caught] == ([True] if factor < 1 else [])
        assert doc == cli_json("augment", P2V7, "--axis", "lateral", "--lqr", "--disturbance",
                               "beta=5deg,r=2deg/s", "--actuator", stop, "--json")
    with pytest.raises(ValueError, match="give a value >= 0"):
        aerolin.augment(str(P2V7), "lateral", disturbance={"beta": "-5deg"})
    with pytest.raises(ValueError, match="'alpha' is a state of the longitudinal axis"):
        aerolin.augment(str(P2V7), "lateral", disturbance="alpha=2deg")
    with pytest.raises(ValueError, match="give them with disturbance"):
        aerolin.augment(str(P2V7), "lateral", actuators=["rudder=0.05:25"])


def test_augment_disturbance_on_both_axes_equals_cli_json():
    loops = ["elevator:q=0.5", "rudder:r=0.5,washout=1.5"]
    doc = aerolin.augment(str(P2V7), loops=loops, disturbance="q=5deg/s,r=2deg/s")
    assert doc == cli_json("augment", P2V7, "--loop", loops[0], "--loop", loops[1],
                           "--disturbance", "q=5deg/s,r=2deg/s", "--json")
    deg = np.pi / 180
    for axis, stated in zip(doc["axes"], [{"q": 5 * deg}, {"r": 2 * deg}]):
        assert axis["saturation"]["disturbance"] == stated
        np.testing.assert_allclose([i["command"] for i in axis["saturation"]["inputs"]],
                                   worst_over_signs(axis, stated), rtol=1e-15)
