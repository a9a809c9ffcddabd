"""An instance of a plain project class a script makes and hands a module (`config = Config()`, `Trainer(config,
model)`) holds the class's literal attributes (`epochs = 7`) where no code that could hold it sets them
(`Imports.held`, `assigned.attributes_set`); a base class of another module is handed it through its subclasses'
constructors (`super().__init__(config)`: `constructed._constructing_heirs`)."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.assigned import attributes_set
from greenlint.analysis.project import project_index

CONFIG = """\
class Config:
    epochs = 7
    lr = 0.1
    sizes = [1, 2]

    def __init__(self, load=True):
        self.ready = load
"""

TRAINER = """\
import tensorflow as tf


class Trainer:
    def __init__(self, config, model):
        self.config = config
        self.model = model

    def train(self, x, y):
        for epoch in range(self.config.epochs):
            self.model.fit(x, y, epochs=1)
"""

MAIN = """\
import tensorflow as tf
from config import Config
from trainer import Trainer


def main():
    config = Config()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    trainer = Trainer(config, model)
    trainer.train(None, None)


if __name__ == "__main__":
    main()
"""

FIT = 11  # the line of `fit` in Trainer.train


def fit_runs(tmp_path, trainer: str = TRAINER, main: str = MAIN, more: dict[str, str] | None = None):
    """The runs of trainer.py's `fit`, with config.py and main.py (the script) beside it."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    for name, text in {"config.py": CONFIG, "trainer.py": trainer, "main.py": main, **(more or {})}.items():
        (tmp_path / name).write_text(text)
    project_index().refresh()
    return {site.span.line: site for site in analyse_file(tmp_path / "trainer.py").callsites}[FIT].runs


def test_attributes_set_reads_assignments_and_setattr_not_comparisons():
    text = "self.config.lr *= 0.9\nx.a == 1\nx.b <= 2\nx.c = 3\nsetattr(o, 'd', 1)\nf(x.e)\nx.f += 1\n"
    assert attributes_set(text) == {"lr", "c", "d", "f"}
    assert attributes_set("setattr(config, key, value)\n") is None
    assert attributes_set("config.__dict__.update(d)\n") is None


def test_attributes_set_reads_unpacked_and_loop_targets():
    text = "a.lr, (b.wd, c) = 1, (2, 3)\nfor cfg.epoch in range(3): pass\nx = y.z\nf(k=o.p)\nq == r.s\n"
    assert attributes_set(text) == {"lr", "wd", "epoch"}


def test_a_class_attribute_of_an_instance_a_script_hands_the_module_is_its_literal(tmp_path):
    runs = fit_runs(tmp_path)
    assert (runs.count, runs.bound) == (7, "exact")


def test_an_attribute_set_by_the_module_itself_is_not_known(tmp_path):
    trainer = TRAINER + "            self.config.epochs -= 1\n"
    assert fit_runs(tmp_path, trainer=trainer).count is None


def test_an_attribute_set_by_the_script_is_not_known(tmp_path):
    main = MAIN.replace("    config = Config()\n", "    config = Config()\n    config.epochs = 20\n")
    assert fit_runs(tmp_path, main=main).count is None


def test_an_attribute_set_in_a_module_the_script_imports_is_not_known(tmp_path):
    main = MAIN.replace("from trainer import Trainer\n", "from trainer import Trainer\nfrom tune import tune\n")
    tune = "def tune(config):\n    setattr(config, 'epochs', 3)\n"
    assert fit_runs(tmp_path, main=main, more={"tune.py": tune}).count is None


def test_setattr_of_a_name_not_literal_anywhere_leaves_every_attribute_unknown(tmp_path):
    main = MAIN.replace("    config = Config()\n", "    config = Config()\n    for k, v in {}.items():\n"
                        "        setattr(config, k, v)\n")
    assert fit_runs(tmp_path, main=main).count is None


def test_a_mutable_class_attribute_is_not_known(tmp_path):
    trainer = TRAINER.replace("range(self.config.epochs)", "self.config.sizes")
    assert fit_runs(tmp_path, trainer=trainer).count is None


BASE = TRAINER.replace("class Trainer:", "class Base:")

SUB = """\
from trainer import Base


class Sub(Base):
    def __init__(self, config, model, name="sub"):
        super().__init__(config, model)
        self.name = name
"""

SUB_MAIN = MAIN.replace("from trainer import Trainer", "from sub import Sub").replace("Trainer(config, model)",
                                                                                       "Sub(config, model)")


def test_a_base_class_is_handed_what_its_subclass_constructor_passes_on(tmp_path):
    runs = fit_runs(tmp_path, trainer=BASE, main=SUB_MAIN, more={"sub.py": SUB})
    assert (runs.count, runs.bound) == (7, "exact")


def test_a_base_class_is_handed_it_through_base_init_called_by_name(tmp_path):
    sub = SUB.replace("super().__init__(config, model)", "Base.__init__(self, config, model)")
    assert fit_runs(tmp_path, trainer=BASE, main=SUB_MAIN, more={"sub.py": sub}).count == 7


def test_a_subclass_handing_on_what_it_does_not_read_leaves_it_unknown(tmp_path):
    sub = SUB.replace("def __init__(self, config, model, name=\"sub\")", "def __init__(self, *args)") \
        .replace("super().__init__(config, model)", "super().__init__(*args)").replace("self.name = name", "pass")
    assert fit_runs(tmp_path, trainer=BASE, main=SUB_MAIN, more={"sub.py": sub}).count is None


def test_a_subclass_module_naming_the_base_otherwise_leaves_it_unknown(tmp_path):
    sub = SUB + "\n\ndef plain(config):\n    return Base(None, None)\n"
    assert fit_runs(tmp_path, trainer=BASE, main=SUB_MAIN, more={"sub.py": sub}).count is None
