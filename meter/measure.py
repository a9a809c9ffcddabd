"""`greenlint measure`: instrument a copy of a script, run it with the meter, write measurement files.

The user's file is only read. A copy (a notebook's code cells, magics blanked) is instrumented
in a temporary directory and run by `meter.runtime` in a subprocess, in the user's working
directory with the user's `__file__` and arguments. Output files follow the public datasets'
layout, `<out>/<level>-level/<script>/experiment-<N>.json` (N = next free number), so
`greenlint kb build <out>` ingests them as they are; each call site's energy per execution goes
into the project's profile file (greenlint/profile/store.py), which `check`, `calls` and the
editor read.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from greenlint.meter.instrument import instrument_notebook, instrument_source
from greenlint.meter.session import MeterConfig

#: Keep the working directory off sys.path (Python 3.11+), as `python script.py` does: the runtime
#: puts the script's own folder first, and a user's folder named `meter` cannot shadow ours.
SAFE_PATH = ["-P"] if sys.version_info >= (3, 11) else []


class MeasureError(Exception):
    """A problem with the user's script or the run; the message names the file."""


@dataclass
class LevelResult:
    level: str
    out_file: Path | None
    status: int
    summary: dict | None
    instrumented_sites: int = 0
    profile_file: Path | None = None


def script_text(path: Path) -> str:
    """The file's text (a notebook's JSON), read and decoded as `greenlint check` does."""
    from greenlint.analysis import sources

    data, error = sources.read_bytes(path, sources.MAX_BYTES)
    if error is None:
        text, error = sources.decode(str(path), data)
    if error is not None:
        raise MeasureError(error.message if str(path) in error.message else f"{path}: {error.message}")
    return text


def next_experiment(folder: Path) -> Path:
    taken = [int(m.group(1)) for p in folder.glob("experiment-*.json") if (m := re.fullmatch(r"experiment-(\d+)\.json", p.name))]
    return folder / f"experiment-{max(taken, default=0) + 1}.json"


def _instrument(text: str, path: Path):
    """Resolve and wrap the call sites of *text*: the analysis `greenlint check` runs (a notebook's
    cells and magics included), then `meter.instrument`."""
    from greenlint.analysis.analyse import analyse_source

    analysis = analyse_source(text, path=str(path))
    if analysis.errors:
        first = analysis.errors[0]
        where = f"{path}:{first.line}:{first.column}" if first.line else str(path)
        raise MeasureError(f"{where}: {first.message}" if str(path) not in first.message else first.message)
    if analysis.cells is not None:
        return instrument_notebook(analysis.cells, analysis.callsites)
    return instrument_source(text, analysis.callsites)


def measure(
    script: Path,
    argv: list[str],
    out_dir: Path,
    *,
    levels: tuple[str, ...] = ("method",),
    config: MeterConfig = MeterConfig(),
    wait_each_call: bool = False,
    max_records_per_site: int = 20,
    python: str = sys.executable,
    timeout_s: float | None = None,
    write_profile: bool = True,
) -> list[LevelResult]:
    script = Path(script).resolve()
    text = script_text(script)
    results = []
    _sweep_orphans()
    with tempfile.TemporaryDirectory(prefix=f"{TEMP_PREFIX}{os.getpid()}-") as tmp:
        tmp = Path(tmp)
        for level in levels:
            if level == "method":
                code, sites = _instrument(text, script)
            else:
                code, sites = text, []
            code_path = tmp / f"{level}-{script.stem}.py"
            code_path.write_text(code, encoding="utf-8")
            out_file = next_experiment(out_dir / f"{level}-level" / script.stem)
            cfg = {
                "script": str(script),
                "code": str(code_path),
                "argv": list(argv),
                "level": level,
                "out": str(out_file),
                "summary": str(tmp / f"{level}-summary.json"),
                "sites": [asdict(s) for s in sites],
                "meter": config.to_json(),
                "wait_each_call": wait_each_call,
                "max_records_per_site": max_records_per_site,
            }
            cfg_path = tmp / f"{level}-config.json"
            cfg_path.write_text(json.dumps(cfg), encoding="utf-8")
            returncode = run_child([python, *SAFE_PATH, "-m", "greenlint.meter.runtime", str(cfg_path)], script, timeout_s)
            summary_path = Path(cfg["summary"])
            summary = json.loads(summary_path.read_text()) if summary_path.exists() else None
            profile_file = None
            if level == "method" and summary and summary.get("sites") and write_profile:
                profile_file = save_profiles(script, summary)
            results.append(
                LevelResult(level, out_file if out_file.exists() else None, returncode, summary, len(sites),
                            profile_file)
            )
    return results


def run_child(command: list[str], script: Path, timeout_s: float | None) -> int:
    """Run the metered child and return its exit status; it never outlives this process.

    SIGTERM (and SIGHUP) here stop the child first, then the temporary folder is removed as the
    exception unwinds; on Linux the child is also killed if this process is (SIGKILL), and the
    folder it leaves is swept by the next `measure` (`_sweep_orphans`). The handlers are in place
    before the child starts, and a stop asked for while it starts waits until it has started (held
    by the signal mask, and by the handler itself where another thread of this process, which the
    mask does not cover, takes the signal): never this process gone by the default action, its
    child left running."""
    import signal

    held: list[int] = []  # stops heard while the child starts, by any thread's delivery
    starting = True

    def stop(signum, frame):
        if starting:  # the child is not ours to stop yet: raising now would leave it running
            held.append(signum)
            return
        raise _Stopped(signum)

    stops = [sig for sig in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if sig is not None]
    handlers = {sig: signal.signal(sig, stop) for sig in stops}
    linux = sys.platform.startswith("linux")
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, stops) if linux else set()
        try:
            proc = subprocess.Popen(command, preexec_fn=_child_setup(before) if linux else None)
        except BaseException:
            if linux:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)
            raise
        try:
            starting = False
            if linux:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)  # a stop held meanwhile arrives now
            if held:
                raise _Stopped(held[0])
            return proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise MeasureError(f"{script}: the measured run exceeded {timeout_s:g} s") from None
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


class _Stopped(KeyboardInterrupt):
    """This process was asked to stop (SIGTERM/SIGHUP): unwound like Ctrl-C, the child stopped first."""


def _child_setup(mask: Iterable[int]) -> Callable[[], None]:
    """What the child runs before it starts: it dies with this process (`_die_with_parent`), and
    takes this process's signal mask from before the stop signals were held (a mask survives exec)."""

    def setup() -> None:
        import signal

        _die_with_parent()
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    return setup


def _die_with_parent() -> None:
    """In the child, before it starts: Linux sends it SIGKILL when its parent dies (PR_SET_PDEATHSIG)."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


#: Temporary folders are named after the process that made them, so that the next run can
#: remove those of a process that was killed before it could.
TEMP_PREFIX = "greenlint-measure-"


def _sweep_orphans() -> None:
    import shutil

    for folder in Path(tempfile.gettempdir()).glob(f"{TEMP_PREFIX}*-*"):
        pid = folder.name[len(TEMP_PREFIX):].partition("-")[0]
        if pid.isdigit() and not _alive(int(pid)) and folder.is_dir() and folder.stat().st_uid == os.geteuid():
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process
        return True
    return True


def why_nothing_written(status: int) -> str:
    """Why a run left no records: the script ended the process itself, or something killed it."""
    if status < 0:
        return f"the measured process was killed by signal {-status} before the meter could write its records"
    return (f"the script ended the process itself (exit status {status}) without Python's normal exit, e.g. with"
            " `os._exit()`, so the meter could not write its records; end it with `sys.exit()` to be measured")


def profile_sites(summary: dict) -> list[dict]:
    """The profile file's sites (greenlint/profile/store.py) from the runtime's summary."""
    from greenlint.hardware import hardware_id

    meter = summary.get("meter", {})
    used = {c: d.get("measured_by") for c, d in meter.get("components", {}).items() if d.get("measured_by")}
    counter = ", ".join(f"{c}: {src}" for c, src in used.items()) or "none"
    estimated = meter.get("basis") != "measured"
    out = []
    for entry in summary["sites"]:
        site, comps = entry["site"], entry.get("components_j") or {}
        out.append({
            "api": site["api"], "line": site["line"], "column": site["column"], "end_line": site["end_line"],
            "end_column": site["end_column"], "cell": site["cell"], "statement": site["statement"],
            "executions": entry["executions"], "median_j": entry["median_j"],
            "iqr_j": entry["iqr_j"], "interval_j": entry["interval_j"], "time_s": entry["time_s"],
            "cpu_j": comps.get("cpu"), "gpu_j": comps.get("gpu"), "ram_j": comps.get("ram"),
            "counter": counter, "estimated": estimated, "resolved": entry["resolved"],
            "needed_executions": entry.get("needed_executions"), "upper_bound_j": entry.get("upper_bound_j"),
            "hardware_id": hardware_id(), "date": summary.get("date"), "note": entry.get("note"),
        })
    return out


def save_profiles(script: Path, summary: dict) -> Path:
    """Store this run's per-site profiles beside the project (greenlint/profile/store.py)."""
    from greenlint.hardware import hardware_id
    from greenlint.profile import store

    target = store.profile_file_for_writing(script)
    try:
        store.record(target, script, profile_sites(summary), hardware_id())
    except store.ProfileError as exc:
        raise MeasureError(str(exc)) from None
    return target
