"""greenlint.atomic: written aside then renamed; a failed write leaves the old file and no litter."""

from __future__ import annotations

import os
import sys

import pytest

from greenlint.atomic import atomic_write_bytes, atomic_write_text


def test_a_write_creates_missing_folders_and_keeps_a_rewritten_files_permissions(tmp_path):
    target = tmp_path / "a" / "b" / "out.txt"
    atomic_write_text(target, "first ✓\n")
    assert target.read_text(encoding="utf-8") == "first ✓\n"
    os.chmod(target, 0o640)
    atomic_write_bytes(target, b"second")
    assert target.read_bytes() == b"second" and target.stat().st_mode & 0o777 == 0o640
    assert os.listdir(target.parent) == ["out.txt"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = tmp_path / "out.txt"
    atomic_write_text(target, "kept")
    with pytest.raises(UnicodeEncodeError):
        atomic_write_text(target, "\udcff")  # a lone surrogate cannot be written as UTF-8
    assert target.read_text() == "kept" and os.listdir(tmp_path) == ["out.txt"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tells a folder's descriptor by /proc")
def test_a_durable_write_syncs_the_file_then_its_folder(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(os.path.isdir(f"/proc/self/fd/{fd}")) or real(fd))
    atomic_write_text(tmp_path / "out.txt", "x")
    assert synced == [False, True]  # the file before the rename, the folder after


def test_a_write_abandoned_before_the_rename_leaves_the_old_file(tmp_path):
    target = tmp_path / "out.txt"
    atomic_write_text(target, "kept")

    def changed():
        raise RuntimeError("changed meanwhile")

    with pytest.raises(RuntimeError):
        atomic_write_bytes(target, b"new", before_replace=changed)
    assert target.read_text() == "kept" and os.listdir(tmp_path) == ["out.txt"]
