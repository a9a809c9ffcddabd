"""Text someone else wrote is never printed raw (issue 29, item 5): terminal controls in file names
and source lines are shown escaped by every text format, and Markdown cannot be closed by a name."""

from __future__ import annotations

import io
import os
import subprocess
from contextlib import redirect_stderr, redirect_stdout

import pytest
from markdown_it import MarkdownIt

from greenlint.cli import main
from greenlint.report.escape import code_span, md_text, visible

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"  # writes "rm -rf ~" to the clipboard of a terminal that prints it
NAME = f"ev\x1b[2Jil{OSC52}\x9b.py"
TRAIN = f"import tensorflow as tf\n_ = '\x1b[1m'; tf.keras.Sequential().fit(x, y, batch_size=2)  # {OSC52}\u202e\n"


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _raw_controls(text: str) -> list[str]:
    return sorted({c for c in text if (ord(c) < 0x20 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F or c == "\u202e"})


def test_visible_escapes_controls_and_keeps_text():
    assert visible("a\x1b[31mb\x07\x9b\u202ec\td") == "a\\x1b[31mb\\x07\\x9b\\u202ec\td"
    assert visible("one\ntwo") == "one\\ntwo" and visible("one\ntwo", lines=True) == "one\ntwo"
    assert visible("café ✓ 日本") == "café ✓ 日本"


@pytest.mark.parametrize("text", ["a`b", "``x``", "`", "a | b", "x\x1by", "<img src=x onerror=alert(1)>", " a "])
def test_a_code_span_holds_any_name(text):
    html = MarkdownIt("commonmark").render(code_span(text)).strip()
    assert html.startswith("<p><code>") and html.endswith("</code></p>") and html.count("<code>") == 1
    assert "<img" not in html and "\x1b" not in html


def test_markdown_text_opens_no_html_nor_code():
    html = MarkdownIt("commonmark").render(md_text("x <script>alert(1)</script> `y` [a](javascript:b) &amp;"))
    assert "<script" not in html and "<code>" not in html and "<a " not in html and "&amp;amp;" in html


@pytest.mark.parametrize("fmt", ["concise", "full", "grouped", "github"])
def test_check_prints_no_raw_control_in_any_text_format(tmp_path, fmt):
    (tmp_path / NAME).write_text(TRAIN)
    code, out, err = run("check", str(tmp_path), "--format", fmt, "--select", "ALL")
    assert code == 1 and "GL" in out
    assert _raw_controls(out + err) == [], repr(out)
    assert "ev\\x1b[2Jil\\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b.py" in out
    if fmt == "full":
        assert "# \\x1b]52;c;cm0gLXJmIH4=\\x07\\u202e" in out  # the source line, escaped
        lines = out.splitlines()
        at = next(i for i, line in enumerate(lines) if "fit(x, y" in line)
        assert "_ = '\\x1b[1m'; tf.keras" in lines[at]
        assert lines[at + 1].index("^") == lines[at].index("tf.keras")  # the caret still under the call


def test_error_lines_on_stderr_are_escaped(tmp_path):
    (tmp_path / f"bad{OSC52}.py").write_text("import tensorflow as tf\ndef broken(:\n")
    code, _, err = run("calls", str(tmp_path), "--format", "json")
    assert code == 2 and "bad\\x1b]52;c;cm0gLXJmIH4=\\x07.py:2:" in err and "GL001" in err
    assert _raw_controls(err) == []


def test_calls_table_prints_no_raw_control_nor_markup(tmp_path):
    (tmp_path / NAME).write_text(TRAIN)
    (tmp_path / "[red]x[bold].py").write_text(TRAIN)
    code, out, err = run("calls", str(tmp_path), "--format", "text")
    assert code == 0, err
    assert _raw_controls(out + err) == [] and "\\x1b]52" in out
    assert "[red]x[bold].py" in out.replace("\n", "")  # a name is never read as rich markup


def _git(root, *args):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root)}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    names = [NAME, "a`<img src=x onerror=alert(1)>`.py", "b``|<b>x.py"]
    for name in names:
        (root / name).write_text(TRAIN.replace("batch_size=2", "batch_size=8, epochs=2"))
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "base")
    for name in names:
        (root / name).write_text(TRAIN.replace("batch_size=2", "batch_size=8, epochs=20"))
    monkeypatch.chdir(root)
    return root


def test_diff_text_prints_no_raw_control(repo):
    code, out, err = run("diff", "HEAD")
    assert code == 0 and "epochs 2 → 20" in out, err
    assert _raw_controls(out + err) == [] and "ev\\x1b[2Jil" in out


def test_diff_markdown_keeps_every_name_in_its_code_span(repo):
    code, out, err = run("diff", "HEAD", "--format", "markdown")
    assert code == 0, err
    assert _raw_controls(out) == []
    html = MarkdownIt("commonmark").enable("table").render(out)
    assert "<img" not in html and "<b>" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    tables, row = [], 0
    for token in MarkdownIt("commonmark").enable("table").parse(out):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            row = 0
        elif token.type in ("th_open", "td_open"):
            row += 1
        elif token.type == "tr_close":
            tables[-1].append(row)
    assert tables and all(len(set(widths)) == 1 for widths in tables)  # no name adds a column
    assert "b``|&lt;b&gt;x.py" in html  # the pipe stays in the name
