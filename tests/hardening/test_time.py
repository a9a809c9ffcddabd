"""Inputs that were super-linear: long inheritance chains and wide bases analyse in linear-ish time."""

from __future__ import annotations

import time

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.values import ClassInfo


def _chain(n: int) -> str:
    lines = ["import tensorflow as tf", "class C0(tf.keras.layers.Layer):", "    def call(self, x):", "        return tf.matmul(x, x)"]
    lines += [f"class C{i}(C{i - 1}):\n    pass" for i in range(1, n)]
    return "\n".join([*lines, f"C{n - 1}()(tf.ones((2, 2)))"]) + "\n"


def _wide(n: int, width: int) -> str:
    lines = ["import tensorflow as tf"]
    for i in range(n):
        bases = ", ".join(f"C{j}" for j in range(max(0, i - width), i)) or "object"
        lines.append(f"class C{i}({bases}):\n    def f{i}(self):\n        return tf.ones(1)")
    return "\n".join([*lines, f"C{n - 1}().f0()"]) + "\n"


def _seconds(text: str) -> float:
    """The CPU seconds the analysis spent: its work, not the time it waited for a core on a loaded
    machine (a wall clock there measures the other processes too)."""
    start = time.process_time()
    analysis = analyse_source(text, "a.py")
    assert not analysis.errors
    return time.process_time() - start


def test_a_3000_class_chain_is_fast():
    assert _seconds(_chain(3000)) < 10  # was 43-52 s (list `in` and `pop(0)` per lookup)


def test_wide_bases_are_fast():
    assert _seconds(_wide(300, 40)) < 10  # was 16 s, growing ~n^4


def test_the_order_is_pythons_c3():
    def make(name, *bases):
        info = ClassInfo(name)
        info.user_bases = list(bases)
        return info

    o = make("O")
    a, b, c, d, e = (make(n, o) for n in "ABCDE")
    z = make("Z", make("K1", a, b, c), make("K2", d, b, e), make("K3", d, a))
    assert [k.name for k in z.mro()] == ["Z", "K1", "K2", "K3", "D", "A", "B", "C", "E", "O"]
    x, y = make("X", a, b), make("Y", b, a)  # no consistent order: breadth first, each once
    assert [k.name for k in make("bad", x, y).mro()] == ["bad", "X", "Y", "A", "B", "O"]
