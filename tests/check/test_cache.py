"""The lint cache is one SQLite file of data only: entries are plain JSON records, checked field by
field as they are read, and nothing in one can run code; a file that is not such a cache is reported and replaced, and the run goes on."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import pickle
import sqlite3
import threading
import zlib
from pathlib import Path

import pytest

from greenlint.analysis.callsite import CallSite, Span
from greenlint.analysis.options import OptionRead
from greenlint.check import cache as cache_module
from greenlint.check import records, runner
from greenlint.check.cache import Cache, close_all
from greenlint.check.file_result import FileResult, error_diagnostic, from_record, to_record
from greenlint.check.pipeline import run_check
from greenlint.predict.prediction import Prediction
from greenlint.report.calls import CALLS_SCHEMA_VERSION, callsite_json
from tests.analysis.test_flags_elsewhere import MAIN, TRAINER
from tests.check import cache_entries
from tests.check.conftest import FAKE

TRAIN = "import tensorflow as tf\ntf.keras.Sequential().fit(x, y, batch_size=2)\n"


class _Payload:
    """Unpickling this creates a file: what a planted cache entry could do if it were a pickle."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_a_planted_pickle_is_a_miss_and_never_runs(tmp_path, config):
    (tmp_path / "a.py").write_text(TRAIN)
    first = run_check([tmp_path / "a.py"], config, FAKE)
    marker = tmp_path / "pwned"
    for key in cache_entries.keys(tmp_path / "cache"):
        planted = pickle.dumps(_Payload(str(marker)))
        cache_entries.write_raw(tmp_path / "cache", key, planted if key[0] < "8" else zlib.compress(planted))
    again = run_check([tmp_path / "a.py"], config, FAKE)
    assert not marker.exists()
    assert again.stats.cache_hits == 0 and again.diagnostics == first.diagnostics


def test_a_result_read_from_the_cache_has_its_text_and_project_imports(tmp_path, config, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "helpers.py").write_text("def load():\n    return 1\n")
    (tmp_path / "a.py").write_text("import helpers\n" + TRAIN)
    cold = run_check([Path("a.py")], config)  # the real analysis: its import scan
    warm = run_check([Path("a.py")], config)  # its findings cached: its result read only when asked
    assert warm.stats.cache_hits == 1 and not warm.results[0].held
    (first,), (again,) = cold.file_results(), warm.file_results()
    assert again.source == first.source == "import helpers\n" + TRAIN
    assert again.imports == first.imports == (str(tmp_path / "helpers.py"),)
    assert again.sites == first.sites


def _file_record() -> dict:
    site = {**callsite_json(CallSite("a.py", Span(2, 1, 2, 30), "tensorflow.keras.Model.fit", {"epochs": 3}),
                            Prediction.unknown("n")), "schema_version": CALLS_SCHEMA_VERSION}
    error = records.diagnostic_record(error_diagnostic("a.py", 1, 1, "internal", "boom"))
    return {**to_record(FileResult("a.py")), "sites": [site], "errors": [error]}


@pytest.mark.parametrize(
    ("field", "forged"),
    [
        ("record", "diagnostics"),  # another record's kind
        ("version", 0),  # another version's layout
        ("path", 5),
        ("sites", {"0": 1}),
        ("schema_version", 1),  # a call site of another calls-JSON version
        ("features", ["epochs", 3]),  # an object's place taken by an array
        ("scope", None),  # a call site's enclosing scope is a string
        ("shape", 2),
        ("basis", "made-up"),  # not a Basis
        ("energy_j", "3 J"),
        ("interval_j", [1]),
        ("sources", [1]),
        ("span", [1, 1, 1]),  # a diagnostic's span cut short
        ("severity", None),
        ("lines", [[None, "2", None]]),  # a suppression's line as a string
        ("file_codes", "GL101"),
        ("cells", [1]),
        ("cacheable", 1),
        ("imports", [1]),  # a project import is a path
        ("imports", None),
        ("options", [[2, 4, 2, 17, "epochs"]]),  # an option read cut short
        ("options", [[2, 4, 2, 17, "epochs", "__import__('os')"]]),  # its value not a literal
        ("options", [[2, "4", 2, 17, "epochs", "90"]]),
    ],
)
def test_a_record_with_a_field_of_another_kind_is_invalid(field, forged):
    record = _file_record()
    assert from_record(json.loads(json.dumps(record))).sites  # as written, it reads back
    with pytest.raises(records.InvalidRecord):
        from_record(json.loads(cache_entries.with_field(record, field, forged)))


def test_a_file_record_keeps_its_project_imports_relative_to_its_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = FileResult("pkg/a.py", imports=(str(tmp_path / "lib.py"), str(tmp_path / "pkg" / "b.py")))
    record = json.loads(json.dumps(to_record(result)))
    assert record["imports"] == [os.path.join("..", "lib.py"), "b.py"]
    assert from_record(record).imports == result.imports
    moved = tmp_path / "copy"  # a project copied with its cache: its own files, not the original's
    moved.mkdir()
    monkeypatch.chdir(moved)
    assert from_record(record).imports == (str(moved / "lib.py"), str(moved / "pkg" / "b.py"))


def test_a_file_record_keeps_the_option_defaults_its_analysis_read():
    read = (OptionRead(9, 8, 9, 25, "epochs", 90), OptionRead(12, 4, 12, 20, "sizes", (1, 2.5)))
    assert from_record(json.loads(json.dumps(to_record(FileResult("a.py", options=read))))).options == read  # a tuple stays one
    assert from_record(_file_record()).options == ()


@pytest.mark.parametrize("value", [None, 7, "x", [], {"record": "diagnostics"}, [[["os:system", []]], [0]]])
def test_entries_of_another_shape_are_invalid(value):
    with pytest.raises(records.InvalidRecord):
        from_record(value)
    with pytest.raises(records.InvalidRecord):
        records.read_diagnostics(value)


def test_a_foreign_or_misfiled_entry_is_a_miss(tmp_path):
    cache = Cache(tmp_path, stamp="s")
    cache.put("aa1", {"x": 1})
    cache.flush()
    assert cache.get("aa1") == {"x": 1}
    cache_entries.forge(tmp_path, "aa1", '{"x": 2}', under="aa2")  # a valid entry under another key's name
    assert cache.get("aa2") is None


def _analysed(monkeypatch) -> list[FileResult]:
    """The FileResults a run in this process analyses, as they are made (`check` keeps none)."""
    made: list[FileResult] = []
    analyse = runner.analyse_one
    monkeypatch.setattr(runner, "analyse_one", lambda path, backend: made.append(analyse(path, backend)) or made[-1])
    return made


def test_a_file_result_round_trips(tmp_path, config, monkeypatch):
    (tmp_path / "a.py").write_text(TRAIN + "x = 1  # noqa: GL101\n")
    made = _analysed(monkeypatch)
    run_check([tmp_path / "a.py"], dataclasses.replace(config, no_cache=True), FAKE)
    (result,) = made
    assert isinstance(result, FileResult) and result.sites and result.suppressions.lines
    back = from_record(json.loads(json.dumps(to_record(result))))
    assert back == dataclasses.replace(result, source="")  # a text file's source is its content, read anew


def test_every_entry_a_run_writes_round_trips(tmp_path, config, monkeypatch):
    """File records and diagnostics of a real run with a project module, a
    notebook and findings with fixes are JSON that reads back as what was written; the project
    module's summary (a graph of the resolver's values) is not written at all."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "nets.py").write_text(
        "import tensorflow as tf\nclass Net(tf.keras.Model):\n    def clone(self):\n        return Net()\n"
        "LAYERS = (tf.keras.layers.Dense(4), None, 3)\ndef build():\n    return Net()\n"
    )
    (tmp_path / "train.py").write_text(TRAIN + "from nets import build, LAYERS\nbuild().fit(x, y)  # noqa: GL101\n")
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": ["import tensorflow as tf\n", "tf.debugging.set_log_device_placement(True)\n", "x = 1\n"]}
    (tmp_path / "n.ipynb").write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    written = []
    put = Cache.put
    monkeypatch.setattr(Cache, "put", lambda self, key, value: (written.append(value), put(self, key, value))[1])
    files = [tmp_path / "train.py", tmp_path / "nets.py", tmp_path / "n.ipynb"]
    made = _analysed(monkeypatch)
    run = run_check(files, config, fixes=True)
    kinds = {v.get("record", "?") for v in written}
    assert kinds == {"file", "diagnostics"}, kinds
    assert not any("Net" in json.dumps(v) and v.get("record") not in ("file", "diagnostics") for v in written)
    for value in written:
        assert json.loads(json.dumps(value)) == value  # plain JSON: what is stored is what is read
    results = {r.path: r for r in made}
    for value in (v for v in written if v.get("record") == "file"):
        back = from_record(json.loads(json.dumps(value)))
        assert back == dataclasses.replace(results[back.path], source=back.source)
        assert isinstance(back.source, tuple) == back.path.endswith(".ipynb")
    found = [d for r in run.results for d in r.diagnostics]
    stored = [d for v in written if v.get("record") == "diagnostics" for d in records.read_diagnostics(v)[0]]
    assert any(d.fix and d.fix.edits[0].span.cell == 1 for d in found)  # a fix in a notebook's cell
    assert sorted(map(repr, stored)) == sorted(map(repr, found))


def test_values_it_cannot_hold_are_not_cached(tmp_path):
    cache = Cache(tmp_path, stamp="s")
    cache.put("k", {"f": open})  # a function: no data format holds it
    assert cache.get("k") is None and not cache_entries.keys(tmp_path)


def _damage_pages(file: Path) -> None:
    """Overwrite all of a SQLite file but its 100-byte header: greenlint's own cache, damaged."""
    data = bytearray(file.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)
    file.write_bytes(bytes(data))


def test_greenlint_s_own_damaged_cache_is_named_then_replaced(tmp_path, config, capsys):
    (tmp_path / "a.py").write_text(TRAIN)
    first = run_check([tmp_path / "a.py"], config, FAKE)
    close_all()
    for companion in ("lint.sqlite-wal", "lint.sqlite-shm"):
        (tmp_path / "cache" / companion).unlink(missing_ok=True)
    _damage_pages(tmp_path / "cache" / "lint.sqlite")
    again = run_check([tmp_path / "a.py"], config, FAKE)
    err = capsys.readouterr().err
    assert f"{tmp_path / 'cache' / 'lint.sqlite'}: not a usable lint cache" in err
    assert again.stats.cache_hits == 0 and again.diagnostics == first.diagnostics
    assert run_check([tmp_path / "a.py"], config, FAKE).stats.cache_hits == 1  # the new cache works
    close_all()
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["lint.sqlite"]


def _foreign_database(file: Path) -> None:
    foreign = sqlite3.connect(file)
    foreign.execute("CREATE TABLE notes (text TEXT)")
    foreign.execute("INSERT INTO notes VALUES ('mine')")
    foreign.commit()
    foreign.close()


@pytest.mark.parametrize("make", [
    lambda f: f.write_bytes(b"not a database at all"),
    lambda f: f.write_bytes(b"SQLite format 3\0" + b"\xff" * 200),  # a SQLite header, another program's id
    _foreign_database,
], ids=["text", "other-header", "foreign-database"])
def test_a_file_that_is_not_greenlint_s_cache_is_named_and_left_as_it_is(tmp_path, config, capsys, make):
    """`cache-dir` may point into a user's project: a file at the cache's name that greenlint did not
    make is theirs. It is named, never replaced, and every run goes on without the cache."""
    (tmp_path / "a.py").write_text(TRAIN)
    (tmp_path / "cache").mkdir()
    make(tmp_path / "cache" / "lint.sqlite")
    before = (tmp_path / "cache" / "lint.sqlite").read_bytes()
    first = run_check([tmp_path / "a.py"], config, FAKE)
    again = run_check([tmp_path / "a.py"], config, FAKE)
    close_all()
    err = capsys.readouterr().err
    assert f"{tmp_path / 'cache' / 'lint.sqlite'}: not a greenlint lint cache" in err and "left as it is" in err
    assert first.diagnostics and again.diagnostics == first.diagnostics and again.stats.cache_hits == 0
    assert (tmp_path / "cache" / "lint.sqlite").read_bytes() == before
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["lint.sqlite"]


def test_an_entry_put_is_read_before_it_is_written(tmp_path):
    """A run that reads and puts by turns (the keys of a folder's modules, `rules.beside`) still
    writes its entries in batches: a read finds an entry put but not yet written, and writes nothing."""
    cache = Cache(tmp_path, stamp="s")
    cache.put("k", [1])
    cache.get("other")  # opens the file
    assert cache.get("k") == [1] and cache_entries.keys(tmp_path) == []
    cache.flush()
    assert cache_entries.keys(tmp_path) == ["k"]


def test_an_older_format_is_emptied_without_a_warning(tmp_path, capsys, monkeypatch):
    Cache(tmp_path, stamp="s").put("k", 1)
    close_all()
    monkeypatch.setattr(cache_module, "FORMAT", cache_module.FORMAT + 1)
    cache = Cache(tmp_path, stamp="s")
    assert cache.get("k") is None and capsys.readouterr().err == ""
    cache.put("k", 2)
    cache.flush()
    assert cache.get("k") == 2


def _write_many(directory: str, start: int) -> None:
    cache = Cache(Path(directory), stamp="s")
    for i in range(start, start + 200):
        cache.put(f"k{i}", {"i": i, "text": "x" * 500})
    cache.flush()  # a pool's worker exits without running atexit: what the runner's workers do too


def test_concurrent_writers_lose_nothing(tmp_path):
    """Processes writing the same cache at once (parallel runs, worker processes) wait for each other."""
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        pool.starmap(_write_many, [(str(tmp_path), s) for s in range(0, 800, 200)])
    cache = Cache(tmp_path, stamp="s")
    assert all(cache.get(f"k{i}") == {"i": i, "text": "x" * 500} for i in range(800))


class _Interleaved(sqlite3.Connection):
    """A connection that runs `between` once, right before it reads `PRAGMA user_version`: after
    it has read the file's application_id, as if another process ran in between."""

    between = None

    def execute(self, sql, *args):
        hook = type(self).between
        if hook is not None and sql == "PRAGMA user_version":
            type(self).between = None
            hook()
        return super().execute(sql, *args)


def test_a_cache_another_run_creates_meanwhile_is_not_judged_foreign(tmp_path, monkeypatch, capsys):
    """The race of two runs creating the cache: one reads the new, empty file's application_id
    (0), the other then creates the cache; the first must not judge the now non-empty file
    foreign and replace it (the other's entries lost). Deterministic: the other run is started
    exactly in between, and given a second to finish (it waits where the header is read in one
    transaction)."""
    real_connect = sqlite3.connect

    def other_run():
        thread = threading.Thread(target=lambda: Cache._open(tmp_path / "lint.sqlite").close())
        thread.start()
        thread.join(timeout=1.0)
        started.append(thread)

    started: list[threading.Thread] = []
    monkeypatch.setattr(_Interleaved, "between", other_run)
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real_connect(*a, **k, factory=_Interleaved))
    cache = Cache(tmp_path, stamp="s")
    cache.put("k", [1])
    cache.flush()
    assert cache.get("k") == [1]
    started[0].join()
    close_all()
    assert "not a usable lint cache" not in capsys.readouterr().err
    assert Cache(tmp_path, stamp="s").get("k") == [1]


def test_a_cache_another_connection_is_writing_still_opens(tmp_path):
    """A cache file not yet in WAL mode while another run holds a write transaction on it (as its
    creator does, or its first flush): SQLite refuses the switch to WAL at once ("database is
    locked", without the busy wait); opening waits for the writer instead of running without a
    cache (the entries it would write then lost)."""
    file = tmp_path / "lint.sqlite"
    made = sqlite3.connect(file, isolation_level=None, check_same_thread=False)
    made.execute(cache_module.SCHEMA)
    made.execute(f"PRAGMA application_id = {cache_module.APPLICATION_ID}")
    made.execute(f"PRAGMA user_version = {cache_module.FORMAT}")
    made.execute("BEGIN IMMEDIATE")  # a reserved lock, held
    committing = threading.Event()

    def commit():
        committing.set()
        made.execute("COMMIT")

    release = threading.Timer(0.3, commit)  # the writer's transaction outlasts a refusal at once
    release.start()
    db = Cache._open(file)
    assert committing.is_set()  # it waited for the writer, then switched (by the event, not the clock: load stretches both)
    release.join()
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    made.close()


def _create_and_write(directory: str, start_at: float, first: int) -> str:
    """Wait until *start_at*, then open a new cache in *directory* and write 50 entries; what the
    process printed on stderr."""
    import contextlib
    import io
    import time

    err = io.StringIO()
    time.sleep(max(0.0, start_at - time.time()))
    with contextlib.redirect_stderr(err):
        cache = Cache(Path(directory), stamp="s")
        for i in range(first, first + 50):
            cache.put(f"k{i}", i)
        cache.flush()
        close_all()
    return err.getvalue()


def test_processes_creating_the_cache_at_once_agree(tmp_path):
    """Four processes open a cache that does not exist yet at the same instant, ten times over:
    none judges another's new file foreign, no entry is lost."""
    import time

    with multiprocessing.get_context("spawn").Pool(4) as pool:
        pool.starmap(_create_and_write, [(str(tmp_path / "warm-up"), 0.0, 50 * k) for k in range(4)])
        for round_ in range(10):
            folder = tmp_path / f"round{round_}"
            start_at = time.time() + 0.3
            errs = pool.starmap(_create_and_write, [(str(folder), start_at, 50 * k) for k in range(4)])
            assert all("not a usable lint cache" not in e for e in errs), errs
            cache = Cache(folder, stamp="s")
            assert [i for i in range(200) if cache.get(f"k{i}") != i] == [], round_


def test_a_cache_folder_that_cannot_be_made_only_costs_speed(tmp_path, config):
    (tmp_path / "a.py").write_text(TRAIN)
    (tmp_path / "blocker").write_text("a file where the cache folder's parent should be")
    blocked = dataclasses.replace(config, cache_dir=tmp_path / "blocker" / "cache")
    first = run_check([tmp_path / "a.py"], blocked, FAKE)
    again = run_check([tmp_path / "a.py"], blocked, FAKE)
    assert first.diagnostics and again.diagnostics == first.diagnostics and again.stats.cache_hits == 0


def test_a_told_gpu_has_its_own_cache_entries():
    """`--device` changes every figure: a cache entry of the reference figures is never reused for it."""
    from greenlint.check.cache import environment_stamp

    plain = environment_stamp(None)
    assert environment_stamp(None, "NVIDIA GeForce RTX 3090") not in (plain, environment_stamp(None, "NVIDIA Tesla T4"))


def test_the_rules_codes_are_in_the_environment_stamp(tmp_path, monkeypatch):
    """Which rules run on a file is read from rules/codes.json: a new codes.json (a rule's `CALLS`
    or default changed) is a new environment, whose cached diagnostics are not reused; the package's
    other data files (measured.json: docs only) are not."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "base.py").write_text("")
    codes = tmp_path / "rules" / "codes.json"
    monkeypatch.setattr(cache_module, "PACKAGE_DIR", tmp_path)

    def stamp() -> str:
        cache_module.environment_stamp.cache_clear()
        return cache_module.environment_stamp(None)

    codes.write_text("{}\n")
    first = stamp()
    (tmp_path / "rules" / "measured.json").write_text("{}\n")
    assert stamp() == first
    codes.write_text('{"GL101": {}}\n')
    assert stamp() != first
    cache_module.environment_stamp.cache_clear()


#: The real analysis, the fake predictor (500 J a `fit`).
FAKE_PRICES = runner.Backend(load_predictor="tests.check.fakes:load_predictor", preload=())


def test_rules_run_on_a_cached_analysis_read_the_option_defaults_it_kept(tmp_path, config, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "trainer.py").write_text(TRAINER)
    (tmp_path / "main.py").write_text(MAIN)
    messages = []
    for select in (("GL101",), ("GL308",)):  # the second run's rules differ: the analysis comes from the cache
        run = run_check([Path("trainer.py")], dataclasses.replace(config, select=select), FAKE_PRICES)
        messages.append([d.message for d in run.diagnostics if d.code == "GL308"])
    assert run.stats.cache_hits == 1 and run.stats.analysed == 0
    assert messages[0] == [] and len(messages[1]) == 1 and "the default of `--epochs`" in messages[1][0]
