"""Whether a fit's training step hides one host core's decoding of its batch: the model known to
do at least `HIDING_FLOPS` forward FLOPs per element of its input, whose step outlasts that host work
(GL409 reports a decoding generator in one worker only below it, GL602 leaves such a fit's
step alone as input-bound only where the model is known to do less: `flops_per_element`)."""

from __future__ import annotations

import math

from greenlint.rules.site import Site

#: Forward FLOPs per input element from which a training step (three times the forward pass) is
#: known to last as long as one host core's decode, resize and affine warp of that element, or longer:
#: 5.5e5 x 3 FLOPs at the 19.5 TFLOPS FP32 peak of an A100 (predict/devices.py) take 85 ns, the most
#: that work cost per element in bench/rules/GL409/host_cost.py (one thread's CPU time on a shared,
#: loaded two-core Xeon, median of 5 repeats): with PIL and SciPy as Keras' `load_img` and
#: `ImageDataGenerator` run them (Keras' own calls alike), 40 ns for a 500x375 RGB JPEG brought to
#: 512x512x3 and 81-84 ns for a 512x512 grayscale PNG brought to 256x256x1 (the decode of four pixels
#: per element fed); without the warp 2-48 ns; OpenCV 3-48 ns. The 150-300 ns this constant was first
#: set from (1e6 FLOPs) was not reproduced: the same pipelines measure 2-4x less here. Image
#: classifiers and detectors do far less per element (ResNet-50 at 224x224 about 5e4, YOLOv3 at
#: 416x416 about 1.3e5): their step at the peak is shorter than the PIL and SciPy warp (40 ns is 2.6e5).
#: The device's side is its peak, the least time a step can take: a real float32 step runs far below
#: it (NVIDIA's EfficientNet-B4 recipe trains 79 images/s on one V100 in float32, at 4.2e9
#: multiply-adds forward: 2e12 FLOPs/s, 13 % of its 15.7 TFLOPS), so below the constant a step may or
#: may not wait on the host; above it, it does not.
HIDING_FLOPS = 5.5e5

#: A case of GL409 (valid, and invalid with its option) and GL602 (invalid): one worker feeding a
#: model of about 5e6 forward FLOPs per input element, whose step hides the decoding.
HEAVY_MODEL_ONE_WORKER = (
    "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
    "m = tf.keras.Sequential([tf.keras.layers.Conv2D(512, 3, padding='same', input_shape=(64, 64, 1)),"
    " tf.keras.layers.Conv2D(512, 3, padding='same')])\n"
    "def pairs(path):\n"
    "    images = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['image'], seed=1)\n"
    "    masks = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['mask'], seed=1)\n"
    "    for image, mask in zip(images, masks):\n        yield image / 255, mask / 255\n"
    "m.fit_generator(pairs('train'), steps_per_epoch=300, epochs=5)\n"
)


def flops_per_element(site: Site) -> float | None:
    """The fit's model's forward FLOPs per element of its input (`flops_per_sample` over the elements
    of `input_shape`, a lower bound counting); None where either is unknown."""
    flops, shape = site.work_value("flops_per_sample"), site.work_value("input_shape")
    if not isinstance(flops, (int, float)) or isinstance(flops, bool) or not isinstance(shape, (list, tuple)):
        return None
    dims = [d for d in shape if isinstance(d, int) and not isinstance(d, bool) and d > 0]
    return flops / math.prod(dims) if dims and len(dims) == len(shape) else None


def hides_decoding(site: Site) -> bool:
    """The fit's model is known to do at least `HIDING_FLOPS` forward FLOPs per element of its input:
    its step lasts about as long as one core's decode and warp of the batch, or longer, so the one
    worker that prepares the next batch during the step keeps up."""
    per_element = flops_per_element(site)
    return per_element is not None and per_element >= HIDING_FLOPS
