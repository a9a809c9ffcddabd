from __future__ import annotations

import dataclasses
import gc
import json
import sys

import pytest

from greenlint.check.cache import close_all
from greenlint.check.pipeline import run_check
from greenlint.check.runner import FILE_ALLOCATIONS, Backend, _chunks, _preload
from tests.check import cache_entries
from tests.check.conftest import FAKE
from tests.check.fakes import LOG_ENV

TRAIN = """import tensorflow as tf
model = tf.keras.Sequential()
tf.keras.Sequential().fit(x, y, batch_size=4)
for x in xs:
    model2 = tf.keras.models.load_model("m.keras")
"""


def project(tmp_path, files):
    src = tmp_path / "src"
    for name, text in files.items():
        p = src / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return src


def codes(result):
    return sorted((d.path.rsplit("/", 1)[-1], d.span.line, d.code) for d in result.diagnostics)


def test_rules_run_on_predicted_call_sites(tmp_path, config):
    src = project(tmp_path, {"train.py": TRAIN})
    result = run_check([src], config, FAKE)
    assert codes(result) == [
        ("train.py", 3, "GL101"), ("train.py", 3, "GL301"), ("train.py", 5, "GL202")
    ]
    hotspot = next(d for d in result.diagnostics if d.code == "GL101")
    assert hotspot.energy_j == 500.0 and "500 J" in hotspot.message and "from data" in hotspot.message
    assert len(result.callsites_with_predictions) == 4  # Sequential twice, fit, load_model
    assert result.sources[result.files[0]] == TRAIN


def test_the_collector_runs_once_per_analysed_file_then_is_as_before(tmp_path, config):
    src = project(tmp_path, {f"train{i}.py": TRAIN for i in range(3)})
    before = gc.get_threshold(), gc.get_freeze_count()
    during: list[int] = []  # the threshold of each young collection made while the files are checked

    def seen(phase, info):
        if phase == "start" and info["generation"] == 0:
            during.append(gc.get_threshold()[0])

    gc.callbacks.append(seen)
    try:
        run_check([src], config, FAKE)
    finally:
        gc.callbacks.remove(seen)
    assert during.count(FILE_ALLOCATIONS) == 3  # three small files: none reaches the threshold
    assert (gc.get_threshold(), gc.get_freeze_count()) == before


def test_bad_files_become_diagnostics_and_the_run_goes_on(tmp_path, config):
    src = project(
        tmp_path,
        {"ok.py": TRAIN, "broken.py": "def f(:\n", "blob.py": b"\x00\x01binary", "crash.py": "CRASH_THE_ANALYSIS\n"},
    )
    result = run_check([src], config, FAKE)
    by_file = {}
    for d in result.diagnostics:
        by_file.setdefault(d.path.rsplit("/", 1)[-1], []).append(d)
    assert [d.code for d in by_file["broken.py"]] == ["GL001"]
    assert by_file["broken.py"][0].severity == "error"
    assert [d.code for d in by_file["blob.py"]] == ["GL002"]
    assert "internal error" in by_file["crash.py"][0].message
    assert {d.code for d in by_file["ok.py"]} == {"GL101", "GL301", "GL202"}
    assert len(result.errors) == 3


def test_warm_run_reads_the_cache(tmp_path, config, monkeypatch):
    src = project(tmp_path, {"a.py": TRAIN, "b.py": "import tensorflow as tf\ntf.constant(1)\n"})
    log = tmp_path / "analysed.log"
    monkeypatch.setenv(LOG_ENV, str(log))
    cold = run_check([src], config, FAKE)
    assert cold.stats.cache_hits == 0 and len(log.read_text().splitlines()) == 2
    warm = run_check([src], config, FAKE)
    assert warm.stats.cache_hits == 2 and len(log.read_text().splitlines()) == 2
    assert warm.diagnostics == cold.diagnostics and warm.sources == cold.sources
    assert not any(r.held for r in warm.results)  # diagnostics came from the cache: no analysis loaded
    assert warm.callsites_with_predictions == cold.callsites_with_predictions  # loaded from the cache on demand
    assert [d for r in warm.file_results() for d in r.diagnostics] == warm.diagnostics  # each file's findings kept
    assert all(r.held and r.sites for r in warm.results)  # read back once, then held
    assert len(log.read_text().splitlines()) == 2
    # an edit is a miss for that file only
    (src / "b.py").write_text("import tensorflow as tf\nx = 1\ntf.keras.Sequential().fit(x)\n")
    edited = run_check([src], config, FAKE)
    assert edited.stats.cache_hits == 1 and len(log.read_text().splitlines()) == 3
    assert ("b.py", 3, "GL101") in codes(edited)
    # rule settings are applied after the cache: changing them needs no re-analysis
    quiet = run_check([src], dataclasses.replace(config, ignore=("GL1",)), FAKE)
    assert quiet.stats.cache_hits == 2 and not any(d.code == "GL101" for d in quiet.diagnostics)


def test_corrupt_cache_entries_are_misses(tmp_path, config):
    src = project(tmp_path, {"a.py": TRAIN})
    first = run_check([src], config, FAKE)
    close_all()  # as at the end of a process: the write-ahead log is folded back
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["lint.sqlite"]  # the whole cache: one file
    entries = cache_entries.keys(tmp_path / "cache")
    assert len(entries) == 2  # the analysis, its diagnostics under these rule settings
    for key in entries:
        cache_entries.write_raw(tmp_path / "cache", key, b"not JSON")
    again = run_check([src], config, FAKE)
    assert again.stats.cache_hits == 0 and again.diagnostics == first.diagnostics
    assert run_check([src], config, FAKE).stats.cache_hits == 1  # rewritten


def test_failures_are_not_cached(tmp_path, config):
    src = project(tmp_path, {"crash.py": "CRASH_THE_ANALYSIS\n"})
    run_check([src], config, FAKE)
    assert run_check([src], config, FAKE).stats.cache_hits == 0
    broken = Backend(FAKE.analyse_file, "tests.check.fakes:broken_predictor")
    src2 = project(tmp_path, {"a.py": TRAIN})
    result = run_check([src2 / "a.py"], config, broken)
    assert not any(d.code == "GL101" for d in result.diagnostics)  # no energy, but the other rules still run
    assert {d.code for d in result.diagnostics} == {"GL301", "GL202"}
    assert run_check([src2 / "a.py"], config, broken).stats.cache_hits == 0


def test_parallel_equals_serial(tmp_path, config, monkeypatch):
    monkeypatch.setattr("greenlint.check.runner._cpus", lambda: 2)  # `jobs` is capped at the CPUs
    files = {f"m{i:02d}.py": TRAIN if i % 3 else "import tensorflow as tf\ntf.constant(1)\n" for i in range(12)}
    files["bad.py"] = "def f(:\n"
    src = project(tmp_path, files)
    serial = run_check([src], dataclasses.replace(config, no_cache=True), FAKE)
    parallel = run_check([src], dataclasses.replace(config, no_cache=True, jobs=2), FAKE)
    assert parallel.stats.workers == 2 and serial.stats.workers == 1
    assert parallel.diagnostics == serial.diagnostics
    assert parallel.files == serial.files


def test_check_keeps_findings_and_the_analyses_are_read_when_asked(tmp_path, config, monkeypatch):
    """`check` reports findings: neither workers nor a run in one process keep each file's analysis
    to the run's end (memory, and objects the collector walks); a caller asking reads it back."""
    monkeypatch.setattr("greenlint.check.runner._cpus", lambda: 2)
    src = project(tmp_path, {f"m{i:02d}.py": TRAIN.replace("x, y", f"x{i}, y") for i in range(12)})
    serial = run_check([src], dataclasses.replace(config, jobs=1, cache_dir=tmp_path / "serial"), FAKE)
    parallel = run_check([src], dataclasses.replace(config, jobs=2), FAKE)
    assert parallel.stats.workers == 2 and serial.stats.workers == 1 and parallel.diagnostics == serial.diagnostics
    assert not any(r.held for r in parallel.results)  # findings and sources came back, not the analyses
    assert not any(r.held for r in serial.results)  # analysed here: dropped once its findings were found
    assert list(parallel.file_results()) == list(serial.file_results())  # read back from the cache when asked
    assert all(r.sites for r in serial.file_results())


def test_workers_take_long_runs_of_neighbouring_files_first():
    """Neighbouring files import the same project modules, which each worker summarises for
    itself: the first runs are long, and they shrink to runs of at most 16 files, which narrow the
    wait at the end for the run each other worker holds."""
    items = list(range(1000))
    chunks = _chunks(items, 2)
    assert [i for chunk in chunks for i in chunk] == items  # every file once, in order
    sizes = [len(chunk) for chunk in chunks]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] == 250 and sum(sizes[:2]) > 400  # two workers start on nearly half of the files
    assert sizes[-1] <= 16 and len(chunks) < 1000 // 16
    assert _chunks(items[:3], 2) == [[0], [1], [2]]


def test_the_analysis_is_imported_once_before_the_workers_fork(tmp_path, monkeypatch):
    """Each forked worker would otherwise import the analysis' modules for itself; a spec that
    cannot be imported is left for the workers to report per file."""
    (tmp_path / "probe_analysis.py").write_text("def analyse_file(path):\n    raise AssertionError\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "probe_analysis", raising=False)
    _preload(dataclasses.replace(FAKE, analyse_file="probe_analysis:analyse_file"))
    assert "probe_analysis" in sys.modules  # imported, not run
    monkeypatch.delitem(sys.modules, "probe_analysis")
    _preload(dataclasses.replace(FAKE, analyse_file="no_such_module_anywhere:analyse_file"))  # no error


def test_workers_write_their_entries_to_the_one_cache_file(tmp_path, config, monkeypatch):
    """Each worker runs the rules and writes its files' entries itself: a second run finds all."""
    monkeypatch.setattr("greenlint.check.runner._cpus", lambda: 2)
    src = project(tmp_path, {f"m{i:02d}.py": TRAIN.replace("x, y", f"x{i}, y") for i in range(12)})
    cold = run_check([src], dataclasses.replace(config, jobs=2), FAKE)
    assert cold.stats.workers == 2 and cold.stats.cache_hits == 0
    warm = run_check([src], dataclasses.replace(config, jobs=2), FAKE)
    assert warm.stats.cache_hits == 12 and warm.diagnostics == cold.diagnostics
    close_all()
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["lint.sqlite"]
    # per file: its analysis and its diagnostics
    assert len(cache_entries.keys(tmp_path / "cache")) == 12 * 2


def test_noqa_and_per_file_ignores(tmp_path, config):
    src = project(
        tmp_path,
        {
            "a.py": TRAIN.replace("batch_size=4)", "batch_size=4)  # noqa: GL101"),
            "tests/t.py": TRAIN,
            "skip.py": "# greenlint: noqa\n" + TRAIN,
        },
    )
    cfg = dataclasses.replace(config, root=tmp_path, per_file_ignores={"src/tests/*": ("GL2", "GL3")})
    got = codes(run_check([src], cfg, FAKE))
    assert got == [("a.py", 3, "GL301"), ("a.py", 5, "GL202"), ("t.py", 3, "GL101")]
    unused = run_check([src], dataclasses.replace(cfg, extend_select=("GL003",)), FAKE)
    assert not any(d.code == "GL003" for d in unused.diagnostics)
    (src / "a.py").write_text("import tensorflow as tf\ntf.constant(1)  # noqa: GL101\n")
    unused = run_check([src / "a.py"], dataclasses.replace(cfg, extend_select=("GL003",)), FAKE)
    assert [(d.code, d.span.line) for d in unused.diagnostics] == [("GL003", 2)]


def test_notebook_sources_are_cells(tmp_path, config, monkeypatch):
    from tests.check import fakes

    original = fakes.analyse_file

    def analyse_nb(path):
        a = original(path)
        a.cells = ["a = 1\n", "b = 2\n"]
        return a

    monkeypatch.setattr(fakes, "analyse_file", analyse_nb)
    src = project(tmp_path, {"nb.ipynb": "x = 1\n"})
    result = run_check([src], dataclasses.replace(config, no_cache=True), FAKE)
    assert json.dumps(list(result.sources.values())) == json.dumps([["a = 1\n", "b = 2\n"]])


def test_no_such_path(tmp_path, config):
    from greenlint.check.config import ConfigError

    with pytest.raises(ConfigError, match="nope"):
        run_check([tmp_path / "nope"], config, FAKE)


def test_a_broken_rule_is_reported_and_the_others_run(tmp_path, config, monkeypatch):
    from greenlint.rules.small_batch_size import SmallBatchSize

    def boom(self, facts, options):
        raise ValueError("bug")

    monkeypatch.setattr(SmallBatchSize, "check", boom)
    src = project(tmp_path, {"train.py": TRAIN})
    result = run_check([src], dataclasses.replace(config, no_cache=True), FAKE)
    assert ("train.py", 3, "GL101") in codes(result) and ("train.py", 5, "GL202") in codes(result)
    [bug] = [d for d in result.diagnostics if d.code == "GL002"]
    assert "internal error in rule GL301 (ValueError: bug)" in bug.message


def test_a_dead_worker_loses_only_its_file(tmp_path, config):
    files = {f"m{i:02d}.py": TRAIN for i in range(9)}
    files["m04.py"] = "KILL_THE_WORKER\n"
    src = project(tmp_path, files)
    result = run_check([src], dataclasses.replace(config, no_cache=True, jobs=2), FAKE)
    errors = {d.path.rsplit("/", 1)[-1]: d.message for d in result.errors}
    assert list(errors) == ["m04.py"] and "worker process" in errors["m04.py"]
    flagged = {d.path.rsplit("/", 1)[-1] for d in result.diagnostics if d.code == "GL301"}
    assert flagged == {f"m{i:02d}.py" for i in range(9) if i != 4}


def test_analyse_paths_leaves_out_the_links_leading_out_of_its_folder(tmp_path, config):
    """`analyse_paths(within=...)` reads no file through a link leading out of that folder: it is
    listed in `left_out` (`greenlint diff` names it); without *within*, the link is read as `check`
    reads it."""
    from greenlint.check.pipeline import analyse_paths

    outside = tmp_path / "outside.py"
    outside.write_text(TRAIN)
    src = project(tmp_path, {"train.py": TRAIN})
    (src / "out.py").symlink_to(outside)
    kept = analyse_paths([src], config, FAKE, within=src)
    assert kept.left_out == [src / "out.py"]
    assert [f.rsplit("/", 1)[-1] for f in kept.files] == ["train.py"]
    assert not any(r.path.endswith("out.py") for r in kept.file_results())
    every = analyse_paths([src], config, FAKE)
    assert every.left_out == [] and [f.rsplit("/", 1)[-1] for f in every.files] == ["out.py", "train.py"]
