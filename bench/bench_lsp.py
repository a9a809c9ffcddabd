"""Language-server benchmark: how soon `greenlint lsp` answers an editor.

    python bench/bench_lsp.py [--repeat N] [--no-write]

Each run starts `python -m greenlint lsp` afresh and drives it over stdio with a pygls client:
time to the `initialize` reply, to the first pushed diagnostics of examples/train.py (this
includes loading the predictor), then, for that file and for a 1,800-line file made of 50
copies of it, the time from an edit (`didChange`) to its diagnostics (the 0.3 s debounce
included), and the time of a hover and of the inlay hints of the whole document once checked.
Goals: first diagnostics < 3 s; edit to diagnostics < debounce + 0.2 s for the example and
< debounce + 1.5 s for the large file; hover and inlay hints < 100 ms.
The median of N runs is rewritten into the "Language server" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from report import REPO, machine, today, versions, write_section

sys.path.insert(0, str(REPO))
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from lsp_server.features.diagnostics import DEBOUNCE_S  # noqa: E402

EXAMPLE = REPO / "examples" / "train.py"
COPIES = 50


class Client(LanguageClient):
    """Records when each (uri, version) was published."""

    def __init__(self):
        super().__init__("bench", "1")
        self.published: dict[tuple[str, int | None], float] = {}
        self.event = asyncio.Event()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams):
            self.published[(params.uri, params.version)] = time.perf_counter()
            self.event.set()

    async def published_at(self, uri: str, version: int) -> float:
        while (uri, version) not in self.published:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 60)
        return self.published[(uri, version)]


async def _document(client: Client, path: Path, text: str) -> dict[str, float]:
    """Open `path`, then edit it and time diagnostics, hover and inlay hints (seconds)."""
    uri = path.as_uri()
    t0 = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, text))
    )
    opened = await client.published_at(uri, 1) - t0
    last = len(text.splitlines()) - 1
    end = types.Position(last, 0)
    t0 = time.perf_counter()
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [types.TextDocumentContentChangePartial(types.Range(end, end), "# edited\n")],
        )
    )
    edited = await client.published_at(uri, 2) - t0
    fit = next(i for i, line in enumerate(text.splitlines()) if ".fit(" in line)
    column = text.splitlines()[fit].index(".fit(") + 2
    t0 = time.perf_counter()
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(fit, column))
    )
    hovered = time.perf_counter() - t0
    assert hover is not None, "no hover on a fit() call"
    t0 = time.perf_counter()
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(last + 2, 0))
        )
    )
    hinted = time.perf_counter() - t0
    return {"open": opened, "edit": edited, "hover": hovered, "hints": hinted, "n_hints": len(hints)}


async def one_run(workspace: Path) -> dict[str, float]:
    client = Client()
    t0 = time.perf_counter()
    await client.start_io(sys.executable, "-m", "greenlint", "lsp")
    await client.initialize_async(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=workspace.as_uri())
    )
    client.initialized(types.InitializedParams())
    result = {"initialize": time.perf_counter() - t0}
    example = EXAMPLE.read_text(encoding="utf-8")
    small = await _document(client, workspace / "train.py", example)
    result["first"] = result["initialize"] + small["open"]
    result.update({f"small_{k}": v for k, v in small.items()})
    large = await _document(client, workspace / "large.py", example * COPIES)
    result.update({f"large_{k}": v for k, v in large.items()})
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print the section, do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(asyncio.run(one_run(Path(tmp))))
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    ms = lambda s: f"{s * 1000:.0f}"  # noqa: E731
    large_lines = len(EXAMPLE.read_text(encoding="utf-8").splitlines()) * COPIES
    goals = [
        ("first diagnostics < 3 s", med["first"] < 3.0),
        (f"edit to diagnostics < {DEBOUNCE_S + 0.2:.1f} s (example)", med["small_edit"] < DEBOUNCE_S + 0.2),
        (f"edit to diagnostics < {DEBOUNCE_S + 1.5:.1f} s ({large_lines} lines)", med["large_edit"] < DEBOUNCE_S + 1.5),
        (
            "hover and inlay hints < 100 ms",
            max(med["small_hover"], med["small_hints"], med["large_hover"], med["large_hints"]) < 0.1,
        ),
    ]
    body = f"""Measured {today()} by `python bench/bench_lsp.py` on {machine()}; {versions("pygls", "lsprotocol")}.
Median of {args.repeat} fresh servers (`python -m greenlint lsp` over stdio, pygls client).

| step | examples/train.py ({len(EXAMPLE.read_text(encoding="utf-8").splitlines())} lines) | {COPIES} copies ({large_lines} lines) |
|---|---:|---:|
| start to `initialize` reply (ms) | {ms(med["initialize"])} | |
| start to first diagnostics (ms, predictor load included) | {ms(med["first"])} | |
| `didOpen` to diagnostics (ms; the first document loads the predictor) | {ms(med["small_open"])} | {ms(med["large_open"])} |
| `didChange` to diagnostics (ms, {DEBOUNCE_S * 1000:.0f} ms debounce included) | {ms(med["small_edit"])} | {ms(med["large_edit"])} |
| hover on a `fit()` call (ms) | {ms(med["small_hover"])} | {ms(med["large_hover"])} |
| inlay hints of the whole document (ms; hints) | {ms(med["small_hints"])}; {med["small_n_hints"]:.0f} | {ms(med["large_hints"])}; {med["large_n_hints"]:.0f} |

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
