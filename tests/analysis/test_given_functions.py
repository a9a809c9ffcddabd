"""A helper of another module given what `K.function(...)` returned and calling it (face-classification's
`calculate_guided_gradient_CAM(face, gradient_function, saliency_function)`): each call of the helper
runs that graph once, so it is a call site of the backend function, counted by the caller's loops."""

from __future__ import annotations

from tests.analysis.test_whole_program import sites, write

CALL = "tensorflow.keras.backend.function.__call__"

GRADCAM = """
from keras import backend as K


def compile_saliency(model):
    return K.function([model.input, K.learning_phase()], [model.output])


def weighted(function, image):
    return function([image, 0])[0]


def guided(image, saliency_function):
    return weighted(saliency_function, image)


def kept(image, saliency_function):
    return [image, saliency_function]
"""


def test_a_helper_calling_the_backend_function_it_is_given_is_a_run_of_it_per_call(tmp_path):
    write(tmp_path, {"gradcam.py": GRADCAM, "demo.py": """
        import numpy as np
        from keras.models import load_model
        from gradcam import compile_saliency, guided, kept

        model = load_model("model.h5")
        saliency = compile_saliency(model)
        for i in range(20):
            guided(np.zeros((1, 64, 64, 1)), saliency)
            kept(np.zeros((1, 64, 64, 1)), saliency)
        """})
    found = sites(tmp_path / "demo.py")
    run = found[(8, CALL)]  # through `weighted`, the function `guided` hands it to
    assert run.runs.count == 20 and run.features["receiver"] == "wrapper"
    assert run.features["via"] == "`saliency_function` called in guided" and run.features["handed"] == 1
    assert not any(line == 9 for line, _ in found)  # `kept` only keeps it: no run
