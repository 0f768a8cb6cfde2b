"""`cmake --install` puts a working package under the prefix."""

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import P2V7


def test_install_component_python_into_a_prefix(tmp_path):
    build = os.environ.get("AEROLIN_BUILD_DIR")
    cmake = os.environ.get("CMAKE_COMMAND", "cmake")
    if not build:
        pytest.fail("AEROLIN_BUILD_DIR is not set (run through CTest)")
    prefix = tmp_path / "prefix"
    done = subprocess.run([cmake, "--install", build, "--prefix", str(prefix), "--component", "python"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # The interpreter's own layout for a prefix (posix_prefix scheme).
    site = Path(sysconfig.get_path("platlib", "posix_prefix",
                                   vars={"base": str(prefix), "platbase": str(prefix)}))
    package = site / "aerolin"
    assert (package / "__init__.py").is_file() and (package / "_aerolin.pyi").is_file()
    assert (package / "py.typed").is_file()
    assert len(list(package.glob("_aerolin*.so"))) == 1
    # Only the Python component: no headers or libraries.
    assert not (prefix / "include").exists()
    code = "import aerolin, sys; a = aerolin.load(sys.argv[1]); print(aerolin.__file__); print(a.name)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    run = subprocess.run([sys.executable, "-c", code, str(P2V7)], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    where, name = run.stdout.splitlines()
    assert Path(where).resolve() == (package / "__init__.py").resolve()
    assert name == "Lockheed P2V-7 Neptune"
