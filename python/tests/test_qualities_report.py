"""aerolin.qualities_report: the `aerolin qualities --json` document, with the
MIL-STD-1797A block, equal to the CLI's."""

import subprocess

import pytest

import aerolin
from conftest import AIRCRAFT, P2V7, cli_json, cli_path, SOURCE


@pytest.mark.parametrize("path", AIRCRAFT, ids=[p.name for p in AIRCRAFT])
def test_report_equals_cli_json(path):
    doc = aerolin.qualities_report(str(path), aircraft_class="III", category="all",
                                   actuators=["elevator=0.05:25:60", "aileron=0.08"], delay=0.04)
    assert doc == cli_json("qualities", path, "--class", "III", "--category", "all",
                           "--actuator", "elevator=0.05:25:60", "--actuator", "aileron=0.08",
                           "--delay", "0.04", "--json")
    mil = doc["mil_std_1797"]
    assert mil["command_path"]["delay_s"] == 0.04
    pitch = mil["bare"]["pitch"]
    assert pitch["graded"] is False and pitch["not_graded"] == "boundary not verified"
    assert pitch["omega_180_rad_s"] > 0 and pitch["phase_delay_s"] > 0


def test_augmented_file_has_both_columns(tmp_path):
    out = tmp_path / "p2v7_pitch_damper.toml"
    subprocess.run([cli_path(), "augment", P2V7, "--axis", "longitudinal", "--place",
                    "short-period:wn=3,zeta=0.7", "--write", out], cwd=SOURCE, check=True,
                   capture_output=True)
    doc = aerolin.qualities_report(aerolin.load(str(out)), actuators=["elevator=0.05"], delay=0.05)
    mil = doc["mil_std_1797"]
    assert mil["augmented"] is not None
    # Pole placement moved the short period to 3 rad/s; 1/Ttheta2 (a zero) stays.
    assert mil["augmented"]["cap_theta2"]["omega_sp_rad_s"] == pytest.approx(3.0, rel=1e-9)
    assert mil["augmented"]["cap_theta2"]["inverse_t_theta2_per_s"] == pytest.approx(
        mil["bare"]["cap_theta2"]["inverse_t_theta2_per_s"], rel=1e-9)


def test_dropback_step_equals_cli():
    doc = aerolin.qualities_report(str(P2V7), actuators=["elevator=0.05:25:60"], dropback_step_deg=5)
    assert doc == cli_json("qualities", P2V7, "--actuator", "elevator=0.05:25:60", "--dropback-step", "5",
                           "--json")
    assert doc["mil_std_1797"]["bare"]["dropback"]["limited"] is True


def test_bad_actuator_is_a_value_error():
    with pytest.raises(ValueError, match="an actuator time constant must be > 0"):
        aerolin.qualities_report(str(P2V7), actuators=["elevator=-0.05"])
    with pytest.raises(ValueError, match="a control surface of"):
        aerolin.qualities_report(str(P2V7), actuators=["throttle=0.05"])
    with pytest.raises(ValueError, match="a delay must be at least 0 and at most 1 s"):
        aerolin.qualities_report(str(P2V7), delay=2.0)
