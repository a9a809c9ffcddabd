"""GL201 says the calls cannot be merged where the loop around them also trains and each call is given an
input made on its pass (a GAN's fakes); not where the loop trains but predicts on the same input each
pass (a fixed validation set, which predict() may split into batches), nor where the training runs in
an outer loop only (the inner loop's calls see the same weights)."""

from __future__ import annotations

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.predict import load_predictor
from greenlint.rules.predict_in_loop import GAN

MERGED = "cannot be merged into one"


def _messages(code: str) -> list[str]:
    config = Config(select=("GL201",), no_cache=True)
    found = check_source(code, "gan.py", config, load_predictor(overlay=False))
    return [d.message for d in found if d.code == "GL201"]


def test_a_gan_loop_predicting_on_each_new_batch_cannot_merge_its_calls():
    (message,) = _messages(GAN)
    assert MERGED in message and "`predict_on_batch`" in message


def test_a_fixed_input_each_pass_keeps_the_plain_message():
    code = GAN.replace("    fakes = generator.predict(noise)\n", "    fakes = generator.predict(validation)\n")
    (message,) = _messages(code.replace("import tensorflow as tf\n", "import tensorflow as tf\nvalidation = load()\n"))
    assert MERGED not in message


def test_training_in_an_outer_loop_only_keeps_the_plain_message():
    code = GAN.replace(
        "    fakes = generator.predict(noise)\n",
        "    for k in range(5):\n        fakes = generator.predict(noise[k:k + 1])\n",
    )
    (message,) = _messages(code)
    assert MERGED not in message
