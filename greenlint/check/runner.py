"""Analyse files in parallel worker processes, through the persistent cache."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from greenlint.analysis import sources
from greenlint.check.cache import Cache, cache_in
from greenlint.check.config import Config
from greenlint.check.file_result import (
    FileResult,
    error_diagnostic,
    from_analysis,
    from_record,
    internal_error,
    to_record,
)
from greenlint.check.keys import display_path, look_up, project_modules
from greenlint.check.records import InvalidRecord, diagnostics_record
from greenlint.rules.diagnostic import Diagnostic

#: Files to analyse per worker below which `-j auto` starts no more processes (forking, sending
#: results back and each worker summarising the same imported modules cost more than they save).
FILES_PER_WORKER = 8
#: A file's keys in the lint cache (`keys.look_up`): its analysis', then its diagnostics'.
Keys = tuple[str, str]


@dataclass(frozen=True)
class Backend:
    """Where the analysis and the predictor come from, as `module:attribute` (picklable for workers).

    `load_predictor` is called with no argument, or with `overlay=` when the run sets one."""

    analyse_file: str = "greenlint.analysis.analyse:analyse_file"
    load_predictor: str = "greenlint.predict:load_predictor"
    #: Its `overlay` argument (`Config.overlay`): True, the default, calls it without one.
    overlay: bool | str = True
    #: Its `device` argument (`Config.device`): None, the default, calls it without one.
    device: str | None = None
    #: Loaded once in the parent before forking workers, so that they share it.
    preload: tuple[str, ...] = ("greenlint.catalog:load_catalog",)


def _resolve(spec: str):
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def _predictor(spec: str, overlay: bool | str = True, device: str | None = None):
    """The predictor of this process (the loader keeps it: `load_predictor` is cached, so a test or a
    session that clears that cache is obeyed); None (with the reason) if it cannot load."""
    try:
        kwargs = ({} if overlay is True else {"overlay": overlay}) | ({} if device is None else {"device": device})
        return _resolve(spec)(**kwargs), None
    except Exception as exc:
        return None, f"no predictor ({type(exc).__name__}: {exc})"


def analyse_one(path: str, backend: Backend) -> FileResult:
    """Analyse and predict one file; never raises."""
    try:
        analysis = _resolve(backend.analyse_file)(path)
        if not analysis.callsites:
            return from_analysis(analysis, predict=None)
        predictor, reason = _predictor(backend.load_predictor, backend.overlay, backend.device)
        if predictor is None:
            from greenlint.predict.prediction import Prediction

            result = from_analysis(analysis, lambda api, features: Prediction.unknown(note=reason))
            return dataclasses.replace(result, cacheable=False)
        return from_analysis(analysis, predictor.predict)
    except Exception as exc:
        return internal_error(path, exc)


def _preload(backend: Backend) -> None:
    """What every forked worker would otherwise load for itself: the preloads, the predictor and
    the analysis' modules (imported, not run: ~0.15 s of CPU per worker)."""
    for spec in backend.preload:
        try:
            _resolve(spec)()
        except Exception:  # the workers will meet (and report) the same problem per file
            pass
    with contextlib.suppress(Exception):
        _resolve(backend.analyse_file)
    _predictor(backend.load_predictor, backend.overlay, backend.device)


@dataclass
class RunStats:
    files: int = 0
    cache_hits: int = 0
    analysed: int = 0
    workers: int = 0


def cache_for(config: Config) -> Cache | None:
    """The lint cache *config* asks for (None with `--no-cache`)."""
    return None if config.no_cache else cache_in(config.cache_dir, config.overlay_root, config.device)


def check_files(
    files: Sequence[Path],
    config: Config,
    diagnose: Callable[[FileResult], list[Diagnostic]],
    rules_id: Callable[[str], str],
    backend: Backend = Backend(),
    results: bool = True,
) -> tuple[list[FileResult], RunStats]:
    """Check each file, in order, doing as little as the cache allows: its FileResult with its
    findings (`diagnostics`).

    Two entries per file: its analysis (key: path, content, environment) and its diagnostics
    under the rule settings `rules_id(path)` (the enabled codes and options; what rules read
    beside the file, unless `keys.NO_RULES`: `keys.look_up`). When the second
    hits, neither the analysis nor the rules run and the analysis is not even read (the result
    is not `held`). Without *results*, a file's analysis is dropped once its findings are found
    (worker processes send back its findings and source only, not the analysis pickled there and
    unpickled here; in one process it is not kept to the run's end), for a `check` that reports
    findings only; a caller that asks for it later reads it from the cache, or analyses the file
    again: `load_result`.
    """
    cache = cache_for(config)
    project = project_modules()
    stats = RunStats(files=len(files))
    done: dict[int, FileResult] = {}
    contents: dict[int, bytes] = {}
    todo: list[tuple[int, str, Keys | None]] = []
    cwd = os.getcwd()
    folder_stamps: dict[str, str] = {}
    for i, f in enumerate(files):
        shown = display_path(f, cwd)
        content, error = sources.read_bytes(f, sources.MAX_BYTES)  # a huge file is not even read
        if content is None:
            message = error.message if error else "cannot read file"
            bad = FileResult(shown, errors=(error_diagnostic(shown, 1, 1, str(error and error.code), message),))
            done[i] = dataclasses.replace(bad, diagnostics=tuple(diagnose(bad)))
            continue
        contents[i] = content
        keys, stored = look_up(f, shown, content, cache, project, folder_stamps, rules_id) if cache else (None, None)
        if keys and stored is not None:
            done[i] = FileResult(shown, source=stored[1] or "", diagnostics=tuple(stored[0]), key=keys[0], held=False)
            stats.cache_hits += 1
            continue
        hit = _cached_result(cache, keys[0]) if cache and keys else None
        if hit is not None:
            if hit.source == "":  # a text file's source is not cached: its fixes need it
                hit = dataclasses.replace(hit, source=sources.decode(shown, content)[0] or "")
            done[i] = _checked(hit, keys, cache, diagnose)
            stats.cache_hits += 1
        else:
            todo.append((i, shown, keys))
    finish = functools.partial(_finish, cache=cache, diagnose=diagnose, keep=results)
    trees_shared: contextlib.AbstractContextManager = contextlib.nullcontext()
    if todo:  # one parse per module for the files analysed now; nothing to import for a fully cached run
        import greenlint.analysis.trees as trees

        trees_shared = trees.shared(shown for _, shown, _ in todo)
    with project.held(), trees_shared, _few_collections():
        # each file's rules run and its entries are written as soon as it is analysed, on its
        # tree, which is then dropped: serially here, else in the worker that analysed it
        jobs = min(config.jobs, _cpus()) if config.jobs else auto_jobs(len(todo))  # more cannot run at once
        for (i, _, _), checked in zip(todo, _run([(shown, keys) for _, shown, keys in todo], jobs, backend, stats, finish)):
            done[i] = checked
    stats.analysed = len(todo)
    if cache:
        cache.flush()
    for i, content in contents.items():
        if isinstance(done[i].source, str):  # as the analysis decoded it (a PEP 263 cookie counts)
            text = sources.decode(done[i].path, content)[0] or ""  # binary, undecodable: no text to show
            done[i] = dataclasses.replace(done[i], source=text)
    return [done[i] for i in range(len(files))], stats


#: Net allocations between two automatic collections while files are analysed: more than most
#: files' analysis makes, so that their objects are collected once, when the file is done.
FILE_ALLOCATIONS = 500_000


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """Analysis makes many small objects that live until the file is done (its tree, held by the
    cycles among its values). Collecting every 700 allocations (Python's default) or even 50,000
    walked each of them twice (young, then middle-aged): ~14 % of a cold run, mostly while the
    next tree was parsed. Objects alive now are frozen out of the collector, which runs once per
    file (`gc.collect(0)` after each: the file's leftovers walked once) and otherwise only after a file's
    FILE_ALLOCATIONS, until the analysis is over."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], FILE_ALLOCATIONS), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def auto_jobs(files: int) -> int:
    """Workers for `-j auto`: one per CPU idle now (1-minute load average), at most one per
    FILES_PER_WORKER files. A busy machine gets one process: more would compete with the load for
    the same CPUs while repeating work each process does for itself."""
    if files < 2 * FILES_PER_WORKER:  # one worker's files at most: the machine is not asked
        return 1
    cpus = _cpus()
    try:
        idle = cpus - os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this platform
        idle = cpus
    return max(1, min(cpus, round(idle), files // FILES_PER_WORKER))


def _cpus() -> int:
    """CPUs this process may use (the affinity mask in containers), at least 1."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _finish(result: FileResult, keys: Keys | None, cache, diagnose, keep: bool) -> FileResult:
    """One analysed file with its diagnostics and its two cache entries written under its *keys*
    (its analysis held when *keep*)."""
    if cache and keys and result.cacheable:
        # a text file's source is its content, read on every run anyway: not stored twice
        cache.put(keys[0], to_record(result))
    return _checked(result, keys if result.cacheable else None, cache, diagnose, keep)


def _checked(result: FileResult, keys: Keys | None, cache, diagnose, keep: bool = True) -> FileResult:
    diagnostics = diagnose(result)
    notebook = result.source if isinstance(result.source, tuple) else None
    key = keys[0] if keys else None
    if cache and keys:
        cache.put(keys[1], diagnostics_record(diagnostics, notebook))
    if not keep:  # its findings and source alone
        return FileResult(result.path, source=result.source, cacheable=result.cacheable, diagnostics=tuple(diagnostics),
                          key=key, held=False)
    return dataclasses.replace(result, diagnostics=tuple(diagnostics), key=key, tree=None)  # the tree is done with


def load_result(checked: FileResult, config: Config, backend: Backend = Backend()) -> FileResult:
    """A checked file's result with its analysis: *checked* when it holds it, else read from the
    cache (a text file's source, which the cache does not hold, as the run read it), else analysed
    again; its findings kept."""
    if checked.held:
        return checked
    cache = cache_for(config)
    hit = _cached_result(cache, checked.key) if cache and checked.key else None
    if hit is not None and hit.source == "":
        hit = dataclasses.replace(hit, source=checked.source)
    loaded = hit if hit is not None else analyse_one(checked.path, backend)
    return dataclasses.replace(loaded, diagnostics=checked.diagnostics, key=checked.key)


def _cached_result(cache: Cache, key: str) -> FileResult | None:
    """The FileResult stored under *key* (a text file's source still to be read), or None."""
    stored = cache.get(key)
    if stored is None:
        return None
    try:
        return from_record(stored)
    except InvalidRecord:
        return None


Finish = Callable[[FileResult, Keys | None], FileResult]
#: What a forked worker does with each result (`_finish` with this run's cache and rules),
#: set in the parent before the workers start.
_worker_finish: Finish | None = None


def _worker_chunk(items: Sequence[tuple[str, Keys | None]], backend: Backend) -> list[tuple[FileResult, bool]]:
    """A worker's chunk: each file analysed and finished (rules, cache entries: true) where the
    parent's `_worker_finish` was inherited, else its result without its tree (rules re-parse)."""
    from greenlint.check.cache import flush_all

    finish = _worker_finish
    out: list[tuple[FileResult, bool]] = []
    for path, keys in items:
        result = analyse_one(path, backend)
        out.append((finish(result, keys), True) if finish is not None else (result.shippable(), False))
        gc.collect(0)  # the cycles its analysis left, walked once (`_few_collections`)
    flush_all()  # this chunk's cache entries (and answers about installed libraries), one transaction
    return out


def _run(
    items: list[tuple[str, Keys | None]], jobs: int, backend: Backend, stats: RunStats, finish: Finish
) -> Iterator[FileResult]:
    """Each (path, cache keys)'s outcome by *finish*, in order, as soon as it is ready: serially one
    at a time, else streamed back from worker processes chunk by chunk."""
    global _worker_finish
    if jobs <= 1 or len(items) < 2:
        stats.workers = 1 if items else 0
        for path, keys in items:
            checked = finish(analyse_one(path, backend), keys)  # its analysis dropped before the collection
            gc.collect(0)
            yield checked
        return
    workers = min(jobs, len(items))
    stats.workers = workers
    import multiprocessing

    context = None
    if sys.platform.startswith("linux"):  # fork is safe and cheap there (no threads in the CLI)
        context = multiprocessing.get_context("fork")
        _preload(backend)  # forked workers inherit what is loaded: the catalog, predictor and analysis, once
        _worker_finish = finish
    chunks = _chunks(items, workers)
    try:
        for chunk, outcomes in _pooled(chunks, workers, backend, context):
            if outcomes is None:
                # A worker died (out of memory?) and took its pool down: retry these files one by
                # one, each in a pool of its own, so that only the file that kills a worker is reported.
                outcomes = []
                for item in chunk:
                    alone = list(_pooled([[item]], 1, backend, context))[0][1]
                    dead = internal_error(item[0], RuntimeError("the worker process analysing this file died"))
                    outcomes.extend(alone if alone is not None else [(dead, False)])
            for (_, keys), (outcome, finished) in zip(chunk, outcomes):
                yield outcome if finished else finish(outcome, keys)
    finally:
        _worker_finish = None


def _chunks(items: list, workers: int) -> list[list]:
    """The items cut, in their order, into runs that shrink with the items left (guided scheduling):
    each a share of them (1 / (2 x *workers*)), none shorter than `least` (16 files, fewer for a
    short list) but the last. The caller's items are sorted paths, so a run holds neighbouring files,
    often a folder's, which import the same project modules; each worker process summarises the
    modules its files import for itself, and long first runs keep it from repeating many of
    another's (runs of 16 taken in turn left both workers summarising most modules). Short last runs
    narrow the wait at the end, where a worker out of runs waits for the one each other holds; nothing
    bounds it where a long run's files are slow."""
    least = max(1, min(16, len(items) // (workers * 4)))
    chunks, start = [], 0
    while start < len(items):
        size = max(least, (len(items) - start) // (workers * 2))
        chunks.append(items[start : start + size])
        start += size
    return chunks


def _pooled(chunks: list, workers: int, backend: Backend, context) -> Iterator[tuple[list, list | None]]:
    """Each chunk with its outcomes from a process pool (None: lost to a dead worker), in the order
    given, each once it and those before it are done."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [(chunk, pool.submit(_worker_chunk, chunk, backend)) for chunk in chunks]
        for chunk, future in futures:
            try:
                yield chunk, future.result()
            except BrokenProcessPool:
                yield chunk, None
