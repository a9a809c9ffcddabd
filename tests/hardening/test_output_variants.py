"""Held-out variants of issue 29 item 5 (terminal escapes and injected lines in what greenlint
prints): `check --diff`'s patch headers, its source lines on a terminal, and the warning that
names the paths it was given."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess

import pytest

from greenlint.cli import main
from greenlint.report.escape import patch_path
from tests.hardening.fuzz import RAW_CONTROL

FIXABLE = ("import tensorflow as tf\n\ndef augment(x):\n    return tf.image.random_flip_left_right(x)\n\n"
           "ds = tf.data.Dataset.from_tensor_slices(x).map(augment)  # \x1b]52;c;cHduZWQ=\x07 \u202e\n")
NAMES = ["e\x1b[31mvil.py", "nl\n::error file=x::pwned.py", "bidi\u202egnp.py", "c\u0085r.py", "t\ttab.py", 'q"b\\s.py']


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def project(tmp_path, monkeypatch, own_caches):
    root = tmp_path / "p"
    root.mkdir()
    for name in NAMES:
        (root / name).write_text(FIXABLE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return root


def _run(argv: list[str], out: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = out or io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name, header", [
    ("a/plain.py", "a/plain.py"), ("a/e\x1bx.py", '"a/e\\033x.py"'), ("a/n\nl.py", '"a/n\\nl.py"'),
    ("a/t\tb.py", '"a/t\\tb.py"'), ("a/b\u202e.py", '"a/b\\342\\200\\256.py"'), ('a/q"\\.py', '"a/q\\"\\\\.py"'),
])
def test_a_patch_header_quotes_a_name_as_git_does(name, header):
    assert patch_path(name) == header


def test_diff_headers_keep_names_on_their_line_and_the_patch_applies(project, tmp_path):
    code, out, _ = _run(["check", "p", "--diff", "--select", "GL402"])
    assert code == 1 and out.count("\n--- ") + out.startswith("--- ") == len(NAMES)
    headers = [line for line in out.splitlines() if line.startswith(("---", "+++"))]
    assert len(headers) == 2 * len(NAMES) and not any(RAW_CONTROL.search(h) for h in headers), headers
    assert not any(line.startswith("::") for line in out.splitlines())  # no workflow command from a name
    (tmp_path / "fix.patch").write_text(out, encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True, env=env)
    subprocess.run(["git", "apply", "fix.patch"], cwd=tmp_path, check=True, env=env, capture_output=True)
    for name in NAMES:
        assert "num_parallel_calls" in (project / name).read_text(encoding="utf-8"), name


def test_diff_lines_on_a_terminal_are_escaped_and_kept_in_a_pipe(project):
    _, piped, _ = _run(["check", "p", "--diff", "--select", "GL402"])
    _, shown, _ = _run(["check", "p", "--diff", "--select", "GL402"], out=Terminal())
    assert "\x1b]52" in piped  # a patch written to a file keeps the source's bytes
    assert not RAW_CONTROL.search(shown) and "\\x1b]52" in shown and "\\u202e" in shown


def test_the_no_files_warning_escapes_the_path(tmp_path, own_caches):
    empty = tmp_path / "empty\x1b]52;c;eA==\x07"
    empty.mkdir()
    code, _, err = _run(["check", str(empty)])
    assert "no Python files" in err and not RAW_CONTROL.search(err) and "\\x1b]52" in err


def test_the_html_report_shows_a_name_with_bidi_marks_escaped(project):
    """`calls --format html` (the editor's energy report): a U+202E in a file name would reverse the
    link's text in the page; the text shows it escaped, `data-path` and the link keep the name."""
    code, out, _ = _run(["calls", "p", "--format", "html"])
    assert code == 0
    shown = [m for m in out.split("<a href=")[1:] if "bidi" in m]
    assert shown and all("bidi\\u202egnp.py:" in m.split(">", 1)[1] for m in shown)
    assert 'data-path="p/bidi\u202egnp.py"' in out and "bidi%E2%80%AEgnp.py" in out
    texts = [m.split(">", 1)[1].split("</a>", 1)[0] for m in out.split("<a href=")[1:]]
    assert texts and not any(RAW_CONTROL.search(t) for t in texts)
