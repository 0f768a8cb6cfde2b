"""aerolin studies on a Dask cluster (``dask.distributed``), with results identical to a
local run.

    from dask.distributed import Client
    import aerolin.distributed
    client = Client("tcp://scheduler:8786")      # or Client(LocalCluster(...))
    mc = aerolin.distributed.monte_carlo(client, "data/derivatives/navion_cruise_sl.toml",
                                         runs=10_000, chunk=1_000, duration=60.0,
                                         turbulence="moderate", altitude=300.0)

What moves over the network: the aircraft file's *text* and its path (for messages), the
keyword arguments, and each chunk's result arrays — never pickled C++ objects. Every worker
needs the aerolin module importable (the same build, so the same numbers). Run ``i`` of a study
depends on (seed, i) only (``aerolin.run_seed``), so the result does not depend on the chunk
size or the number of workers: it equals ``aerolin.monte_carlo(...)`` run locally, bit for bit.
A data file that names other files (an AVL ``.st``/``.mass``) needs those files at the same
path on every worker.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from . import _aerolin

# The result arrays that are one row per run (stacked across chunks in run order).
_PER_RUN = ("run", "seed", "rms", "peak", "peak_time", "zero_upcrossings", "exceedances")


def _aircraft_text(aircraft: Any) -> tuple[str, str]:
    """(text, path) of the aircraft to send: a path, or an Aircraft loaded from a file."""
    if isinstance(aircraft, (str, os.PathLike)):
        path = str(aircraft)
    else:
        path = getattr(aircraft, "path", "")
        if not path or path == "<string>" or not Path(path).is_file():
            raise ValueError("aerolin.distributed needs the aircraft's file: pass its path, or an "
                             "Aircraft loaded with aerolin.load(path)")
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror or e}") from e


def _monte_carlo_chunk(text: str, path: str, first_run: int, runs: int,
                       kwargs: dict[str, Any]) -> dict[str, Any]:
    """Runs on a worker: load the text, fly runs first_run .. first_run + runs - 1."""
    import aerolin  # the worker's own copy of the module
    return aerolin.monte_carlo(aerolin.loads(text, path), runs=runs, first_run=first_run, **kwargs)


def monte_carlo(client: Any, aircraft: Any, *, runs: int, chunk: int = 1000,
                **kwargs: Any) -> dict[str, Any]:
    """``aerolin.monte_carlo`` over a Dask cluster: ``runs`` runs in chunks of ``chunk`` runs,
    one task each; the keyword arguments are ``aerolin.monte_carlo``'s (duration, turbulence,
    altitude, span, seed, dt, levels, history_every, threads). Returns the same dict as a local
    ``aerolin.monte_carlo(aircraft, runs=runs, **kwargs)``, bit for bit.

    The whole study is checked here first (the same limits as a local run); a client that is
    not connected, or a cluster that dies, raises RuntimeError saying so."""
    if "first_run" in kwargs:
        raise ValueError("first_run is chosen per chunk: a distributed study starts at run 0")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a whole number of runs >= 1, got {chunk!r}")
    text, path = _aircraft_text(aircraft)
    # The whole request, checked as one local run would check it.
    _aerolin.monte_carlo(_aerolin.loads(text, path), runs=runs, check_only=True, **kwargs)
    status = getattr(client, "status", None)
    if status != "running":
        raise RuntimeError(f"the Dask client is not connected (status {status!r}): start the "
                           "cluster and connect a Client to it")
    starts = list(range(0, runs, chunk))
    try:
        futures = [client.submit(_monte_carlo_chunk, text, path, first, min(chunk, runs - first),
                                 kwargs, pure=False) for first in starts]
        parts = client.gather(futures)
    except (OSError, TimeoutError) as e:
        raise RuntimeError(f"the Dask cluster did not answer ({type(e).__name__}: {e})") from e
    out = dict(parts[0])
    for key in _PER_RUN:
        out[key] = np.concatenate([p[key] for p in parts], axis=0)
    if "history" in out:
        out["history"] = np.concatenate([p["history"] for p in parts], axis=0)
    return out
