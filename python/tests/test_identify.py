"""aerolin.identify is `aerolin identify --json` (one truth), and its errors."""

import pytest

import aerolin
from conftest import P2V7, SOURCE, cli_json, run_cli

FREE = ["longitudinal.Ma", "longitudinal.Mq", "controls.elevator.M"]


@pytest.fixture
def flight(work):
    csv = work / "flight.csv"
    run_cli("simulate", P2V7, "--script", SOURCE / "examples" / "scripts" / "c_elevator_3211.txt",
            "--duration", 45, "--dt", 0.05, "--integrator", "exact", "--csv", csv,
            "--noise", "u=0.05,alpha=0.001,q=0.001,theta=0.001")
    return csv


@pytest.mark.parametrize("method", ["output-error", "equation-error"])
def test_identify_is_the_cli_json(flight, method):
    ours = aerolin.identify(str(P2V7), str(flight), "longitudinal", FREE, method=method)
    cli = cli_json("identify", P2V7, "--flight", flight, "--axis", "longitudinal", "--free", ",".join(FREE),
                   "--method", method, "--json")
    assert ours["schema"] == "aerolin.identify/1"
    assert ours["estimates"] == cli["estimates"]
    assert ours["modes"] == cli["modes"]
    assert ours["levels"] == cli["levels"]


def test_identify_takes_a_loaded_aircraft(flight, p2v7):
    by_path = aerolin.identify(str(P2V7), str(flight), "longitudinal", FREE, fix_x0=True, fix_bias=True)
    by_object = aerolin.identify(p2v7, str(flight), "longitudinal", FREE, fix_x0=True, fix_bias=True)
    assert by_path["estimates"] == by_object["estimates"]
    assert [e["key"] for e in by_path["estimates"]] == FREE  # x0 and biases fixed


def test_identify_errors(flight):
    with pytest.raises(ValueError, match="'longitudinal.Mx' is not a key of the file"):
        aerolin.identify(str(P2V7), str(flight), "longitudinal", ["longitudinal.Mx"])
    with pytest.raises(ValueError, match="method must be"):
        aerolin.identify(str(P2V7), str(flight), "longitudinal", FREE, method="least-squares")
    with pytest.raises(aerolin.DataError, match="the flight cannot identify controls.aileron.L"):
        aerolin.identify(str(P2V7), str(flight), "lateral", ["controls.aileron.L"])


def test_identify_reads_any_csv_through_columns(flight, work):
    # The flight with its angles in degrees under other names: the same estimates.
    import csv
    import math
    with open(flight) as f:
        rows = list(csv.reader(f))
    renamed = {"alpha": "AoA_deg", "q": "pitch_rate_dps", "theta": "Theta_deg"}
    header = [renamed.get(name, name) for name in rows[0]]
    foreign = work / "foreign.csv"
    with open(foreign, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in rows[1:]:
            w.writerow([repr(float(v) * 180 / math.pi) if name in renamed else v for name, v in zip(rows[0], row)])
    ours = aerolin.identify(str(P2V7), str(flight), "longitudinal", FREE)
    mapped = aerolin.identify(str(P2V7), str(foreign), "longitudinal", FREE,
                              columns={"alpha": "AoA_deg:deg", "q": "pitch_rate_dps:deg/s", "theta": "Theta_deg:deg"})
    for a, b in zip(ours["estimates"], mapped["estimates"]):
        assert a["key"] == b["key"]
        assert b["value"] == pytest.approx(a["value"], rel=1e-9)
        assert b["std_error"] == pytest.approx(a["std_error"], rel=1e-9)
    with pytest.raises(ValueError, match="deg is not a unit of u"):
        aerolin.identify(str(P2V7), str(foreign), "longitudinal", FREE, columns={"u": "u:deg"})
    with pytest.raises(aerolin.DataError, match="no column 'alpha'"):
        aerolin.identify(str(P2V7), str(foreign), "longitudinal", FREE)
