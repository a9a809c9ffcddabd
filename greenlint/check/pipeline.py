"""run_check: discover, analyse (cached, parallel), apply rules and suppressions."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import greenlint.check.noqa as noqa
import greenlint.check.overlay as overlay
from greenlint.analysis.callsite import Span
from greenlint.check.config import Config
from greenlint.check.discovery import discover, leads_out
from greenlint.check.file_result import internal_error
from greenlint.check.keys import NO_RULES, rule_settings, rules_id
from greenlint.check.runner import Backend, RunStats, check_files, load_result
from greenlint.check.selection import Selector
from greenlint.rules import codes
from greenlint.rules.diagnostic import Diagnostic

if TYPE_CHECKING:  # imported where used: a fully cached run needs neither the analysis nor the rules
    from greenlint.analysis.callsite import CallSite
    from greenlint.check.file_result import FileResult
    from greenlint.predict.prediction import Prediction


@dataclass
class CheckResult:
    """One run: its files' results with what reporters read of them."""

    diagnostics: list[Diagnostic]  # sorted by path and position; suppressed ones removed
    files: list[str]  # every file checked, as displayed
    errors: list[Diagnostic]  # the GL001/GL002 diagnostics among them (files not fully analysed)
    sources: dict[str, str | tuple[str, ...]] = field(default_factory=dict)  # for reporters
    stats: RunStats = field(default_factory=RunStats)
    #: Each file's result, in order (its analysis perhaps not held: `file_results`).
    results: list[FileResult] = field(default_factory=list, repr=False)
    config: Config = field(default_factory=Config, repr=False)
    backend: Backend = field(default_factory=Backend, repr=False)
    #: The files found that are symbolic links leading out of the folder they must stay within
    #: (`analyse_paths`' *within*), not read.
    left_out: list[Path] = field(default_factory=list)

    def file_results(self) -> Iterator[FileResult]:
        """Each file's result with its analysis, in order (read from the cache on first use when
        the run did not need it, then kept)."""
        for i, result in enumerate(self.results):
            if not result.held:
                self.results[i] = result = load_result(result, self.config, self.backend)
            yield result

    @property
    def callsites_with_predictions(self) -> list[tuple[CallSite, Prediction]]:
        """Every call site with its prediction."""
        return [(s.callsite, s.prediction) for result in self.file_results() for s in result.sites]


    @property
    def calibration(self) -> dict | None:
        """The calibration overlay this run's figures apply (`path`, `hardware_id`), None without one."""
        return overlay.applied(self.config.overlay_root)


#: A file that could not be analysed is always reported, whatever the selection (as ruff does
#: with syntax errors): otherwise `--select GL301` would pass a file it never read.
FILE_ERRORS = frozenset({"GL001", "GL002"})


def file_errors(result: FileResult) -> list[Diagnostic]:
    """The file errors (GL001/GL002) of one analysed file, suppressions applied: `apply_rules`
    with no rule enabled, without the rules (a run that reports no finding: `analyse_paths`)."""
    kept, _ = noqa.apply(list(result.errors), result.suppressions)
    return sorted((d for d in kept if d.code in FILE_ERRORS), key=Diagnostic.sort_key)


def apply_rules(result: FileResult, config: Config, enabled: frozenset[str], fixes: bool = False) -> list[Diagnostic]:
    """The diagnostics of one analysed file under `enabled` rules, suppressions applied; each with
    its fix attached with `fixes` (a LibCST parse of the file: only for the outputs that show them).

    With GL003 (unused noqa) enabled, the rules a `noqa` comment names also run, unreported,
    so that whether a suppression is used never depends on the selection: `--select GL3,GL003`
    judges a `# noqa: GL101` as `--extend-select GL003` does.
    """
    # here: a diff (`analyse_paths`) imports no rule's module, a warm run no predictor's (`rules.site`)
    from greenlint.rules.base import FileFacts
    from greenlint.rules.deliberate import wanted
    from greenlint.rules.site import judged, method

    listed = codes.table()
    options = {**codes.option_defaults(), **config.options}
    run = set(enabled)
    if "GL003" in enabled:
        run |= {c for named in result.suppressions.lines.values() if named for c in named} & listed.keys()
    found = list(result.errors)
    if result.sites or result.tree is not None:  # a parsed file without call sites: the SITELESS rules
        facts = FileFacts(result.path, judged(result.sites), result.source, parsed=result.tree, device=config.device,
                          options=result.options)
        called = frozenset(method(s.api) for s in result.sites) if result.sites else None
        reported: list[Diagnostic] = []
        for code in listed:
            if code in run and codes.may_report(code, called, facts.text):
                try:
                    reported.extend(codes.rule_class(code)().check(facts, options))
                except Exception as exc:  # a broken rule must not end the run
                    found.extend(internal_error(result.path, exc, f"rule {code}").errors)
        found.extend(wanted(facts, reported))
        if fixes:
            from greenlint.fix.engine import attach_fixes

            found = attach_fixes(found, result.source, config.line_length)
    kept, used = noqa.apply(found, result.suppressions)
    kept = [d for d in kept if d.code in enabled or d.code in FILE_ERRORS]
    if "GL003" in enabled:
        for (cell, line), unused in noqa.unused(result.suppressions, used, run):
            d = Diagnostic(
                result.path,
                Span(line, 1, line, 1, cell),
                "GL003",
                "unused-noqa",
                f"unused `noqa` code(s): {', '.join(unused)}",
                data={"codes": unused},
            )
            if result.suppressions.suppressed(d) is False:
                kept.append(d)
    return sorted(kept, key=Diagnostic.sort_key)


def run_check(
    paths: Sequence[Path | str], config: Config, backend: Backend | None = None, fixes: bool = False
) -> CheckResult:
    """Check files and directories, the findings with their fixes when `fixes` is set (--fix,
    --diff, --show-fixes and the formats that carry them). Raises ConfigError when greenlint
    cannot run (exit code 2)."""
    selector = Selector(config)
    settings = rule_settings(config.options, config.line_length, fixes)
    return _check_paths(
        paths,
        config,
        backend,
        diagnose=lambda r: apply_rules(r, config, selector.for_file(r.path), fixes),
        rules_id=lambda path: rules_id(selector.for_file(path), settings),
        results=False,  # `check` reports findings: a caller that asks for the analyses reads them back
    )


def analyse_paths(
    paths: Sequence[Path | str], config: Config, backend: Backend | None = None, within: Path | None = None
) -> CheckResult:
    """Files and directories analysed as `run_check` analyses them (the same cache entries of
    their analyses), with their file errors (GL001/GL002) as the only diagnostics: no rule runs
    and the rules are not even imported (`greenlint diff` reports call sites, never findings).
    A file found that is a symbolic link leading out of *within* is not read (the result's
    `left_out`). The configuration's rule selection is not judged here (`selection.validate`)."""
    return _check_paths(paths, config, backend, diagnose=file_errors, rules_id=lambda path: NO_RULES, within=within)


def _check_paths(
    paths, config: Config, backend: Backend | None, diagnose, rules_id, results: bool = True, within: Path | None = None
) -> CheckResult:
    """Discover, then check each file through the cache (`check_files`) with *diagnose* and *rules_id*
    (and the files' analyses sent back from worker processes with *results*), but the links leading
    out of *within*."""
    files: list[Path] = []
    left_out: list[Path] = []
    for f in discover(paths, config):
        (left_out if within is not None and leads_out(f, within) else files).append(f)
    backend = dataclasses.replace(backend or Backend(), overlay=config.overlay, device=config.device)
    checked, stats = check_files(files, config, diagnose=diagnose, rules_id=rules_id, backend=backend, results=results)
    diagnostics = [d for r in checked for d in r.diagnostics]
    return CheckResult(
        diagnostics=diagnostics,
        files=[r.path for r in checked],
        errors=[d for d in diagnostics if d.code in ("GL001", "GL002")],
        sources={r.path: r.source for r in checked},
        stats=stats,
        results=checked,
        config=config,
        backend=backend,
        left_out=left_out,
    )


def check_source(text: str, path: str, config: Config, predictor=None, fixes: bool = True) -> list[Diagnostic]:
    """Check one in-memory file (fixers, tests), with fixes unless `fixes` is false; `predictor`
    defaults to `load_predictor()`."""
    from greenlint.analysis.analyse import analyse_source
    from greenlint.check.file_result import from_analysis

    if predictor is None:
        from greenlint.predict import load_predictor

        predictor = load_predictor(overlay=config.overlay, device=config.device)
    result = from_analysis(analyse_source(text, path=path), predictor.predict)
    return apply_rules(result, config, Selector(config).for_file(path), fixes)
