"""Open documents' analyses: call sites with predictions and diagnostics, one document version at a time.

`analyse_text` composes the check package's public steps (resolver, predictor, rules and
suppressions) for an in-memory file or notebook. `Analyses` runs it in the background, as
ruff_server does (docs/design.md): one analysis in flight per document, on an immutable `Snapshot`
of one version; scheduling a newer version cancels the older one (moot work is dropped, not
queued); the last finished analysis, and the last one that parsed, stay for requests to answer from.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import itertools
import logging
import multiprocessing
import os
import pickle
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.project import project_index
from greenlint.analysis.sources import split_lines
from greenlint.check.config import Config, ConfigError, load_config
from greenlint.check.file_result import FileResult, error_diagnostic, from_analysis, internal_error
from greenlint.check.pipeline import apply_rules
from greenlint.check.selection import Selector
from greenlint.fix.engine import Outline, attach_fixes, outline
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site

log = logging.getLogger(__name__)

#: The code of a file that does not parse.
SYNTAX_ERROR = "GL001"


@dataclass(frozen=True)
class Snapshot:
    """One version of a document, as an analysis sees it."""

    uri: str  # a file's, or a notebook's
    version: int | None
    text: str  # a notebook's code cells joined by join_cells
    path: Path
    cell_offsets: tuple[int, ...] | None = None  # notebooks: the first line of each code cell in `text`
    #: (uri, version) of each text document joined: the file itself, or each Python cell in order.
    documents: tuple[tuple[str, int | None], ...] = ()


@dataclass(frozen=True)
class Analysis:
    """One analysed version of one document: its text, the configuration it was read under, and
    the file's result."""

    uri: str
    version: int | None
    text: str
    config: Config
    #: The file's result, as `check` and `diff` have it: its sites the PackedSites an analysis sent
    #: (any sequence where made otherwise), its source a notebook's code cells as the analysis read
    #: them, its diagnostics published without fixes.
    result: FileResult
    config_error: str | None = None  # the configuration could not be used; defaults were
    cell_offsets: tuple[int, ...] | None = None
    documents: tuple[tuple[str, int | None], ...] = ()
    outline: Outline | None = None  # a file's top-level statements, where fixes are computed
    generation: int = 0  # of the project's files it was made under (`Analyses.files_changed`)

    @property
    def sites(self) -> Sequence[Site]:
        return self.result.sites

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return self.result.diagnostics

    @property
    def cells(self) -> tuple[str, ...] | None:
        """A notebook's code cells, as the analysis read them (None for a file)."""
        return self.result.source if isinstance(self.result.source, tuple) else None

    @property
    def parsed(self) -> bool:
        return not any(d.code == SYNTAX_ERROR for d in self.diagnostics)

    def with_fix(self, d: Diagnostic) -> Diagnostic:
        """*d*, one of this analysis' findings, with its fix: computed when a code action asks,
        from the statement holding it (diagnostics are published without fixes)."""
        source = self.text if self.cells is None else self.cells
        return attach_fixes([d], source, self.config.line_length, self.outline)[0]


def join_cells(cells: list[str]) -> tuple[str, tuple[int, ...]]:
    """A notebook's code cells as one text, and the line where each starts (the resolver's cell_offsets)."""
    offsets, line = [], 0
    for cell in cells:
        offsets.append(line)
        line += len(split_lines(cell))
    return "\n".join(cells), tuple(offsets)


class Cancelled(Exception):
    """A newer version made this analysis moot."""


def analyse_text(
    text: str,
    path: str,
    config: Config,
    predict: Callable,
    cell_offsets: tuple[int, ...] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    fixes: bool = False,
) -> FileResult:
    """The result of one in-memory file (or notebook: its code cells joined, with `cell_offsets`;
    spans then name their cell, and the cells are its `source`): call sites with predictions, and
    diagnostics (suppressions applied; with their fixes with `fixes`). Raises Cancelled once
    `cancelled()` is true: between steps, and within the resolver's walk before each statement."""
    enabled = Selector(config).for_file(path)  # raises ConfigError for codes matching no rule
    offsets = None if cell_offsets is None else list(cell_offsets)

    def checkpoint() -> None:  # the resolver calls it before each statement
        if cancelled():
            raise Cancelled

    resolved = analyse_source(text, path=path, cell_offsets=offsets, checkpoint=checkpoint)
    result = from_analysis(resolved, predict)
    if cancelled():
        raise Cancelled
    return replace(result, diagnostics=tuple(apply_rules(result, config, enabled, fixes)))


def usable_config(config: Config) -> Config:
    """*config* without the rule codes that match no rule (an editor's `greenlint.ignore` may name
    one): the analysis reports them once (its configuration error) and leaves them out."""
    from greenlint.rules.codes import table

    rules = table()

    def known(codes):
        return tuple(c for c in codes if c == "ALL" or any(code.startswith(c) for code in rules))

    select = None if config.select is None else (known(config.select) or None)
    per_file = {pattern: known(codes) for pattern, codes in config.per_file_ignores.items()}
    return dataclasses.replace(config, select=select, extend_select=known(config.extend_select),
                               ignore=known(config.ignore), per_file_ignores=per_file)


@dataclass(frozen=True)
class ConfigLookup:
    """How the server finds its configuration (`greenlint lsp --config/--isolated`)."""

    config_file: Path | None = None
    isolated: bool = False


def file_config(path: Path, lookup: ConfigLookup = ConfigLookup()) -> tuple[Config, str | None]:
    """The nearest `[tool.greenlint]` for `path` (or the --config file); defaults and the error if unusable."""
    try:  # looked up from the directory: the document may not be on disk (yet)
        return load_config([path.parent], config_file=lookup.config_file, isolated=lookup.isolated), None
    except ConfigError as exc:
        return Config(root=path.parent if path.is_absolute() else Path.cwd()), str(exc)


def unusable_path(path: Path) -> str | None:
    """Why the system cannot look `path` up (a name longer than it allows, a NUL byte), or None:
    the analysis reads the configuration and profiles beside the file."""
    try:
        path.exists()  # the document need not be on disk: only whether it could be looked up
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        longest = max((len(os.fsencode(part)) for part in path.parts), default=0)
        return (f"its path cannot be used on this system ({reason}: {len(os.fsencode(str(path))):,} bytes, "
                f"the longest name {longest:,} bytes); rename or move the file")
    return None


#: Every this many analyses the frozen objects are collected too (cycles among them would otherwise stay).
THAW_EVERY = 100
_settled = itertools.count(1)


def _settle_garbage() -> None:
    """Collect this analysis' garbage, then exempt what lives on (predictor, analyses) from later
    collections: a full collection over them costs ~100 ms, which would land in a request's latency.
    Old analyses are records freed by reference counting once replaced; once in a while everything
    is collected again, after an analysis rather than during a request."""
    if next(_settled) % THAW_EVERY == 0:
        gc.unfreeze()
    gc.collect()
    gc.freeze()


class PackedSites(Sequence):
    """An analysis' call sites, sent from its process as one pickled blob and rebuilt on first use:
    the server publishes the diagnostics before it rebuilds the ~6,000 sites of a 10,000-line file
    (~50 ms). Compares as the tuple of its sites."""

    __slots__ = ("_sites", "_blob", "_count")

    def __init__(self, sites: tuple[Site, ...]):
        self._sites: tuple[Site, ...] | None = sites
        self._blob: bytes | None = None
        self._count = len(sites)

    def __reduce__(self):
        return _sent_sites, (pickle.dumps(self._load(), pickle.HIGHEST_PROTOCOL), self._count)

    def _load(self) -> tuple[Site, ...]:
        if self._sites is None:
            self._sites = pickle.loads(self._blob or b"")
        return self._sites

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        return self._load()[index]

    def __iter__(self) -> Iterator[Site]:
        return iter(self._load())

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, str) and self._load() == tuple(other)

    def __hash__(self) -> int:
        return hash(self._load())


def _sent_sites(blob: bytes, count: int) -> PackedSites:
    """The sites an analysis process sent, not unpickled yet."""
    packed = PackedSites.__new__(PackedSites)
    packed._sites, packed._blob, packed._count = None, blob, count
    return packed


class Done(NamedTuple):
    """What one analysis sends back."""

    result: FileResult  # shippable (no tree), its sites packed
    config_error: str | None
    ms: float  # wall-clock milliseconds
    cpu_ms: float  # the analysing thread's CPU milliseconds
    failure: str | None  # the traceback of greenlint's own failure
    outline: Outline | None  # a file's top-level statements, where fixes are computed


def _analyse_unit(
    text: str,
    path: str,
    config: Config,
    config_error: str | None,
    cell_offsets: tuple[int, ...] | None,
    generation: int,
    predictor: Callable[[], Callable],
    cancelled: Callable[[], bool],
    keep: Callable[[object], None] = lambda made_from: None,
) -> Done:
    """One analysis, wherever it runs, under the *generation* of the project's files; `predictor()`
    gives the predict function (loading it may fail too); `keep` is handed what the analysis was
    made from (its tree...: freeing them costs ~30 ms at 10,000 lines, better spent once the
    diagnostics are out). Raises Cancelled once `cancelled()` turns true."""
    if cancelled():
        raise Cancelled
    _notice_files(generation)
    started, cpu = time.perf_counter(), time.thread_time()
    failure, result = None, None
    try:
        predict = predictor() if config.overlay is True else _configured_predict(config)
        try:
            result = analyse_text(text, path, config, predict, cell_offsets, cancelled)
        except ConfigError as exc:  # select/ignore codes that match no rule: reported once and left out
            config_error = str(exc)
            result = analyse_text(text, path, usable_config(config), predict, cell_offsets, cancelled)
        shape = outline(result.tree) if result.tree is not None else None
        sent = replace(result.shippable(), sites=PackedSites(tuple(result.sites)))
    except Cancelled:
        raise
    except Exception as exc:  # greenlint's own bug: say so on the document, keep serving
        failure = traceback.format_exc()
        sent, shape = FileResult(path, diagnostics=internal_error(path, exc).errors), None
    ms, cpu_ms = (time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000
    keep(result)
    return Done(sent, config_error, ms, cpu_ms, failure, shape)


#: The generation of the project's files this process last analysed under (`Analyses.files_changed`).
_files_seen = [0]


def _notice_files(generation: int) -> None:
    """Files changed since this process last analysed (a project marker, a pin file): the project
    index looks at the modules' search roots and the installed libraries again now, not up to a
    second later."""
    if generation != _files_seen[0]:
        project_index().refresh()
        _files_seen[0] = generation


def _configured_predict(config: Config) -> Callable:
    """The predict function for a configuration that turns calibration off (`calibration = false`)
    or applies the overlay under its `cache-dir` (`Config.overlay`), loaded once per process."""
    from greenlint.predict import load_predictor

    return load_predictor(overlay=config.overlay).predict


#: Allocations between two automatic collections in an analysis process (Python's default: 700).
#: An analysis makes many objects that live until it ends (~200,000 at 10,000 lines): a
#: collection during it only scans them (~20 ms each), so none runs below this; its garbage is
#: collected once the server has published its diagnostics (`_collect_when_asked`).
ANALYSIS_GC_THRESHOLD = 1_000_000
#: Jobs told to stop, newest last, shared with the analysis processes: two documents' analyses
#: may be stopped at once.
STOPPED = 8

#: In an analysis process: its predictor, the jobs stopped, its slot, and a lock held while it analyses.
_process: dict = {}


def _start_process(stopped, slots, collect) -> None:
    """An analysis process's start: end with the server whatever way it ends, take a slot (whose
    event in `collect` asks it to collect its garbage), then load the predictor before the first
    document comes."""
    from greenlint.predict import load_predictor

    parent = multiprocessing.parent_process()
    if parent is not None:  # a killed server closes no queue: watch it
        threading.Thread(target=_end_with, args=(parent,), daemon=True, name="greenlint-server-watch").start()
    with slots.get_lock():
        _process["slot"] = slots.value % len(collect)
        slots.value += 1
    _process["stopped"] = stopped
    _process["busy"] = threading.Lock()
    _process["predict"] = load_predictor().predict
    _settle_garbage()
    gc.set_threshold(ANALYSIS_GC_THRESHOLD, *gc.get_threshold()[1:])
    event = collect[_process["slot"]]
    threading.Thread(target=_collect_when_asked, args=(event,), daemon=True, name="greenlint-collect").start()


def _collect_when_asked(event) -> None:
    """Collect the last analysis' garbage each time the server asks (once it has published that
    analysis' diagnostics); not while an analysis runs: that one's own publication asks again."""
    while True:
        event.wait()
        event.clear()
        if _process["busy"].acquire(blocking=False):
            try:
                _process.pop("made_from", None)
                _settle_garbage()
            finally:
                _process["busy"].release()


def _end_with(parent) -> None:
    parent.join()
    os._exit(0)


def _warm() -> None:
    """A job that only makes the pool start its process (and load the predictor) early."""


def _analyse_in_process(job: int, *args):
    """(the analysis, the slot of the process that made it). What it was made from is freed with
    its garbage, once its diagnostics are published (or when the next analysis starts)."""
    stopped = _process["stopped"]
    with _process["busy"]:
        _process.pop("made_from", None)
        keep = lambda made_from: _process.__setitem__("made_from", made_from)  # noqa: E731
        return _analyse_unit(*args, lambda: _process["predict"], lambda: job in stopped[:], keep), _process["slot"]


#: Analysis processes at most (each loads its own predictor).
WORKERS = 2


class Analyses:
    """The analyses of the open documents, newest version first, two at a time at most.

    They run in worker processes with their own predictor: parsing holds the GIL for a long time
    (~0.2 s for 5,000 lines), which on a thread would stall every request meanwhile. An injected
    `predictor_loader` (tests) runs them on a worker thread of this process instead."""

    def __init__(
        self,
        config_for: Callable[[Path], tuple[Config, str | None]] = file_config,
        predictor_loader: Callable | None = None,
    ):
        self.config_for = config_for
        self._load_predictor = predictor_loader
        self._predictor = None
        self._jobs = itertools.count(1)
        self._in_process = predictor_loader is None
        if self._in_process:
            self._start_pool()
        else:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="greenlint-analysis")
        self.latest: dict[str, Analysis] = {}  # the newest finished analysis of each document
        self.good: dict[str, Analysis] = {}  # the newest finished one that parsed
        self._tasks: dict[str, asyncio.Task] = {}
        self._landed: dict[str, asyncio.Event] = {}
        self._stops: dict[str, Callable[[], None]] = {}  # how to stop each document's running analysis
        self._dirty: set[int] = set()  # the slots of the analysis processes with garbage to collect
        self._running: dict[str, Future] = {}  # each document's newest job, running until it returns
        #: Called on the event loop with each analysis that lands (its document still open).
        self.listeners: list[Callable[[Analysis], None]] = []
        self.generation = 0  # of the project's files (`files_changed`)

    def _start_pool(self) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a process with threads
        self._stopped = context.Array("q", STOPPED, lock=False)  # the jobs the analysis processes should stop
        self._stop_count = 0
        self._collect = [context.Event() for _ in range(WORKERS)]  # one per process: collect your garbage
        slots = context.Value("i", 0)
        # a second process starts only while two documents wait: one heavy document (a long analysis)
        # then no longer holds back every other document's diagnostics
        self._executor = ProcessPoolExecutor(
            WORKERS, context, initializer=_start_process, initargs=(self._stopped, slots, self._collect)
        )
        self._executor.submit(_warm)

    @property
    def predictor(self):
        """This process's predictor (fixes re-check text with it): loaded on first use, then kept."""
        if self._predictor is None:
            if self._load_predictor is None:
                from greenlint.predict import load_predictor

                self._load_predictor = load_predictor
            self._predictor = self._load_predictor()
        return self._predictor

    def schedule(self, uri: str, snapshot: Callable[[], Snapshot | None], delay: float = 0.0) -> asyncio.Task:
        """Analyse the document's version current `delay` seconds from now (None: it was closed),
        cancelling the debounce or analysis of any older version."""
        previous = self._tasks.pop(uri, None)
        if previous is not None:
            self._stop_analysis(uri)  # now: the task's cancellation reaches it only at the loop's next turn
            previous.cancel()
        task = asyncio.ensure_future(self._run(uri, snapshot, delay))
        self._tasks[uri] = task
        task.add_done_callback(lambda done: self._tasks.pop(uri) if self._tasks.get(uri) is done else None)
        return task

    def files_changed(self) -> None:
        """Project files changed (`workspace/didChangeWatchedFiles`: a pyproject.toml, a project
        marker, a pin file): an analysis made before is not reused for the same text, and the
        analysing processes look at the files again."""
        self.generation += 1

    def pending(self, uri: str) -> bool:
        return uri in self._tasks

    async def first(self, uri: str) -> Analysis | None:
        """The newest finished analysis; waits for the first one while it is still running."""
        if uri not in self.latest and uri in self._tasks:
            await self._landed.setdefault(uri, asyncio.Event()).wait()
        return self.latest.get(uri)

    async def _run(self, uri: str, snapshot: Callable[[], Snapshot | None], delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        snap = snapshot()
        if snap is None:
            return
        analysis = await self.analyse(snap)
        if self._tasks.get(uri) is not asyncio.current_task():
            return  # superseded or closed while finishing
        self.latest[uri] = analysis
        if analysis.parsed:
            self.good[uri] = analysis
        self._landed.setdefault(uri, asyncio.Event()).set()
        for listener in self.listeners:
            try:
                listener(analysis)
            except Exception:  # greenlint's own bug: log it, let the others run
                log.exception("while handing over the analysis of %s", uri)
        self._clean_up()

    def _clean_up(self) -> None:
        """Once diagnostics are published: the analysis processes collect their garbage, and this
        one its own (the analysis came in as new objects here too)."""
        for slot in self._dirty:
            self._collect[slot].set()
        self._dirty.clear()
        _settle_garbage()

    async def analyse(self, snap: Snapshot) -> Analysis:
        """The analysis of one snapshot: reuses the newest one when text and configuration are the same;
        cancelling the caller stops the work at its next checkpoint. A document's jobs run one at a
        time: a newer version's waits for the stopped one to end, rather than start a second process."""
        problem = unusable_path(snap.path)
        if problem is not None:  # said on the document, as the CLI says it for a file (never an internal error)
            log.warning("cannot analyse %.300s: %s", snap.uri, problem)
            error = error_diagnostic(str(snap.path), 1, 1, "path", problem)
            return Analysis(snap.uri, snap.version, snap.text, Config(root=Path.cwd()),
                            FileResult(str(snap.path), diagnostics=(error,)), cell_offsets=snap.cell_offsets,
                            documents=snap.documents)
        config, config_error = self.config_for(snap.path)
        done = self.latest.get(snap.uri)
        made = (snap.text, snap.cell_offsets, config, self.generation)
        if done is not None and (done.text, done.cell_offsets, done.config, done.generation) == made:
            return replace(done, version=snap.version, documents=snap.documents)
        args = (snap.text, str(snap.path), config, config_error, snap.cell_offsets, self.generation)
        previous = self._running.get(snap.uri)
        if previous is not None and not previous.done():  # told to stop: it ends at its next checkpoint,
            ended = asyncio.wrap_future(previous)  # and no second process starts for it
            ended.add_done_callback(lambda f: f.cancelled() or f.exception())  # its Cancelled is expected
            await asyncio.wait([ended])
        job = next(self._jobs)
        if self._in_process:
            running = self._executor.submit(_analyse_in_process, job, *args)
            stop = lambda: self._stop_job(job)  # noqa: E731
        else:
            stopped = threading.Event()
            running = self._executor.submit(self._analyse_here, args, stopped.is_set)
            stop = stopped.set
        self._stops[snap.uri] = stop
        self._running[snap.uri] = running
        try:
            outcome, slot = await asyncio.wrap_future(running)
            if slot is not None:
                self._dirty.add(slot)
        except (asyncio.CancelledError, Cancelled):
            stop()
            log.debug("analysis of %s version %s dropped: a newer version came", snap.uri, snap.version)
            raise asyncio.CancelledError from None
        except BrokenProcessPool as exc:  # the analysis process died (out of memory?): start another
            log.error("the analysis process stopped (%s); starting another", exc)
            self._start_pool()
            errors = internal_error(str(snap.path), exc, "the analysis process").errors
            outcome = Done(FileResult(str(snap.path), diagnostics=errors), config_error, 0.0, 0.0, None, None)
        finally:
            if self._stops.get(snap.uri) is stop:
                del self._stops[snap.uri]
            if self._running.get(snap.uri) is running and running.done():
                del self._running[snap.uri]
        if outcome.failure:
            log.error("analysis of %s failed:\n%s", snap.uri, outcome.failure)
        log.info(
            "analysed %s version %s: %d calls, %d diagnostics in %.0f ms (%.0f ms CPU)",
            snap.uri, snap.version, len(outcome.result.sites), len(outcome.result.diagnostics), outcome.ms, outcome.cpu_ms,
        )  # fmt: skip
        return Analysis(
            snap.uri, snap.version, snap.text, config, outcome.result, outcome.config_error,
            snap.cell_offsets, snap.documents, outcome.outline, args[-1],
        )  # fmt: skip

    def _stop_job(self, job: int) -> None:
        self._stopped[self._stop_count % STOPPED] = job
        self._stop_count += 1

    def _stop_analysis(self, uri: str) -> None:
        stop = self._stops.pop(uri, None)
        if stop is not None:
            stop()

    def _analyse_here(self, args: tuple, cancelled: Callable[[], bool]):
        return _analyse_unit(*args, lambda: self.predictor.predict, cancelled), None

    def forget(self, uri: str) -> None:
        task = self._tasks.pop(uri, None)
        if task is not None:
            self._stop_analysis(uri)
            task.cancel()
        self.latest.pop(uri, None)
        self.good.pop(uri, None)
        self._running.pop(uri, None)
        landed = self._landed.pop(uri, None)
        if landed is not None:
            landed.set()  # wake the requests waiting for it: they find nothing

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)
