"""A command line parsed by a function of another project module (`config, unparsed = get_config()`
in main.py, the options defined in config.py) and handed on through the script's own functions
(`main(config)`, then `Trainer(config)`): the trainer's attributes read from it are the options'
argparse defaults (`constructed.Elsewhere`, `_Script._handed_in`), and stay unknown where a caller
passes something else or the program sets the option itself."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file

TRAINER = """\
import tensorflow as tf


class Trainer(object):
    def __init__(self, config):
        self.max_step = config.max_step
        self.loss = tf.reduce_mean(tf.zeros([4]))

    def train(self, sess):
        for step in range(self.max_step):
            sess.run(self.loss)
"""

CONFIG = """\
import argparse

parser = argparse.ArgumentParser()
parser.add_argument('--max_step', type=int, default=500)
parser.add_argument('--batch_size', type=int, default=16)


def get_config():
    config, unparsed = parser.parse_known_args()
    {extra}
    return {returned}
"""

MAIN = """\
import tensorflow as tf

from trainer import Trainer
from config import get_config


def main(config):
    {body}
    trainer = Trainer(config)
    trainer.train(tf.compat.v1.Session())


if __name__ == "__main__":
    {entry}
"""


def trainer_loop(tmp_path, body: str = "pass", entry: str = "config, unparsed = get_config()\n    main(config)",
                 returned: str = "config, unparsed", extra: str = "pass", caller: bool = True) -> object:
    """The trips of the loop around trainer.py's `Session.run`, main.py making the trainer from what
    config.py's `get_config()` returns (*caller*: main.py is there at all)."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "trainer.py").write_text(TRAINER)
    (tmp_path / "config.py").write_text(CONFIG.format(extra=extra, returned=returned))
    if caller:
        (tmp_path / "main.py").write_text(MAIN.format(body=body, entry=entry))
    (site,) = [s for s in analyse_file(tmp_path / "trainer.py").callsites if s.api.endswith("Session.run")]
    return site.runs.loop


def test_a_namespace_parsed_in_another_module_and_handed_in_gives_its_argparse_defaults(tmp_path):
    assert trainer_loop(tmp_path) == 500
    # returned alone, and handed in under another name
    assert trainer_loop(tmp_path, entry="args = get_config()\n    main(args)", returned="config") == 500


def test_the_loop_names_the_option_whose_default_bounds_it(tmp_path):
    (tmp_path / ".git").mkdir()
    for name, text in (("trainer.py", TRAINER), ("config.py", CONFIG.format(extra="pass", returned="config, unparsed")),
                       ("main.py", MAIN.format(body="pass", entry="config, unparsed = get_config()\n    main(config)"))):
        (tmp_path / name).write_text(text)
    (site,) = [s for s in analyse_file(tmp_path / "trainer.py").callsites if s.api.endswith("Session.run")]
    assert site.runs.loop_option == "max_step" and "`--max_step`" in site.runs.note


def test_a_library_no_script_calls_keeps_its_loop_unknown(tmp_path):
    assert trainer_loop(tmp_path, caller=False) is None


def test_a_parameter_a_caller_binds_to_something_else_stays_unknown(tmp_path):
    entry = "config, unparsed = get_config()\n    main(config)\n    main(object())"
    assert trainer_loop(tmp_path, entry=entry) is None
    # the same name a parameter of another function too
    other = "config, unparsed = get_config()\n    main(config)\n\n\ndef other(config):\n    print(config.batch_size)"
    assert trainer_loop(tmp_path, entry=other) is None


def test_an_option_the_program_sets_stays_unknown(tmp_path):
    assert trainer_loop(tmp_path, body="setattr(config, 'max_step', 3)") is None  # in the script
    assert trainer_loop(tmp_path, extra="config.max_step = 3") is None  # where it is parsed
    # set on the namespace under another name than the one handed to the trainer
    entry = "args, unparsed = get_config()\n    args.max_step = 7\n    main(args)"
    assert trainer_loop(tmp_path, entry=entry) is None


def test_a_pair_bound_whole_or_a_function_returning_other_than_the_namespace_gives_nothing(tmp_path):
    assert trainer_loop(tmp_path, entry="config = get_config()\n    main(config)") is None
    assert trainer_loop(tmp_path, returned="vars(config)", entry="config = get_config()\n    main(config)") is None


def test_the_modules_a_script_imports_are_read_only_where_it_binds_a_call_of_theirs(monkeypatch):
    """`Beside.elsewhere` reads the project modules a script imports only where it binds a name to a
    call, without arguments, of one it imports (`config = get_config()`), and once per script."""
    from greenlint.analysis import constructed

    read: list[str] = []

    def imported(script: str) -> dict[str, str | None]:
        read.append(script)
        return {"/p/config.py": CONFIG.format(extra="pass", returned="config, unparsed")}

    scripts = {
        "/p/main.py": MAIN.format(body="pass", entry="config, unparsed = get_config()\n    main(config)"),
        "/p/plain.py": "from trainer import Trainer\nfrom config import get_config\nTrainer(get_config(1))\n",
    }
    beside = constructed.Beside(scripts, "/p/trainer.py")
    for _ in range(2):
        assert beside.calls("Trainer", imported) is not None
    assert read == ["/p/main.py"]
    assert beside.told["/p/main.py"].parsing == (("get_config", True),)
    assert dict(beside.told["/p/main.py"].defaults)["max_step"].value == 500
    assert beside.told["/p/plain.py"] == constructed.NOTHING_ELSEWHERE
