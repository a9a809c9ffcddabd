"""Analyse files in parallel worker processes, through the persistent cache."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from greenlint.check.analyse import FileResult, error_diagnostic, from_analysis, internal_error
from greenlint.check.cache import Cache
from greenlint.check.config import Config
from greenlint.predict.prediction import Prediction

#: Below this many files to analyse, starting worker processes costs more than it saves.
SERIAL_BELOW = 4


@dataclass(frozen=True)
class Backend:
    """Where the analysis and the predictor come from, as `module:attribute` (picklable for workers)."""

    analyse_file: str = "greenlint.analysis:analyse_file"
    load_predictor: str = "greenlint.predict:load_predictor"


def _resolve(spec: str):
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


@functools.cache
def _predictor(spec: str):
    """The predictor of this process, loaded once; None (with the reason) if it cannot load."""
    try:
        return _resolve(spec)(), None
    except Exception as exc:
        return None, f"no predictor ({type(exc).__name__}: {exc})"


def analyse_one(path: str, backend: Backend) -> FileResult:
    """Analyse and predict one file; never raises."""
    try:
        analysis = _resolve(backend.analyse_file)(path)
        if not analysis.callsites:
            return from_analysis(analysis, predict=None)
        predictor, reason = _predictor(backend.load_predictor)
        if predictor is None:
            result = from_analysis(analysis, lambda api, features: Prediction.unknown(note=reason))
            return dataclasses.replace(result, cacheable=False)
        return from_analysis(analysis, predictor.predict)
    except Exception as exc:
        return internal_error(path, exc)


def _analyse_chunk(paths: Sequence[str], backend: Backend) -> list[FileResult]:
    return [analyse_one(p, backend) for p in paths]


@dataclass
class RunStats:
    files: int = 0
    cache_hits: int = 0
    analysed: int = 0
    workers: int = 0


def display_path(path: Path, cwd: str) -> str:
    """The path as users see it: relative to the working directory `cwd` when below it."""
    full = os.path.normpath(os.path.join(cwd, path))
    return Path(full[len(cwd) + 1 :]).as_posix() if full.startswith(cwd.rstrip(os.sep) + os.sep) else str(path)


def cache_for(config: Config) -> Cache | None:
    if config.no_cache:
        return None
    from greenlint.paths import cache_dir

    return Cache(config.cache_dir or cache_dir() / "check")


def analyse_files(files: Sequence[Path], config: Config, backend: Backend = Backend()) -> tuple[list[FileResult], RunStats]:
    """A FileResult per file, in order: from the cache where possible, else freshly analysed."""
    cache = cache_for(config)
    stats = RunStats(files=len(files))
    results: dict[int, FileResult] = {}
    contents: dict[int, bytes] = {}
    todo: list[tuple[int, str, str | None]] = []
    cwd = os.getcwd()
    for i, f in enumerate(files):
        shown = display_path(f, cwd)
        try:
            contents[i] = content = f.read_bytes()
        except OSError as exc:
            results[i] = FileResult(shown, errors=(error_diagnostic(shown, 1, 1, "unreadable", str(exc)),))
            continue
        key = cache.key(shown, content) if cache else None
        hit = cache.get(key) if cache else None
        if isinstance(hit, FileResult):
            results[i] = hit
            stats.cache_hits += 1
        else:
            todo.append((i, shown, key))
    fresh = _run([shown for _, shown, _ in todo], config.jobs or os.cpu_count() or 1, backend, stats)
    for (i, _, key), result in zip(todo, fresh):
        results[i] = result
        if cache and key and result.cacheable:
            # a text file's source is its content, read on every run anyway: not stored twice
            cache.put(key, dataclasses.replace(result, source="") if isinstance(result.source, str) else result)
    stats.analysed = len(todo)
    for i, content in contents.items():
        unreadable = any(e.code == "GL002" for e in results[i].errors)  # binary, not UTF-8: no text to show
        if isinstance(results[i].source, str) and not unreadable:
            results[i] = dataclasses.replace(results[i], source=content.decode("utf-8", "replace"))
    return [results[i] for i in range(len(files))], stats


def _run(paths: list[str], jobs: int, backend: Backend, stats: RunStats) -> list[FileResult]:
    if jobs <= 1 or len(paths) < SERIAL_BELOW:
        stats.workers = 1 if paths else 0
        return _analyse_chunk(paths, backend)
    workers = min(jobs, len(paths))
    size = max(1, min(16, len(paths) // (workers * 4)))
    chunks = [paths[i : i + size] for i in range(0, len(paths), size)]
    stats.workers = workers
    out: list[FileResult] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_analyse_chunk, chunk, backend) for chunk in chunks]
        for chunk, future in zip(chunks, futures):
            try:
                out.extend(future.result())
            except BrokenProcessPool as exc:  # a worker died (out of memory?): report, keep going
                out.extend(internal_error(p, RuntimeError(f"worker process died: {exc}")) for p in chunk)
    return out
