"""`greenlint check --fix/--diff/--unsafe-fixes/--show-fixes` on a copy of examples/, real resolver and predictor."""

from __future__ import annotations

import ast
import os
import shutil
import stat

import pytest

from greenlint.analysis.callsite import Span
from greenlint.cli import main
from greenlint.fix.codemods import CODEMODS, Codemod
from greenlint.fix.engine import apply_fixes, unified_diff
from greenlint.paths import REPO_DIR
from greenlint.rules.base import FixBy
from greenlint.rules.diagnostic import Edit, Fix


@pytest.fixture
def examples(tmp_path, monkeypatch):
    copy = tmp_path / "examples"
    shutil.copytree(REPO_DIR / "examples", copy)
    monkeypatch.chdir(copy)
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    return copy


def _texts(root):
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*.py"))}


def _count(capsys, *args) -> int:
    main(["check", *args, "--format", "json", "."])
    import json

    return len(json.loads(capsys.readouterr().out))


def test_diff_shows_what_fix_writes(examples, capsys):
    before = _texts(examples)
    findings_before = _count(capsys)
    mode = 0o640
    os.chmod(examples / "flowers" / "data.py", mode)

    assert main(["check", "--diff", "."]) == 1
    diff = capsys.readouterr().out
    assert _texts(examples) == before  # --diff writes nothing
    assert "+++ b/flowers/data.py" in diff and "num_parallel_calls=tf.data.AUTOTUNE" in diff

    main(["check", "--fix", "--show-fixes", "."])
    err = capsys.readouterr().err
    assert "Fixed 1 finding." in err and err.count("GL402 [fixed, safe]") == 1  # the stateful augmentation's map
    after = _texts(examples)
    changed = [name for name in after if after[name] != before[name]]
    assert changed == ["flowers/data.py"]
    assert diff == unified_diff("flowers/data.py", before["flowers/data.py"], after["flowers/data.py"])
    for text in after.values():
        ast.parse(text)
    assert stat.S_IMODE((examples / "flowers" / "data.py").stat().st_mode) == mode
    assert _count(capsys) < findings_before

    main(["check", "--fix", "."])  # fixing again changes nothing
    assert _texts(examples) == after
    assert "Fixed 0 findings." in capsys.readouterr().err


def test_unsafe_fixes_only_when_asked(examples, capsys):
    path = examples / "debug.py"
    path.write_text("import tensorflow as tf\ntf.config.run_functions_eagerly(True)\n")
    main(["check", "--fix", "debug.py"])
    assert "unsafe fix available" in capsys.readouterr().err
    assert "(True)" in path.read_text()
    main(["check", "--fix", "--unsafe-fixes", "debug.py"])
    assert path.read_text() == "import tensorflow as tf\ntf.config.run_functions_eagerly(False)\n"


def test_notebooks_are_skipped_with_a_reason(examples, capsys):
    nb = examples / "explore.ipynb"
    text = nb.read_text().replace("model.fit(", 'tf.config.run_functions_eagerly(True)\\n",\n    "model.fit(', 1)
    nb.write_text(text)
    main(["check", "--fix", "--unsafe-fixes", "explore.ipynb"])
    assert "explore.ipynb: not fixed: notebook" in capsys.readouterr().err
    assert nb.read_text() == text


def test_overlapping_fixes_wait_for_the_next_pass():
    text = "abcdef\n"
    outer = Fix("outer", (Edit(Span(1, 1, 1, 7), "ABCDEF"),), safe=True)
    inner = Fix("inner", (Edit(Span(1, 2, 1, 3), "X"),), safe=True)
    insert = Fix("insert", (Edit(Span(1, 7, 1, 7), "!"),), safe=True)
    fixed, applied = apply_fixes(text, [outer, inner, insert])
    assert fixed == "ABCDEF!\n" and applied == [outer, insert]


def test_fixes_are_linear_in_the_findings(monkeypatch):
    """Many hoisting fixes in one file generate code linear in the file, not the module's code
    once or twice per finding (a 2,000-line test file with 200 GL502 findings took 26 s that way):
    each finding's statement is parsed and generated alone."""
    import libcst

    from greenlint.check.config import Config
    from greenlint.check.pipeline import check_source

    source = "import tensorflow as tf\n" + "".join(
        f"def step_{i}(xs):\n    for x in xs:\n        y = tf.add(x, tf.constant([{i}.0, 2.0]))\n\n" for i in range(40)
    )
    from greenlint.rules.base import FileFacts

    generated, looked_up = [], []
    code, node = libcst.Module.code, FileFacts.node
    monkeypatch.setattr(
        libcst.Module, "code", property(lambda self: generated.append(len(code.fget(self))) or code.fget(self))
    )
    monkeypatch.setattr(FileFacts, "node", lambda self, site: looked_up.append(1) or node(self, site))
    diagnostics = [d for d in check_source(source, "t.py", Config(no_cache=True)) if d.code == "GL502"]
    assert len(diagnostics) == 40 and all(d.fix is not None for d in diagnostics)
    assert sum(generated) <= 2 * len(source)
    assert len(looked_up) < 40 * 40  # the rules find a call's site from an index, not by scanning every site


def test_fixes_only_for_the_outputs_that_show_them(examples, capsys):
    """The concise output computes no fix (nor imports LibCST or a codemod); json then finds the same
    findings, in the same order, with their fixes, although the concise run cached its findings."""
    import json
    import subprocess
    import sys

    script = (
        "import sys; from greenlint.cli import main; main(['check', '--exit-zero', '.']); "
        "print(any(m in sys.modules for m in ('libcst', 'greenlint.fix.codemods')))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    concise = run.stdout.splitlines()
    assert concise[-1] == "False" and any(": GL402 " in line for line in concise)

    main(["check", "--format", "json", "."])
    found = json.loads(capsys.readouterr().out)
    assert any(d["fix"] is not None for d in found)
    cell = lambda d: f"cell {d['cell']}:" if d["cell"] else ""  # noqa: E731
    shown = [f"{d['filename']}:{cell(d)}{d['location']['row']}:{d['location']['column']}: {d['code']} " for d in found]
    assert [line[: len(s)] for line, s in zip(concise, shown)] == shown

    main(["check", "--show-fixes", "."])
    assert "GL402 [available, safe]" in capsys.readouterr().err


def test_a_file_named_by_two_paths_is_reported_and_fixed_once(examples, capsys):
    """`flowers/data.py` and its absolute path are one file: one set of findings, one fix."""
    data = examples / "flowers" / "data.py"
    main(["check", "--format", "json", "flowers/data.py"])
    once = capsys.readouterr().out
    main(["check", "--format", "json", "flowers/data.py", str(data)])
    assert capsys.readouterr().out == once
    main(["check", "--fix", "flowers/data.py", str(data)])
    err = capsys.readouterr().err
    assert (
        "Fixed 1 finding." in err and "changed" not in err
    )  # GL402 on the random map (the stateless one is parallel on TF 2.21)
    assert "num_parallel_calls=tf.data.AUTOTUNE" in data.read_text()


class _Unbalanced(Codemod):
    """A broken codemod: its edit leaves a parenthesis open."""

    def rewrite(self, at):
        return (at.before_last(at.call, ", ("),)


class _Repeating(Codemod):
    """A codemod that is not idempotent: asked again at its result, it appends once more."""

    def rewrite(self, at):
        return (at.after(at.call, ".cache()"),)


MAPPED = "import tensorflow as tf\nds = tf.data.Dataset.range(100_000).map(double)\n"


@pytest.mark.parametrize("codemod", [_Unbalanced, _Repeating])
def test_a_fix_that_breaks_the_code_is_not_offered(tmp_path, monkeypatch, capsys, caplog, codemod):
    """The engine drops a fix whose edited statement does not parse, or that fixing twice would
    change again: the finding stays in JSON (and SARIF, `--fix`, `--diff`) without a fix."""
    import json
    import logging

    from greenlint.rules.registry import all_rules

    monkeypatch.setitem(CODEMODS, codemod.__name__, codemod)
    monkeypatch.setattr(all_rules()["GL402"], "FIX", FixBy(codemod.__name__, safe=True))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "mapped.py").write_text(MAPPED)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.greenlint]\ntensorflow-version = "2.6"\n'
    )  # GL402 still fires there
    with caplog.at_level(logging.DEBUG, logger="greenlint.fix.engine"):
        main(["check", "--format", "json", "--select", "GL402", "mapped.py"])
    [found] = json.loads(capsys.readouterr().out)
    assert found["code"] == "GL402" and found["fix"] is None
    assert "no fix for" in caplog.text
    main(["check", "--diff", "--select", "GL402", "mapped.py"])
    assert capsys.readouterr().out == ""
    assert (tmp_path / "mapped.py").read_text() == MAPPED
