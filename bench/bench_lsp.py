"""Language-server benchmark: how soon `greenlint lsp` answers a typist.

    python bench/bench_lsp.py [--bursts N] [--no-write]

Starts `python -m greenlint lsp` and drives it over stdio with a pygls client that declares what
VS Code declares (UTF-16 positions, inlay hint and code lens refresh, `workspace/configuration`).
It opens examples/train.py and a file of about 5,000 lines made of copies of it, then on the
large file:

- steady state: hovers on `fit()` calls, inlay hints of a 60-line viewport, and of the whole file;
- N typing bursts: 10 keystrokes 100 ms apart typing a statement on a new line after a top-level
  statement in the middle of the file (the text parses again after the last one), each
  followed by an inlay request for the viewport below it that the next keystroke cancels (as
  VS Code does); right after the last keystroke a hover and an inlay request on lines below the
  edit (answered from the previous analysis, moved through the edits), a hover once the analysis
  of the final version has begun, then the time from the last keystroke to its diagnostics.

Goals (issue 13): first hover/inlay answer after a burst p95 < 50 ms; diagnostics <= 1 s after
the last keystroke (judged on the p95 of the bursts; the max is shown too); whole-file inlay
p95 < 100 ms; steady hover/inlay p95 < 50 ms. One run's
figures are rewritten into the "Language server" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from report import REPO, machine, today, versions, write_section

sys.path.insert(0, str(REPO))
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from greenlint.lsp_server.features.sync import DEBOUNCE_S  # noqa: E402

EXAMPLE = REPO / "examples" / "train.py"
TARGET_LINES = 5000
KEYS = "\nz = f(x);"  # ten keystrokes: a new line, then a statement typed one character at a time
KEY_GAP_S = 0.1
VIEWPORT = 60
STEADY = 40  # requests of each kind in the steady state
WHOLE = 20  # whole-file inlay requests


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


class Client(LanguageClient):
    """Records when each (uri, version) was published; answers refreshes and configuration like VS Code."""

    def __init__(self):
        super().__init__("bench", "1")
        self.published: dict[tuple[str, int | None], float] = {}
        self.event = asyncio.Event()
        self.refreshes = 0
        self.warnings: list[str] = []

        self.syntax_errors: dict[tuple[str, int | None], bool] = {}

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams):
            self.published[(params.uri, params.version)] = time.perf_counter()
            self.syntax_errors[(params.uri, params.version)] = any(d.code == "GL001" for d in params.diagnostics)
            self.event.set()

        @self.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
        def inlay_refresh(params):
            self.refreshes += 1

        @self.feature(types.WORKSPACE_CODE_LENS_REFRESH)
        def lens_refresh(params):
            return None

        @self.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams):
            return [{} for _ in params.items]

        @self.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register_capability(params):
            return None

        self.analysed_ms: list[float] = []  # the server's own timing of each analysis of the large file
        self.analysed_cpu_ms: list[float] = []  # and the CPU time of its analysing thread

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def log_message(params: types.LogMessageParams):
            if params.type in (types.MessageType.Warning, types.MessageType.Error):
                self.warnings.append(params.message)
            timed = re.search(r"analysed \S*large\.py version \d+: .* in (\d+) ms(?: \((\d+) ms CPU\))?", params.message)
            if timed:
                self.analysed_ms.append(float(timed.group(1)))
                self.analysed_cpu_ms.append(float(timed.group(2) or "nan"))

    async def published_at(self, uri: str, version: int) -> float:
        while (uri, version) not in self.published:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 60)
        return self.published[(uri, version)]


CAPABILITIES = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(
        configuration=True,
        did_change_configuration=types.DidChangeConfigurationClientCapabilities(dynamic_registration=True),
        inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True),
        code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True),
    ),
    general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]),
)


def _hover_params(uri: str, line: int, character: int) -> types.HoverParams:
    return types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, character))


def _hint_params(uri: str, first: int, last: int) -> types.InlayHintParams:
    whole = types.Range(types.Position(first, 0), types.Position(last, 0))
    return types.InlayHintParams(types.TextDocumentIdentifier(uri), whole)


def _request(client: Client, method: str, params, msg_id: str | None = None) -> asyncio.Future:
    """Send a request whose answer is parsed from JSON but not turned into Python LSP objects (an
    editor parses JSON natively; building pygls objects would time this client, not the server)."""
    msg_id = msg_id or str(uuid.uuid4())
    future = client.protocol.send_request(method, params, msg_id=msg_id)
    client.protocol._result_types[msg_id] = None  # answered as plain JSON data
    return asyncio.wrap_future(future)


async def _timed(client: Client, method: str, params) -> tuple[float, object]:
    t0 = time.perf_counter()
    result = await _request(client, method, params)
    return time.perf_counter() - t0, result


async def _open(client: Client, path: Path, text: str) -> float:
    uri = path.as_uri()
    t0 = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, text)))
    return await client.published_at(uri, 1) - t0


async def _steady(client: Client, uri: str, lines: list[str]) -> dict:
    fits = [(i, line.index(".fit(") + 2) for i, line in enumerate(lines) if ".fit(" in line]
    step = max(1, len(fits) // STEADY)
    hovers, views, wholes, n_hints = [], [], [], 0
    for line, column in fits[::step][:STEADY]:
        seconds, hover = await _timed(client, types.TEXT_DOCUMENT_HOVER, _hover_params(uri, line, column))
        assert hover is not None, f"no hover on the fit() call of line {line + 1}"
        hovers.append(seconds)
        seconds, _ = await _timed(client, types.TEXT_DOCUMENT_INLAY_HINT, _hint_params(uri, line, line + VIEWPORT))
        views.append(seconds)
    for _ in range(WHOLE):
        seconds, hints = await _timed(client, types.TEXT_DOCUMENT_INLAY_HINT, _hint_params(uri, 0, len(lines) + 1))
        wholes.append(seconds)
        n_hints = len(hints)
    return {"hover": hovers, "viewport": views, "whole": wholes, "n_hints": n_hints}


async def _burst(client: Client, uri: str, lines: list[str], version: int, at: int) -> tuple[int, dict]:
    """Ten keystrokes at the end of 0-based line `at`; returns the final version and the timings."""
    line, character = at, len(lines[at].rstrip("\n"))
    below = next(i for i in range(at + 1, len(lines)) if ".fit(" in lines[i])
    cancelled = 0
    pending: tuple[str, asyncio.Future] | None = None
    for key in KEYS:
        version += 1
        where = types.Position(line, character)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [types.TextDocumentContentChangePartial(types.Range(where, where), key)],
            )
        )
        if key == "\n":
            line, character = line + 1, 0
        else:
            character += 1
        if pending is not None and not pending[1].done():  # the editor moved on: cancel, as VS Code does
            client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=pending[0]))
            cancelled += 1
        msg_id = str(uuid.uuid4())
        pending = (msg_id, _request(client, types.TEXT_DOCUMENT_INLAY_HINT, _hint_params(uri, line, line + VIEWPORT), msg_id))
        last_key = time.perf_counter()
        await asyncio.sleep(KEY_GAP_S)
    # the last keystroke was KEY_GAP_S ago: what the typist sees now
    shifted = below + 1  # the burst added one line above it
    column = lines[below].index(".fit(") + 2
    hover_s, hover = await _timed(client, types.TEXT_DOCUMENT_HOVER, _hover_params(uri, shifted, column))
    hint_s, _ = await _timed(client, types.TEXT_DOCUMENT_INLAY_HINT, _hint_params(uri, shifted, shifted + VIEWPORT))
    assert hover is not None and "fit" in hover.contents.value, "the hover below the edit was lost"
    await asyncio.sleep(max(0.0, last_key + DEBOUNCE_S + 0.05 - time.perf_counter()))  # the analysis has begun
    during_s, _ = await _timed(client, types.TEXT_DOCUMENT_HOVER, _hover_params(uri, shifted, column))
    analysing = (uri, version) not in client.published  # still running when the hover was answered
    diagnostics_s = await client.published_at(uri, version) - last_key
    assert not client.syntax_errors[(uri, version)], "the typed text should parse: the burst times a whole analysis"
    try:
        await pending[1]
    except Exception:  # the cancelled one answers with an error, or with hints
        pass
    return version, {
        "hover": hover_s, "inlay": hint_s, "diagnostics": diagnostics_s, "cancelled": cancelled,
        "during": during_s if analysing else None,
    }


async def one_run(workspace: Path, bursts: int) -> dict:
    client = Client()
    t0 = time.perf_counter()
    await client.start_io(sys.executable, "-m", "greenlint", "lsp")
    await client.initialize_async(types.InitializeParams(capabilities=CAPABILITIES, root_uri=workspace.as_uri()))
    client.initialized(types.InitializedParams())
    result: dict = {"initialize": time.perf_counter() - t0}
    example = EXAMPLE.read_text(encoding="utf-8")
    result["small_open"] = await _open(client, workspace / "train.py", example)
    result["first"] = result["initialize"] + result["small_open"]
    big = example * -(-TARGET_LINES // len(example.splitlines()))
    path = workspace / "large.py"
    result["large_open"] = await _open(client, path, big)
    lines = big.splitlines(keepends=True)
    result["lines"] = len(lines)
    uri = path.as_uri()
    result["steady"] = await _steady(client, uri, lines)
    version, runs = 1, []
    text_lines = list(lines)
    # each burst types a statement after a top-level one (the text parses again after the last key)
    anchors = [i for i, line in enumerate(text_lines) if line.startswith("hard_x = ")]
    for i in range(bursts):
        at = anchors[len(anchors) // 3 + i] + i  # the i statements typed above it moved it down
        version, timings = await _burst(client, uri, text_lines, version, at)
        text_lines[at + 1:at + 1] = [KEYS[1:] + "\n"]  # keep our copy in step with the document
        runs.append(timings)
    result["bursts"] = runs
    result["refreshes"] = client.refreshes
    result["warnings"] = list(client.warnings)  # before shutdown: pygls warns of messages that cross it
    result["analysed_ms"] = client.analysed_ms[1:]  # after the first, which loads nothing but is cold
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--no-write", action="store_true", help="print the section, do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        r = asyncio.run(one_run(Path(tmp), args.bursts))
    r["load"] = (load, os.getloadavg()[0])
    ms = lambda s: f"{s * 1000:.0f}"  # noqa: E731
    steady, bursts = r["steady"], r["bursts"]
    after = max(p95([b["hover"] for b in bursts]), p95([b["inlay"] for b in bursts]))
    diagnostics = [b["diagnostics"] for b in bursts]
    during = [b["during"] for b in bursts if b["during"] is not None] or [float("nan")]
    steady_p95 = p95(steady["hover"] + steady["viewport"])
    goals = [
        ("first hover/inlay answer after a burst p95 < 50 ms (each)", after < 0.05),
        ("diagnostics <= 1 s after the last keystroke (p95 of the bursts)", p95(diagnostics) <= 1.0),
        ("whole-file inlay p95 < 100 ms", p95(steady["whole"]) < 0.1),
        ("steady hover/inlay p95 < 50 ms", steady_p95 < 0.05),
    ]
    body = f"""Measured {today()} by `python bench/bench_lsp.py` on {machine()}; {versions("pygls", "lsprotocol")}.
One fresh server (`python -m greenlint lsp` over stdio), a pygls client declaring VS Code's
capabilities (answers are parsed from JSON, as an editor does, not built into pygls objects); the
large file is {r["lines"]:,} lines (copies of examples/train.py).

| step | ms |
|---|---:|
| start to `initialize` reply | {ms(r["initialize"])} |
| start to first diagnostics of examples/train.py (predictor load included) | {ms(r["first"])} |
| `didOpen` to diagnostics, {r["lines"]:,} lines | {ms(r["large_open"])} |
| steady hover on a `fit()` call, p50 / p95 ({len(steady["hover"])}) | {ms(statistics.median(steady["hover"]))} / {ms(p95(steady["hover"]))} |
| steady inlay hints of a {VIEWPORT}-line viewport, p50 / p95 ({len(steady["viewport"])}) | {ms(statistics.median(steady["viewport"]))} / {ms(p95(steady["viewport"]))} |
| inlay hints of the whole file ({steady["n_hints"]:,} hints), p50 / p95 ({len(steady["whole"])}) | {ms(statistics.median(steady["whole"]))} / {ms(p95(steady["whole"]))} |
| after a 10-keystroke burst (100 ms apart, each inlay request cancelled by the next keystroke): first hover, p50 / p95 ({len(bursts)} bursts) | {ms(statistics.median(b["hover"] for b in bursts))} / {ms(p95([b["hover"] for b in bursts]))} |
| after a burst: first inlay hints of the viewport, p50 / p95 | {ms(statistics.median(b["inlay"] for b in bursts))} / {ms(p95([b["inlay"] for b in bursts]))} |
| a hover while that analysis runs, p50 / p95 ({len(during)} of the bursts) | {ms(statistics.median(during))} / {ms(p95(during))} |
| last keystroke to the diagnostics of the final version ({DEBOUNCE_S * 1000:.0f} ms debounce included), p50 / p95 / max | {ms(statistics.median(diagnostics))} / {ms(p95(diagnostics))} / {ms(max(diagnostics))} |
| the server's analysis of the {r["lines"]:,}-line file after each burst (its own log: resolver, predictions, rules), p50 / max ({len(r["analysed_ms"])}) | {statistics.median(r["analysed_ms"]):.0f} / {max(r["analysed_ms"]):.0f} |

Inlay-hint refresh requests received: {r["refreshes"]}; requests cancelled: {sum(b["cancelled"] for b in bursts)};
warnings or errors logged by the server: {len(r["warnings"])}{": " + "; ".join(sorted(set(r["warnings"]))[:3]) if r["warnings"] else ""}.
Load average (1 min) before / after the run: {r["load"][0]:.1f} / {r["load"][1]:.1f} on {os.cpu_count()} cores: latencies include waiting for a core.

Goals: {"; ".join(f"{name}: {'met' if ok else 'missed'}" for name, ok in goals)}.
"""
    if args.no_write:
        print(body)
    else:
        write_section("Language server", body)
        print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
