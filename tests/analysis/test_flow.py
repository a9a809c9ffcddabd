"""`flow.read_first` and `flow.next_pass`: what one pass of a loop hands the next."""

from __future__ import annotations

import ast

from greenlint.analysis import flow


def _loop(source: str) -> ast.For:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.For))


VIDEO = (
    "for i in range(n):\n"
    "    ok, image = reader.read()\n"
    "    batch = np.expand_dims(prepare(image), 0)\n"
    "    boxes = model.predict(batch)\n"
    "    image = draw(image, boxes)\n"
)
DECODER = (
    "for i in range(n):\n"
    "    batch = seq[None]\n"
    "    token = model.predict(batch).argmax()\n"
    "    seq = np.append(seq, token)\n"
)


def test_a_name_bound_at_the_top_of_each_pass_is_not_read_first():
    loop = _loop(VIDEO)
    first = flow.read_first(loop.body, flow.targets(loop.target))
    assert "image" not in first and "batch" not in first and "i" not in first
    assert {"reader", "model", "np"} <= first


def test_a_name_read_before_its_binding_is_read_first():
    loop = _loop(DECODER)
    assert "seq" in flow.read_first(loop.body, flow.targets(loop.target))


def test_a_binding_under_a_branch_starts_nothing_afresh():
    loop = _loop("for i in range(n):\n    if i:\n        x = f()\n    y = x + 1\n")
    assert "x" in flow.read_first(loop.body)


def test_a_name_a_branch_binds_before_reading_it_is_not_read_first():
    loop = _loop("for i in range(n):\n    if ok:\n        x = f()\n        g(x)\n    else:\n        g(y)\n        y = 1\n")
    first = flow.read_first(loop.body)
    assert "x" not in first and {"ok", "f", "g", "y"} <= first


def test_the_frame_redrawn_under_a_test_reaches_no_later_pass():
    loop = _loop(
        "for i in range(n):\n    ok, frame = reader.read()\n    faces = crop(frame)\n    if faces:\n"
        "        ages = model.predict(faces)\n        frame = draw(frame, ages)\n    show(frame)\n"
    )
    assert "faces" not in flow.next_pass(frozenset({"ages"}), loop.body, flow.targets(loop.target))


def test_the_frame_redrawn_from_the_result_reaches_no_later_pass():
    loop = _loop(VIDEO)
    assert "batch" not in flow.next_pass(frozenset({"boxes"}), loop.body, flow.targets(loop.target))


def test_the_token_appended_to_the_sequence_reaches_the_next_input():
    loop = _loop(DECODER)
    assert "batch" in flow.next_pass(frozenset({"token"}), loop.body, flow.targets(loop.target))


def test_a_nested_loop_binds_its_variable_before_its_body_reads_it():
    loop = _loop("for i in range(n):\n    for j, p in enumerate(paths[i:k]):\n        batch[j] = load(p)\n    use(j)\n")
    first = flow.read_first(loop.body, flow.targets(loop.target))
    assert "p" not in first and {"paths", "k", "batch", "load"} <= first
    assert "j" in first  # read after the nested loop, which may not have run


def test_a_slice_bound_afresh_from_a_fetched_name_reaches_no_later_pass():
    loop = _loop(
        "for i in range(n):\n    stop = i + 4\n    batch = np.zeros(4)\n    for j, p in enumerate(paths[i:stop]):\n"
        "        batch[j] = load(p)\n"
        "    stop = run(batch)\n"
    )
    assert not flow.next_pass(frozenset({"stop"}), loop.body, flow.targets(loop.target))


def test_own_nodes_list_a_nested_scope_without_its_body_nor_the_shared_leaves():
    function = ast.parse("def f(x):\n    y = x + 1\n    def g():\n        z = 2\n    return y\n").body[0]
    own = flow.own_nodes(function)
    assert sorted(n.id for n in own if type(n) is ast.Name) == ["x", "y", "y"]  # not g's `z`
    assert [n.name for n in own if type(n) is ast.FunctionDef] == ["g"]
    assert not any(isinstance(n, (ast.expr_context, ast.operator)) for n in own)
