"""One open document's analysis: call sites with predictions and diagnostics, cached per URI.

`analyse_text` composes the check package's public steps (resolver, predictor, rules and
suppressions) for an in-memory file or notebook; `Analyses` runs it off the event loop, once per
text and configuration, and shares an in-flight run between the features asking.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from greenlint.analysis import analyse_source
from greenlint.analysis.sources import split_lines
from greenlint.check import Config, ConfigError, apply_rules, load_config
from greenlint.check.analyse import from_analysis, internal_error
from greenlint.check.selection import Selector
from greenlint.rules.base import Site
from greenlint.rules.diagnostic import Diagnostic

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Analysis:
    """What greenlint found in one version of one document."""

    uri: str  # a file's, or a notebook's
    version: int | None
    text: str  # a notebook's code cells joined by join_cells
    config: Config
    sites: tuple[Site, ...]
    diagnostics: tuple[Diagnostic, ...]
    config_error: str | None = None  # the configuration could not be used; defaults were
    cell_offsets: tuple[int, ...] | None = None  # notebooks: the first line of each code cell in `text`


def join_cells(cells: list[str]) -> tuple[str, tuple[int, ...]]:
    """A notebook's code cells as one text, and the line where each starts (the resolver's cell_offsets)."""
    offsets, line = [], 0
    for cell in cells:
        offsets.append(line)
        line += len(split_lines(cell))
    return "\n".join(cells), tuple(offsets)


def analyse_text(
    text: str, path: str, config: Config, predict: Callable, cell_offsets: tuple[int, ...] | None = None
) -> tuple[tuple[Site, ...], list[Diagnostic]]:
    """Call sites with predictions and the diagnostics (suppressions applied) of one in-memory file
    (or notebook: its code cells joined, with `cell_offsets`; spans then name their cell)."""
    enabled = Selector(config).for_file(path)  # raises ConfigError for codes matching no rule
    offsets = None if cell_offsets is None else list(cell_offsets)
    result = from_analysis(analyse_source(text, path=path, cell_offsets=offsets), predict)
    return result.sites, apply_rules(result, config, enabled)


@dataclass(frozen=True)
class Settings:
    """How the server finds its configuration (`greenlint lsp --config/--isolated`)."""

    config_file: Path | None = None
    isolated: bool = False


class Analyses:
    """The latest analysis of each open document, computed on one worker thread."""

    def __init__(self, settings: Settings = Settings(), predictor_loader: Callable | None = None):
        self.settings = settings
        self._load_predictor = predictor_loader
        self._predictor = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="greenlint-analysis")
        self._latest: dict[str, Analysis] = {}
        self._running: dict[str, tuple[tuple, asyncio.Future]] = {}

    @property
    def predictor(self):
        """Loaded on first use (only on the worker thread), then kept for the session."""
        if self._predictor is None:
            if self._load_predictor is None:
                from greenlint.predict import load_predictor

                self._load_predictor = load_predictor
            self._predictor = self._load_predictor()
        return self._predictor

    def config_for(self, path: Path) -> tuple[Config, str | None]:
        """The nearest `[tool.greenlint]` for `path` (or the --config file); defaults and the error if unusable."""
        settings = self.settings
        try:  # looked up from the directory: the document may not be on disk (yet)
            return load_config([path.parent], config_file=settings.config_file, isolated=settings.isolated), None
        except ConfigError as exc:
            return Config(root=path.parent if path.is_absolute() else Path.cwd()), str(exc)

    def forget(self, uri: str) -> None:
        self._latest.pop(uri, None)
        self._running.pop(uri, None)

    async def get(
        self, uri: str, version: int | None, text: str, path: Path, cell_offsets: tuple[int, ...] | None = None
    ) -> Analysis:
        """The analysis of this text of the document, reusing a finished or running one when it matches."""
        config, config_error = self.config_for(path)
        key = (text, cell_offsets, config)
        done = self._latest.get(uri)
        if done is not None and (done.text, done.cell_offsets, done.config) == key:
            return done if done.version == version else _with_version(done, version)
        running = self._running.get(uri)
        if running is None or running[0] != key:
            future = asyncio.get_running_loop().run_in_executor(
                self._executor, self._analyse, uri, version, text, path, cell_offsets, config, config_error
            )
            running = (key, future)
            self._running[uri] = running
        analysis = await asyncio.shield(running[1])
        if self._running.get(uri) is running:
            del self._running[uri]
            self._latest[uri] = analysis
        return analysis if analysis.version == version else _with_version(analysis, version)

    def _analyse(
        self,
        uri: str,
        version: int | None,
        text: str,
        path: Path,
        cell_offsets: tuple[int, ...] | None,
        config: Config,
        config_error: str | None,
    ) -> Analysis:
        try:
            try:
                sites, diagnostics = analyse_text(text, str(path), config, self.predictor.predict, cell_offsets)
            except ConfigError as exc:  # select/ignore codes that match no rule: lint with the defaults
                config_error = str(exc)
                defaults = Config(root=config.root)
                sites, diagnostics = analyse_text(text, str(path), defaults, self.predictor.predict, cell_offsets)
        except Exception as exc:  # greenlint's own bug: say so on the document, keep serving
            log.exception("analysis of %s failed", uri)
            sites, diagnostics = (), list(internal_error(str(path), exc).errors)
        return Analysis(uri, version, text, config, sites, tuple(diagnostics), config_error, cell_offsets)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _with_version(analysis: Analysis, version: int | None) -> Analysis:
    return replace(analysis, version=version)
