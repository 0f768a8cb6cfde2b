"""Turbulence and discrete gusts in aerolin.simulate."""

import math

import numpy as np
import pytest

import aerolin
from conftest import FIXTURES

LINEAR = ["u", "alpha", "q", "theta", "beta", "p", "r", "phi", "psi"]


def expm(M):
    """Matrix exponential by scaling and squaring of a Taylor series (numpy only)."""
    s = max(0, int(math.ceil(math.log2(max(np.linalg.norm(M, 1), 1e-300)))) + 1)
    X = M / 2 ** s
    E, term = np.eye(len(M)), np.eye(len(M))
    for k in range(1, 20):
        term = term @ X / k
        E = E + term
    for _ in range(s):
        E = E @ E
    return E


def gust_mean(vm, dm, U0, t0, ta, tb):
    """Mean over [ta, tb] of vm/2 (1 − cos(π U0 (t − t0)/dm)), then vm."""
    def integral(t):  # ∫ from t0 to t
        x = U0 * (t - t0)
        if x <= 0:
            return 0.0
        if x <= dm:
            return vm / 2 * ((t - t0) - dm / (math.pi * U0) * math.sin(math.pi * x / dm))
        return vm / 2 * dm / U0 + vm * (t - t0 - dm / U0)
    return (integral(tb) - integral(ta)) / (tb - ta)


def test_discrete_gust_against_a_zero_order_hold_oracle(p2v7):
    """The exact integrator holds each slice's mean gust: x_{k+1} = Φ x_k + Γ ḡ_k,
    rebuilt here from A (block-diagonal) and E with an independent exponential."""
    dt, T, vm, dm, t0 = 0.1, 20.0, 4.0, 120.0, 1.0
    flight = aerolin.simulate(p2v7, T, dt=dt, integrator="exact",
                              gusts=[aerolin.Gust("w", vm, dm, start=t0)])
    A = np.zeros((9, 9))
    A[:4, :4] = p2v7.longitudinal.A
    A[4:, 4:] = p2v7.lateral.A
    E = p2v7.gust_input
    M = np.zeros((10, 10))
    M[:9, :9] = A
    M[:9, 9] = E[:, 2]  # w_g
    F = expm(M * dt)
    x = np.zeros(9)
    states = np.stack([flight[n] for n in LINEAR], axis=1)
    scale = np.abs(states).max(axis=0) + 1e-300
    for k in range(round(T / dt)):
        g = gust_mean(vm, dm, p2v7.condition.U0, t0, k * dt, (k + 1) * dt)
        x = F[:9, :9] @ x + F[:9, 9] * g
        assert np.all(np.abs(states[k + 1] - x) <= 1e-9 * scale), k
    assert np.abs(flight["alpha"]).max() > 0.01  # a 4 m/s downdraft at 90 m/s: ~2.5°


def test_gusts_scale_linearly_and_shift_in_time(p2v7):
    one = aerolin.simulate(p2v7, 20, integrator="exact", gusts=[{"axis": "v", "amplitude": 2.0, "length": 50.0}])
    two = aerolin.simulate(p2v7, 20, integrator="exact", gusts=[aerolin.Gust("v", 4.0, 50.0)])
    for name in LINEAR:
        # Doubling is exact in binary floating point: the linear states double to the bit.
        assert np.array_equal(two[name], 2 * one[name]), name
    assert np.abs(one["beta"]).max() > 0.005
    later = aerolin.simulate(p2v7, 25, integrator="exact", gusts=[aerolin.Gust("v", 2.0, 50.0, start=5.0)])
    for name in LINEAR:
        assert np.allclose(later[name][50:], one[name], rtol=0, atol=1e-12 + 1e-9 * np.abs(one[name]).max())


def test_turbulence_is_reproducible_and_seeded(p2v7):
    kwargs = dict(turbulence="moderate", altitude=300.0, span=31.65)
    a = aerolin.simulate(p2v7, 30, seed=7, **kwargs)
    b = aerolin.simulate(p2v7, 30, seed=7, **kwargs)
    c = aerolin.simulate(p2v7, 30, seed=8, **kwargs)
    assert np.array_equal(a.array, b.array)
    assert not np.array_equal(a.array, c.array)
    assert np.abs(a["beta"]).max() > 1e-3 and np.abs(a["p"]).max() > 1e-3
    # Same seed, same filters: at low altitude σ is proportional to W20 (15 vs
    # 30 kt), and the exact integrator is linear in the gusts (RK45's step
    # control, with its absolute tolerance, is not scale-invariant).
    light = aerolin.simulate(p2v7, 30, seed=7, integrator="exact", turbulence="light",
                             altitude=300.0, span=31.65)
    moderate = aerolin.simulate(p2v7, 30, seed=7, integrator="exact", **kwargs)
    for name in LINEAR:
        assert np.allclose(light[name], moderate[name] / 2, rtol=1e-9,
                           atol=1e-12 * np.abs(moderate[name]).max()), name


def test_turbulence_height_defaults_as_the_cli():
    # No [condition] altitude (or altitude 0, a sea-level atmosphere): 1000 ft
    # = 304.8 m above ground (study::TurbulenceHeight), as `aerolin simulate`.
    minimal = aerolin.load(str(FIXTURES / "derivatives" / "valid_minimal.toml"))
    assert minimal.condition.altitude is None
    default = aerolin.simulate(minimal, 2, turbulence="light")
    given = aerolin.simulate(minimal, 2, turbulence="light", altitude=304.8)
    assert (default.array == given.array).all()
    low = aerolin.simulate(minimal, 2, turbulence="light", altitude=3.0)
    assert not (default.array == low.array).all()


def test_turbulence_errors(p2v7):
    with pytest.raises(ValueError, match="'storm'"):
        aerolin.simulate(p2v7, 1, turbulence="storm", altitude=100.0)
    with pytest.raises(ValueError, match="gust axis 'z'"):
        aerolin.Gust("z", 1.0, 10.0)
    with pytest.raises(ValueError):
        aerolin.simulate(p2v7, 1, gusts=[aerolin.Gust("w", 1.0, -10.0)])
