"""The bytes an architecture's memory-bound passes move (tools/model/layer_traffic.py), on stand-in layers."""

from __future__ import annotations

from types import SimpleNamespace

from tools.model.layer_traffic import epilogue_passes, layer_traffic


def relu(x):
    return x


def linear(x):
    return x


def _tensor(*shape):
    return SimpleNamespace(shape=(None, *shape))


def _layer(kind: str, inputs, output, **attributes):
    """A stand-in Keras layer: its class name is the kind `layer_traffic` reads."""
    layer = type(kind, (), {})()
    layer.input, layer.output = inputs, output
    for name, value in attributes.items():
        setattr(layer, name, value)
    return layer


def test_a_convolutions_bias_add_and_activation_are_passes_over_its_output():
    """A Conv2D with a bias and a ReLU writes its output, then reads and writes it once for the bias
    and once for the activation: 2 x 2 x elements x 4 bytes, its FLOPs aside; without them, nothing."""
    x, y = _tensor(32, 32, 3), _tensor(32, 32, 64)
    both = _layer("Conv2D", x, y, use_bias=True, activation=relu)
    bare = _layer("Conv2D", x, y, use_bias=False, activation=linear)
    assert epilogue_passes(both) == 2 and epilogue_passes(bare) == 0
    assert epilogue_passes(_layer("Conv2D", x, y, use_bias=True, activation=linear)) == 1
    model = SimpleNamespace(layers=[both])
    assert layer_traffic(model) == (1, 1, 4.0 * 2 * 2 * 32 * 32 * 64)
    assert layer_traffic(SimpleNamespace(layers=[bare])) == (1, 1, 0.0)


def test_an_activation_layer_is_its_own_pass_not_an_epilogue():
    """An `Activation` layer reads its input and writes its output once (no FLOP kernel before it to
    add an epilogue to); a view moves nothing."""
    x = _tensor(16, 16, 8)
    act = _layer("Activation", x, x, activation=relu)
    view = _layer("Flatten", x, _tensor(16 * 16 * 8))
    assert layer_traffic(SimpleNamespace(layers=[act, view])) == (2, 0, 4.0 * 2 * 16 * 16 * 8)


def test_a_layer_of_several_inputs_reads_them_all():
    """An addition reads each of its inputs and writes one output."""
    x = _tensor(8, 8, 4)
    add = _layer("Add", [x, x], x)
    assert layer_traffic(SimpleNamespace(layers=[add])) == (1, 0, 4.0 * 3 * 8 * 8 * 4)
