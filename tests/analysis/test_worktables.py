"""The shipped work tables (data/work/): well-formed, and agreeing with independent public figures."""

from __future__ import annotations

from greenlint.analysis import worktables

#: keras.io/api/applications, "Parameters" column (exact counts as Keras reports them).
KERAS_IO_PARAMS = {
    "ResNet50": 25_636_712, "MobileNetV2": 3_538_984, "VGG16": 138_357_544, "Xception": 22_910_480,
    "DenseNet121": 8_062_504, "InceptionV3": 23_851_784, "MobileNet": 4_253_864, "ResNet152V2": 60_380_648,
}  # fmt: skip


def test_applications_table_rows_are_complete():
    table = worktables.applications()
    assert "ResNet50" in table and "MobileNetV2" in table
    for name, app in table.items():
        assert app.params > 0 and app.flops_per_sample > 0, name
        assert len(app.input_shape) == 3 and app.input_shape[2] == 3, name
        assert app.source.startswith("tensorflow "), name


def test_applications_parameters_match_keras_io():
    for name, params in KERAS_IO_PARAMS.items():
        app = worktables.application(name)
        if app is not None:  # a missing row is unknown, never a wrong figure
            assert app.params == params, name


def test_flops_are_about_twice_the_published_multiply_adds():
    # ResNet50 ~3.9 G multiply-adds (He et al. 2016), MobileNetV2 ~300 M (Sandler et al. 2018)
    assert 7.0e9 < worktables.application("ResNet50").flops_per_sample < 8.5e9
    assert 5.5e8 < worktables.application("MobileNetV2").flops_per_sample < 6.5e8


#: The channels of each network's last feature map, as its paper describes it: ResNet50 (He et al. 2016, conv5_x),
#: VGG16 (Simonyan & Zisserman 2015, conv5), MobileNetV2 (Sandler et al. 2018, the 1x1 conv before pooling),
#: DenseNet121 (Huang et al. 2017), InceptionV3 (Szegedy et al. 2016), Xception (Chollet 2017).
PAPER_CHANNELS = {"ResNet50": 2048, "VGG16": 512, "MobileNetV2": 1280, "DenseNet121": 1024, "InceptionV3": 2048,
                  "Xception": 2048}


def test_application_feature_maps_are_the_papers_channels_downsampled_from_the_input():
    table = worktables.applications()
    assert table["ResNet50"].feature_shape == (7, 7, 2048)  # the held-out detector's base (issue #26)
    for name, channels in PAPER_CHANNELS.items():
        assert table[name].feature_shape[2] == channels, name
    for name, app in table.items():
        sides = app.feature_shape[:2]
        assert sides[0] == sides[1] and 1 <= sides[0] <= app.input_shape[0] // 8, name  # square, at least 8x smaller


def test_application_layers_grow_to_the_whole_tabled_application():
    """Each layer's cut holds at least what the one before holds, and the last layer's is the whole
    model of keras_applications.csv (the two tables made from the same TensorFlow)."""
    for name in ("VGG16", "VGG19"):  # (tools/application_layers.py's default)
        rows = worktables.application_layers(name)
        whole = worktables.application(name)
        assert rows and whole is not None, name
        assert [r.layer_index for r in rows] == list(range(len(rows))) and rows[0].output_shape == whole.input_shape
        assert all(a.params <= b.params and a.flops_per_sample <= b.flops_per_sample for a, b in zip(rows, rows[1:]))
        assert (rows[-1].params, rows[-1].flops_per_sample) == (whole.params, whole.flops_per_sample), name
        assert rows[-1].source.split(" keras.")[0] == whole.source.split(" keras.")[0], name  # one TensorFlow
    assert worktables.application_layers("NoSuchNet") == ()


def test_dataset_tables():
    assert worktables.keras_split("mnist", "train").samples == 60000
    assert worktables.keras_split("cifar10", "test").shape == (32, 32, 3)
    assert worktables.tfds_split("imdb_reviews", "train").shape is None  # text: no fixed shape
    assert worktables.keras_split("no_such_set", "train") is None
