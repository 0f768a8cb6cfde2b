"""aerolin.rms: the document of `aerolin rms --json`, with SI keyword arguments."""

import math
import re

import pytest

import aerolin
from conftest import AIRCRAFT, DERIVATIVES, P2V7, cli_json

FT = 0.3048


# Every bundled aircraft: data/derivatives and the AVL 737.
@pytest.mark.parametrize("path", AIRCRAFT + [DERIVATIVES.parent / "avl" / "b737.toml"], ids=lambda p: p.stem)
def test_python_equals_the_command_line(path):
    ac = aerolin.load(str(path))
    # The CLI's --height is in the file's length unit; Python's altitude is SI.
    height_ft = 1500.0
    imperial = re.search(r'^units\s*=\s*"imperial"', path.read_text(), re.M | re.I)
    height_m = height_ft * FT if imperial else height_ft
    height_cli = height_ft
    doc = aerolin.rms(ac, "moderate", altitude=height_m)
    cli = cli_json("rms", path, "--turbulence", "moderate", "--height", height_cli, "--json")
    assert doc["schema"] == "aerolin.rms/1"
    assert doc["outputs"] == cli["outputs"]
    assert doc["turbulence"] == cli["turbulence"]
    assert doc["not_stationary"] == cli["not_stationary"]


def test_rice_from_the_record():
    doc = aerolin.rms(aerolin.load(str(P2V7)), "severe", altitude=300.0)
    nz = next(o for o in doc["outputs"] if o["name"] == "nz")
    assert nz["unit"] == "g" and nz["gust_feedthrough"]
    q = next(o for o in doc["outputs"] if o["name"] == "q")
    assert not q["gust_feedthrough"] and q["rate_rms"] > 0
    # A finer slice step resolves q's crossings as Rice's formula has them.
    fine = aerolin.rms(aerolin.load(str(P2V7)), "severe", altitude=300.0, dt=0.002)
    qf = next(o for o in fine["outputs"] if o["name"] == "q")
    assert qf["n0_per_s"] == pytest.approx(qf["rate_rms"] / (2 * math.pi * qf["rms"]), rel=0.01)


def test_errors():
    ac = aerolin.load(str(P2V7))
    assert aerolin.rms(ac, "moderate")["turbulence"]["height_source"] == "default"
    with pytest.raises(ValueError, match="turbulence 'rough'"):
        aerolin.rms(ac, "rough", altitude=100.0)
    with pytest.raises(ValueError):
        aerolin.rms(ac, "light", altitude=-1.0)
    with pytest.raises(ValueError):
        aerolin.rms(ac, "light", altitude=100.0, dt=0.0)
    with pytest.raises(ValueError):
        aerolin.rms(ac, "light", altitude=100.0, span=float("nan"))
