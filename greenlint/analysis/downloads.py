"""Public files a program downloads by URL, sized as their documentation states.

`keras.utils.get_file(fname, origin=URL)` gives a path; where URL is in `data/work/downloads.csv`
(worktables.download) the path carries what the file holds, and the readers that open it get a
known size with provenance "documented" and the source in the note:
`np.load(path)` of an `.npz` gives its arrays by key (`with np.load(path) as data: x = data["x_train"]`),
`image_dataset_from_directory(path, validation_split=..., subset=...)` (also the text and audio
readers) of an archive's class folders gives its files, split as Keras splits them. `pathlib.Path(path)`
is the same path, and so is `.with_suffix("")` of it (`get_file('flower_photos.tar', extract=True)`:
the folder the archive is extracted to, beside it). A URL not tabled, or a path built from one, stays of unknown size.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from greenlint.analysis import arrays, worktables
from greenlint.analysis.values import Const, Inst

GET_FILE = "tensorflow.keras.utils.get_file"
#: The path `get_file` returns: meta "url" and "content" (worktables.download).
PATH = "tensorflow.keras.utils.get_file.path"
#: Calls that give back the path they are given, and their module (followed for them alone).
SAME_PATH = frozenset({"pathlib.Path", "pathlib.PurePath"})
PATH_MODULE = "pathlib"
DOCUMENTED = "documented"


def fetched(named: dict) -> Inst | None:
    """`get_file(fname, origin=URL)` of a tabled URL; None for any other."""
    origin = named.get("origin")
    if type(origin) is not Const or not isinstance(origin.value, str):
        return None
    content = worktables.download(origin.value)
    return Inst(PATH, "factory", {"url": origin.value, "content": content}) if content is not None else None


def downloaded(value: Any) -> dict | None:
    """What a downloaded path's file holds (member -> worktables.Split), where known."""
    return value.meta["content"] if type(value) is Inst and value.cls == PATH else None


def path_method(name: str, path: Inst, args: list) -> Inst | None:
    """`Path(get_file(...)).with_suffix("")`: the archive's extracted folder; any other path method
    (`/ "roses"`, `.parent`, `.glob`) leaves what it names unknown."""
    if name == "with_suffix" and len(args) == 1 and args[0][1] == Const(""):
        return path
    return None


def np_load(args: list, keywords: list) -> Inst | None:
    """`np.load(path)` of a tabled `.npz`: its arrays by key."""
    positional = [value for starred, value in args if not starred]
    named = {name: value for name, value in keywords if name is not None}
    path = named.get("file", positional[0] if positional else None)
    content = downloaded(path)
    if type(path) is not Inst or not content or any(member == "" for member in content):
        return None
    items = {}
    for member, found in content.items():
        note = f"{member} of {path.meta['url']}: {found.source}"
        sample = found.shape if found.shape is not None else (None,)
        items[member] = arrays.array((found.samples, *sample), DOCUMENTED, note)
    return arrays.keyed(items)


def from_directory(data: arrays.Data, named: dict,
                   written: tuple[int, str] | None = None) -> arrays.Data | tuple[arrays.Data, arrays.Data]:
    """A `*_dataset_from_directory` of a downloaded archive's class folders, or of a folder the program
    writes its files into (*written*: how many and what they are, files.WrittenFiles.files_under): those files,
    split as Keras splits them (validation: int(validation_split × files), training: the rest;
    `subset="both"`: the two; of a folder whose files are not known, two datasets of unknown size, each
    with the batch and the images' shape it is given)."""
    fraction, subset = named.get("validation_split"), named.get("subset")
    split = fraction.value if type(fraction) is Const and isinstance(fraction.value, (int, float)) else None
    which = subset.value if type(subset) is Const else None
    content = downloaded(named.get("directory"))
    files = content.get("") if content else None
    if files is not None:
        total, prov, source = files.samples, DOCUMENTED, f"files of {named['directory'].meta['url']}: {files.source}"
    elif written is not None:
        total, prov, source = written[0], "inferred", written[1]
    else:
        return (data, data) if which == "both" else data
    if "validation_split" in named and split is None or split and which not in ("training", "validation", "both"):
        return (data, data) if which == "both" else data  # a split of unknown fraction
    validation = int(split * total) if split else 0

    def part(samples: int, what: str) -> arrays.Data:
        return replace(data, samples=samples, prov=prov, note=f"{what}{total} {source}")

    training = part(total - validation, f"the training {total - validation} of " if split else "")
    if not split:
        return training
    held = part(validation, f"the validation {validation} (validation_split={split}) of ")
    if which == "both":
        return training, held
    return training if which == "training" else held
