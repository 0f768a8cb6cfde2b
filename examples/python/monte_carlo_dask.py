"""A rough-air Monte Carlo of the Navion spread over a Dask cluster, checked against the
same study run locally (identical, bit for bit).

    PYTHONPATH=build/python python3 examples/python/monte_carlo_dask.py [SCHEDULER_ADDRESS]

Without an address it starts a LocalCluster of two worker processes on this machine; with one
(e.g. tcp://10.0.0.5:8786, a `dask scheduler` with `dask worker`s that can import aerolin) it
uses that cluster.
"""

import sys

import numpy as np
from dask.distributed import Client, LocalCluster

import aerolin
import aerolin.distributed

NAVION = "data/derivatives/navion_cruise_sl.toml"
STUDY = dict(duration=60.0, turbulence="moderate", altitude=300.0, seed=2026, levels={"nz": 0.2})


def main():
    if len(sys.argv) > 1:
        client = Client(sys.argv[1])
    else:
        client = Client(LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0"))
    with client:
        spread = aerolin.distributed.monte_carlo(client, NAVION, runs=400, chunk=100, **STUDY)
    local = aerolin.monte_carlo(aerolin.load(NAVION), runs=400, **STUDY)
    assert all(np.array_equal(local[k], spread[k]) for k in ("rms", "peak", "exceedances"))
    nz = spread["outputs"].index("nz")
    rms = spread["rms"][:, nz]
    print(f"{len(rms)} runs of 60 s: nz RMS {rms.mean():.4f} g (runs from {rms.min():.4f} to "
          f"{rms.max():.4f}); nz passed +0.2 g {spread['exceedances'][:, 0].mean():.2f} times "
          "a run; identical to the local run")


if __name__ == "__main__":
    main()
