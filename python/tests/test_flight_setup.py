"""One flight setup: aerolin.simulate and `aerolin simulate` are the same
flight (study::Prepare behind both), bit for bit, with default arguments.

The CLI takes --altitude and --gust's VM and DM in the data file's units,
Python takes SI: the test converts with the file's factor (value × 0.3048
for an imperial file, the multiplication core::ToSI makes). Everything else
(the seed, the wing span of the rolling gust, the turbulence height where the
file gives one, the integrator, Δt, the excitation amplitude) is left to each
front end's defaults.
"""

import tomllib

import pytest

import aerolin
from conftest import AIRCRAFT, run_cli

FOOT = 0.3048


def read_toml(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def file_factor(toml):
    """The factor to SI of the file's lengths and speeds ([condition] units)."""
    return FOOT if toml["condition"].get("units", "SI").lower() == "imperial" else 1.0


@pytest.mark.parametrize("path", AIRCRAFT, ids=lambda p: p.stem)
def test_python_equals_the_cli_for_a_turbulent_gusty_excited_flight(path):
    toml = read_toml(path)
    k = file_factor(toml)
    gust_vm, gust_dm, gust_t0 = 4.0, 150.0, 1.5  # in the file's units
    cli_args = ["simulate", path, "--duration", 20, "--excite", "dutch-roll",
                "--turbulence", "light", "--gust", f"w:{gust_vm}:{gust_dm}:{gust_t0}",
                "--csv", "-"]
    kwargs = dict(excite="dutch-roll", turbulence="light",
                  gusts=[aerolin.Gust("w", gust_vm * k, gust_dm * k, gust_t0)])
    aircraft = aerolin.load(str(path))
    if aircraft.condition.altitude is None:
        # No [condition] altitude: both need the height, each in its own units.
        cli_args += ["--altitude", 1000]
        kwargs["altitude"] = 1000 * k
    cli = run_cli(*cli_args).stdout
    flown = aerolin.simulate(aircraft, 20, **kwargs)
    assert flown.to_csv() == cli
    assert list(flown.keys())[-4:] == ["u_g", "v_g", "w_g", "p_g"]
    assert flown.units["w_g"] == "m/s" and flown.units["p_g"] == "rad/s"
    # The rolling gust comes from the file's span when it gives one.
    assert (abs(flown["p_g"]).max() > 0) == ("b" in toml.get("geometry", {}))


def test_the_default_seed_is_the_clis(p2v7):
    a = aerolin.simulate(p2v7, 5, turbulence="light", altitude=300.0)
    b = aerolin.simulate(p2v7, 5, turbulence="light", altitude=300.0, seed=1)
    c = aerolin.simulate(p2v7, 5, turbulence="light", altitude=300.0, seed=0)
    assert (a.array == b.array).all()
    assert not (a.array == c.array).all()


def test_a_non_finite_initial_state_is_refused(p2v7):
    with pytest.raises(ValueError, match="x0"):
        aerolin.simulate(p2v7, 1, x0={"alpha": float("nan")})
    with pytest.raises(ValueError, match="x0"):
        aerolin.simulate(p2v7, 1, x0=[float("inf")] + [0.0] * 11)
