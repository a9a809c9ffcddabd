"""Loops whose items come one at a time on purpose: timed per call (a latency measurement) or read
from standard input as they arrive (greenlint.rules.syntax)."""

from __future__ import annotations

import ast

from greenlint.rules.syntax import streams_items, times_each_call


def _loop_and_call(code: str) -> tuple[ast.AST, ast.Call]:
    tree = ast.parse(code)
    loop = next(n for n in ast.walk(tree) if isinstance(n, ast.For))
    call = next(n for n in ast.walk(loop) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "run")
    return loop, call


def test_a_call_between_two_clock_reads_is_timed_and_one_after_a_single_read_is_not():
    timed = "for x in xs:\n    t0 = time.perf_counter()\n    y = sess.run(f, {a: x})\n    dt = time.perf_counter() - t0\n"
    assert times_each_call(*_loop_and_call(timed))
    once = "t0 = time.time()\nfor x in xs:\n    y = sess.run(f, {a: x})\n    dt = time.time() - t0\n"
    assert not times_each_call(*_loop_and_call(once))  # the clock before the loop times the whole
    local = "for x in xs:\n    y = sess.run(f, {a: x})\n    time = 3\n"
    assert not times_each_call(*_loop_and_call(local))


def test_standard_input_read_line_by_line_streams_its_items_and_its_readlines_do_not():
    assert streams_items(ast.parse("for line in sys.stdin:\n    pass\n").body[0])
    assert not streams_items(ast.parse("for line in sys.stdin.readlines():\n    pass\n").body[0])
