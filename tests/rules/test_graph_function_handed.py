"""GL506 on a run of what `K.function` returned that another module's function is given and calls
(face-classification's `calculate_guided_gradient_CAM(face, gradient_function, saliency_function)`):
the function built in the loop that hands it over is a graph built per pass."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

GRADCAM = (
    "from keras import backend as K\n\n\ndef compile_gradient(model, index):\n"
    "    loss = K.sum(model.output[:, index])\n"
    "    return K.function([model.input], K.gradients(loss, [model.input]))\n\n\n"
    "def cam(image, gradient_function):\n    return gradient_function([image])[0]\n"
)


def _gl506(tmp_path, predictor, demo: str) -> list:
    files = {"gradcam.py": GRADCAM, "demo.py": demo}
    return check_in_project(tmp_path, predictor, files, "demo.py", "GL506")


def test_a_gradient_function_built_per_face_and_handed_to_a_helper_is_reported(tmp_path, predictor):
    found = _gl506(tmp_path, predictor, (
        "from keras.models import load_model\nfrom gradcam import cam, compile_gradient\n\n"
        "model = load_model('m.h5')\nfor face in faces:\n    index = 0\n"
        "    gradient_function = compile_gradient(model, index)\n    heat = cam(face, gradient_function)\n"
    ))
    assert [d.span.line for d in found] == [7]
    assert "`compile_gradient(...)` builds the graph that `cam(...)` runs" in found[0].message


def test_the_gradient_function_built_once_before_the_loop_is_not(tmp_path, predictor):
    assert _gl506(tmp_path, predictor, (
        "from keras.models import load_model\nfrom gradcam import cam, compile_gradient\n\n"
        "model = load_model('m.h5')\ngradient_function = compile_gradient(model, 0)\nfor face in faces:\n"
        "    heat = cam(face, gradient_function)\n"
    )) == []
