"""Quick fixes from `greenlint lsp`: `# noqa` suppression end to end; rule fixes as LSP edits."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec
from pytest_lsp import LanguageClient

from greenlint.analysis.callsite import Span
from greenlint.lsp_server.features.code_action import fix_edits, lines_ending_in_string, noqa_edit
from greenlint.rules.diagnostic import Diagnostic, Edit, Fix
from tests.lsp_server.conftest import open_document, plain, wait_for_diagnostics
from tests.lsp_server.samples import TRAIN


def _range(line: int, start: int, end: int) -> types.Range:
    return types.Range(types.Position(line, start), types.Position(line, end))


async def _actions(client: LanguageClient, uri: str, range_: types.Range, diagnostics) -> list[types.CodeAction]:
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), range_, types.CodeActionContext(diagnostics=list(diagnostics))
        )
    )


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_capabilities(client: LanguageClient):
    provider = client.initialize_result.capabilities.code_action_provider
    assert list(provider.code_action_kinds) == [types.CodeActionKind.QuickFix, "source.fixAll.greenlint"]


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_noqa_action_suppresses_the_finding(client: LanguageClient, workspace: Path):
    path = workspace / "actions.py"
    uri = path.as_uri()
    published = await open_document(client, path, TRAIN)
    [small_batch] = [d for d in published.diagnostics if d.code == "GL301"]
    actions = await _actions(client, uri, _range(6, 10, 10), [small_batch])
    insert = types.TextEdit(range=_range(6, 51, 51), new_text="  # noqa: GL301")
    assert plain(actions) == plain([
        types.CodeAction(
            title="Suppress GL301 (small-batch-size) on this line with `# noqa`",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[small_batch],
            edit=types.WorkspaceEdit(
                document_changes=[
                    types.TextDocumentEdit(types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=1), [insert])
                ]
            ),
        )
    ])
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [types.TextDocumentContentChangePartial(range=insert.range, text=insert.new_text)],
        )
    )
    after = await wait_for_diagnostics(client, uri, 2)
    assert [d.code for d in after.diagnostics] == ["GL101"]


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_noqa_action_extends_an_existing_comment(client: LanguageClient, workspace: Path):
    path = workspace / "extend.py"
    text = TRAIN.replace("epochs=1)\n", "epochs=1)  # noqa: GL101\n")
    published = await open_document(client, path, text)
    # GL003 reports the unused GL101 code; GL301 still stands
    assert sorted(d.code for d in published.diagnostics) == ["GL003", "GL101", "GL301"]
    [small_batch] = [d for d in published.diagnostics if d.code == "GL301"]
    actions = await _actions(client, path.as_uri(), small_batch.range, [small_batch])
    titles = {a.title: a for a in actions}
    action = titles["Suppress GL301 (small-batch-size) on this line with `# noqa`"]
    [edit] = action.edit.document_changes[0].edits
    assert edit == types.TextEdit(range=_range(6, 66, 66), new_text=", GL301")  # after the line's GL101 suppression


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_no_actions_away_from_findings(client: LanguageClient, workspace: Path):
    path = workspace / "quiet.py"
    await open_document(client, path, TRAIN)
    assert list(await _actions(client, path.as_uri(), _range(2, 0, 5), [])) == []


def _diagnostic(line: int, end_line: int | None = None, code: str = "GL101") -> Diagnostic:
    return Diagnostic("x.py", Span(line, 1, end_line or line, 5), code, "energy-hotspot", "m")


def test_noqa_edit_cases():
    lines = ["x = f()\n", "y = g()  # noqa\n", "z = h()  # noqa: GL301\n", "w = k()  # noqa: GL101\n"]
    assert noqa_edit(_diagnostic(1), lines, set()) == (0, 7, "  # noqa: GL101")
    assert noqa_edit(_diagnostic(2), lines, set()) is None  # a bare noqa already suppresses everything
    assert noqa_edit(_diagnostic(3), lines, set()) == (2, 22, ", GL101")
    assert noqa_edit(_diagnostic(4), lines, set()) is None


def test_noqa_goes_where_a_comment_is_code():
    text = 'model.fit(x, """\nlong text\n""")\n'
    lines = text.splitlines(keepends=True)
    assert lines_ending_in_string(text) == {1, 2}
    # the call starts on a line ending inside a string: the comment goes on its last line
    assert noqa_edit(_diagnostic(1, end_line=3), lines, lines_ending_in_string(text)) == (2, 4, "  # noqa: GL101")


def test_strings_are_read_from_the_findings_statements_alone():
    """A quick fix tokenizes the statements holding its finding, not the whole file; the lines it
    finds ending inside strings are the whole file's, there."""
    import ast

    from greenlint.check.config import Config
    from greenlint.check.file_result import FileResult
    from greenlint.fix.engine import outline, statement_lines
    from greenlint.lsp_server.analysis import Analysis
    from greenlint.lsp_server.documents import View
    from greenlint.lsp_server.features.code_action import _in_string

    text = 'DOC = """\nline\n"""\nx = f(1)\n\n\ndef g():\n    s = """a\nb"""\n    return s\ny = f("""\n""")\n'
    shape = outline(ast.parse(text))
    view = View("file:///x.py", 1, text, Analysis("file:///x.py", 1, text, Config(), FileResult("x.py"), outline=shape))
    whole = lines_ending_in_string(text)
    assert whole == {1, 2, 8, 11}
    for line in (1, 2, 4, 8, 9, 11, 12):
        first, last = statement_lines(shape, line, line)
        assert _in_string(view, _diagnostic(line)) == {n for n in whole if first <= n <= last}


def test_fix_edits_use_client_units():
    lines = ['s = "😀"; ds = make()\n']
    fix = Fix("Prefetch", (Edit(Span(1, 21, 1, 21), ".prefetch(2)"), Edit(Span(1, 15, 1, 19), "build")), safe=True)
    assert fix_edits(fix, lines, PositionCodec()) == [
        types.TextEdit(range=_range(0, 21, 21), new_text=".prefetch(2)"),
        types.TextEdit(range=_range(0, 15, 19), new_text="build"),
    ]


#: Two maps of random draws: stateful, so tf.data runs them one element at a time on any
#: TensorFlow (GL402 whatever the version the workspace targets).
MAPPED = (
    "import tensorflow as tf\n"
    "\n"
    "ds = tf.data.Dataset.range(n).map(jitter)\n"
    "ds = ds.map(jitter).batch(4).prefetch(2)\n"
    "def jitter(x):\n"
    "    return x + tf.random.uniform([])\n"
)


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (ASCII text, so characters are client units) from the end backwards."""
    lines = text.splitlines(keepends=True)

    def offset(p: types.Position) -> int:
        return sum(len(x) for x in lines[: p.line]) + p.character

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_quick_fix_and_fix_all_apply_the_engines_edits(client: LanguageClient, workspace: Path):
    from greenlint.check.config import Config
    from greenlint.check.pipeline import check_source
    from greenlint.fix.engine import fix_text

    path = workspace / "mapped.py"
    uri = path.as_uri()
    published = await open_document(client, path, MAPPED)
    first = next(d for d in published.diagnostics if d.code == "GL402" and d.range.start.line == 2)
    actions = await _actions(client, uri, first.range, [first])
    [quick] = [a for a in actions if a.title.startswith("Add `num_parallel_calls")]
    assert quick.kind == types.CodeActionKind.QuickFix and quick.is_preferred
    edits = quick.edit.document_changes[0].edits
    fixed_line = "ds = tf.data.Dataset.range(n).map(jitter, num_parallel_calls=tf.data.AUTOTUNE)\n"
    assert _apply(MAPPED, edits).splitlines(keepends=True)[2] == fixed_line

    whole = types.Range(types.Position(0, 0), types.Position(6, 0))
    [fix_all] = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), whole, types.CodeActionContext(diagnostics=[], only=["source.fixAll"])
        )
    )
    assert fix_all.kind == "source.fixAll.greenlint"
    config = Config(no_cache=True)
    expected = fix_text(MAPPED, lambda t: check_source(t, str(path), config))[0]
    assert "num_parallel_calls" in expected and expected != MAPPED
    assert _apply(MAPPED, fix_all.edit.document_changes[0].edits) == expected


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_fix_all_writes_nothing_through_a_linked_file(client: LanguageClient, workspace: Path, tmp_path):
    """A document that is a link (here out of the project) gets no fix-all, which saving would write
    into the link's target, and the user is told why, as `check --fix` tells."""
    theirs = tmp_path / "theirs.py"
    theirs.write_text(MAPPED)
    path = workspace / "linked_out.py"
    path.symlink_to(theirs)
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=MAPPED))
    )
    published = await wait_for_diagnostics(client, uri, 1)
    assert any(d.code == "GL402" for d in published.diagnostics)  # findings and quick fixes as for any file
    whole = types.Range(types.Position(0, 0), types.Position(6, 0))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), whole, types.CodeActionContext(diagnostics=[], only=["source.fixAll"])
        )
    )
    assert not actions
    [message] = [m for m in client.messages if str(path) in m.message]
    assert message.type == types.MessageType.Warning
    assert f"it is a symbolic link to {theirs}, outside the project; nothing is written through a link" in message.message
    assert theirs.read_text() == MAPPED


def test_notebook_cells_get_fixes_with_tensorflow_imported_in_another_cell():
    from greenlint.check.config import Config
    from greenlint.lsp_server.analysis import Analysis, analyse_text, join_cells
    from tests.check.fakes import Predictor

    cells = ["import tensorflow as tf\n", "ds = tf.data.Dataset.range(n).map(lambda x: x * 2)\n"]
    text, offsets = join_cells(cells)
    config = Config(options={"tensorflow-version": "2.6"}, no_cache=True)  # before tf.data parallelised maps itself
    result = analyse_text(text, "nb.ipynb", config, Predictor().predict, offsets)
    [mapped] = [d for d in result.diagnostics if d.code == "GL402"]
    assert mapped.fix is None  # published without; the code action asks for it
    analysis = Analysis("nb.ipynb", 1, text, config, result)
    [edit] = analysis.with_fix(mapped).fix.edits
    assert edit == Edit(Span(1, 50, 1, 50, cell=2), ", num_parallel_calls=tf.data.AUTOTUNE")


EAGER_STEP = """\
import tensorflow as tf
opt = tf.keras.optimizers.Adam()
for x in data.take(500000):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(x * x)
    grads = tape.gradient(loss, [x])
    opt.apply_gradients(zip(grads, [x]))
"""


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_an_eager_training_step_offers_tf_function_beside_noqa(client: LanguageClient, workspace: Path):
    """GL302 offered only `# noqa`: its unsafe fix (not preferred) moves the step into a @tf.function."""
    path = workspace / "eager_step.py"
    published = await open_document(client, path, EAGER_STEP)
    step = next(d for d in published.diagnostics if d.code == "GL302")
    actions = await _actions(client, path.as_uri(), step.range, [step])
    [wrap] = [a for a in actions if a.title == "Move the training step into a function decorated with @tf.function"]
    assert not wrap.is_preferred  # unsafe: the step must be traceable
    assert any(a.title.startswith("Suppress GL302") for a in actions)
    [change] = wrap.edit.document_changes
    written = "".join(e.new_text for e in change.edits)
    assert "@tf.function\ndef train_step(x):\n" in written and "    train_step(x)" in written


def test_no_quick_fix_whose_edit_would_not_parse(monkeypatch):
    """The code action offers the engine's checked fix only: a codemod whose edit would leave
    code that does not parse gives the finding no fix (and so no quick fix)."""
    from greenlint.check.config import Config
    from greenlint.fix.codemods import CODEMODS, Codemod
    from greenlint.lsp_server.analysis import Analysis, analyse_text
    from greenlint.rules.base import FixBy
    from greenlint.rules.registry import all_rules
    from tests.check.fakes import Predictor

    class Unbalanced(Codemod):
        def rewrite(self, at):
            return (at.before_last(at.call, ", ("),)

    text = "import tensorflow as tf\nds = tf.data.Dataset.range(100_000).map(double)\n"
    config = Config(options={"tensorflow-version": "2.6"}, no_cache=True)  # before tf.data parallelised maps itself
    result = analyse_text(text, "mapped.py", config, Predictor().predict)
    [mapped] = [d for d in result.diagnostics if d.code == "GL402"]
    analysis = Analysis("mapped.py", 1, text, config, result)
    assert analysis.with_fix(mapped).fix is not None  # the rule's own codemod
    monkeypatch.setitem(CODEMODS, "Unbalanced", Unbalanced)
    monkeypatch.setattr(all_rules()["GL402"], "FIX", FixBy("Unbalanced", safe=True))
    assert analysis.with_fix(mapped).fix is None
