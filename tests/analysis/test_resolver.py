"""Resolver behaviours not tied to one fixture: unknown APIs, merging, order, no imports of user code."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.values import OPAQUE, Const, Inst, Ref, Seq, merge


def apis(code: str) -> list[tuple[int, str]]:
    result = analyse_source(textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return [(site.span.line, site.api) for site in result.callsites]


def test_unlisted_public_name_in_a_tf_module_is_reported_normalised():
    assert apis("import tensorflow as tf\ntf.some_future_api(1)\n") == [(2, "tensorflow.some_future_api")]


def test_attributes_that_are_not_api_names_are_not_reported():
    code = "import tensorflow as tf\ntf.__version__.split('.')\ntf.keras.layers.Dense.some_attr.call()\ntf._private()\n"
    assert apis(code) == []


def test_keras_3_and_tf_keras_fallbacks_agree():
    code = """
    try:
        import keras
    except ImportError:
        from tensorflow import keras
    keras.layers.Dense(1)
    """
    assert apis(code) == [(6, "tensorflow.keras.layers.Dense")]


def test_try_binding_a_name_the_catalogs_tf_lacks_holds_the_handlers_binding():
    code = """
    import tensorflow as tf
    try:
        merge_summary = tf.merge_summary
        histogram_summary = tf.histogram_summary
    except AttributeError:
        merge_summary = tf.summary.merge
        histogram_summary = tf.summary.histogram
    merge_summary([histogram_summary('z', z)])
    """
    assert apis(code) == [(9, "tensorflow.compat.v1.summary.merge"), (9, "tensorflow.summary.histogram")]


def test_try_whose_names_all_exist_keeps_both_paths():
    code = """
    import tensorflow as tf
    try:
        merge = tf.summary.merge
    except AttributeError:
        merge = tf.summary.histogram
    merge(x)
    """
    assert apis(code) == []


def test_conflicting_bindings_are_unknown_not_guessed():
    code = """
    import tensorflow as tf
    import torch
    if flag:
        lib = tf
    else:
        lib = torch
    lib.zeros(1)
    """
    assert apis(code) == []


def test_functions_see_the_final_module_bindings():
    code = """
    def train():
        model.fit(x)
    from tensorflow import keras
    model = keras.Sequential()
    """
    assert apis(code) == [(3, "tensorflow.keras.Sequential.fit"), (5, "tensorflow.keras.Sequential")]


def test_module_code_sees_bindings_in_order():
    code = """
    import tensorflow as tf
    tf.zeros(1)
    tf = None
    tf.zeros(1)
    """
    assert apis(code) == [(3, "tensorflow.zeros")]


def test_recursive_and_mutually_recursive_factories_terminate():
    code = """
    from tensorflow import keras
    def a(n):
        return b(n) if n else keras.Sequential()
    def b(n):
        return a(n - 1)
    a(3).fit()
    """
    assert (7, "tensorflow.keras.Sequential.fit") in apis(code)


def test_user_method_shadowing_a_tf_method_is_not_reported():
    code = """
    from tensorflow import keras
    class Net(keras.Model):
        def fit(self, *args):
            return super().fit(*args)
    Net().fit(1)
    """
    assert apis(code) == [(5, "tensorflow.keras.Model.fit")]


def test_merge_rules():
    tf_ref = Ref("tensorflow")
    assert merge(tf_ref, Ref("tensorflow")) == tf_ref
    assert merge(tf_ref, Const(None)) == tf_ref  # `tf = None` in an except branch
    assert merge(tf_ref, None) is None  # unknown on one path: unknown
    assert merge(Inst("tensorflow.keras.Model", "constructor"), Inst("tensorflow.keras.Sequential", "x")) is None
    assert merge(Const(1), Const(2)) is OPAQUE
    assert merge(Const(1), Const(1)) == Const(1)
    assert merge(Const(1), Const(True)) is OPAQUE  # 1 == True, but not the same literal


def test_two_displays_of_one_length_merge_item_by_item():
    sides = merge(Const([64, 64, 3]), Const([108, 108, 3]))  # `image_dims` set on two paths
    assert type(sides) is Seq and sides.items == (OPAQUE, OPAQUE, Const(3))
    tensor = Inst("tensorflow.Tensor", "x")
    assert merge(Seq((Const(1), tensor)), Const([1, 2])).items == (Const(1), tensor)  # a tensor beside a number
    assert merge(Const([64, 64]), Const([64, 64, 3])) is OPAQUE  # lengths differ: not known
    assert merge(Const([]), Const(())) is OPAQUE  # nothing to keep
    assert merge(Const("ab"), Const("cd")) is OPAQUE  # not a display


def test_analysis_imports_neither_tensorflow_nor_libcst_nor_user_code(tmp_path):
    user = tmp_path / "user_module.py"
    user.write_text("import tensorflow as tf\nraise SystemExit('user code ran')\n", encoding="utf-8")
    probe = f"""
import json, sys
from greenlint.analysis.analyse import analyse_file
result = analyse_file({str(user)!r})
print(json.dumps({{"calls": len(result.callsites), "loaded": sorted(m for m in ("tensorflow", "keras", "libcst",
    "user_module") if m in sys.modules)}}))
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == {"calls": 0, "loaded": []}


def test_instances_of_two_classes_joined_at_if_else_keep_their_common_base():
    code = """
    import tensorflow as tf
    if strings:
        lookup = tf.keras.layers.StringLookup(vocabulary=vocab)
    else:
        lookup = tf.keras.layers.IntegerLookup(vocabulary=vocab)
    ids = lookup(tokens)
    vocabulary = lookup.get_vocabulary()
    model = tf.keras.Sequential([]) if small else tf.keras.applications.ResNet50()
    model.fit(x, y)
    """
    assert apis(code) == [
        (4, "tensorflow.keras.layers.StringLookup"),
        (6, "tensorflow.keras.layers.IntegerLookup"),
        (7, "tensorflow.keras.Layer.__call__"),  # both are Layers: the call is a Layer's
        # line 8: get_vocabulary is each class's own method, not the Layer's: not guessed
        (9, "tensorflow.keras.Sequential"),
        (9, "tensorflow.keras.applications.ResNet50"),
        (10, "tensorflow.keras.Model.fit"),
    ]


def test_a_value_unknown_on_one_path_stays_unknown_after_the_join():
    code = """
    import tensorflow as tf
    if strings:
        lookup = tf.keras.layers.StringLookup()
    else:
        lookup = make_lookup()
    lookup(tokens)
    """
    assert apis(code) == [(4, "tensorflow.keras.layers.StringLookup")]


def test_calls_on_what_saved_model_load_returns_are_named_as_measured():
    code = """
    import tensorflow as tf
    loaded = tf.saved_model.load("exported")
    infer = loaded.signatures["serving_default"]
    infer(x)
    loaded.signatures["serving_default"](x)
    loaded(x)
    loaded.serve(x)
    """
    assert apis(code) == [
        (3, "tensorflow.saved_model.load"),
        (5, "tensorflow.saved_model.load.signatures.__call__"),
        (6, "tensorflow.saved_model.load.signatures.__call__"),
        (7, "tensorflow.saved_model.load.__call__"),
        (8, "tensorflow.saved_model.load.serve"),
    ]
    # these are the names the measured data uses for such calls
    records = (Path(__file__).resolve().parents[2] / "data" / "kb" / "records.csv").read_text()
    assert "\ntensorflow.saved_model.load.signatures.__call__," in records


@pytest.mark.parametrize(
    "text, expected",
    [
        ("save(a)\nsave(b)\n", 2),
        ("save(a)  # save it\nx = 'saved'\n", 1),
        ("save(a)\nf = getattr(obj, 'save')\n", 2),  # a string that is the name itself names it
        ("help = \"to save after\"\nsave(a)\n", 1),
        ("s = 'it\\'s a save'\nsave(a)\n", 1),
        ('"""a\nsave in a docstring\n"""\nsave(a)\n', 2),  # a string spanning lines still counts: never fewer
        ("print(f'{x}', save(a))\n", 1),
        ("with tf.variable_scope('save'):\n    save(a)\n", 1),  # a graph's scope, no Python object
        ("h = Dense(8, name='save')(x)\nsave(a)\n", 1),  # a layer's name
        ("name = 'save'\nsave(a)\n", 2),  # an assignment may name it for a getattr later
    ],
)
def test_references_to_a_name_skip_comments_and_strings_opened_on_their_line(text, expected):
    from greenlint.analysis.references import text_references

    assert text_references(text, "save")[0] == expected
