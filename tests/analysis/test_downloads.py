"""Data sizes the code determines through documented public files and datasets (downloads.py,
data/work/downloads.csv, `tfds.load` without `split=`): known where documented, unknown otherwise."""

from __future__ import annotations

import textwrap

from greenlint.analysis import worktables
from greenlint.analysis.analyse import analyse_source

HEADER = "import pathlib\nimport numpy as np\nimport tensorflow as tf\nimport tensorflow_datasets as tfds\n"
MODEL = "model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])\n"
MNIST_NPZ = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
FLOWERS = "https://storage.googleapis.com/download.tensorflow.org/example_images/flower_photos.tgz"


def works(code: str, method: str) -> list[dict]:
    result = analyse_source(HEADER + MODEL + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return [s.work for s in result.callsites if s.api == f"tensorflow.keras.Sequential.{method}"]


def test_the_table_names_a_source_for_every_row():
    content = worktables.download(MNIST_NPZ)
    assert content["x_train"].samples == 60000 and content["x_train"].shape == (28, 28)
    assert content["y_test"].samples == 10000 and content["y_test"].shape == ()
    assert worktables.download(FLOWERS.replace("https://", "http://"))[""].samples == 3670  # the scheme aside
    assert all(split.source for url in (MNIST_NPZ, FLOWERS) for split in worktables.download(url).values())
    assert worktables.download("https://example.org/data.npz") is None


def test_np_load_of_a_downloaded_npz_has_its_documented_arrays():
    (fit,) = works(f"""
        path = tf.keras.utils.get_file('mnist.npz', '{MNIST_NPZ}')
        with np.load(path) as data:
            x, y = data['x_train'], data['y_train']
        model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(64), epochs=2)
    """, "fit")
    assert fit["samples"].value == 60000 and fit["samples"].provenance == "documented"
    assert "keras.io/api/datasets/mnist" in fit["samples"].note and MNIST_NPZ in fit["samples"].note
    assert fit["steps"].value == 2 * 938  # ceil(60000 / 64) a epoch


def test_a_downloaded_archive_read_from_its_directory_is_split_as_keras_splits_it():
    fits = works(f"""
        data_dir = tf.keras.utils.get_file('flower_photos', origin='{FLOWERS}', untar=True)
        data_dir = pathlib.Path(data_dir)
        train = tf.keras.utils.image_dataset_from_directory(data_dir, validation_split=0.2, subset="training", seed=1)
        val = tf.keras.utils.image_dataset_from_directory(data_dir, validation_split=0.2, subset="validation", seed=1)
        model.fit(train, validation_data=val, epochs=1)
        both = tf.keras.utils.image_dataset_from_directory(data_dir, validation_split=0.2, subset="both", batch_size=64)
        model.fit(both[0], validation_data=both[1])
        model.fit(tf.keras.utils.image_dataset_from_directory(data_dir))
        tar = tf.keras.utils.get_file('flower_photos.tar', origin='{FLOWERS}', extract=True)
        model.fit(tf.keras.utils.image_dataset_from_directory(pathlib.Path(tar).with_suffix('')))
    """, "fit")
    assert [(w["samples"].value, getattr(w.get("validation_samples"), "value", None)) for w in fits] == [
        (2936, 734), (2936, 734), (3670, None), (3670, None)]  # the tutorial's "Using 2936 files for training"
    assert fits[0]["samples"].provenance == "documented" and "tf_flowers" in fits[0]["samples"].note
    assert fits[1]["steps_per_epoch"].value == 46  # ceil(2936 / 64)


def test_an_unknown_url_or_an_unknown_split_stays_unknown():
    fits = works(f"""
        other = tf.keras.utils.get_file('x.npz', 'https://example.org/x.npz')
        with np.load(other) as data:
            model.fit(data['x'], data['y'])
        dirs = tf.keras.utils.get_file('flower_photos', origin='{FLOWERS}', untar=True)
        model.fit(tf.keras.utils.image_dataset_from_directory(dirs, validation_split=split, subset="training"))
        model.fit(tf.keras.utils.image_dataset_from_directory(pathlib.Path(dirs) / "roses"))
        model.fit(tf.keras.utils.image_dataset_from_directory(pathlib.Path(dirs).with_suffix('.d')))
    """, "fit")
    assert [w["samples"].value for w in fits] == [None, None, None, None]
    assert {w["samples"].provenance for w in fits} == {"unknown"}


def test_tfds_load_without_split_is_indexed_by_split_name():
    fit, evaluate = works("""
        datasets, info = tfds.load('mnist', with_info=True, as_supervised=True)
        train, test = datasets['train'], datasets['test']
        model.fit(train.batch(64), epochs=5)
        model.evaluate(datasets['test'].batch(100))
        model.predict(datasets['no_such_split'].batch(8))
    """, "fit") + works("""
        model.evaluate(tfds.load('mnist')['test'].batch(100))
    """, "evaluate")
    assert fit["samples"].value == 60000 and fit["samples"].provenance == "table"
    assert fit["steps"].value == 5 * 938
    assert evaluate["samples"].value == 10000 and evaluate["steps"].value == 100
    (predict,) = works("""
        datasets = tfds.load('mnist')
        model.predict(datasets['no_such_split'].batch(8))
        """, "predict")
    assert predict["samples"].value is None


def test_both_subsets_of_a_folder_of_unknown_files_keep_their_batch_and_stay_unknown_in_size():
    fits = works("""
        train, held = tf.keras.utils.image_dataset_from_directory(
            "photos", validation_split=0.2, subset="both", seed=1, image_size=(64, 64), batch_size=128)
        model.fit(train, epochs=3, validation_data=held)
    """, "fit")
    assert fits[0]["samples"].value is None and fits[0]["validation_samples"].value is None
    assert fits[0]["batch_size"].value == 128  # the datasets' batch, not Keras' default for arrays
    one = works("""
        train = tf.keras.utils.image_dataset_from_directory("photos", validation_split=0.2, subset="training")
        model.fit(train, epochs=3)
    """, "fit")
    assert one[0]["samples"].value is None and one[0]["batch_size"].value == 32  # the function's default batch
