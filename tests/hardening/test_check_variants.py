"""Held-out variants of issue 29 item 8 (one file reported twice, patterns accepted that never
match): a file reached through a link met while walking a folder, and per-file-ignores patterns
with `./`, `..` or `{a,b}`."""

from __future__ import annotations

import pytest

from greenlint.check.config import ConfigError, check_file_pattern
from tests.hardening import fuzz

STATEFUL_MAP = ("import tensorflow as tf\n\ndef augment(x):\n    return tf.image.random_flip_left_right(x)\n\n"
                "ds = tf.data.Dataset.from_tensor_slices(x).map(augment)\n")


@pytest.fixture
def project(tmp_path, monkeypatch, own_caches):
    root = tmp_path / "p"
    (root / "d").mkdir(parents=True)
    (root / "a.py").write_text(STATEFUL_MAP)
    (root / "link.py").symlink_to("a.py")
    (root / "d" / "l2.py").symlink_to("../a.py")
    monkeypatch.chdir(root)
    return root


def test_a_file_met_again_through_links_in_a_folder_is_reported_once(project):
    code, out, _ = fuzz._main(["check", ".", "--select", "GL402", "--format", "concise"])
    assert code == 1 and out.count("GL402") == 1 and out.startswith("a.py:"), out


def test_fixing_a_folder_with_links_to_a_file_fixes_it_once_and_refuses_nothing(project):
    code, _, err = fuzz._main(["check", ".", "--select", "GL402", "--fix"])
    assert code == 0 and "not fixed" not in err and "Fixed 1 finding" in err, err
    assert "num_parallel_calls" in (project / "a.py").read_text()
    assert (project / "link.py").is_symlink() and (project / "d" / "l2.py").is_symlink()


@pytest.mark.parametrize("pattern, why", [
    ("./a.py", "`.` or `..` component"), ("src/../a.py", "`.` or `..` component"), ("../*.py", "`.` or `..`"),
    ("{a,sub/b}.py", "alternation"), ("tests/{unit,e2e}/*.py", "alternation"),
])
def test_a_pattern_that_never_matches_is_refused(pattern, why):
    with pytest.raises(ConfigError, match="would never match") as err:
        check_file_pattern(pattern, "--per-file-ignores")
    assert why in str(err.value)


@pytest.mark.parametrize("pattern", ["/a.py", "a.py", "**/b.py", "sub/", "...py", "x..y.py", "{a}.py", r"\{a,b\}.py", ".hidden.py"])
def test_patterns_that_can_match_are_kept(pattern):
    check_file_pattern(pattern, "--per-file-ignores")


def test_the_command_line_names_the_pattern(project):
    code, _, err = fuzz._main(["check", ".", "--per-file-ignores", "./a.py:GL402"])
    assert code == 2 and "./a.py" in err and "`.` or `..` component" in err
