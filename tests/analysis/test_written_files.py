"""An array the program writes to a file and reads back has the size it was written with
(greenlint/analysis/files.py): `np.save`/`np.load` and `np.savetxt`/`np.loadtxt` on one literal
name; a read that selects part of the file, a computed name or a file the code never wrote stays
unknown."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from tests.analysis.test_data_sizes import MODEL, fit_work, samples


def _fit(code: str) -> dict:
    return fit_work(code + MODEL + "model.fit(x, y, epochs=3, batch_size=32)\n")


@pytest.mark.parametrize(
    "write, read, rows",
    [
        ('np.save("cache/x.npy", np.random.rand(5000, 2))', 'x = np.load("cache/x.npy")', 5000),
        ('np.save("x", np.zeros((700, 2)))', 'x = np.load("x.npy")', 700),  # np.save adds .npy
        ('np.savetxt("t.csv", np.random.rand(900, 2), delimiter=",")', 'x = np.loadtxt("t.csv", delimiter=",")', 900),
        ('np.savetxt("t.csv", np.random.rand(900, 3))', 'x = np.loadtxt("t.csv")[:, :2]', 900),
        ('np.savetxt(fname="t.txt", X=np.random.rand(40, 2))', 'x = np.loadtxt(fname="t.txt")', 40),
    ],
)
def test_an_array_read_back_from_a_file_the_program_wrote_has_the_size_written(write, read, rows):
    work = _fit(f"{write}\n{read}\ny = x[:, 0]\n")
    assert samples(work) == rows and work["samples"].provenance == "inferred"
    assert "written by np.save" in work["samples"].note and f"{rows:,}" in work["samples"].note
    assert work["steps"].value == 3 * -(-rows // 32)


@pytest.mark.parametrize(
    "code",
    [
        'x = np.load("never_written.npy")',  # a file in the workspace or elsewhere: not written here
        "np.save(name, np.zeros((500, 2)))\nx = np.load(name)",  # a computed name
        'np.savetxt("t.csv", np.zeros((500, 2)))\nx = np.loadtxt("t.csv", skiprows=100)',  # part of the file
        'np.savetxt("t.csv", np.zeros((500, 2)))\nx = np.loadtxt("t.csv", max_rows=10)',
        'np.save("x.npy", np.zeros((500, 2)))\nnp.save("x.npy", data)\nx = np.load("x.npy")',  # overwritten: unknown
        'np.save("a.npy", np.zeros((500, 2)))\nx = np.load("b.npy")',  # another file
    ],
)
def test_a_read_the_code_does_not_size_stays_unknown(code):
    work = _fit(f"name = input()\ndata = get()\n{code}\ny = x[:, 0]\n")
    assert samples(work) is None and work["samples"].provenance == "unknown"


def test_a_dataset_from_arrays_read_back_has_their_samples():
    work = fit_work(
        'np.save("x.npy", np.random.rand(4096, 2))\nnp.save("y.npy", np.random.randint(0, 2, size=(4096,)))\n'
        'ds = tf.data.Dataset.from_tensor_slices((np.load("x.npy"), np.load("y.npy"))).shuffle(256).batch(64)\n'
        + MODEL
        + "model.fit(ds, epochs=2)\n"
    )
    assert samples(work) == 4096 and work["steps"].value == 2 * 64


def _folder_fits(code: str) -> list[dict]:
    """The `fit` works of *code* (after `import os`, `pathlib`, numpy and TensorFlow)."""
    result = analyse_source("import os\nimport pathlib\nimport numpy as np\nimport tensorflow as tf\n"
                            + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return [s.work for s in result.callsites if s.api == "tensorflow.keras.Sequential.fit"]


FOLDER_MODEL = "model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)])\n"
PNG = "tf.io.encode_png(np.zeros((8, 8, 3), dtype=np.uint8))"


@pytest.mark.parametrize(
    "writes, reader, files",
    [
        (f'for label in ("a", "b"):\n    for i in range(256):\n'
         f'        tf.io.write_file(os.path.join("images", label, f"{{i}}.png"), {PNG})\n',
         'tf.keras.utils.image_dataset_from_directory("images", image_size=(8, 8))', 512),
        (f'root = "data/train"\nfor i in range(30):\n    tf.io.write_file(f"{{root}}/cat/{{i}}.jpg", {PNG})\n'
         f'for i in range(20):\n    tf.io.write_file(pathlib.Path(root) / "dog" / f"{{i}}.jpg", {PNG})\n',
         'tf.keras.utils.image_dataset_from_directory("data/train/", image_size=(8, 8))', 50),
        (f'for i in range(100):\n    tf.io.write_file(os.path.join("images", "a", f"{{i}}.png"), {PNG})\n',
         'tf.keras.utils.image_dataset_from_directory("images", image_size=(8, 8), validation_split=0.2, '
         'subset="training", seed=1)', 80),
        ('for i in range(40):\n    tf.io.write_file(os.path.join("texts", "pos", f"{i}.txt"), "good")\n',
         'tf.keras.utils.text_dataset_from_directory("texts")', 40),
    ],
)
def test_a_folder_read_back_holds_the_files_the_program_wrote_into_it(writes, reader, files):
    (fit,) = _folder_fits(writes + f"ds = {reader}\n" + FOLDER_MODEL + "model.fit(ds, epochs=2)\n")
    assert fit["samples"].value == files and fit["samples"].provenance == "inferred"
    assert "files the program writes into" in fit["samples"].note


@pytest.mark.parametrize(
    "writes",
    [
        f'for label in ("a", "b"):\n    for i in range(n):\n        tf.io.write_file(os.path.join("images", label, f"{{i}}.png"), {PNG})\n',
        f'for label in ("a", "b"):\n    for i in range(9):\n        tf.io.write_file(os.path.join("images", label, "same.png"), {PNG})\n',
        f'for i in range(9):\n    if i % 2:\n        tf.io.write_file(os.path.join("images", "a", f"{{i}}.png"), {PNG})\n',
        f'for i in range(9):\n    tf.io.write_file(os.path.join("images", f"{{i}}.png"), {PNG})\n',  # no class folder
        f'for i in range(9):\n    tf.io.write_file(os.path.join("other", "a", f"{{i}}.png"), {PNG})\n',
        f'for i in range(9):\n    tf.io.write_file(os.path.join("images", "a", f"{{i}}.npy"), {PNG})\n',
        f'for i in range(9):\n    tf.io.write_file(os.path.join(folder, "a", f"{{i}}.png"), {PNG})\n',
        f'def write(n):\n    for i in range(n):\n        tf.io.write_file(os.path.join("images", "a", f"{{i}}.png"), {PNG})\n'
        f'write(9)\n',
    ],
)
def test_a_folder_whose_written_files_are_not_counted_stays_unknown(writes):
    code = "n = int(input())\nfolder = input()\n" + writes
    (fit,) = _folder_fits(code + 'ds = tf.keras.utils.image_dataset_from_directory("images")\n' + FOLDER_MODEL
                          + "model.fit(ds, epochs=2)\n")
    assert fit["samples"].value is None and fit["samples"].provenance == "unknown"


def test_a_file_of_the_readers_kind_written_into_a_folder_not_known_leaves_the_count_unknown():
    code = (f'for i in range(9):\n    tf.io.write_file(os.path.join("images", "a", f"{{i}}.png"), {PNG})\n'
            f'path = input()\ntf.io.write_file(f"{{path}}/b/extra.png", {PNG})\n')
    (fit,) = _folder_fits(code + 'ds = tf.keras.utils.image_dataset_from_directory("images")\n' + FOLDER_MODEL
                          + "model.fit(ds, epochs=2)\n")
    assert fit["samples"].value is None
    (fit,) = _folder_fits(code.replace("extra.png", "log.txt") + 'ds = tf.keras.utils.image_dataset_from_directory("images")\n'
                          + FOLDER_MODEL + "model.fit(ds, epochs=2)\n")
    assert fit["samples"].value == 9  # a text file is not an image the reader reads
