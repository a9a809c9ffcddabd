"""`greenlint calls` and its JSON contract (docs/calls-json.md), on fake resolver/predictor output."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from greenlint.analysis.callsite import CallSite, Runs, Span
from greenlint.check.runner import Backend
from greenlint.cli import build_parser
from greenlint.cli.calls_cmd import collect, write
from greenlint.predict import load_predictor
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.report.calls import CALLS_SCHEMA_VERSION, calls_json, calls_table, held_line, startup_line

DOC = Path(__file__).resolve().parents[2] / "docs" / "calls-json.md"
FAKE = Backend("tests.report.fakes:analyse_file", "tests.report.fakes:load_predictor")

FIT = CallSite("b.py", Span(3, 5, 3, 30), "tensorflow.keras.Sequential.fit", {"epochs": 5, "input_shape": (28, 28)})
NB = CallSite("a.ipynb", Span(2, 1, 2, 20, cell=2), "tensorflow.constant", {})
EARLY = CallSite("b.py", Span(1, 1, 1, 9), "tensorflow.ones", {"tensor_bytes": 4096})
MEASURED = Prediction(12.5, (5.0, 40.0), 10.0, None, 2.5, Basis.FROM_DATA,
                      Evidence(records=7, api="tensorflow.keras.Sequential.fit", level="api", sources=("fecom",)),
                      multiplier=0.5)


def _doc_fields() -> set[str]:
    """The field names in the first column of the doc's "## Fields" table."""
    section = DOC.read_text(encoding="utf-8").split("## Fields", 1)[1].split("\n### ", 1)[0]
    return {name for row in re.findall(r"^\| (`[^|]+)\|", section, re.M) for name in re.findall(r"`(\w+)`", row)}


def test_objects_are_ordered_and_complete():
    objects = calls_json([(FIT, MEASURED), (NB, None), (EARLY, MEASURED)])
    assert [(o["path"], o["cell"], o["line"]) for o in objects] == [("a.ipynb", 2, 2), ("b.py", None, 1), ("b.py", None, 3)]
    fit = objects[2]
    assert fit == {
        "schema_version": CALLS_SCHEMA_VERSION, "path": "b.py", "line": 3, "column": 5, "end_line": 3,
        "end_column": 30, "cell": None, "api": "tensorflow.keras.Sequential.fit",
        "features": {"epochs": 5, "input_shape": (28, 28)}, "energy_j": 12.5, "interval_j": [5.0, 40.0],
        "cpu_j": 10.0, "gpu_j": None, "ram_j": 2.5, "multiplier": 0.5, "basis": "from-data",
        "evidence": {"records": 7, "api": "tensorflow.keras.Sequential.fit", "level": "api",
                     "sources": ["fecom"], "note": None},
        "interval_ratio": 8.0, "forecast": None, "profile": None, "floor": False,
        "work": {}, "runs": {"count": None, "bound": "unknown", "note": None}, "scope": "", "shape": "",
            "calibration": None,
    }


def test_no_prediction_is_unknown_with_null_energy():
    nb = calls_json([(NB, None)])[0]
    assert nb["basis"] == "unknown"
    assert all(nb[k] is None for k in ("energy_j", "interval_j", "cpu_j", "gpu_j", "ram_j"))


def test_the_doc_lists_exactly_the_fields_produced():
    produced = set(calls_json([(FIT, MEASURED)])[0])
    assert _doc_fields() == produced
    assert f"**Schema version: {CALLS_SCHEMA_VERSION}.**" in DOC.read_text(encoding="utf-8")


def _table(pairs) -> str:
    from rich.console import Console

    console = Console(file=io.StringIO(), width=200)
    console.print(calls_table(pairs))
    return console.file.getvalue()


def test_a_floor_reads_from_its_figure_as_the_editor_and_the_report_read_it():
    """A floor's interval starts below its figure (the least the code allows): the table's energy and
    total start at the figure, as the hover's 'at least', the hint and the energy report's total do."""
    from dataclasses import replace

    floor = replace(MEASURED, energy_j=190.0, interval_j=(126.0, 3.64e7), floor=True)
    looped = CallSite("b.py", Span(3, 5, 3, 30), FIT.api, FIT.features, runs=Runs(count=8, bound="exact"))
    text = _table([(looped, floor)])
    assert "190 J – 36.4 MJ" in text and "1.52 kJ – 291 MJ" in text  # energy, then × 8
    assert "1.01 kJ" not in text  # 8 × the interval's low end, below 8 × the floor
    assert "126 J" not in text  # nor does the interval column start below the floor


def test_a_floors_interval_in_the_energy_report_starts_at_its_figure():
    from dataclasses import replace

    from greenlint.report.html import rows

    floor = replace(MEASURED, energy_j=190.0, interval_j=(126.0, 3.64e7), floor=True)
    looped = CallSite("b.py", Span(3, 5, 3, 30), FIT.api, FIT.features, runs=Runs(count=8, bound="exact"))
    (row,) = rows([(looped, floor)])
    assert row.interval_j == (190.0 * 8, 3.64e7 * 8)


def test_table_shows_location_energy_and_basis():
    text = _table([(FIT, MEASURED), (NB, None)])
    assert "b.py:3:5" in text and "a.ipynb:cell 2:2:1" in text
    assert "12.5 J" in text and "5 J – 40 J" in text
    assert "from data" in text and "unknown" in text  # the labels people read, not the JSON values
    assert "from-data" not in text and "measured" not in text


def test_a_symbolic_call_reads_0_j_at_its_line_not_a_range():
    """A layer called on Keras symbolic tensors does no work at its line (it read `0 J – 0 J` twice)."""
    layer = CallSite("d.py", Span(4, 5, 4, 30), "tensorflow.keras.layers.Dense.__call__", {"symbolic": True})
    [row] = [line for line in _table([(layer, Prediction.symbolic("functional API"))]).splitlines() if "d.py" in line]
    assert "0 J – 0 J" not in row and "0 J" in row and "counted where it runs" in row
    assert re.search(r"\s-\s+counted where it runs", row)  # no interval: there is no work here to bound


def test_table_shows_loops_ranges_and_stale_profiles():
    in_loop = CallSite("c.py", Span(4, 5, 4, 30), "tensorflow.keras.Sequential.fit", {"loop_multiplier": 8},
                       runs=Runs(count=8, bound="exact", note=None))
    # an inner loop of unknown length inside a 3-trip loop: the count is unknown, not the outer 3
    unknown = CallSite("c.py", Span(7, 9, 7, 30), "tensorflow.keras.Sequential.fit",
                       {"loop_multiplier": 3, "loop_unbounded": True})
    wide = Prediction(2.0, (0.1, 400.0), None, None, None, Basis.PREDICTED)  # 4000x wide: the range is the figure
    stale = Prediction(3.0, (2.0, 4.0), None, None, None, Basis.FROM_DATA, profile={"median_j": 9.0, "stale": True})
    lines = _table([(in_loop, wide), (unknown, wide), (EARLY, stale)]).splitlines()
    [row] = [line for line in lines if "c.py:4:5" in line]
    assert "0.1 J – 400 J" in row and "× 8" in row and "0.8 J – 3.2 kJ" in row and "predicted" in row
    [row] = [line for line in lines if "c.py:7:9" in line]
    assert "× ?" in row and "× 3" not in row and "0.3 J" not in row  # no total from the outer loop alone
    [row] = [line for line in lines if "b.py:1:1" in line]
    assert "3 J" in row and "from data, profile stale" in row


def _args(*argv: str):
    return build_parser().parse_args(["calls", *argv])


@pytest.fixture
def project(tmp_path):
    (tmp_path / "train.py").write_text("import tensorflow as tf\nx = tf.ones([2])\ny = tf.unknown.op(x)\n")
    (tmp_path / "broken.py").write_text("SYNTAX ERROR\n")
    (tmp_path / "notes.txt").write_text("tf.ones(1)\n")
    return tmp_path


def test_collect_and_write_json(project, monkeypatch):
    monkeypatch.chdir(project)
    result = collect(_args(".", "--isolated", "--no-cache", "-j", "1", "--format", "json"), backend=FAKE)
    out = io.StringIO()
    write(result, "json", out)
    objects = json.loads(out.getvalue())["call_sites"]
    assert [(o["path"], o["line"], o["column"], o["end_column"], o["api"]) for o in objects] == [
        ("train.py", 2, 5, 17, "tensorflow.ones"),
        ("train.py", 3, 5, 21, "tensorflow.unknown.op"),
    ]
    assert objects[0]["energy_j"] == len("tensorflow.ones") and objects[0]["basis"] == "from-data"
    assert objects[1]["energy_j"] is None and objects[1]["basis"] == "unknown"
    assert [e.path for e in result.errors] == ["broken.py"]


def test_write_text_summary(project, monkeypatch):
    monkeypatch.chdir(project)
    result = collect(_args(".", "--isolated", "--no-cache", "-j", "1"), backend=FAKE)
    out = io.StringIO()
    write(result, "text", out)
    assert "train.py:2:5" in out.getvalue()
    assert "2 call sites in 1 of 2 files; 1 with an energy figure.\n" in out.getvalue()
    # the fake's figure: 15 J, 80% interval 7.5 J – 30 J (4× wide)
    figures, startup, held = out.getvalue().rstrip().splitlines()[-3:]
    assert figures == ("Figures: 1 point, their 80% interval 4× wide at the median, 0.0% wider than 100×, 0.0% wider "
                       "than 1000× (goals ≤ 30×, under 5%).")
    assert startup == startup_line(load_predictor(overlay=False).startup())  # what a program pays once beside its calls
    assert held == held_line(load_predictor(overlay=False).held(2), 2)  # and the device its two call sites hold


def test_write_json_gives_the_start_up_and_held_device_beside_the_call_sites(project, monkeypatch):
    monkeypatch.chdir(project)
    result = collect(_args(".", "--isolated", "--no-cache", "-j", "1"), backend=FAKE)
    out = io.StringIO()
    write(result, "json", out)
    doc = json.loads(out.getvalue())
    assert set(doc) == {"schema_version", "call_sites", "startup", "held"} and doc["schema_version"] == CALLS_SCHEMA_VERSION
    assert len(doc["call_sites"]) == 2
    start, held = load_predictor(overlay=False).startup(), load_predictor(overlay=False).held(2)
    assert doc["startup"] == json.loads(json.dumps(start.to_json()))
    assert doc["held"]["energy_j"] == pytest.approx(held.energy_j) and "2 call sites" in doc["held"]["evidence"]["note"]


def test_write_json_has_no_program_figures_without_a_call_figure(project, monkeypatch):
    monkeypatch.chdir(project)
    (project / "unknown.py").write_text("import tensorflow as tf\ny = tf.unknown.op(x)\n")
    result = collect(_args("unknown.py", "--isolated", "--no-cache", "-j", "1"), backend=FAKE)
    out = io.StringIO()
    write(result, "json", out)
    doc = json.loads(out.getvalue())
    assert len(doc["call_sites"]) == 1 and doc["startup"] is None and doc["held"] is None


def test_the_start_up_note_gives_the_shipped_models_figure_and_where_it_comes_from():
    from greenlint.units import fmt_j, fmt_range

    start = load_predictor(overlay=False).startup()
    note = startup_line(start)
    assert note.startswith(f"Beside its calls, a program pays its start-up once at `import tensorflow`: "
                           f"{fmt_j(start.energy_j)} ({fmt_range(*start.interval_j)}; from data: ")
    assert "whole-program runs" in note


def test_the_held_device_note_prices_the_listed_call_sites_from_the_shipped_model():
    from greenlint.units import fmt_j, fmt_range

    held = load_predictor(overlay=False).held(12)
    note = held_line(held, 12)
    assert note.startswith(f"While it runs, a program also holds the device between its calls: {fmt_j(held.energy_j)} "
                           f"for these 12 call sites ({fmt_range(*held.interval_j)}; from data: 12 call sites × ")
    assert held.energy_j == pytest.approx(2 * load_predictor(overlay=False).held(6).energy_j)  # per call site


def test_cli_missing_path_is_an_error(tmp_path, monkeypatch, capsys):
    from greenlint.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["calls", "nowhere", "--isolated", "--no-cache"]) == 2
    assert "nowhere" in capsys.readouterr().err


def test_test_case_assertions_are_left_out_unless_asked():
    class Result:
        files = ["t.py"]
        calibration = None
        callsites_with_predictions = [
            (CallSite("t.py", Span(3, 9, 3, 30), "tensorflow.test.TestCase.assertAllClose", {}), MEASURED),
            (CallSite("t.py", Span(4, 9, 4, 30), "tensorflow.test.TestCase.evaluate", {}), MEASURED),
        ]

    for include, apis in ((False, ["tensorflow.test.TestCase.evaluate"]),
                          (True, ["tensorflow.test.TestCase.assertAllClose", "tensorflow.test.TestCase.evaluate"])):
        out = io.StringIO()
        write(Result(), "json", out, include_test_asserts=include)
        assert [o["api"] for o in json.loads(out.getvalue())["call_sites"]] == apis


def test_device_flag_prices_on_the_told_gpu_and_refuses_an_unknown_one(tmp_path, capsys):
    """`calls --device` reaches the predictor the run loads (the real one: a keras.applications `fit`)."""
    from greenlint.cli.calls_cmd import run

    (tmp_path / "t.py").write_text(
        "import numpy as np\nfrom tensorflow import keras\nx = np.zeros((2000, 128, 128, 3))\ny = np.zeros((2000, 1))\n"
        "m = keras.applications.VGG16(include_top=False, input_shape=(128, 128, 3))\nm.compile(loss='mse')\n"
        "m.fit(x, y, epochs=3, batch_size=32)\n")
    figures = {}
    for flag in ((), ("--device", "RTX 3090")):
        assert run(_args(str(tmp_path / "t.py"), "--isolated", "--no-cache", "--format", "json", *flag)) == 0
        [fit] = [o for o in json.loads(capsys.readouterr().out)["call_sites"] if o["api"].endswith(".fit")]
        figures[flag] = fit
    told = figures[("--device", "RTX 3090")]
    assert "RTX 3090 (told)" in told["evidence"]["note"] and told["energy_j"] != figures[()]["energy_j"]
    assert run(_args(str(tmp_path / "t.py"), "--isolated", "--no-cache", "--device", "RTX 3090")) == 0
    assert "priced on the NVIDIA GeForce RTX 3090 (told" in capsys.readouterr().out  # the text names the device
    assert run(_args(str(tmp_path / "t.py"), "--isolated", "--device", "RTX 9999")) == 2
    assert "--device: unknown device 'RTX 9999'" in capsys.readouterr().err


def test_calls_runs_no_rule_and_still_judges_the_configuration(tmp_path, monkeypatch, capsys):
    """`calls` reports call sites and file errors, never findings: no rule runs (one that would fail
    leaves no trace, where `check` reports it), and a configuration naming no rule is an error, as in `check`."""
    from greenlint.cli.calls_cmd import run
    from greenlint.rules.registry import all_rules

    def broken(self, facts, options):
        raise RuntimeError("a rule ran")

    for rule in all_rules().values():
        monkeypatch.setattr(rule, "check", broken)
    (tmp_path / "t.py").write_text("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=3)\n")
    monkeypatch.chdir(tmp_path)
    assert run(_args("t.py", "--no-cache", "-j", "1", "--format", "json")) == 0
    out = capsys.readouterr()
    assert "tensorflow.keras.Sequential.fit" in out.out and "a rule ran" not in out.err
    (tmp_path / "pyproject.toml").write_text('[tool.greenlint]\nselect = ["GL999"]\n')
    assert run(_args("t.py", "--no-cache", "-j", "1")) == 2
    assert "`GL999` matches no greenlint rule code" in capsys.readouterr().err
