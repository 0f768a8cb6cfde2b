"""aerolin.monte_carlo: run i is simulate's flight of seed run_seed(seed, i); runs do not
depend on how they are grouped; the limits are the library's."""

import numpy as np
import pytest

import aerolin
from conftest import DERIVATIVES, P2V7, run_cli

NAVION = DERIVATIVES / "navion_cruise_sl.toml"


@pytest.fixture
def washed_out(tmp_path):
    """The P2V-7 with a washed-out yaw damper, as augment --write writes it."""
    out = tmp_path / "p2v7_washout.toml"
    run_cli("augment", P2V7, "--loop", "rudder:r=1.7,washout=1.5", "--write", out)
    return out


@pytest.mark.parametrize("which", ["navion", "washout"])
def test_run_is_the_flight_of_its_seed(which, request):
    """A washout file's run too: the batch carries the filter's state, as the
    flight's exact integrator does (the rudder's feedback acts on r - w)."""
    ac = aerolin.load(str(NAVION if which == "navion" else request.getfixturevalue("washed_out")))
    mc = aerolin.monte_carlo(ac, runs=2, duration=20.0, turbulence="moderate", altitude=300.0,
                             seed=9, first_run=4, history_every=1)
    names = mc["outputs"]
    for r in range(2):
        assert mc["seed"][r] == aerolin.run_seed(9, 4 + r)
        flown = aerolin.simulate(ac, 20.0, turbulence="moderate", altitude=300.0,
                                 seed=aerolin.run_seed(9, 4 + r), integrator="exact")
        np.testing.assert_allclose(mc["history_time"], flown["t"], rtol=0, atol=1e-12)
        for column in ("u", "alpha", "q", "theta", "beta", "p", "r", "phi", "psi",
                       "u_g", "v_g", "w_g", "p_g"):
            got = mc["history"][r, :, names.index(column)]
            scale = np.max(np.abs(flown[column])) + 1e-12
            np.testing.assert_allclose(got / scale, flown[column] / scale, rtol=0, atol=1e-9,
                                       err_msg=column)


def test_chunks_and_threads_give_the_same_runs():
    ac = aerolin.load(str(NAVION))
    kw = dict(duration=10.0, turbulence="light", altitude=200.0, seed=3, levels={"nz": 0.05})
    whole = aerolin.monte_carlo(ac, runs=80, threads=2, **kw)
    a = aerolin.monte_carlo(ac, runs=30, threads=1, **kw)
    b = aerolin.monte_carlo(ac, runs=50, first_run=30, threads=1, **kw)
    for key in ("rms", "peak", "peak_time", "zero_upcrossings", "exceedances"):
        np.testing.assert_array_equal(whole[key], np.vstack([a[key], b[key]]), err_msg=key)
    assert list(whole["run"]) == list(range(80))


def test_errors_are_value_errors():
    ac = aerolin.load(str(NAVION))
    with pytest.raises(ValueError, match="runs"):
        aerolin.monte_carlo(ac, runs=0, duration=10.0, turbulence="light", altitude=100.0)
    with pytest.raises(ValueError, match="runs"):
        aerolin.monte_carlo(ac, runs=10**9, duration=10.0, turbulence="light", altitude=100.0)
    with pytest.raises(ValueError, match="no output 'altitude'"):
        aerolin.monte_carlo(ac, runs=1, duration=10.0, turbulence="light", altitude=100.0,
                            levels={"altitude": 1.0})
    with pytest.raises(ValueError, match="turbulence 'gale'"):
        aerolin.monte_carlo(ac, runs=1, duration=10.0, turbulence="gale", altitude=100.0)
