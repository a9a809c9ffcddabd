"""Language-server benchmark at 5,000 and 10,000 lines of a file whose findings carry fixes.

    python bench/bench_lsp_fixes.py [--bursts N] [--no-write]

The typing scenario of bench/bench_lsp.py (one fresh `python -m greenlint lsp` per size, a client
declaring VS Code's capabilities, bursts of 10 keystrokes 100 ms apart after a top-level statement)
on a generated Keras file of 24-line blocks (an input pipeline, a model, `compile`, `fit`) each
holding a `Dataset.map()` without `num_parallel_calls` (GL402, whose fix adds it): every finding
carries a fix. Per size: the
time from the last keystroke to the diagnostics of the final version, the server's own timing of
each analysis, a quick fix requested on a finding (its fix is computed then, from its statement),
and the peak resident memory of the analysis processes (their VmHWM, read from /proc).

Goals (issue 19): diagnostics after a burst <= 1.0 s at 5,000 lines and <= 1.5 s at 10,000 lines
(p95 of the bursts); analysis memory <= 150 MiB at 5,000 lines. One run's figures are rewritten
into the "Language server: 10,000 lines with fixes" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_lsp import CAPABILITIES, DEBOUNCE_S, Client, _burst, _open, _request, p95
from lsprotocol import types
from report import machine, today, versions, write_section

SIZES = (5000, 10000)
GOALS_S = {5000: 1.0, 10000: 1.5}
MEMORY_GOAL_MIB = {5000: 150}
HEAD = "import numpy as np\nimport tensorflow as tf\n"
BLOCK = '''

def decode_{i}(path, label):
    image = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)
    image = tf.image.resize(image, (180, 180)) / 255.0
    return image, label


def pipeline_{i}(paths, labels):
    ds = tf.data.Dataset.from_tensor_slices((paths, labels))
    ds = ds.shuffle(1000).map(decode_{i})
    return ds.batch(32).prefetch(1)


model_{i} = tf.keras.Sequential([
    tf.keras.layers.Conv2D(16, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(10),
])
model_{i}.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
hard_x = np.zeros((64, 180, 180, 3))
model_{i}.fit(pipeline_{i}(["a.jpg"] * 64, [0] * 64), epochs=3)
'''


def fixable_file(lines: int) -> str:
    """The generated Keras file: blocks until it has at least `lines` lines."""
    parts, count, i = [HEAD], HEAD.count("\n"), 0
    while count < lines:
        block = BLOCK.format(i=i)
        parts.append(block)
        count += block.count("\n")
        i += 1
    return "".join(parts)


def _analysis_peak_mib(server_pid: int) -> float:
    """The largest peak resident memory (VmHWM) among the server's child processes, in MiB."""
    peak = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields.get("PPid", "0").strip() or 0) == server_pid and "VmHWM" in fields:
            peak = max(peak, int(fields["VmHWM"].split()[0]) / 1024)
    return peak


async def _quick_fix(client: Client, uri: str, lines: list[str]) -> tuple[float, bool]:
    """(seconds, whether the GL402 fix came) for the code actions of the first `.map(` finding."""
    line = next(i for i, text in enumerate(lines) if ".map(decode_" in text)
    character = lines[line].index(".map(") + 1
    where = types.Range(types.Position(line, character), types.Position(line, character))
    params = types.CodeActionParams(types.TextDocumentIdentifier(uri), where, types.CodeActionContext(diagnostics=[]))
    t0 = time.perf_counter()
    actions = await _request(client, types.TEXT_DOCUMENT_CODE_ACTION, params)
    seconds = time.perf_counter() - t0
    return seconds, any("num_parallel_calls" in str(a.get("edit")) for a in actions or [])


async def one_size(workspace: Path, lines_wanted: int, bursts: int) -> dict:
    client = Client()
    await client.start_io(sys.executable, "-m", "greenlint", "lsp")
    await client.initialize_async(types.InitializeParams(capabilities=CAPABILITIES, root_uri=workspace.as_uri()))
    client.initialized(types.InitializedParams())
    text = fixable_file(lines_wanted)
    path = workspace / "large.py"
    result: dict = {"open": await _open(client, path, text), "findings": text.count(".map(decode_")}
    lines = text.splitlines(keepends=True)
    result["lines"] = len(lines)
    uri = path.as_uri()
    result["quick_fix"] = await _quick_fix(client, uri, lines)
    version, runs, text_lines = 1, [], list(lines)
    anchors = [i for i, line in enumerate(text_lines) if line.startswith("hard_x = ")]
    for i in range(bursts):
        at = anchors[len(anchors) // 3 + i] + i  # the i statements typed above it moved it down
        version, timings = await _burst(client, uri, text_lines, version, at)
        text_lines[at + 1 : at + 1] = ["z = f(x);\n"]
        runs.append(timings)
    result["bursts"] = runs
    result["analysed_ms"] = client.analysed_ms[1:]  # after the first, which is cold
    result["analysed_cpu_ms"] = client.analysed_cpu_ms[1:]
    result["peak_mib"] = _analysis_peak_mib(client._server.pid)
    result["warnings"] = list(client.warnings)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return result


def markdown(results: dict[int, dict], load: tuple[float, float]) -> str:
    ms = lambda s: f"{s * 1000:.0f}"  # noqa: E731
    rows, goals = [], []
    for size, r in results.items():
        diagnostics = [b["diagnostics"] for b in r["bursts"]]
        analysed = r["analysed_ms"] or [float("nan")]
        cpu = r["analysed_cpu_ms"] or [float("nan")]
        findings_line = f"{r['lines']:,} lines"
        rows.append(
            f"| {findings_line} | {ms(r['open'])} | {ms(statistics.median(diagnostics))} / {ms(p95(diagnostics))} / "
            f"{ms(max(diagnostics))} | {statistics.median(analysed):.0f} / {max(analysed):.0f} | "
            f"{statistics.median(cpu):.0f} | "
            f"{ms(r['quick_fix'][0])}{'' if r['quick_fix'][1] else ' (no fix offered)'} | {r['peak_mib']:.0f} |"
        )
        goal = GOALS_S[size]
        goals.append(
            f"diagnostics <= {goal:g} s after a burst at {size:,} lines (p95 {ms(p95(diagnostics))} ms): "
            f"{'met' if p95(diagnostics) <= goal else 'missed'}"
        )
        if size in MEMORY_GOAL_MIB:
            limit = MEMORY_GOAL_MIB[size]
            goals.append(
                f"analysis memory <= {limit} MiB at {size:,} lines ({r['peak_mib']:.0f} MiB): "
                f"{'met' if r['peak_mib'] <= limit else 'missed'}"
            )
    bursts = len(next(iter(results.values()))["bursts"])
    findings = ", ".join(f"{r['findings']:,} at {r['lines']:,} lines" for r in results.values())
    warnings = sorted({w for r in results.values() for w in r["warnings"]})
    return f"""Measured {today()} by `python bench/bench_lsp_fixes.py` on {machine()}; {versions("pygls", "lsprotocol", "libcst")}.
One fresh server per size; a generated Keras file of 24-line blocks each holding a `Dataset.map()`
without `num_parallel_calls` ({findings}; GL402, every finding with a fix); {bursts} bursts of 10
keystrokes 100 ms apart, as in the "Language server" section.

| file | `didOpen` to diagnostics, ms | last keystroke to diagnostics of the final version, p50 / p95 / max ms | the server's analysis, p50 / max ms | its CPU time, p50 ms | first quick fix of a finding after its diagnostics (its fix computed then), ms | analysis process peak RSS, MiB |
|---|---:|---:|---:|---:|---:|---:|
{chr(10).join(rows)}

Warnings or errors logged by the server: {len(warnings)}{": " + "; ".join(warnings[:3]) if warnings else ""}.
Load average (1 min) before / after the run: {load[0]:.1f} / {load[1]:.1f} on {os.cpu_count()} cores: latencies include
waiting for a core; the analysis' CPU time does not. The diagnostics latency includes the {DEBOUNCE_S * 1000:.0f} ms debounce.

Goals: {"; ".join(goals)}.
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bursts", type=int, default=10)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), choices=SIZES)
    parser.add_argument("--no-write", action="store_true", help="print the section, do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    before = os.getloadavg()[0]
    results = {}
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            results[size] = asyncio.run(one_size(Path(tmp), size, args.bursts))
    body = markdown(results, (before, os.getloadavg()[0]))
    print(body)
    if not args.no_write:
        write_section("Language server: 10,000 lines with fixes", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
