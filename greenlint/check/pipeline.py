"""run_check: discover, analyse (cached, parallel), apply rules and suppressions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from greenlint.analysis.callsite import CallSite, Span
from greenlint.check import noqa
from greenlint.check.analyse import FileResult, from_analysis
from greenlint.check.config import Config
from greenlint.check.discovery import discover
from greenlint.check.runner import Backend, RunStats, analyse_files
from greenlint.check.selection import Selector
from greenlint.predict.prediction import Prediction
from greenlint.rules.base import FileFacts
from greenlint.rules.diagnostic import Diagnostic


@dataclass
class CheckResult:
    diagnostics: list[Diagnostic]  # sorted by path and position; suppressed ones removed
    files: list[str]  # every file checked, as displayed
    errors: list[Diagnostic]  # the GL001/GL002 diagnostics among them (files not fully analysed)
    callsites_with_predictions: list[tuple[CallSite, Prediction]]
    sources: dict[str, str | tuple[str, ...]] = field(default_factory=dict)  # for reporters
    stats: RunStats = field(default_factory=RunStats)


def _order(d: Diagnostic):
    return (d.path, d.span.cell or 0, d.span.line, d.span.column, d.code)


def apply_rules(result: FileResult, config: Config, enabled: frozenset[str]) -> list[Diagnostic]:
    """The diagnostics of one analysed file under `enabled` rules, suppressions applied."""
    from greenlint.rules.registry import all_rules

    options = {opt.key: config.options.get(opt.key, opt.default) for r in all_rules().values() for opt in r.OPTIONS}
    found = [e for e in result.errors if e.code in enabled]
    if result.sites:
        facts = FileFacts(result.path, result.sites)
        for code, rule in all_rules().items():
            if code in enabled:
                found.extend(rule().check(facts, options))
    kept, used = noqa.apply(found, result.suppressions)
    if "GL003" in enabled:
        for (cell, line), codes in noqa.unused(result.suppressions, used, enabled):
            d = Diagnostic(
                result.path,
                Span(line, 1, line, 1, cell),
                "GL003",
                "unused-noqa",
                f"unused `noqa` code(s): {', '.join(codes)}",
                data={"codes": codes},
            )
            if result.suppressions.suppressed(d) is False:
                kept.append(d)
    return sorted(kept, key=_order)


def run_check(paths: Sequence[Path | str], config: Config, backend: Backend | None = None) -> CheckResult:
    """Check files and directories. Raises ConfigError when greenlint cannot run (exit code 2)."""
    selector = Selector(config)
    files = discover(paths, config)
    results, stats = analyse_files(files, config, backend or Backend())
    diagnostics: list[Diagnostic] = []
    for r in results:
        diagnostics.extend(apply_rules(r, config, selector.for_file(r.path)))
    return CheckResult(
        diagnostics=diagnostics,
        files=[r.path for r in results],
        errors=[d for d in diagnostics if d.code in ("GL001", "GL002")],
        callsites_with_predictions=[(s.callsite, s.prediction) for r in results for s in r.sites],
        sources={r.path: r.source for r in results},
        stats=stats,
    )


def check_source(text: str, path: str, config: Config, predictor=None) -> list[Diagnostic]:
    """Check one in-memory file (editors, tests); `predictor` defaults to `load_predictor()`."""
    from greenlint.analysis import analyse_source

    if predictor is None:
        from greenlint.predict import load_predictor

        predictor = load_predictor()
    result = from_analysis(analyse_source(text, path=path), predictor.predict)
    return apply_rules(result, config, Selector(config).for_file(path))
