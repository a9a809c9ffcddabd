"""`--fix` writes a file only if it is still what was read, keeps links, owner and mode, or says why not."""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path

import pytest

from greenlint.check import Config, run_check
from greenlint.check import fixes as fix_files
from greenlint.cli import main

MAP = "import tensorflow as tf\nds = tf.data.Dataset.range(n).map(lambda x: x + tf.random.uniform([], 0, 9, tf.int64))\n"  # a random map: GL402 on any TF
FIXED = "num_parallel_calls=tf.data.AUTOTUNE"


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def _computed(paths):
    config = Config(root=Path.cwd(), no_cache=True, jobs=1)
    return fix_files.fix_checked(run_check(paths, config, fixes=True).checked, config)


def test_the_fixture_has_a_safe_fix(cwd):
    (cwd / "a.py").write_text(MAP)
    assert main(["check", "--fix", "a.py"]) == 0 and FIXED in (cwd / "a.py").read_text()


def test_a_file_edited_while_fixes_are_computed_is_not_overwritten(cwd):
    (cwd / "a.py").write_text(MAP)
    (cwd / "b.py").write_text(MAP)
    fixes = _computed(["a.py", "b.py"])
    (cwd / "a.py").write_text(MAP + "# the user's edit\n")
    refused = fix_files.write(fixes)
    assert [f.path for f in refused] == ["a.py"] and "changed while the fixes were computed" in refused[0].skipped
    assert (cwd / "a.py").read_text() == MAP + "# the user's edit\n"
    assert FIXED in (cwd / "b.py").read_text()  # the other files are still written


def test_a_symlink_keeps_its_link_and_its_target_is_fixed(cwd):
    (cwd / "real.py").write_text(MAP)
    (cwd / "link.py").symlink_to("real.py")
    assert main(["check", "--fix", "link.py"]) == 0
    assert (cwd / "link.py").is_symlink() and FIXED in (cwd / "real.py").read_text()


def test_a_hard_linked_file_is_refused(cwd, capsys):
    (cwd / "a.py").write_text(MAP)
    os.link(cwd / "a.py", cwd / "b.txt")
    main(["check", "--fix", "a.py"])
    assert "a.py: not fixed: it has 2 hard links" in capsys.readouterr().err
    assert (cwd / "a.py").read_text() == MAP and os.stat(cwd / "a.py").st_nlink == 2


def test_a_read_only_file_is_refused_and_its_mode_kept(cwd, capsys):
    (cwd / "a.py").write_text(MAP)
    os.chmod(cwd / "a.py", 0o444)
    main(["check", "--fix", "a.py"])
    assert "a.py: not fixed: it is read-only" in capsys.readouterr().err
    assert (cwd / "a.py").read_text() == MAP and stat.S_IMODE(os.stat(cwd / "a.py").st_mode) == 0o444


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_reported_and_the_other_files_still_fixed(cwd, capsys):
    (cwd / "ro").mkdir()
    (cwd / "ro" / "a.py").write_text(MAP)
    (cwd / "b.py").write_text(MAP)
    os.chmod(cwd / "ro", 0o555)
    try:
        main(["check", "--fix", "ro/a.py", "b.py"])
    finally:
        os.chmod(cwd / "ro", 0o755)
    err = capsys.readouterr().err
    assert "ro/a.py: not fixed: cannot write it" in err and "Traceback" not in err
    assert FIXED in (cwd / "b.py").read_text() and (cwd / "ro" / "a.py").read_text() == MAP


def test_a_folder_where_the_write_fails_is_reported(cwd, capsys, monkeypatch):
    """The same as a read-only folder, for root too: the temporary file cannot be created."""
    (cwd / "a.py").write_text(MAP)
    (cwd / "b.py").write_text(MAP)

    def refuse(*args, **kwargs):
        if kwargs.get("dir") == cwd:
            raise PermissionError(13, "Permission denied")
        return real(*args, **kwargs)

    import tempfile

    real = tempfile.mkstemp
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    fixes = _computed(["a.py", "b.py"])
    refused = fix_files.write(fixes)
    assert [f.path for f in refused] == ["a.py", "b.py"]
    assert all("cannot write it (Permission denied)" in f.skipped for f in refused)


def test_a_utf8_bom_file_is_fixed_and_keeps_its_bom(cwd):
    (cwd / "a.py").write_bytes(codecs.BOM_UTF8 + MAP.encode())
    assert main(["check", "--fix", "a.py"]) == 0
    data = (cwd / "a.py").read_bytes()
    assert data.startswith(codecs.BOM_UTF8) and FIXED in data.decode("utf-8-sig")


def test_a_file_in_its_declared_encoding_is_written_back_in_it(cwd):
    (cwd / "a.py").write_bytes(("# -*- coding: latin-1 -*-\n# café\n" + MAP).encode("latin-1"))
    assert main(["check", "--fix", "a.py"]) == 0
    assert FIXED in (cwd / "a.py").read_bytes().decode("latin-1") and b"caf\xe9" in (cwd / "a.py").read_bytes()


def test_a_rewritten_file_keeps_its_mode_and_owner(cwd):
    (cwd / "a.py").write_text(MAP)
    os.chmod(cwd / "a.py", 0o640)
    before = os.stat(cwd / "a.py")
    assert main(["check", "--fix", "a.py"]) == 0
    after = os.stat(cwd / "a.py")
    assert (stat.S_IMODE(after.st_mode), after.st_uid, after.st_gid) == (0o640, before.st_uid, before.st_gid)


def test_another_users_file_keeps_its_owner_or_is_refused(cwd, capsys):
    (cwd / "a.py").write_text(MAP)
    if os.geteuid() == 0:  # root may rewrite it, and gives it back to its owner
        os.chown(cwd / "a.py", 4321, 4321)
        assert main(["check", "--fix", "a.py"]) == 0
        st = os.stat(cwd / "a.py")
        assert FIXED in (cwd / "a.py").read_text() and (st.st_uid, st.st_gid) == (4321, 4321)
    else:
        pytest.skip("needs root to give a file to another user")


def test_a_file_in_its_declared_encoding_is_fixed_from_the_cache_in_it(cwd):
    """The second run answers from the cache, whose record has no text: the text is decoded again as
    Python reads it (the cookie counts), so the fix keeps the file's non-ASCII text."""
    (cwd / "a.py").write_bytes(("# -*- coding: latin-1 -*-\n# café\n" + MAP).encode("latin-1"))
    main(["check", "a.py"])
    assert main(["check", "--fix", "a.py"]) == 0
    data = (cwd / "a.py").read_bytes()
    assert FIXED in data.decode("latin-1") and b"caf\xe9" in data
