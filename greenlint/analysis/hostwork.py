"""Per-item host work in a Python input function: reading and decoding files on the host.

A Python generator that feeds a Keras `fit` builds each batch on one host core; where it reads and
decodes files for every item (an image with OpenCV, PIL, scikit-image, imageio or Keras' `load_img`,
a sound with librosa or soundfile), or iterates an `ImageDataGenerator` flow over files (which
reads, decodes and augments every image of each batch), that core does work a GPU step does not
wait for only when it runs elsewhere (`generator_in_one_worker.py`). The resolver notes the first
such call a function makes inside one of its loops, or through a function it calls there
(`Resolver.note_host`), and a generator function's batches carry it (`input_host_work`).

A decode outside any loop of the function (one image read once) is kept apart (`once`): it becomes
per-item work where a caller calls the function inside a loop of its own.
"""

from __future__ import annotations

import os

#: Roots of the libraries whose decode calls are listed below (the resolver follows their imports).
ROOTS = frozenset({"cv2", "PIL", "skimage", "imageio", "librosa", "soundfile"})

#: Calls that read and decode a file on the host, by the path they are imported as.
DECODES = frozenset({
    "cv2.imread", "cv2.imdecode", "cv2.imreadmulti",
    "PIL.Image.open",
    "skimage.io.imread", "skimage.io.imread_collection",
    "imageio.imread", "imageio.v2.imread", "imageio.v3.imread", "imageio.mimread",
    "librosa.load", "librosa.core.load",
    "soundfile.read",
    "tensorflow.keras.utils.load_img",
})

#: `ImageDataGenerator` methods whose iterator reads (and augments) every image of each batch from files.
FILE_FLOWS = frozenset({"flow_from_directory", "flow_from_dataframe"})


def decodes(path: str) -> bool:
    """Whether a call of *path* reads and decodes a file on the host."""
    return path in DECODES


def describe(call: str, line: int, path: str | None = None) -> str:
    """How a finding names the host work: the call as the library spells it, its file's name
    (where known: the generator may be another module's) and its line."""
    where = f"{os.path.basename(path)} line {line}" if path else f"line {line}"
    return f"`{call}` ({where})"
