"""`--fix` writes a file only if it is still what was read, by its own name (never through a link), keeps
owner and mode, or says why not."""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path

import pytest

from greenlint.check import fixes as fix_files
from greenlint.check.config import Config
from greenlint.check.pipeline import run_check
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
    return fix_files.fix_checked(run_check(paths, config, fixes=True).results, config)


def test_the_fixture_has_a_safe_fix(cwd):
    (cwd / "a.py").write_text(MAP)
    assert main(["check", "--fix", "a.py"]) == 0 and FIXED in (cwd / "a.py").read_text()


def test_a_file_edited_while_fixes_are_computed_is_not_overwritten(cwd):
    (cwd / "a.py").write_text(MAP)
    (cwd / "b.py").write_text(MAP)
    fixes = _computed(["a.py", "b.py"])
    (cwd / "a.py").write_text(MAP + "# the user's edit\n")
    refused = fix_files.write(fixes, cwd)
    assert [f.path for f in refused] == ["a.py"] and "changed while the fixes were computed" in refused[0].skipped
    assert (cwd / "a.py").read_text() == MAP + "# the user's edit\n"
    assert FIXED in (cwd / "b.py").read_text()  # the other files are still written


@pytest.fixture
def outside(tmp_path):
    """A file of another project, beside the one checked (`cwd` is `tmp_path / "p"`)."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "theirs.py").write_text(MAP)
    return tmp_path / "elsewhere" / "theirs.py"


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "p").mkdir()
    monkeypatch.chdir(tmp_path / "p")
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "p"


def test_a_link_to_a_file_outside_the_project_is_refused_by_name(project, outside, capsys):
    """A committed `x.py` linking out of the project (a hostile repository's pre-commit `--fix`)."""
    (project / "x.py").symlink_to(outside)
    assert main(["check", "--fix", "x.py"]) == 1
    err = capsys.readouterr().err
    assert f"x.py: not fixed: it is a symbolic link to {outside}, outside the project; nothing is written" in err, err
    assert outside.read_text() == MAP and (project / "x.py").is_symlink()


def test_a_link_to_another_file_of_the_project_is_refused_and_names_it(project, capsys):
    (project / "real.py").write_text(MAP)
    (project / "link.py").symlink_to("real.py")
    assert main(["check", "--fix", "link.py"]) == 1
    assert "link.py: not fixed: it is a symbolic link to real.py; nothing is written through a link (fix real.py by its own name)" \
        in capsys.readouterr().err
    assert (project / "real.py").read_text() == MAP and (project / "link.py").is_symlink()
    assert main(["check", "--fix", "real.py"]) == 0 and FIXED in (project / "real.py").read_text()


def test_a_walk_meeting_a_link_first_fixes_the_file_itself(project, capsys):
    (project / "real.py").write_text(MAP)
    (project / "0_link.py").symlink_to("real.py")  # sorted before the file it links to
    assert main(["check", "--fix", "."]) == 0, capsys.readouterr().err
    assert FIXED in (project / "real.py").read_text() and (project / "0_link.py").is_symlink()


def test_a_linked_folder_leading_out_of_the_project_is_refused(project, outside, capsys):
    (project / "vendor").symlink_to(outside.parent, target_is_directory=True)
    assert main(["check", "--fix", "vendor/theirs.py"]) == 1
    assert f"vendor/theirs.py: not fixed: a linked folder leads it outside the project (to {outside})" in capsys.readouterr().err
    assert outside.read_text() == MAP


def test_a_file_swapped_for_a_link_after_its_fixes_were_computed_is_not_written_through(project, outside):
    (project / "x.py").write_text(MAP)
    fixes = _computed(["x.py"])
    os.replace(project / "x.py", project / "x.py.bak")
    (project / "x.py").symlink_to(outside)  # to the same bytes as were read: only the link tells them apart
    [refused] = fix_files.write(fixes, project)
    assert "symbolic link" in refused.skipped and outside.read_text() == MAP and (project / "x.py").is_symlink()


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
    refused = fix_files.write(fixes, cwd)
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
