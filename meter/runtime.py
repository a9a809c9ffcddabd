"""What runs inside the measured process: the `_greenlint_call` helper and the script runner.

`python -m meter.runtime CONFIG.json` starts the meter, waits for a stable state, runs the
(instrumented) script as `__main__` with `__file__`, `sys.argv` and `sys.path[0]` of the user's
script, then writes the measurement file and a summary (with each site's energy per execution,
`meter.boundary`) for the parent. Around each instrumented call TensorFlow's asynchronous devices
are synchronised (`tf.test.experimental.sync_devices()`, where TF sees an accelerator) and the
counters read, before and after, so queued GPU work is charged to the call that queued it. Calls
made while TF is tracing a graph pass straight through, and so do calls made inside another
measured call (their energy belongs to the outer call). The first `max_records_per_site`
executions of each site also get a measurement record (FECoM's format, for the KB).
A failing script's traceback is reported without the meter's frames.
"""

from __future__ import annotations

import builtins
import functools
import json
import math
import os
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path

from greenlint.atomic import atomic_write_text
from greenlint.meter.boundary import Collector, aggregate, baseline_power, counters, min_span_s
from greenlint.meter.instrument import HELPER, Site
from greenlint.meter.session import MeterConfig, MeterSession
from greenlint.meter.sizes import input_sizes


@functools.cache
def _accelerators(tf) -> bool:
    """Whether TF sees a device that runs asynchronously to Python (GPU, TPU...); eager CPU ops
    return when done, so without one there is nothing to wait for (and 2 x 17 µs per call saved)."""
    try:
        return any(d.device_type != "CPU" for d in tf.config.list_physical_devices())
    except Exception:  # noqa: BLE001 - when in doubt, synchronise
        return True


def sync_devices() -> None:
    """Wait for TF's queued device work (no-op without TF, without an accelerator, or where TF cannot sync)."""
    tf = sys.modules.get("tensorflow")
    sync = getattr(getattr(getattr(tf, "test", None), "experimental", None), "sync_devices", None)
    if sync is not None and _accelerators(tf):
        try:
            sync()
        except Exception:  # noqa: BLE001, S110 - e.g. inside a graph; nothing to wait for then
            pass


def executing_eagerly() -> bool:
    tf = sys.modules.get("tensorflow")
    try:
        return bool(tf.executing_eagerly()) if tf is not None else True
    except Exception:  # noqa: BLE001
        return True


class Recorder:
    """Reads the counters around every instrumented call and keeps the first windows of each
    site for measurement records (built once the run is over). *clock* gives the epoch ns of the
    call boundaries (the system clock; tests pass a simulated one)."""

    def __init__(self, session: MeterSession, sites: list[Site], *, wait_each_call=False, max_records_per_site=20,
                 clock: Callable[[], int] = time.time_ns):
        self.session = session
        self.sites = sites
        self.wait_each_call = wait_each_call
        self.max_records = max_records_per_site
        self.calls = [0] * len(sites)
        self.windows: list[tuple[int, int, int, dict, object]] = []  # site, start, end, sizes, stable
        stable = session.stable
        span = (min_span_s(counters(session.sampler.samples[stable.window[0]:stable.window[1]], session.sources.covers))
                if stable is not None else math.inf)
        self.collector = Collector(min_span_s=span)
        self.counters: dict[str, dict] = {}  # per component: the update period detected, the resolution
        self._clock = clock
        self._depth = 0

    def __call__(self, site_id: int, func, *args, **kwargs):
        if self._depth or not executing_eagerly():
            return func(*args, **kwargs)
        self.calls[site_id] += 1
        keep = self.calls[site_id] <= self.max_records
        sizes = input_sizes(func, args, kwargs) if keep else None
        if self.wait_each_call:
            self.session.wait_stable()
        sync_devices()
        self._depth += 1
        read_start, before = self.session.sources.read_at(self._clock)
        start = self._clock()
        try:
            result = func(*args, **kwargs)
            sync_devices()
        finally:
            end = self._clock()
            read_end, after = self.session.sources.read_at(self._clock)
            read_s = (self._clock() - read_end) / 1e9
            self._depth -= 1
            self.collector.add(site_id, before, after, read_start, read_end, end - start, read_s)
            if keep:
                self.windows.append((site_id, start, end, sizes, self.session.stable))
        return result

    def records(self) -> list[dict]:
        out = []
        for site_id, start, end, sizes, stable in self.windows:
            site = self.sites[site_id]
            self.session.stable = stable
            out.append(
                self.session.record(
                    site.signature,
                    start,
                    end,
                    input_sizes=sizes,
                    line=site.line,
                    api=site.api,
                    executions=1,
                    features={**site.features, "estimated": self.session.estimated},
                    callsite={"line": site.line, "column": site.column, "cell": site.cell},
                )
            )
        return out

    def site_energies(self, stable) -> list[dict]:
        """Each executed site's energy per execution from the boundary readings (meter.boundary)."""
        self.collector.close()
        samples = self.session.sampler.samples
        base = baseline_power(samples, stable.window)
        lo, hi = stable.window
        counter_of = counters(samples[lo:hi], self.session.sources.covers)
        self.counters = {c: asdict(k) for c, k in counter_of.items()}
        out = []
        for site_id, windows in sorted(self.collector.windows.items()):
            site = self.sites[site_id]
            energy = aggregate(windows, base, counter_of)
            out.append({"site": asdict(site), **asdict(energy)})
        return out


def run_script(code_text: str, script: Path, argv: list[str], extra_globals: dict) -> tuple[int, str | None]:
    """Execute *code_text* as the user's `__main__`; (exit status, traceback text or None)."""
    sys.argv = [str(script), *argv]
    sys.path.insert(0, str(script.parent))
    glb = {"__name__": "__main__", "__file__": str(script), "__builtins__": builtins, **extra_globals}
    try:
        exec(compile(code_text, str(script), "exec"), glb)  # noqa: S102 - the user asked to run it
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        return code, None
    except BaseException as exc:  # noqa: BLE001 - the script's failure is reported, the records still written
        return 1, user_traceback(exc)
    return 0, None


def user_traceback(exc: BaseException) -> str:
    """The traceback as the user's own run would show it: the meter's frames left out."""
    here = Path(__file__).parent  # as imported and as it lies once links are resolved
    own = tuple({str(here) + os.sep, str(here.resolve()) + os.sep})

    def strip(te: traceback.TracebackException | None) -> None:
        while te is not None:
            te.stack = traceback.StackSummary.from_list([f for f in te.stack if not f.filename.startswith(own)])
            strip(te.__cause__)
            te = te.__context__ if te.__cause__ is None else None

    te = traceback.TracebackException.from_exception(exc)
    strip(te)
    return "".join(te.format())


def main(config_path: str) -> int:
    cfg = json.loads(Path(config_path).read_text())
    session = MeterSession(MeterConfig.from_json(cfg["meter"]))
    stable = session.start()
    code_text = Path(cfg["code"]).read_text(encoding="utf-8")
    script = Path(cfg["script"])
    if cfg["level"] == "project":
        start = time.time_ns()
        status, tb = run_script(code_text, script, cfg["argv"], {})
        sync_devices()
        end = time.time_ns()
        time.sleep(session.config.after_s)
        session.stop()
        records = [session.record("project-level", start, end, api="project-level", executions=1,
                                  features={"estimated": session.estimated})]
        calls, site_energies, counters_used = {}, [], {}
    else:
        sites = [Site(**s) for s in cfg["sites"]]
        recorder = Recorder(session, sites, wait_each_call=cfg.get("wait_each_call", False),
                            max_records_per_site=cfg.get("max_records_per_site", 20))
        status, tb = run_script(code_text, script, cfg["argv"], {HELPER: recorder})
        time.sleep(session.config.after_s)
        session.stop()
        session.stable = stable
        records = recorder.records()
        calls = {f"{s.api} ({f'cell {s.cell}, ' if s.cell else ''}line {s.line})": n
                 for s, n in zip(sites, recorder.calls)}
        site_energies = recorder.site_energies(stable)
        counters_used = recorder.counters
    atomic_write_text(Path(cfg["out"]), json.dumps(records))
    summary = {
        "status": status,
        "traceback": tb,
        "records": len(records),
        "calls": calls,
        "stable": stable.to_json(),
        "meter": session.meter_block(),
        "sites": site_energies,
        "counters": counters_used,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    atomic_write_text(Path(cfg["summary"]), json.dumps(summary))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
