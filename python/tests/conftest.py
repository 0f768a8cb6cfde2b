"""Shared fixtures of the aerolin Python tests.

CTest runs each test file with the interpreter the module was built for and
sets: PYTHONPATH (build/python), AEROLIN_CLI (the built `aerolin`),
AEROLIN_SOURCE_DIR, AEROLIN_BUILD_DIR, AEROLIN_TEST_WORK, CMAKE_COMMAND.
"""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

SOURCE = Path(os.environ.get("AEROLIN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DERIVATIVES = SOURCE / "data" / "derivatives"
FIXTURES = SOURCE / "tests" / "fixtures"
AIRCRAFT = sorted(DERIVATIVES.glob("*.toml"))
P2V7 = DERIVATIVES / "p2v7.toml"
DOUBLET = FIXTURES / "scripts" / "elevator_doublet.txt"

# The exit status of a run skipped as a whole (CTest's SKIP_RETURN_CODE of
# the Python tests, python/CMakeLists.txt).
SKIPPED_RUN = 77


def pytest_configure(config):
    """In the sanitizer build (AEROLIN_SANITIZE=1) the module can only be
    imported with the AddressSanitizer runtime preloaded; without it every
    test would fail at import, so the run is skipped and says why."""
    if os.environ.get("AEROLIN_SANITIZE") == "1" and "asan" not in os.environ.get("LD_PRELOAD", ""):
        pytest.exit("skipped: the aerolin module is built with AddressSanitizer; run the Python "
                    "tests with LD_PRELOAD=$(gcc -print-file-name=libasan.so) "
                    "ASAN_OPTIONS=detect_leaks=0", returncode=SKIPPED_RUN)


def cli_path():
    path = os.environ.get("AEROLIN_CLI", "")
    if not path or not Path(path).is_file():
        pytest.fail(f"AEROLIN_CLI={path!r} is not the built aerolin program (run through CTest)")
    return path


def run_cli(*args, expect=0):
    """Runs `aerolin ARGS` from the source directory; returns the completed process."""
    done = subprocess.run([cli_path(), *map(str, args)], cwd=SOURCE, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == expect, (args, done.returncode, done.stderr)
    return done


def cli_json(*args):
    return json.loads(run_cli(*args).stdout)


def parse_csv(text):
    """Header and a float64 (rows × columns) array; float() reads the CLI's
    shortest round-trip numbers back to the same doubles."""
    lines = text.splitlines()
    header = lines[0].split(",")
    rows = [[float(v) for v in line.split(",")] for line in lines[1:]]
    return header, np.array(rows, dtype=np.float64).reshape(len(rows), len(header))


def bits(a):
    """The IEEE bit patterns of a float64 array (so -0.0 != 0.0, NaN == NaN)."""
    return np.ascontiguousarray(a, dtype=np.float64).view(np.uint64)


@pytest.fixture(scope="session")
def p2v7():
    import aerolin
    return aerolin.load(str(P2V7))


@pytest.fixture
def work(tmp_path):
    return tmp_path
