"""`greenlint measure`: instrument a copy of a script, run it with the meter, write measurement files.

The user's file is only read. A copy (a notebook is first turned into a script) is instrumented
in a temporary directory and run by `meter.runtime` in a subprocess, in the user's working
directory with the user's `__file__` and arguments. Output files follow the public datasets'
layout, `<out>/<level>-level/<script>/experiment-<N>.json` (N = next free number), so
`greenlint kb build <out>` ingests them as they are.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from meter.instrument import instrument_source, notebook_to_script
from meter.session import MeterConfig


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


def script_text(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MeasureError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise MeasureError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise MeasureError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if path.suffix == ".ipynb":
        try:
            return notebook_to_script(text)
        except (ValueError, AttributeError, TypeError) as exc:
            raise MeasureError(f"{path}: malformed notebook ({exc})") from None
    return text


def next_experiment(folder: Path) -> Path:
    taken = [int(m.group(1)) for p in folder.glob("experiment-*.json") if (m := re.fullmatch(r"experiment-(\d+)\.json", p.name))]
    return folder / f"experiment-{max(taken, default=0) + 1}.json"


def _instrument(text: str, path: Path):
    """Resolve and wrap the call sites of *text* (a notebook arrives already turned into a script)."""
    from greenlint.analysis import analyse_source

    analysis = analyse_source(text, path=str(path.with_suffix(".py")))
    if analysis.errors:
        first = analysis.errors[0]
        raise MeasureError(f"{path}:{first.line}:{first.column}: {first.message}")
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
) -> list[LevelResult]:
    script = Path(script).resolve()
    text = script_text(script)
    results = []
    with tempfile.TemporaryDirectory(prefix="greenlint-measure-") as tmp:
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
            try:
                proc = subprocess.run([python, *SAFE_PATH, "-m", "meter.runtime", str(cfg_path)], timeout=timeout_s,
                                      check=False)
            except subprocess.TimeoutExpired:
                raise MeasureError(f"{script}: the measured run exceeded {timeout_s:g} s") from None
            summary_path = Path(cfg["summary"])
            summary = json.loads(summary_path.read_text()) if summary_path.exists() else None
            results.append(
                LevelResult(level, out_file if out_file.exists() else None, proc.returncode, summary, len(sites))
            )
    return results
