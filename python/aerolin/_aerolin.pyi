"""Type stubs of aerolin's compiled module (re-exported by `aerolin`).

Everything is SI (m, s, rad); arrays are float64 or complex128 numpy arrays.
"""

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
ComplexArray = npt.NDArray[np.complex128]
ArrayLike = npt.ArrayLike

class DataError(ValueError):
    """A defect in a data file or pilot script; str(e): one 'path:line: problem' line each."""
    defects: list[tuple[str, int, str]]

class NumericalError(ArithmeticError):
    """A numerical method failed (eigen-decomposition, integrator tolerance)."""

class TrimError(RuntimeError):
    """No trim within the model and the limits; str(e): the equation left and the limit that binds."""

class Signal:
    """A named, unit-tagged quantity (a state, input or output)."""
    @property
    def name(self) -> str: ...
    @property
    def unit(self) -> str: ...
    @property
    def symbol(self) -> str: ...

class StateSpace:
    """ẋ = A x + B u, y = C x + D u (SI)."""
    @property
    def A(self) -> FloatArray: ...
    @property
    def B(self) -> FloatArray: ...
    @property
    def C(self) -> FloatArray: ...
    @property
    def D(self) -> FloatArray: ...
    @property
    def states(self) -> list[Signal]: ...
    @property
    def inputs(self) -> list[Signal]: ...
    @property
    def outputs(self) -> list[Signal]: ...

class Condition:
    """The trim flight condition."""
    @property
    def U0(self) -> float: ...
    @property
    def W0(self) -> float: ...
    @property
    def theta0(self) -> float: ...
    @property
    def g(self) -> float: ...
    @property
    def altitude(self) -> float | None: ...
    @property
    def mach(self) -> float | None: ...
    @property
    def category(self) -> str | None: ...

class Control:
    """A control effector."""
    @property
    def name(self) -> str: ...
    @property
    def unit(self) -> str: ...
    @property
    def min(self) -> float | None: ...
    @property
    def max(self) -> float | None: ...
    @property
    def longitudinal(self) -> bool: ...
    @property
    def lateral(self) -> bool: ...

class Aircraft:
    """An aircraft at one flight condition (aerolin.load)."""
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def aircraft_class(self) -> str | None: ...
    @property
    def condition(self) -> Condition: ...
    @property
    def controls(self) -> list[Control]: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def longitudinal(self) -> StateSpace: ...
    @property
    def lateral(self) -> StateSpace: ...
    def with_outputs(self, axis: str) -> StateSpace: ...
    @property
    def gust_input(self) -> FloatArray: ...
    @property
    def keys(self) -> dict[str, float]: ...

class Mode:
    """One dynamic mode (a real root or a complex pair)."""
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def qualifier(self) -> str: ...
    @property
    def axis(self) -> str: ...
    @property
    def eigenvalue(self) -> complex: ...
    @property
    def oscillatory(self) -> bool: ...
    @property
    def stable(self) -> bool: ...
    @property
    def wn(self) -> float: ...
    @property
    def zeta(self) -> float: ...
    @property
    def period(self) -> float | None: ...
    @property
    def t_half(self) -> float | None: ...
    @property
    def t_double(self) -> float | None: ...
    @property
    def tau(self) -> float | None: ...
    @property
    def cycles_to_half(self) -> float | None: ...
    @property
    def shape(self) -> ComplexArray: ...
    @property
    def left(self) -> ComplexArray: ...
    @property
    def states(self) -> list[str]: ...
    @property
    def shape_reference(self) -> str: ...
    @property
    def evidence(self) -> list[str]: ...

class Gust:
    """A MIL-F-8785C discrete 1 − cos gust."""
    def __init__(self, axis: str, amplitude: float, length: float, start: float = 0.0) -> None: ...
    @property
    def axis(self) -> str: ...
    @property
    def amplitude(self) -> float: ...
    @property
    def length(self) -> float: ...
    @property
    def start(self) -> float: ...

class Trajectory(Mapping[str, FloatArray]):
    """A flown trajectory: column name -> float64 array (the CLI CSV's columns)."""
    def __getitem__(self, column: str) -> FloatArray: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def __contains__(self, name: object) -> bool: ...
    def keys(self) -> list[str]: ...  # type: ignore[override]
    def values(self) -> list[FloatArray]: ...  # type: ignore[override]
    def items(self) -> list[tuple[str, FloatArray]]: ...  # type: ignore[override]
    def get(self, column: str, default: Any = None) -> Any: ...  # type: ignore[override]
    @property
    def columns(self) -> list[str]: ...
    @property
    def units(self) -> dict[str, str]: ...
    @property
    def array(self) -> FloatArray: ...
    @property
    def stopped(self) -> str | None: ...
    @property
    def validity(self) -> list[dict[str, Any]]: ...
    @property
    def slices(self) -> int: ...
    @property
    def rk_steps(self) -> int: ...
    @property
    def rk_rejected(self) -> int: ...
    @property
    def dt(self) -> float: ...
    @property
    def integrator(self) -> str: ...
    @property
    def amplitude(self) -> float | None: ...
    def to_csv(self) -> str: ...

class Requirement:
    """One MIL-F-8785C requirement applied to one mode."""
    @property
    def mode(self) -> str: ...
    @property
    def criterion(self) -> str: ...
    @property
    def value(self) -> float: ...
    @property
    def unit(self) -> str: ...
    @property
    def limits(self) -> list[tuple[float | None, float | None]]: ...
    @property
    def level(self) -> int: ...
    @property
    def paragraph(self) -> str: ...
    @property
    def note(self) -> str: ...

class QualitiesGrade:
    """The grading for one class and category."""
    @property
    def aircraft_class(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def n_alpha(self) -> float: ...
    @property
    def requirements(self) -> list[Requirement]: ...
    @property
    def level(self) -> int: ...
    @property
    def mode_levels(self) -> dict[str, int]: ...

class TransferFunction:
    """G(s) in minimal factored form; tf(s) evaluates it."""
    @property
    def input(self) -> Signal: ...
    @property
    def output(self) -> Signal: ...
    @property
    def gain(self) -> float: ...
    @property
    def relative_degree(self) -> int: ...
    @property
    def dc_gain(self) -> float | None: ...
    @property
    def integrators(self) -> int: ...
    @property
    def non_minimum_phase(self) -> bool: ...
    @property
    def identically_zero(self) -> bool: ...
    @property
    def zeros(self) -> ComplexArray: ...
    @property
    def poles(self) -> ComplexArray: ...
    @property
    def numerator(self) -> FloatArray: ...
    @property
    def denominator(self) -> FloatArray: ...
    @property
    def zero_factors(self) -> list[dict[str, Any]]: ...
    @property
    def pole_factors(self) -> list[dict[str, Any]]: ...
    @property
    def cancelled(self) -> list[dict[str, Any]]: ...
    @overload
    def __call__(self, s: complex) -> complex: ...
    @overload
    def __call__(self, s: ArrayLike) -> ComplexArray: ...

class Bode:
    """One output's Bode data over omega."""
    @property
    def omega(self) -> FloatArray: ...
    @property
    def value(self) -> ComplexArray: ...
    @property
    def magnitude(self) -> FloatArray: ...
    @property
    def magnitude_db(self) -> FloatArray: ...
    @property
    def phase_deg(self) -> FloatArray: ...
    @property
    def phase_principal_deg(self) -> FloatArray: ...
    @property
    def tf(self) -> TransferFunction: ...
    @property
    def bandwidth(self) -> float | None: ...
    @property
    def resonances(self) -> list[dict[str, Any]]: ...
    @property
    def modes(self) -> list[tuple[str, float]]: ...

class ModeSensitivity:
    """A mode's exact dλ/dp for every key of the file that enters A."""
    @property
    def mode(self) -> Mode: ...
    @property
    def keys(self) -> list[str]: ...
    @property
    def values(self) -> FloatArray: ...
    @property
    def dlambda(self) -> ComplexArray: ...
    @property
    def dzeta(self) -> FloatArray: ...
    @property
    def dwn(self) -> FloatArray: ...
    @property
    def relative_effect(self) -> FloatArray: ...
    @property
    def top(self) -> list[str]: ...

class Tracked:
    """A sweep or locus with its modes tracked by name."""
    @property
    def param(self) -> str: ...
    @property
    def values(self) -> FloatArray: ...
    @property
    def columns(self) -> dict[str, Any]: ...
    @property
    def changes(self) -> list[dict[str, Any]]: ...
    @property
    def notes(self) -> list[str]: ...
    @property
    def refinements(self) -> int: ...

class Locus:
    """A root locus."""
    @property
    def study(self) -> Tracked: ...
    @property
    def axis(self) -> str: ...
    @property
    def open_loop_poles(self) -> ComplexArray: ...
    @property
    def zeros(self) -> ComplexArray: ...
    @property
    def gain_unit(self) -> str: ...

def load(path: str) -> Aircraft:
    """Reads an aircraft data file; DataError lists every defect as 'path:line: problem'."""

def loads(text: str, path: str = "<string>") -> Aircraft:
    """As load, for TOML text in memory."""

def modes(aircraft: Aircraft, axis: str | None = None) -> list[Mode]:
    """The named modes, longitudinal then lateral (`aerolin modes`)."""

def simulate(
    aircraft: Aircraft,
    duration: float,
    dt: float = 0.1,
    integrator: str = "rk45",
    script: str | None = None,
    controls: Callable[[float], ArrayLike] | ArrayLike | Mapping[str, ArrayLike] | None = None,
    excite: str | None = None,
    amplitude: float | None = None,
    rtol: float = 1e-06,
    atol: float = 1e-09,
    x0: Mapping[str, float] | Sequence[float] | None = None,
    turbulence: str | None = None,
    altitude: float | None = None,
    span: float | None = None,
    seed: int = 1,
    gusts: Sequence[Gust | Mapping[str, Any]] | None = None,
    bare: bool = False,
) -> Trajectory:
    """Flies the linear model as `aerolin simulate` does; see help(aerolin.simulate)."""

def qualities(
    aircraft: Aircraft,
    aircraft_class: str | None = None,
    category: str | None = None,
    combat: bool = False,
) -> list[QualitiesGrade]:
    """MIL-F-8785C grades (`aerolin qualities`)."""

def qualities_report(
    aircraft: Aircraft | str,
    aircraft_class: str | None = None,
    category: str | None = None,
    combat: bool = False,
    actuators: Sequence[str] = [],
    delay: float | None = None,
    dropback_step_deg: float = 1.0,
) -> dict[str, Any]:
    """The `aerolin qualities --json` document, MIL-STD-1797A block included."""

def tf(aircraft: Aircraft, input: str, output: str) -> TransferFunction:
    """The transfer function from a control to an output (`aerolin tf`)."""

@overload
def bode(aircraft: Aircraft, input: str, output: str, omega: Sequence[float] | None = None,
         points: int = 400) -> Bode: ...
@overload
def bode(aircraft: Aircraft, input: str, output: Sequence[str], omega: Sequence[float] | None = None,
         points: int = 400) -> list[Bode]: ...

def rms(aircraft: Aircraft, turbulence: str, altitude: float | None = None,
        span: float | None = None, dt: float = 0.1) -> dict[str, Any]:
    """Exact rough-air statistics (`aerolin rms --json`, schema aerolin.rms/1)."""

def monte_carlo(aircraft: Aircraft, runs: int, duration: float, turbulence: str,
                altitude: float | None = None, span: float | None = None, seed: int = 1,
                dt: float = 0.1, first_run: int = 0, levels: dict[str, float] | None = None,
                history_every: int = 0, threads: int = 0, check_only: bool = False) -> dict[str, Any] | None:
    """Batched rough-air Monte Carlo: per-run RMS, peaks, crossings (see the docstring)."""

def run_seed(seed: int, run: int) -> int:
    """The turbulence seed of run `run` of a Monte Carlo seeded `seed`."""

def frequency_response(system: StateSpace, omega: Sequence[float]) -> ComplexArray:
    """G(jω), shape (len(omega), outputs, inputs)."""

def sensitivities(aircraft: Aircraft) -> list[ModeSensitivity]:
    """dλ/dp of every mode but heading (`aerolin modes --sensitivity`)."""

def sweep(aircraft: Aircraft, param: str, start: float, stop: float, steps: int,
          threads: int = 0) -> Tracked:
    """A tracked sweep of one key as written (`aerolin sweep`)."""

def sweep_trim_speed(aircraft: Aircraft, start: float, stop: float, steps: int,
                     altitude: float | None = None, gamma: float = 0.0, threads: int = 0) -> Tracked:
    """The linearized modes against the trim speed [m/s] (`aerolin sweep --trim-speed`)."""

def locus(aircraft: Aircraft, input: str, output: str, gains: Sequence[float],
          washout: float | None = None, threads: int = 0) -> Locus:
    """A root locus of δ_input = K·y_output (`aerolin locus`)."""

def maximize_damping(aircraft: Aircraft, input: str, output: str, gains: Sequence[float],
                     mode: str, washout: float | None = None, threads: int = 0) -> dict[str, Any]:
    """The gain of the locus that maximizes ζ of `mode` (`aerolin locus --maximize`):
    {"mode", "gain", "zeta", "name", "wn", "refined": {"status", "message", ...},
    "other_local_maxima"}, as the CLI JSON's "maximize" object."""

def lqr(A: FloatArray, B: FloatArray, Q: FloatArray, R: FloatArray,
        N: FloatArray | None = None) -> tuple[FloatArray, FloatArray, ComplexArray]:
    """LQR: (K, X, E), u = -K x, X the CARE's stabilizing solution, E = eig(A - BK)."""

def place(A: FloatArray, B: FloatArray, poles: list[complex]) -> FloatArray:
    """Pole placement: K with eig(A - BK) = poles (KNV0 for several inputs)."""

def augment(aircraft: Aircraft | str, axis: str | None = None, place: str | None = None,
            Q: list[float] | None = None, R: list[float] | None = None,
            maximum: dict[str, float | str] | None = None, inputs: list[str] | None = None,
            heading: bool = False, loops: list[str] | None = None,
            disturbance: dict[str, float | str] | str | None = None,
            actuators: Sequence[str] = []) -> dict[str, Any]:
    """Full-state augmentation of one axis (`aerolin augment --json`, schema aerolin.augment/1)."""

def trim(aircraft: Aircraft | str, speed: float | None = None, altitude: float | None = None,
         gamma: float | None = None, turn_rate: float | None = None, bank: float | None = None,
         sideslip: float = 0.0) -> dict[str, Any]:
    """Trim of the nonlinear 6-DOF model (`aerolin trim --json`, schema aerolin.trim/1), SI."""

def linearize(aircraft: Aircraft | str, speed: float | None = None,
              altitude: float | None = None, gamma: float | None = None) -> dict[str, Any]:
    """Linearization at a straight trim (`aerolin linearize --json`, aerolin.linearize/1) + "toml"."""

def identify(aircraft: Aircraft | str, flight: str, axis: str, free: list[str],
             method: str = "output-error", fix_x0: bool = False,
             fix_bias: bool = False, columns: dict[str, str] = {}) -> dict[str, Any]:
    """Keys of a data file estimated from a recorded flight (`aerolin identify --json`, schema aerolin.identify/1)."""
