"""aerolin: linearized small-perturbation flight stability, from Python.

The same C++ library as the ``aerolin`` command line (pybind11 bindings),
with numpy arrays at the boundary. Everything is SI (m, s, rad)::

    import aerolin
    p2v7 = aerolin.load("data/derivatives/p2v7.toml")
    for mode in aerolin.modes(p2v7):
        print(mode.name, mode.eigenvalue, mode.wn, mode.zeta)
    flight = aerolin.simulate(p2v7, 60, controls={"elevator": [0.02] * 10 + [0.0]})
    flight["t"], flight["alpha"]          # numpy arrays, the CLI CSV's columns
"""

from collections.abc import Mapping as _Mapping

from ._aerolin import (  # noqa: F401  (the public API)
    Aircraft,
    Bode,
    Condition,
    Control,
    DataError,
    Gust,
    Locus,
    Mode,
    ModeSensitivity,
    NumericalError,
    QualitiesGrade,
    Requirement,
    Signal,
    StateSpace,
    Tracked,
    Trajectory,
    TransferFunction,
    TrimError,
    augment,
    bode,
    frequency_response,
    identify,
    linearize,
    load,
    loads,
    locus,
    lqr,
    maximize_damping,
    modes,
    monte_carlo,
    place,
    qualities,
    qualities_report,
    rms,
    run_seed,
    sensitivities,
    simulate,
    sweep,
    sweep_trim_speed,
    tf,
    trim,
)

# A Trajectory is a read-only mapping of column name -> numpy array.
_Mapping.register(Trajectory)

__all__ = [
    "Aircraft", "Bode", "Condition", "Control", "DataError", "Gust", "Locus", "Mode",
    "ModeSensitivity", "NumericalError", "QualitiesGrade", "Requirement", "Signal",
    "StateSpace", "Tracked", "Trajectory", "TransferFunction", "TrimError", "augment", "bode",
    "frequency_response", "identify", "linearize", "load", "loads", "locus", "lqr", "maximize_damping", "modes", "monte_carlo",
    "place", "qualities", "qualities_report", "rms", "run_seed",
    "sensitivities", "simulate", "sweep", "sweep_trim_speed", "tf", "trim",
]
