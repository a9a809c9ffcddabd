"""Generate the table of library classes built on TF/Keras, read from their sources (never imported).

    python -m tools.catalog.libraries [--site DIR ...] [--wheel FILE ...] [--out data/catalog/libraries.json.gz]

For each library of `LIBRARIES` found in a site directory (default: this environment's) or a wheel
(`pip download --no-deps keras-hub`: only its files are read), the public names of its top module
and of its public submodules one level down (`keras_hub.models.BertClassifier`,
`transformers.TFBertModel`) are followed by the same reader
the linter uses on an installed library (`greenlint.analysis.libraries.Reader`), and each class
deriving from a Keras model, layer or callback, a `tf.data.Dataset` or a `tf.Module` is recorded
with its nearest catalogued TF/Keras class. The versions read are recorded in the file; a library
found nowhere keeps the entries and version the table had.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

from greenlint.analysis import libraries
from greenlint.analysis.installed import find
from greenlint.atomic import atomic_write_bytes
from greenlint.catalog.catalog import load_catalog
from greenlint.catalog.libraries import FORMAT, LIBRARIES_FILE, load_libraries
from tools import DATA_DIR

#: The most used libraries built on TF/Keras, by import root.
LIBRARIES = ("keras_cv", "keras_hub", "keras_nlp", "tensorflow_datasets", "tensorflow_hub", "transformers")


def public_names(reader: libraries.Reader, module: str, seen: set[str] | None = None) -> list[str]:
    """The names *module* binds or star-imports (its `__all__` where literal), public ones only."""
    seen = set() if seen is None else seen
    index = reader.index(module)
    if index is None or module in seen:
        return []
    seen.add(module)
    if index.exported is not None:
        names = list(index.exported)
    else:
        names = [*index.classes, *index.names]
        for star in index.star:
            names += public_names(reader, star, seen)
    return sorted({name for name in names if not name.startswith("_")})


def read_library(reader: libraries.Reader, root: str) -> dict[str, str]:
    """{public path: Keras base} of the classes of *root* and of its public submodules."""
    found: dict[str, str] = {}
    for name in public_names(reader, root):
        value = reader.member(root, name, set())
        paths = [f"{root}.{name}"] if value is not None and value[0] == "class" else []
        if value is not None and value[0] == "module" and "." in value[1]:  # a submodule (its own or re-exported)
            paths = [f"{root}.{name}.{member}" for member in public_names(reader, value[1])]
        for path in paths:
            base = reader.base(path)
            if base is not None:
                found[path] = base
    return found


def generate(sites: list[str], previous: dict | None = None) -> dict:
    """The table read from *sites*; a library found in none keeps its entries of *previous* (the
    version recorded there)."""
    catalog = load_catalog()
    previous = previous or {"versions": {}, "roots": {}, "classes": {}}
    versions: dict[str, str] = {}
    roots: dict[str, str] = {}
    classes: dict[str, str] = {}
    for root in LIBRARIES:
        library = find(tuple(sites), root)
        if library is None:
            name = previous["roots"].get(root)
            if name is not None:
                versions[name], roots[root] = previous["versions"][name], name
                classes.update({k: v for k, v in previous["classes"].items() if k.partition(".")[0] == root})
            print(f"{root}: not found in {', '.join(sites)}; "
                  + (f"kept as read from {name} {versions[name]}" if name else "left out"), file=sys.stderr)
            continue
        read = read_library(libraries.Reader(library.site, catalog), root)
        versions[library.name] = library.version
        roots[root] = library.name
        classes.update(read)
        print(f"{root} ({library.name} {library.version}): {len(read)} classes", file=sys.stderr)
    return {"format": FORMAT, "generator": "tools.catalog.libraries", "versions": dict(sorted(versions.items())),
            "roots": dict(sorted(roots.items())), "classes": dict(sorted(classes.items()))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", action="append", default=[], help="a site directory to read (repeatable)")
    parser.add_argument("--wheel", action="extend", nargs="+", default=[], help="wheels to read, unpacked into a temporary folder")
    parser.add_argument("--out", default=str(DATA_DIR / "catalog" / LIBRARIES_FILE))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as unpacked:
        for wheel in args.wheel:
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(unpacked)
        sites = [os.path.realpath(s) for s in args.site] + ([os.path.realpath(unpacked)] if args.wheel else [])
        payload = generate(sites or [sysconfig.get_paths()["purelib"]], load_libraries())
    data = json.dumps(payload, indent=0, sort_keys=True).encode()
    atomic_write_bytes(Path(args.out), gzip.compress(data, mtime=0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
