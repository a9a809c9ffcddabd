"""Hydra configurations (`analysis.hydra_config`): the first parameter of a `@hydra.main` function
holds the YAML file's values, read by the resolver and the rules as an option's default
(`cfg.train.epochs`); a group of the defaults list is read from its file; what cannot be read stays
unknown; `getattr(module, name)` of a known name is that member (`getattr(applications,
cfg.model.name)`); a message writes the key as its override is set (`train.epochs=`, not
`--train.epochs`); the lint cache's key follows the files read."""

from __future__ import annotations

import subprocess
import sys

from greenlint.analysis import hydra_config
from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index
from greenlint.analysis.values import set_as
from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules.defaults import DefaultValue, Origin
from tests.analysis.test_flags_elsewhere import fit_epochs

TRAIN = """\
import hydra
import tensorflow as tf


@hydra.main({decorator})
def main(cfg):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    model.compile("sgd", "mse"){extra}
    model.fit(x, y, epochs=cfg.train.epochs, validation_split=0.2)


if __name__ == "__main__":
    main()
"""

HYDRA_1 = 'config_path="conf", config_name="config"'


def project(folder, files: dict[str, str]):
    """A project of *files* in *folder*, a new one each time: a process keeps what it analysed of a
    module's text, and the configuration files are not part of that text."""
    folder.mkdir()
    (folder / ".git").mkdir()
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    project_index().refresh()
    return folder


def test_the_configuration_hydra_hands_main_gives_the_default_epochs(tmp_path):
    folder = project(tmp_path / "p", {"train.py": TRAIN.format(decorator=HYDRA_1, extra=""),
                                      "conf/config.yaml": "train:\n  epochs: 30\n  lr: 0.001\n"})
    assert fit_epochs(folder / "train.py") == (30, DefaultValue(30, "the default of `train.epochs=`", Origin.DEFAULT))


def messages(path, code: str) -> list[str]:
    config = Config(select=(code,), no_cache=True)
    return [d.message for d in check_source(path.read_text(), str(path), config) if d.code == code]


ARGPARSE = """\
import argparse
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=300)
args = parser.parse_args()
model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
model.compile("sgd", "mse")
model.fit(x, y, epochs=args.epochs, validation_split=0.2)
"""


def test_a_message_writes_an_option_as_the_user_sets_it(tmp_path):
    nested = project(tmp_path / "a", {"train.py": TRAIN.format(decorator=HYDRA_1, extra=""),
                                      "conf/config.yaml": "train:\n  epochs: 300\n"})
    (message,) = messages(nested / "train.py", "GL308")
    assert "300 epochs (the default of `train.epochs=`)" in message
    assert "--train.epochs" not in message
    (fit,) = [s for s in analyse_file(nested / "train.py").callsites if s.api.endswith(".fit")]
    assert fit.work["options"].note.startswith("with the default of `train.epochs=`:")  # (the calls' JSON)
    top = project(tmp_path / "b", {"train.py": TRAIN.format(decorator=HYDRA_1, extra="").replace("cfg.train.epochs", "cfg.epochs"),
                                   "conf/config.yaml": "epochs: 300\n"})
    (message,) = messages(top / "train.py", "GL308")
    assert "the default of `epochs=`" in message  # a key at the top: Hydra's still, with no dot to tell
    script = project(tmp_path / "c", {"train.py": ARGPARSE})
    (message,) = messages(script / "train.py", "GL308")
    assert "300 epochs (the default of `--epochs`)" in message
    assert [set_as("epochs"), set_as("train.epochs=")] == ["--epochs", "train.epochs="]


def test_hydra_0_11_names_the_file_itself(tmp_path):
    folder = project(tmp_path / "p", {"train.py": TRAIN.format(decorator='config_path="src/config.yaml"', extra=""),
                                      "src/config.yaml": "train:\n  epochs: 45\n"})
    assert fit_epochs(folder / "train.py")[0] == 45


def test_a_group_of_the_defaults_list_is_read_under_its_name_and_the_primary_file_wins(tmp_path):
    files = {"train.py": TRAIN.format(decorator=HYDRA_1, extra=""), "conf/train/long.yaml": "epochs: 200\nlr: 0.1\n"}
    folder = project(tmp_path / "a", {**files, "conf/config.yaml": "defaults:\n  - train: long\n"})
    assert fit_epochs(folder / "train.py")[0] == 200
    folder = project(tmp_path / "b", {**files, "conf/config.yaml": "defaults:\n  - train: long\ntrain:\n  epochs: 12\n"})
    assert fit_epochs(folder / "train.py")[0] == 12


def test_what_cannot_be_read_stays_unknown(tmp_path):
    cases = [
        ({"conf/config.yaml": "train:\n  epochs: ${oc.env:EPOCHS}\n"}, ""),  # an interpolation
        ({"conf/config.yaml": "train:\n  epochs: ???\n"}, ""),  # mandatory, given on the command line
        ({"conf/other.yaml": "train:\n  epochs: 30\n"}, ""),  # no such file
        ({"conf/config.yaml": "train: [epochs, 30\n"}, ""),  # not YAML
        ({"conf/config.yaml": "train:\n  epochs: 30\n"}, "\n    cfg.train.epochs = 3"),  # the program sets it
    ]
    for i, (files, extra) in enumerate(cases):
        folder = project(tmp_path / str(i), {"train.py": TRAIN.format(decorator=HYDRA_1, extra=extra), **files})
        assert fit_epochs(folder / "train.py") == (None, None), (files, extra)


def test_a_decorator_named_main_from_elsewhere_is_not_hydras(tmp_path):
    text = TRAIN.format(decorator=HYDRA_1, extra="").replace("import hydra\n", "import mylib as hydra\n")
    folder = project(tmp_path / "p", {"train.py": text, "conf/config.yaml": "train:\n  epochs: 30\n"})
    assert fit_epochs(folder / "train.py") == (None, None)


FACTORY = """\
import hydra
from tensorflow.keras import applications
from tensorflow.keras.layers import Dense
from tensorflow.keras.models import Model


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    base = getattr(applications, cfg.model.name)(include_top=False, input_shape=(224, 224, 3), pooling="avg")
    model = Model(inputs=base.input, outputs=Dense(10, activation="softmax")(base.output))
    model.compile("adam", "sparse_categorical_crossentropy")
    model.fit(x, y, batch_size=32, epochs=5)


main()
"""


def test_getattr_of_a_module_by_a_known_name_builds_that_application(tmp_path):
    folder = project(tmp_path / "a", {"train.py": FACTORY, "conf/config.yaml": "model:\n  name: ResNet50\n"})
    (message,) = messages(folder / "train.py", "GL602")
    assert "compute-bound" in message
    folder = project(tmp_path / "b", {"train.py": FACTORY, "conf/config.yaml": "model:\n  name: ${oc.env:MODEL}\n"})
    assert messages(folder / "train.py", "GL602") == []  # the model is not known


def test_the_cache_key_follows_the_configuration_files_read(tmp_path):
    text = TRAIN.format(decorator=HYDRA_1, extra="")
    folder = project(tmp_path / "p", {"train.py": text, "conf/config.yaml": "train:\n  epochs: 30\n"})
    path = str(folder / "train.py")
    first = hydra_config.stamp(path, text.encode())
    assert "config.yaml" in first
    (folder / "conf/config.yaml").write_text("train:\n  epochs: 300\n")
    assert hydra_config.stamp(path, text.encode()) != first
    assert hydra_config.stamp(path, b"import tensorflow as tf\n") == ""


def test_a_program_without_a_hydra_configuration_never_loads_the_yaml_parser(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile('sgd', 'mse')\nm.fit(x, y)\n")
    code = "import sys; from greenlint.analysis.analyse import analyse_file; analyse_file(sys.argv[1]); print('yaml' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code, str(script)], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
