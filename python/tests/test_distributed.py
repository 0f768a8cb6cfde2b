"""aerolin.distributed.monte_carlo on a LocalCluster of two worker processes: the same
result as the local run, bit for bit; and the errors."""

import numpy as np
import pytest

import aerolin
from conftest import DERIVATIVES

distributed = pytest.importorskip("distributed", reason="python3-distributed is not installed")

import aerolin.distributed  # noqa: E402

NAVION = DERIVATIVES / "navion_cruise_sl.toml"
KW = dict(duration=20.0, turbulence="moderate", altitude=300.0, seed=11, levels={"nz": 0.05})


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_identical_to_the_local_run(client):
    local = aerolin.monte_carlo(aerolin.load(str(NAVION)), runs=25, **KW)
    spread = aerolin.distributed.monte_carlo(client, str(NAVION), runs=25, chunk=7, **KW)
    assert sorted(local) == sorted(spread)
    for key in local:
        if isinstance(local[key], np.ndarray):
            np.testing.assert_array_equal(local[key], spread[key], err_msg=key)
        else:
            assert local[key] == spread[key], key
    # Both workers took part.
    assert len(client.scheduler_info()["workers"]) == 2


def test_errors(client):
    with pytest.raises(ValueError, match="runs"):
        aerolin.distributed.monte_carlo(client, str(NAVION), runs=10**9, **KW)
    with pytest.raises(ValueError, match="chunk"):
        aerolin.distributed.monte_carlo(client, str(NAVION), runs=10, chunk=0, **KW)
    with pytest.raises(ValueError, match="aerolin.load"):
        aerolin.distributed.monte_carlo(client, aerolin.loads(NAVION.read_text()), runs=10, **KW)
    with pytest.raises(ValueError, match="first_run"):
        aerolin.distributed.monte_carlo(client, str(NAVION), runs=10, first_run=3, **KW)


def test_a_closed_client_says_so():
    cluster = distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0")
    c = distributed.Client(cluster)
    c.close()
    cluster.close()
    with pytest.raises(RuntimeError, match="not connected"):
        aerolin.distributed.monte_carlo(c, str(NAVION), runs=4, **KW)


def test_the_example_runs():
    import os
    import subprocess
    import sys
    from conftest import SOURCE
    done = subprocess.run([sys.executable, "examples/python/monte_carlo_dask.py"], cwd=SOURCE,
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert "identical to the local run" in done.stdout
