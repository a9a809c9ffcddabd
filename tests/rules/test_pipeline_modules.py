"""A tf.data pipeline built in one module and iterated in a script beside it (issue #26, data side):
GL408 follows a decoding pipeline a data module's function returns to the script's epoch loop,
and a pipeline a library module builds to the data module that calls it, and reports it where it
is built (greenlint.rules.importers reads the modules)."""

from __future__ import annotations

from greenlint.analysis.project import project_index
from greenlint.rules import decoded_files_without_cache, importers
from tests.rules.conftest import check_in_project

#: A data module: a pipeline that reads and decodes each JPEG, returned with its steps.
DATA = (
    "import tensorflow as tf\n\n\n"
    "def parse(path):\n"
    "    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path), 3), (64, 64))\n\n\n"
    "def make_dataset(paths, batch_size):\n"
    "    dataset = tf.data.Dataset.from_tensor_slices(paths).map(parse, num_parallel_calls=4)\n"
    "    return dataset.shuffle(1024).batch(batch_size), len(paths) // batch_size\n"
)

#: The training script beside it: the pipeline iterated on each pass of an epoch loop.
SCRIPT = (
    "import tensorflow as tf\n"
    "import data\n\n"
    "dataset, steps = data.make_dataset(paths, 64)\n"
    "for epoch in range({epochs}):\n"
    "    for x in dataset:\n"
    "        train_step(x)\n"
)

#: A library module whose function builds the decoding pipeline, the map function given by its caller.
LIBRARY = (
    "import tensorflow as tf\n\n\n"
    "def image_batches(paths, batch_size, map_fn=None):\n"
    "    def parse(path):\n"
    "        img = tf.image.decode_png(tf.io.read_file(path), 3)\n"
    "        return map_fn(img) if map_fn else img\n\n"
    "    dataset = tf.data.Dataset.from_tensor_slices(paths).shuffle(2048)\n"
    "    dataset = dataset.map(parse, num_parallel_calls=4)\n"
    "    return dataset.batch(batch_size)\n"
)

#: A data module that calls the library's function and returns its pipeline.
LIBRARY_DATA = (
    "import tensorflow as tf\n"
    "import pipelines\n\n\n"
    "def make_dataset(paths, batch_size):\n"
    "    dataset = pipelines.image_batches(paths, batch_size, map_fn=lambda x: x / 127.5 - 1)\n"
    "    return dataset, len(paths) // batch_size\n"
)


def _project(epochs: int = 25, script: str = SCRIPT) -> dict[str, str]:
    return {"data.py": DATA, "train.py": script.format(epochs=epochs)}


def test_the_data_module_reports_its_decoding_map_with_the_scripts_loop(tmp_path, predictor):
    found = check_in_project(tmp_path, predictor, _project(), "data.py", "GL408")
    assert [d.span.line for d in found] == [9]
    assert "`map(parse)` reads and decodes the files again on every pass of the loop at train.py line 5 (25 passes)" in (
        found[0].message
    )


def test_the_script_leaves_it_to_the_data_module(tmp_path, predictor):
    assert check_in_project(tmp_path, predictor, _project(), "train.py", "GL408") == []


def test_a_fit_for_many_epochs_in_the_script_is_named(tmp_path, predictor):
    script = "import tensorflow as tf\nimport data\n\nds, steps = data.make_dataset(paths, 64)\nmodel.fit(ds, epochs=30)\n"
    found = check_in_project(tmp_path, predictor, _project(script=script), "data.py", "GL408")
    assert [d.span.line for d in found] == [9]
    assert "on each of 30 epochs of the `fit()` at train.py line 5" in found[0].message


def test_the_count_of_a_trange_epoch_loop_is_named(tmp_path, predictor):
    script = SCRIPT.replace("import data\n", "import data\nimport tqdm\n").replace("range({epochs})", "tqdm.trange({epochs}, desc='epoch')")
    found = check_in_project(tmp_path, predictor, _project(script=script), "data.py", "GL408")
    assert "every pass of the loop at train.py line 6 (25 passes)" in found[0].message


def test_a_function_imported_by_name_is_followed(tmp_path, predictor):
    script = SCRIPT.replace("import data\n", "from data import make_dataset as make\n").replace("data.make_dataset", "make")
    found = check_in_project(tmp_path, predictor, _project(script=script), "data.py", "GL408")
    assert "every pass of the loop at train.py line 5 (25 passes)" in found[0].message


def test_a_function_of_that_name_from_another_module_is_not_followed(tmp_path, predictor):
    script = SCRIPT.replace("import data\n", "import data\nfrom other import make_dataset\n").replace(
        "data.make_dataset", "make_dataset"
    )
    files = {**_project(script=script), "other.py": "def make_dataset(paths, size):\n    return paths, size\n"}
    assert check_in_project(tmp_path, predictor, files, "data.py", "GL408") == []


def test_a_module_of_the_same_name_in_another_package_is_not_followed(tmp_path, predictor):
    # `lib_data` is lib/data.py as the script's imports bind it (`project_bindings`), not the data.py beside it
    script = SCRIPT.replace("import data\n", "import data\nfrom lib import data as lib_data\n").replace(
        "data.make_dataset", "lib_data.make_dataset"
    )
    lib = {"lib/__init__.py": "", "lib/data.py": "def make_dataset(paths, size):\n    return paths, size\n"}
    assert check_in_project(tmp_path, predictor, {**_project(script=script), **lib}, "data.py", "GL408") == []
    # the data module beside it, bound by the same statement's form
    script = SCRIPT.replace("import data\n", "import data\nfrom lib import data as lib_data\n")
    found = check_in_project(tmp_path, predictor, {**_project(script=script), **lib}, "data.py", "GL408")
    assert "every pass of the loop at train.py line 6 (25 passes)" in found[0].message


def test_one_pass_of_the_script_reports_nothing(tmp_path, predictor):
    assert check_in_project(tmp_path, predictor, _project(epochs=1), "data.py", "GL408") == []


def test_a_script_that_caches_what_it_is_given_reports_nothing(tmp_path, predictor):
    script = SCRIPT.replace("for epoch", "dataset = dataset.cache()\nfor epoch")
    assert check_in_project(tmp_path, predictor, _project(script=script), "data.py", "GL408") == []


def test_a_script_that_hands_it_to_its_own_helper_reports_nothing(tmp_path, predictor):
    script = SCRIPT.replace("for epoch", "dataset = prepare(dataset)\nfor epoch")
    assert check_in_project(tmp_path, predictor, _project(script=script), "data.py", "GL408") == []


def test_a_test_module_iterating_it_reports_nothing(tmp_path, predictor):
    files = {"data.py": DATA, "test_data.py": SCRIPT.format(epochs=25)}
    assert check_in_project(tmp_path, predictor, files, "data.py", "GL408") == []


def test_a_library_pipeline_is_reported_at_the_data_modules_call(tmp_path, predictor):
    files = {"pipelines.py": LIBRARY, "data.py": LIBRARY_DATA, "train.py": SCRIPT.format(epochs=25)}
    found = check_in_project(tmp_path, predictor, files, "data.py", "GL408")
    assert [d.span.line for d in found] == [6]
    assert (
        "`pipelines.image_batches()` (its decoding `map` at pipelines.py line 10) reads and decodes the files again on"
        " every pass of the loop at train.py line 5 (25 passes)"
    ) in found[0].message
    assert check_in_project(tmp_path, predictor, files, "pipelines.py", "GL408") == []


def test_a_library_that_caches_its_pipeline_reports_nothing(tmp_path, predictor):
    library = LIBRARY.replace("num_parallel_calls=4)", "num_parallel_calls=4).cache()")
    files = {"pipelines.py": library, "data.py": LIBRARY_DATA, "train.py": SCRIPT.format(epochs=25)}
    assert check_in_project(tmp_path, predictor, files, "data.py", "GL408") == []


def test_a_library_pipeline_of_arrays_in_memory_reports_nothing(tmp_path, predictor):
    library = LIBRARY.replace("tf.image.decode_png(tf.io.read_file(path), 3)", "tf.cast(path, tf.float32)")
    files = {"pipelines.py": library, "data.py": LIBRARY_DATA, "train.py": SCRIPT.format(epochs=25)}
    assert check_in_project(tmp_path, predictor, files, "data.py", "GL408") == []


def test_a_module_building_no_pipeline_is_not_analysed_for_its_callers(tmp_path, predictor, monkeypatch):
    read: list[str] = []
    monkeypatch.setattr(decoded_files_without_cache, "module_facts", lambda path: read.append(path) or importers.module_facts(path))
    files = {"pipelines.py": LIBRARY, "data.py": LIBRARY_DATA, "train.py": SCRIPT.format(epochs=25)}
    assert check_in_project(tmp_path, predictor, files, "data.py", "GL408") != []
    assert [p.rsplit("/", 1)[-1] for p in read] == ["pipelines.py"]  # a module that maps is read
    read.clear()
    decoder = (  # its functions decode one file each, and build no pipeline: none returns a decoding one
        "import tensorflow as tf\n\n\n"
        "def image_batches(paths, batch_size, map_fn=None):\n"
        "    return [tf.image.decode_png(tf.io.read_file(p), 3) for p in paths]\n"
    )
    files["pipelines.py"] = decoder
    (tmp_path / "other").mkdir()
    assert check_in_project(tmp_path / "other", predictor, files, "data.py", "GL408") == []
    assert read == []


def test_a_modules_cache_key_follows_its_scripts_whatever_it_imports(tmp_path):
    files = {"pipelines.py": LIBRARY, "data.py": LIBRARY_DATA, "train.py": SCRIPT.format(epochs=25)}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    index = project_index()
    index.refresh()
    before = index.analysis_inputs(str(tmp_path / "data.py"))
    (tmp_path / "train.py").write_text(SCRIPT.format(epochs=1))
    index.refresh()
    assert index.analysis_inputs(str(tmp_path / "data.py")) != before


#: A data module whose one `.cache()` an absl flag guards, the flag defined by the script beside it.
FLAGGED_DATA = (
    "import tensorflow as tf\nfrom absl import flags\n\nFLAGS = flags.FLAGS\n\n\n"
    "def parse(path):\n"
    "    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path), 3), (64, 64))\n\n\n"
    "def make_dataset(paths, batch_size):\n"
    "    dataset = tf.data.Dataset.from_tensor_slices(paths).map(parse, num_parallel_calls=4)\n"
    "    if FLAGS.cache_dataset:\n"
    "        dataset = dataset.cache()\n"
    "    return dataset.shuffle(1024).repeat(-1).batch(batch_size)\n"
)

#: The script defining the flag (`{default}`: its default) and training on the data module's pipeline.
FLAGGED_SCRIPT = (
    "import tensorflow as tf\nfrom absl import flags\nimport data\n\n"
    "flags.DEFINE_bool('cache_dataset', {default}, 'Cache the decoded images in memory.')\n"
    "FLAGS = flags.FLAGS\n"
    "model.fit(data.make_dataset(paths, 64), steps_per_epoch=100, epochs=30)\n"
)


def test_a_cache_a_flag_of_another_module_leaves_off_by_default_does_not_count(tmp_path, predictor):
    files = {"data.py": FLAGGED_DATA, "train.py": FLAGGED_SCRIPT.format(default=False)}
    found = check_in_project(tmp_path, predictor, files, "data.py", "GL408")
    assert [d.span.line for d in found] == [12]
    assert (
        "the `.cache()` at line 14 does not run with the program's defaults (`if FLAGS.cache_dataset:` at line 13)"
        in found[0].message
    )


def test_a_cache_a_flag_of_another_module_turns_on_by_default_counts(tmp_path, predictor):
    files = {"data.py": FLAGGED_DATA, "train.py": FLAGGED_SCRIPT.format(default=True)}
    assert check_in_project(tmp_path, predictor, files, "data.py", "GL408") == []
