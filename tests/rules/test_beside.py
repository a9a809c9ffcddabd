"""`beside.beside_mentions` reads the Python modules of a checked file's folder: only regular files,
never a FIFO named like a module (opening one waits for a writer that never comes)."""

from __future__ import annotations

import os
import signal

import pytest

from greenlint.rules.beside import LOADED_BY_NAME, beside_mentions


class Blocked(Exception):
    """Raised by the alarm (not an OSError, which a reader may catch and go on)."""


def _alarm(signum, frame):
    raise Blocked("beside_mentions blocked on a file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_beside_is_passed_over_and_the_other_modules_are_read(tmp_path):
    (tmp_path / "model.py").write_text("import tensorflow as tf\n")
    os.mkfifo(tmp_path / "a_pipe.py")  # read first: names are taken in order
    (tmp_path / "z_infer.py").write_text("model.load_weights(path, by_name=True)\n")
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(5)
    try:
        assert beside_mentions(str(tmp_path / "model.py"), LOADED_BY_NAME)
        os.remove(tmp_path / "z_infer.py")
        assert not beside_mentions(str(tmp_path / "model.py"), LOADED_BY_NAME)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
