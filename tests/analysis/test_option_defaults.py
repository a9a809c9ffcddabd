"""Command-line options' defaults as values for work (`Resolver.option_value`): `args.x` of a parsed
argparse command line and `FLAGS.x` of absl / tf.app flags hold the option's default where the program
does not set it itself, and the call's work says which defaults it assumes (`work["options"]`)."""

from __future__ import annotations

import ast
import textwrap

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.options import unset

HEADER = """\
import argparse
import tensorflow as tf
from tensorflow import keras
x = tf.zeros((1000, 10))
y = tf.zeros((1000, 1))
"""


def fit_work(code: str) -> dict:
    """The work of the one `fit` call in *code*."""
    result = analyse_source(HEADER + textwrap.dedent(code), "train.py")
    assert result.errors == []
    (site,) = [s for s in result.callsites if s.api.endswith(".fit")]
    return site.work


def test_an_argparse_default_is_the_batch_size_and_the_work_says_so():
    work = fit_work(
        """
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=8)
        args = parser.parse_args()
        m = keras.Sequential([keras.layers.Dense(1)])
        m.fit(x, y, batch_size=args.batch_size, epochs=2)
        """
    )
    assert work["batch_size"].value == 8
    assert work["steps"].value == 2 * 125
    assert work["options"].value == ["batch_size"]
    assert "the default of `--batch_size`" in work["options"].note


def test_a_switch_without_a_default_takes_argparses_and_its_branch():
    """`action="store_true"` defaults to False, `"store_false"` to True: a branch on the switch takes the
    default run's path; any other action without `default=` stays unknown."""
    code = """
        parser = argparse.ArgumentParser()
        parser.add_argument("--small", {action})
        args = parser.parse_args()
        if args.small:
            batch = 8
        else:
            batch = 32
        m = keras.Sequential([keras.layers.Dense(1)])
        m.fit(x, y, batch_size=batch, epochs=1)
        """
    assert fit_work(code.format(action='action="store_true"'))["batch_size"].value == 32
    assert fit_work(code.format(action='action="store_false"'))["batch_size"].value == 8
    assert fit_work(code.format(action='type=int'))["batch_size"].value is None


def test_flag_defaults_size_the_model_through_arithmetic():
    """tf.compat.v1 flags and absl's: `Dense(FLAGS.width * 2)` is 128 units wide."""
    for imported in ("flags = tf.compat.v1.flags", "from absl import flags"):
        work = fit_work(
            f"""
            {imported}
            flags.DEFINE_integer("width", 64, "units of the hidden layer")
            FLAGS = flags.FLAGS
            m = keras.Sequential([keras.layers.Dense(FLAGS.width * 2), keras.layers.Dense(1)])
            m.fit(x, y, batch_size=50, epochs=1)
            """
        )
        assert work["params"].value == (10 * 128 + 128) + (128 + 1), imported
        assert work["options"].value == ["width"]


def test_a_command_line_parsed_in_a_helper_gives_its_defaults():
    work = fit_work(
        """
        def parse_args(argv=None):
            parser = argparse.ArgumentParser()
            parser.add_argument("--batch-size", type=int, default=10)
            return parser.parse_args(argv)

        def main():
            args = parse_args()
            m = keras.Sequential([keras.layers.Dense(1)])
            m.fit(x, y, batch_size=args.batch_size, epochs=1)

        main()
        """
    )
    assert work["batch_size"].value == 10


def test_an_option_the_program_sets_is_not_its_default():
    overridden = """
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=8)
        {parse}
        {after}
        m = keras.Sequential([keras.layers.Dense(1)])
        m.fit(x, y, batch_size=args.batch_size, epochs=2)
        """
    cases = {
        "assigned": ("args = parser.parse_args()", "args.batch_size = 16"),
        "a parser default": ("parser.set_defaults(batch_size=4)\nargs = parser.parse_args()", ""),
        "a literal command line": ('args = parser.parse_args(["--batch-size", "2"])', ""),
    }
    for case, (parse, after) in cases.items():
        code = textwrap.indent(f"{parse}\n{after}", " " * 8).strip()
        work = fit_work(overridden.replace("{parse}\n        {after}", code))
        assert work["batch_size"].value != 8, case
        assert "options" not in work, case
    # a literal command line naming another option leaves this one at its default
    work = fit_work(overridden.format(parse='args = parser.parse_args(["--epochs", "3"])', after=""))
    assert work["batch_size"].value == 8


def test_a_default_set_only_where_it_is_none_holds_unless_it_is_none():
    code = """
        flags = tf.compat.v1.flags
        flags.DEFINE_integer("width", {default}, "units")
        flags.DEFINE_integer("height", 32, "units")
        FLAGS = flags.FLAGS
        if FLAGS.width is None:
            FLAGS.width = FLAGS.height
        m = keras.Sequential([keras.layers.Dense(FLAGS.width), keras.layers.Dense(1)])
        m.fit(x, y, batch_size=50, epochs=1)
        """
    assert fit_work(code.format(default=16))["params"].value == (10 * 16 + 16) + (16 + 1)
    # a default of None that means "as --height": the default run takes --height's default
    fallen = fit_work(code.format(default=None))
    assert fallen["params"].value == (10 * 32 + 32) + (32 + 1) and "height" in str(fallen["options"])
    unknown = fit_work(code.format(default=None).replace("FLAGS.width = FLAGS.height", "FLAGS.width = size(x)"))
    assert unknown["params"].value is None and "options" not in unknown  # no layer known: unknown, not 0
    both = code.format(default=None).replace("FLAGS.width = FLAGS.height", "FLAGS.width = FLAGS.height\n        FLAGS.height = 8")
    assert fit_work(both)["params"].value is None  # the program sets --height too


def test_an_attribute_no_option_defines_stays_unknown():
    work = fit_work(
        """
        parser = argparse.ArgumentParser()
        parser.add_argument("--epochs", type=int, default=3)
        args = parser.parse_args()
        m = keras.Sequential([keras.layers.Dense(1)])
        m.fit(x, y, batch_size=args.batch_size, epochs=args.epochs)
        """
    )
    assert work["epochs"].value == 3
    assert work["batch_size"].value is None
    assert work["options"].value == ["epochs"]


def test_a_loop_over_an_options_default_counts_it_and_says_so():
    code = HEADER + textwrap.dedent(
        """
        parser = argparse.ArgumentParser()
        parser.add_argument("--steps", type=int, default=40)
        args = parser.parse_args()
        m = keras.Sequential([keras.layers.Dense(1)])
        for step in range(args.steps * 2):
            m.train_on_batch(x[:8], y[:8])
        outputs = [m.predict(x[:2]) for _ in range(args.steps)]
        for step in range(3):
            m.evaluate(x, y)
        """
    )
    runs = {s.api.rpartition(".")[2]: s.runs for s in analyse_source(code, "train.py").callsites
            if s.api.startswith("tensorflow.keras.Sequential.")}
    assert runs["train_on_batch"].count == 80 and runs["predict"].count == 40
    for method in ("train_on_batch", "predict"):
        assert "the default of `--steps` as a loop's trip count" in runs[method].note
    assert runs["evaluate"].count == 3 and "default" not in runs["evaluate"].note


REASSIGNED = """
parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=8)
parser.add_argument("--mode", required=True)
args = parser.parse_args()
m = keras.Sequential([keras.layers.Dense(1)])
"""


def test_an_option_the_program_reassigns_holds_the_new_value_after_the_assignment():
    """pix2pix's `a.scale_size = CROP_SIZE` after parsing: from there on the option holds that value, at
    module level, in the function that assigns it, and inside the branch that assigns it."""
    module = fit_work(REASSIGNED + "args.batch_size = 16\nm.fit(x, y, batch_size=args.batch_size, epochs=2)\n")
    assert module["batch_size"].value == 16 and "options" not in module
    in_main = fit_work(REASSIGNED + textwrap.dedent("""
        def main():
            args.batch_size = 16
            m.fit(x, y, batch_size=args.batch_size, epochs=2)
        main()
        """))
    assert in_main["batch_size"].value == 16
    in_branch = fit_work(REASSIGNED + textwrap.dedent("""
        if args.mode == "test":
            args.batch_size = 4
            m.fit(x, y, batch_size=args.batch_size, epochs=2)
        """))
    assert in_branch["batch_size"].value == 4


def test_an_option_reassigned_on_one_branch_is_not_known_after_the_join():
    """`if a.mode == "test": a.scale_size = CROP_SIZE`: after the `if` the option holds the default on one
    path and the new value on the other; so does a function the assigning one calls, and a loop's."""
    cases = {
        "a branch": """
            if args.mode == "test":
                args.batch_size = 16
            m.fit(x, y, batch_size=args.batch_size, epochs=2)
            """,
        "another function": """
            def train():
                m.fit(x, y, batch_size=args.batch_size, epochs=2)
            def main():
                if args.mode == "test":
                    args.batch_size = 16
                train()
            main()
            """,
        "a loop": """
            for size in sizes:
                args.batch_size = 16
            m.fit(x, y, batch_size=args.batch_size, epochs=2)
            """,
        "an augmented assignment on a branch": """
            if args.mode == "test":
                args.batch_size *= 2
            m.fit(x, y, batch_size=args.batch_size, epochs=2)
            """,
    }
    for case, code in cases.items():
        work = fit_work(REASSIGNED + textwrap.dedent(code))
        assert work["batch_size"].value is None, case
    doubled = fit_work(REASSIGNED + "args.batch_size *= 2\nm.fit(x, y, batch_size=args.batch_size, epochs=2)\n")
    assert doubled["batch_size"].value == 16


def test_an_option_reassigned_on_a_branch_the_default_run_does_not_take_keeps_its_default():
    """pix2pix's `if a.mode == "test" or a.mode == "export": a.scale_size = CROP_SIZE` in `main`, of a
    `--mode` defaulting to "train": the default run does not assign it, so a function `main` calls reads
    the default, which the command line can change. Where the test is not decided by the defaults (an
    option without one, an option the program sets too, a test of something else), it stays unknown."""
    defaulted = REASSIGNED.replace('"--mode", required=True', '"--mode", default="train"')
    calls = """
        def train():
            m.fit(x, y, batch_size=args.batch_size, epochs=2)
        def main():
            if {test}:
                args.batch_size = 16
            train()
        main()
        """
    for test in ('args.mode == "test" or args.mode == "export"', 'args.mode in ("test", "export")',
                 'not args.mode == "train"', 'args.mode != "train" and flag'):
        work = fit_work(defaulted + textwrap.dedent(calls.format(test=test)))
        assert work["batch_size"].value == 8, test
        assert "--batch_size" in work["options"].note, test
    for code, test in ((defaulted, 'args.mode == "test" or flag'), (REASSIGNED, 'args.mode == "test"'),
                       (defaulted + 'args.mode = "test"\n', 'args.mode == "test"')):
        work = fit_work(code + textwrap.dedent(calls.format(test=test)))
        assert work["batch_size"].value is None, (code, test)


def test_an_option_given_no_default_is_unset_unless_required_or_switched():
    def made(arguments: str) -> str | None:
        return unset(ast.parse(f"p.add_argument({arguments})").body[0].value)

    assert made("'--max_steps', type=int") == "max_steps"
    assert made("'--tags', action='append'") == "tags"
    assert made("'--max_steps', type=int, default=5") is None
    assert made("'--max_steps', type=int, required=True") is None
    assert made("'--fast', action='store_true'") is None
