"""Hover from `greenlint lsp`: the prediction of the innermost TF call under the cursor."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.units import TIMES, fmt_energy, fmt_j, fmt_range
from tests.lsp_server.conftest import open_document
from tests.lsp_server.samples import TRAIN, predicted

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


async def _hover(client: LanguageClient, path: Path, line: int, character: int) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(path.as_uri()), types.Position(line, character))
    )


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def document(client: LanguageClient, workspace: Path) -> Path:
    path = workspace / "hover.py"
    await open_document(client, path, TRAIN)
    return path


async def test_capabilities(client: LanguageClient):
    assert client.initialize_result.capabilities.hover_provider


async def test_hover_on_a_call_in_a_loop(client: LanguageClient, document: Path):
    hover = await _hover(client, document, 5, 11)  # `fit` of `model.fit(...)` in `for trial in range(4)`
    assert hover.range == types.Range(types.Position(5, 4), types.Position(5, 42))
    assert hover.contents.kind == types.MarkupKind.Markdown
    p = predicted(TRAIN, 6, "tensorflow.keras.Sequential.fit")
    text = hover.contents.value
    assert text.startswith(f"**`tensorflow.keras.Sequential.fit`** · greenlint energy ({p.basis.label})")
    low, high = p.interval_j
    if p.interval_ratio > 100:  # the range is the figure, the median an aside
        assert f"- **{fmt_range(low, high)}** per execution (80% interval, {p.interval_ratio:,.0f}{TIMES} wide; median {fmt_j(p.energy_j)})" in text
    else:
        assert f"- **{fmt_j(p.energy_j)}** per execution (80% interval {fmt_range(low, high)})" in text
    assert f"{TIMES} 4 runs per program run = **{fmt_energy(p.energy_j, p.interval_j, 4)}**" in text
    assert f"CPU {fmt_j(p.cpu_j)} · GPU {fmt_j(p.gpu_j)} · RAM {fmt_j(p.ram_j)}" in text
    assert f"**Basis:** {p.basis.label}: {p.evidence.records} measurements of `{p.evidence.api}`" in text
    assert "measured here" not in text.lower()
    assert "- `GL101` energy-hotspot: Flags a TensorFlow/Keras call site" in text


async def test_innermost_call_wins(client: LanguageClient, document: Path):
    hover = await _hover(client, document, 2, 45)  # `Dense(10)` inside `Sequential([...])`
    assert hover.contents.value.startswith("**`tensorflow.keras.layers.Dense`**")
    assert hover.range == types.Range(types.Position(2, 29), types.Position(2, 54))
    assert "GL1" not in hover.contents.value  # no finding on the layer


async def test_positions_are_utf16(client: LanguageClient, document: Path):
    # `label = "énergie 😀"; zeros = tf.zeros((2, 2))`: the emoji is two UTF-16 code units
    hover = await _hover(client, document, 7, 31)
    assert hover.contents.value.startswith("**`tensorflow.zeros`**")
    assert hover.range == types.Range(types.Position(7, 30), types.Position(7, 46))


async def test_no_hover_off_calls(client: LanguageClient, document: Path):
    assert await _hover(client, document, 1, 0) is None  # blank line
    assert await _hover(client, document, 4, 4) is None  # `for trial in range(4):` has no TF call


async def test_the_tensorflow_import_line_shows_the_programs_start_up(client: LanguageClient, document: Path):
    from greenlint.predict import load_predictor

    start = load_predictor(overlay=False).startup()
    hover = await _hover(client, document, 0, 3)  # `import tensorflow as tf`
    assert hover.range == types.Range(types.Position(0, 0), types.Position(0, 23))
    text = hover.contents.value
    assert text.startswith("**`import tensorflow`** · greenlint energy (from data)")
    assert f"**Start-up:** {fmt_j(start.energy_j)} once per run of the program" in text
    assert fmt_range(*start.interval_j) in text and "runtime's start on the GPU" in text
    # and the device the document's call sites hold between calls, priced per call site
    from greenlint.analysis.analyse import analyse_source

    sites = len(analyse_source(TRAIN, path="sample.py").callsites)
    held = load_predictor(overlay=False).held(sites)
    assert f"*{sites} call sites × " in text
    assert f"**Held device:** {fmt_j(held.energy_j)} per run while this file's calls run" in text


#: A custom loop over data read at run time: `model(x)` runs an unknown number of times, its model is
#: named in the hover as `…Model.__call__`, and `fit` on the loaded data is a floor.
CUSTOM_LOOP = '''\
import numpy as np
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")
data = np.loadtxt("data.csv")
model.fit(data, data, epochs=3)
for x in tf.data.Dataset.from_tensor_slices(data).batch(8):
    y = model(x)
'''


async def test_a_hover_says_what_is_unknown_and_renders_names_as_code(client: LanguageClient, workspace: Path):
    """Issue 29 items 14-16 through the server: a floor's range starts at its 'at least', a call in a loop
    of unknown length says its count is unknown, and `__call__` is code, never bold."""
    from markdown_it import MarkdownIt

    path = workspace / "custom_loop.py"
    await open_document(client, path, CUSTOM_LOOP)
    fit = (await _hover(client, path, 5, 7)).contents.value
    p = predicted(CUSTOM_LOOP, 6, "tensorflow.keras.Sequential.fit")
    assert p.floor and p.interval_j[0] < p.energy_j  # the predictor's interval starts below the floor
    assert f"- **at least {fmt_j(p.energy_j)}** per execution (data size or FLOPs unknown" in fit
    assert fmt_j(p.interval_j[0]) not in fit and "the most stated" not in fit
    assert "if 1,000,000 samples per epoch" in fit and "(stated, not inferred)" in fit  # what the high end assumes
    call = (await _hover(client, path, 7, 9)).contents.value
    assert f"{TIMES} an unknown number of runs per program run" in call and "the total is not known" in call
    html = MarkdownIt().render(call)
    assert "<code>tensorflow.keras.Sequential.__call__</code>" in html and "<strong>call</strong>" not in html
