"""Imports between the analysed project's own modules (`greenlint.analysis.project`)."""

from __future__ import annotations

import ast
import os
from collections import Counter

import pytest

from greenlint.analysis.analyse import analyse_file, analyse_source
from greenlint.analysis.project import (
    ProjectIndex,
    bound_modules,
    direct_imports,
    find_module,
    project_bindings,
    project_index,
    search_roots,
)
from greenlint.check.config import Config
from greenlint.check.pipeline import run_check
from tests.analysis.expectations import FIXTURES, expected_calls

PROJECT = FIXTURES / "project"
SRC = PROJECT / "src" / "shapes"
SCRIPTS = PROJECT / "scripts"


@pytest.mark.parametrize("module", sorted(PROJECT.rglob("*.py")), ids=lambda p: str(p.relative_to(PROJECT)))
def test_project_fixture_calls_match_markers(module):
    result = analyse_file(module)
    assert result.errors == []
    found = Counter((site.span.line, site.api) for site in result.callsites)
    expected = expected_calls(module.read_text(encoding="utf-8"))
    missing, extra = expected - found, found - expected
    assert not missing and not extra, f"missing {sorted(missing)}, extra {sorted(extra)}"


def test_the_script_needs_the_project_modules():
    # the same code with no project around it resolves none of the imported factories
    text = (SCRIPTS / "train.py").read_text(encoding="utf-8")
    alone = {site.api for site in analyse_source(text, "train.py").callsites}
    assert alone == set()
    followed = {site.api for site in analyse_file(SCRIPTS / "train.py").callsites}
    assert "tensorflow.keras.Sequential.fit" in followed


def test_search_roots_follow_sys_path_conventions():
    scripts = search_roots(str(SCRIPTS))
    assert scripts == (str(SCRIPTS), str(PROJECT), str(PROJECT / "src"))  # script dir, project, src layout
    inside = search_roots(str(SRC))
    # a library's package folder (no script in it) is no root: it is never first on sys.path
    assert str(SRC) not in inside
    assert inside[0] == str(PROJECT / "src")  # the directory above the top package


def test_a_package_folder_holding_a_script_is_its_own_last_root(tmp_path):
    """A script of a package folder run from there (`python web/server.py`) imports its siblings by their
    bare names; a library's folder beside it, with no script, never answers `import numpy` with its
    `numpy.py`."""
    for folder, script in (("web", "import processor\n\nif __name__ == '__main__':\n    serve()\n"),
                           ("ops", "import numpy as np\n")):
        (tmp_path / "app" / folder).mkdir(parents=True)
        (tmp_path / "app" / folder / "__init__.py").write_text("")
        (tmp_path / "app" / folder / "main.py").write_text(script)
    (tmp_path / "app" / "__init__.py").write_text("")
    web, ops = str(tmp_path / "app" / "web"), str(tmp_path / "app" / "ops")
    assert search_roots(web)[-1] == web and search_roots(web).count(web) == 1
    assert ops not in search_roots(ops)


def test_the_working_directory_is_a_root_for_the_modules_under_it(tmp_path, monkeypatch):
    # a project copied into a folder without its setup.py (its top package beside examples/):
    # checked from its own root, as ruff's `src = ["."]`, the example finds the package's shim
    corpus = tmp_path / "corpus"
    (corpus / "shim").mkdir(parents=True)
    (corpus / "examples").mkdir()
    (corpus / "shim" / "backend.py").write_text("import tensorflow as tf\nkeras = tf.keras\n")
    script = "from shim.backend import keras\nm = keras.Sequential()\nm.fit(x, y, epochs=3)\n"
    for name in ("elsewhere.py", "inside.py"):
        (corpus / "examples" / name).write_text(script)
    outside = {site.api for site in analyse_file(corpus / "examples" / "elsewhere.py").callsites}
    assert "tensorflow.keras.Sequential.fit" not in outside  # run from another folder: not found
    monkeypatch.chdir(corpus)
    inside = {site.api for site in analyse_file(corpus / "examples" / "inside.py").callsites}
    assert "tensorflow.keras.Sequential.fit" in inside
    assert search_roots(str(corpus / "examples"), str(corpus))[-1] == str(corpus)  # last, after the others
    assert str(corpus) not in search_roots(str(SCRIPTS), str(corpus))  # only for modules under it


def test_direct_imports_find_project_files_only():
    text = (SCRIPTS / "train.py").read_text(encoding="utf-8")
    found = direct_imports(str(SCRIPTS / "train.py"), text)
    names = {os.path.relpath(p, PROJECT) for p in found}
    assert names == {
        "scripts/helpers.py",
        "src/shapes/__init__.py",
        "src/shapes/nets.py",
        "src/shapes/cycle_b.py",
    }  # `utils` is not in the project; numpy-like third-party names are never files here


def test_a_file_analysis_lists_the_project_files_it_imports(tmp_path):
    assert analyse_file(SCRIPTS / "train.py").imports == tuple(
        direct_imports(str(SCRIPTS / "train.py"), (SCRIPTS / "train.py").read_text(encoding="utf-8"))
    )
    (tmp_path / "helpers.py").write_text("def load():\n    return 1\n")
    (tmp_path / "plain.py").write_text("import helpers\nprint(helpers.load())\n")  # no TF: still listed
    (tmp_path / "alone.py").write_text("import os\nimport tensorflow as tf\n")
    assert analyse_file(tmp_path / "plain.py").imports == (str(tmp_path / "helpers.py"),)
    assert analyse_file(tmp_path / "alone.py").imports == ()


def test_parent_packages_are_no_dependency_of_what_is_imported_from_below_them(tmp_path):
    # shapes/__init__ imports shimmed.py, which imports from shapes.backend: Python runs
    # shapes/__init__ first, but shimmed reads only shapes.backend (and its modules), no cycle
    shimmed = str(SRC / "shimmed.py")
    names = {os.path.relpath(p, SRC) for p in direct_imports(shimmed, (SRC / "shimmed.py").read_text(encoding="utf-8"))}
    assert names == {"backend/__init__.py", "backend/kshim.py"}
    assert ProjectIndex().component(shimmed) == frozenset({shimmed})
    # `import a.b as c` binds a.b alone; `import a.b` binds a, and a.b is read through it
    (tmp_path / "a" / "b").mkdir(parents=True)
    for init in ("a/__init__.py", "a/b/__init__.py", "a/b/c.py"):
        (tmp_path / init).write_text("")
    script = str(tmp_path / "run.py")
    assert direct_imports(script, "import a.b.c as c\n") == [str(tmp_path / "a/b/c.py")]
    assert len(direct_imports(script, "import a.b.c\n")) == 3


def _bindings(script: str, code: str) -> dict[str, list[tuple[str | None, str]]]:
    return project_bindings(script, [n for n in ast.parse(code).body if isinstance(n, (ast.Import, ast.ImportFrom))])


def test_project_bindings_name_what_python_binds_each_name_to(tmp_path):
    (tmp_path / "pkg").mkdir()
    for name in ("pkg/__init__.py", "pkg/models.py", "pkg/nets.py", "data.py"):
        (tmp_path / name).write_text("")
    script, at = str(tmp_path / "run.py"), lambda name: str(tmp_path / name)
    # a module itself: "" its member, whatever form binds it
    assert _bindings(script, "import data") == {"data": [(at("data.py"), "")]}
    assert _bindings(script, "import pkg.models as m") == {"m": [(at("pkg/models.py"), "")]}
    assert _bindings(script, "import pkg.models") == {"pkg": [(at("pkg/__init__.py"), "")]}  # binds pkg alone
    # `from package import name`: the package's attribute, or its submodule where it has one
    assert _bindings(script, "from pkg import models as m, build") == {
        "m": [(at("pkg/__init__.py"), "models"), (at("pkg/models.py"), "")],
        "build": [(at("pkg/__init__.py"), "build")],
    }
    assert _bindings(script, "from pkg.nets import Net") == {"Net": [(at("pkg/nets.py"), "Net")]}
    assert _bindings(str(tmp_path / "pkg" / "nets.py"), "from .models import Net") == {"Net": [(at("pkg/models.py"), "Net")]}
    assert _bindings(script, "from data import *") == {"*": [(at("data.py"), "*")]}


def test_project_bindings_of_modules_outside_the_project_have_no_file(tmp_path):
    script = str(tmp_path / "run.py")
    assert _bindings(script, "import numpy as np\nfrom tensorflow.keras import layers") == {
        "np": [(None, "")],
        "layers": [(None, "layers")],
    }
    assert _bindings(script, "from missing import *") == {"*": [(None, "*")]}


def test_bound_modules_name_the_paths_outside_the_project(tmp_path):
    (tmp_path / "random.py").write_text("")
    script = str(tmp_path / "run.py")
    statements = [n for n in ast.parse(
        "import numpy.random as npr, numpy\nfrom tensorflow import keras\nfrom random import randint\n"
        "from . import helpers\nimport os as o\nimport sys as o\n"
    ).body if isinstance(n, (ast.Import, ast.ImportFrom))]
    # the project's random.py, a relative import's name and a name bound to two paths are left out
    assert bound_modules(script, statements) == {"npr": "numpy.random", "numpy": "numpy", "keras": "tensorflow.keras"}


def test_import_cycles_form_one_component_and_digests_follow_content(tmp_path):
    index = ProjectIndex()
    a, b = str(SRC / "cycle_a.py"), str(SRC / "cycle_b.py")
    assert index.component(a) == index.component(b) == frozenset({a, b})
    assert index.component(str(SCRIPTS / "train.py")) == frozenset({str(SCRIPTS / "train.py")})
    assert index.digest(a) == index.digest(b)

    (tmp_path / "a.py").write_text("import tensorflow as tf\n")
    (tmp_path / "b.py").write_text("from a import tf\n")
    index = ProjectIndex()
    before = index.digest(str(tmp_path / "b.py"))
    (tmp_path / "a.py").write_text("import tensorflow as tf  # edited\n")
    index.refresh()
    assert index.digest(str(tmp_path / "b.py")) != before


def test_summaries_are_kept_in_the_process_until_their_module_changes(tmp_path, monkeypatch):
    from greenlint.catalog.catalog import load_catalog

    module = tmp_path / "nets.py"
    module.write_text((SRC / "nets.py").read_text())
    index = ProjectIndex()
    made = index.summary(str(module), load_catalog())
    assert made["HIDDEN"].value == 64 and made["build_classifier"].returns.cls == "tensorflow.keras.Sequential"
    summarise = ProjectIndex._summarise
    monkeypatch.setattr(ProjectIndex, "_summarise", lambda *a: pytest.fail("summarised again"))
    assert index.summary(str(module), load_catalog()) is made
    module.write_text(module.read_text().replace("HIDDEN = 64", "HIDDEN = 32"))
    index.refresh()
    monkeypatch.setattr(ProjectIndex, "_summarise", summarise)
    assert index.summary(str(module), load_catalog())["HIDDEN"].value == 32


FACTORY = "from tensorflow import keras\n\n\ndef build():\n    return keras.Sequential()\n"
CALLER = "from factory import build\n\nbuild().fit([1], [1])\n"


def test_cache_entry_of_a_caller_is_invalidated_when_an_imported_factory_changes(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "factory.py").write_text(FACTORY)
    (project / "caller.py").write_text(CALLER)
    config = Config(root=project, cache_dir=tmp_path / "cache", jobs=1)

    def apis(result):
        return sorted((c.path.rpartition("/")[2], c.span.line, c.api) for c, _ in result.callsites_with_predictions)

    cold = run_check([project / "caller.py"], config)
    assert apis(cold) == [("caller.py", 3, "tensorflow.keras.Sequential.fit")]
    warm = run_check([project / "caller.py"], config)
    assert warm.stats.cache_hits == 1 and apis(warm) == apis(cold)
    # the factory now builds a functional Model: the caller's (unchanged) text means something else
    (project / "factory.py").write_text(FACTORY.replace("keras.Sequential()", "keras.Model(inputs=[], outputs=[])"))
    edited = run_check([project / "caller.py"], config)
    assert edited.stats.cache_hits == 0
    assert apis(edited) == [("caller.py", 3, "tensorflow.keras.Model.fit")]
    # and a factory that no longer returns a TF object leaves the call unknown
    (project / "factory.py").write_text("def build():\n    return None\n")
    assert apis(run_check([project / "caller.py"], config)) == []


LOADER = (
    "from glob import glob\nimport numpy as np\n\n\nclass Loader:\n    def batch(self, n):\n"
    "        return np.random.choice(glob('data/*.png'), size=n)\n"
)


def test_a_module_naming_no_tf_is_analysed_when_a_tf_module_beside_it_imports_it(tmp_path):
    (tmp_path / "loader.py").write_text(LOADER)
    (tmp_path / "unused.py").write_text(LOADER)
    (tmp_path / "plain.py").write_text("import unused\n")  # imports it, but names no TF: not a TF program's loader
    (tmp_path / "train.py").write_text("import tensorflow as tf\nfrom loader import Loader\n")
    assert analyse_file(tmp_path / "loader.py").parsed is True
    assert analyse_file(tmp_path / "unused.py").parsed is False
    assert analyse_source(LOADER, "loader.py").parsed is False  # no file beside it


def test_a_package_module_naming_no_tf_is_analysed_when_an_examples_script_naming_tf_imports_it(tmp_path):
    """A library's package and its examples beside it (`rl/memory.py`, `examples/dqn_atari.py`): the
    example scripts, no package and without a `__main__` guard, are the TF program that calls it."""
    (tmp_path / "pyproject.toml").write_text("")  # the project's root, where `lib` is imported from
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("")
    (tmp_path / "lib" / "loader.py").write_text(LOADER)
    (tmp_path / "lib" / "unused.py").write_text(LOADER)
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "train.py").write_text("import tensorflow as tf\nfrom lib.loader import Loader\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("import lib.unused\n")  # imports it, but names no TF
    assert analyse_file(tmp_path / "lib" / "loader.py").parsed is True
    assert analyse_file(tmp_path / "lib" / "unused.py").parsed is False


def test_a_loader_modules_cache_entry_follows_the_tf_modules_importing_it(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "loader.py").write_text(LOADER)
    (project / "train.py").write_text("import tensorflow as tf\nimport numpy as np\n")
    config = Config(root=project, cache_dir=tmp_path / "cache", jobs=1, select=("GL209",))
    assert run_check([project / "loader.py"], config).diagnostics == []
    (project / "train.py").write_text("import tensorflow as tf\nfrom loader import Loader\n")
    imported = run_check([project / "loader.py"], config)
    assert imported.stats.cache_hits == 0 and [(d.code, d.span.line) for d in imported.diagnostics] == [("GL209", 7)]
    (project / "train.py").write_text("import numpy as np\nfrom loader import Loader\n")  # no TF any more
    assert run_check([project / "loader.py"], config).diagnostics == []


def test_opaque_survives_pickling():
    import pickle

    from greenlint.analysis.values import OPAQUE, Const

    assert pickle.loads(pickle.dumps(OPAQUE)) is OPAQUE
    assert pickle.loads(pickle.dumps(Const(3))) == Const(3)


def test_a_long_lived_process_notices_an_edited_module(tmp_path, monkeypatch):
    import time

    from greenlint.analysis import project

    monkeypatch.setattr(
        project, "_INDEX", ProjectIndex()
    )  # its refresh time, moved on below, is not left to later tests
    (tmp_path / "factory.py").write_text(FACTORY)
    (tmp_path / "caller.py").write_text(CALLER)
    assert [s.api for s in analyse_file(tmp_path / "caller.py").callsites] == ["tensorflow.keras.Sequential.fit"]
    (tmp_path / "factory.py").write_text(FACTORY.replace("keras.Sequential()", "keras.Model(inputs=[], outputs=[])"))
    later = time.monotonic() + 2  # the editor's next analysis, a moment later
    monkeypatch.setattr(project.time, "monotonic", lambda: later)
    assert [s.api for s in analyse_file(tmp_path / "caller.py").callsites] == ["tensorflow.keras.Model.fit"]


def test_notebooks_namespace_packages_and_parent_relative_imports(tmp_path):
    import json

    (tmp_path / "factory.py").write_text(FACTORY)
    cells = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}
        for source in (["%matplotlib inline\n", "from factory import build\n"], ["m = build()\n", "m.fit([1], [1])\n"])
    ]
    notebook = tmp_path / "explore.ipynb"
    notebook.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    sites = analyse_file(notebook).callsites
    assert [(s.span.cell, s.span.line, s.api) for s in sites] == [(2, 2, "tensorflow.keras.Sequential.fit")]

    # ns/ has no __init__.py (a namespace package); pkg/sub/deep.py reaches pkg/models.py with `..`
    (tmp_path / "ns").mkdir()
    (tmp_path / "ns" / "nets.py").write_text(FACTORY)
    (tmp_path / "uses_ns.py").write_text("import ns.nets\n\nns.nets.build().evaluate([1])\n")
    assert [s.api for s in analyse_file(tmp_path / "uses_ns.py").callsites] == ["tensorflow.keras.Sequential.evaluate"]
    sub = tmp_path / "pkg" / "sub"
    sub.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (sub / "__init__.py").write_text("")
    (tmp_path / "pkg" / "models.py").write_text(FACTORY)
    (sub / "deep.py").write_text(
        "from ..models import build\nfrom .. import models\n\nbuild().fit(1)\nmodels.build().predict(1)\n"
    )
    assert [s.api for s in analyse_file(sub / "deep.py").callsites] == [
        "tensorflow.keras.Sequential.fit",
        "tensorflow.keras.Sequential.predict",
    ]


def test_an_editor_buffer_follows_the_imports_it_has_not_saved_yet(tmp_path):
    (tmp_path / "factory.py").write_text(FACTORY)
    (tmp_path / "caller.py").write_text("")  # on disk: nothing imported yet
    sites = analyse_source(CALLER, str(tmp_path / "caller.py")).callsites
    assert [s.api for s in sites] == ["tensorflow.keras.Sequential.fit"]


def test_the_imports_of_a_text_come_from_its_scan_only_where_the_scan_read_that_text(tmp_path, monkeypatch):
    from greenlint.analysis import project

    (tmp_path / "factory.py").write_text(FACTORY)
    (tmp_path / "caller.py").write_text("import factory\n")
    caller, factory = str(tmp_path / "caller.py"), str(tmp_path / "factory.py")
    index = ProjectIndex()
    assert index.imports_of(caller, "") == []  # not scanned yet: the text's own statements
    assert index.imports(caller) == [factory]
    assert index.imports_of(caller, "") == []  # an editor's buffer that differs from the file scanned
    monkeypatch.setattr(project, "direct_imports", lambda path, text: pytest.fail("the scan read this text"))
    assert index.imports_of(caller, "import factory\n") == [factory]


def _stamps_counted(tmp_path, monkeypatch, modules: dict[str, str]) -> Counter:
    """Write a project of *modules* (name -> text) under tmp_path; how often each is stamped."""
    from greenlint.analysis import project

    (tmp_path / "pyproject.toml").write_text("")
    for name, text in modules.items():
        (tmp_path / name).write_text(text)
    stamped: Counter = Counter()
    stamp = project.file_stamp
    monkeypatch.setattr(project, "file_stamp", lambda path: (stamped.update([os.path.basename(path)]), stamp(path))[1])
    return stamped


def test_a_digest_stamps_each_module_once_until_the_next_refresh(tmp_path, monkeypatch):
    stamped = _stamps_counted(tmp_path, monkeypatch, {"a.py": "import b\n", "b.py": "import c\n", "c.py": "X = 1\n"})
    index = ProjectIndex()
    a, b, c = (str(tmp_path / f"{m}.py") for m in "abc")
    before = index.digest(a)
    assert index.digest(b) and index.component(c) and index.imports(a) == [b]
    assert stamped == {"a.py": 1, "b.py": 1, "c.py": 1}
    index.refresh(max_age=3600.0)  # an analysis in the editor: what it reads is stamped again
    assert index.imports(a) == [b] and stamped == {"a.py": 2, "b.py": 1, "c.py": 1}
    (tmp_path / "c.py").write_text("X = 22\n")
    index.refresh()  # a run's start: every module stamped again, the edit seen
    assert index.digest(a) != before and index.digest(b)
    assert stamped == {"a.py": 3, "b.py": 2, "c.py": 2}


@pytest.mark.parametrize("marker", ["setup.py", ".git"])
def test_a_marker_added_later_is_noticed_with_the_file_unchanged(tmp_path, marker):
    """A long-lived process (the editor's) resolves a module's imports again when its search roots
    change: a project marker added above it makes its project's top folder an import root."""
    app, lib = tmp_path / "app", tmp_path / "lib"
    app.mkdir()
    lib.mkdir()
    (lib / "nets.py").write_text(FACTORY)
    (app / "train.py").write_text("import lib.nets\n")
    index, train = ProjectIndex(), str(app / "train.py")
    assert index.imports(train) == []
    (tmp_path / marker).mkdir() if marker == ".git" else (tmp_path / marker).write_text("")
    index.refresh()
    assert index.imports(train) == [str(lib / "nets.py")]


def test_a_run_holds_its_modules_as_its_start_stamped_them(tmp_path, monkeypatch):
    """`check` of many files (greenlint.check.runner) holds the index: an analysis' refresh
    stamps nothing again until the run ends (each second of a long run re-stamped every module
    scanned so far)."""
    stamped = _stamps_counted(tmp_path, monkeypatch, {"a.py": "import b\n", "b.py": "X = 1\n"})
    index = ProjectIndex()
    a, b = (str(tmp_path / f"{m}.py") for m in "ab")
    index.digest(a)
    with index.held():
        index.refresh()
        index.refresh(max_age=1.0)
        assert index.digest(b) and index.imports(a) == [b] and stamped == {"a.py": 1, "b.py": 1}
    index.refresh()
    assert stamped == {"a.py": 2, "b.py": 2}


def test_a_run_stamps_a_module_the_rules_ask_about_once(tmp_path, monkeypatch):
    """The rules ask for the stamp of each module a file imports, file after file: a run that
    holds the index stamps each once; outside a run, every ask stamps again."""
    stamped = _stamps_counted(tmp_path, monkeypatch, {"b.py": "X = 1\n"})
    index, b = ProjectIndex(), str(tmp_path / "b.py")
    with index.held():
        first = index.stamp(b)
        (tmp_path / "b.py").write_text("X = 22\n")
        assert index.stamp(b) == first and stamped == {"b.py": 1}
    assert index.stamp(b) != first and index.stamp(b) == index.stamp(b) and stamped == {"b.py": 4}


DATA_MODULE = """\
import numpy as np
from tensorflow import keras


def train_generator(batch_size):
    while True:
        yield np.zeros((batch_size, 8)), np.zeros(batch_size)


class Batches(keras.utils.Sequence):
    def __len__(self):
        return 10


def create_generators():
    return Batches(), Batches()
"""


def test_a_loader_methods_host_work_is_known_across_modules(tmp_path):
    """An object of another module's class whose plain method decodes each image of a batch (through
    another method): a train_on_batch loop calling it per step names the decode; a method that only
    slices memory names none."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "loader.py").write_text(
        "import numpy as np\nimport scipy\n\n\nclass Loader:\n    def __init__(self, paths):\n"
        "        self.paths = paths\n\n    def load(self, size):\n        x = []\n"
        "        for p in np.random.choice(self.paths, size):\n            x.append(self.imread(p))\n"
        "        return np.array(x), np.zeros(size)\n\n    def sliced(self, size):\n"
        "        return self.paths[:size], self.paths[:size]\n\n    def imread(self, path):\n"
        "        return scipy.misc.imread(path, mode='RGB')\n"
    )
    main = tmp_path / "main.py"
    main.write_text(
        "from tensorflow import keras\nfrom loader import Loader\nmodel = keras.Sequential()\nloader = Loader(paths)\n"
        "for step in range(100):\n    x, y = loader.load(4)\n    model.train_on_batch(x, y)\n"
        "for step in range(100):\n    x, y = loader.sliced(4)\n    model.train_on_batch(x, y)\n"
    )
    steps = [site for site in analyse_file(main).callsites if site.api.endswith(".train_on_batch")]
    assert [site.features.get("input_host_work") for site in steps] == ["`scipy.misc.imread` (loader.py line 19)", None]


def test_a_generators_host_work_is_known_across_modules(tmp_path):
    """A generator of another module that decodes images through a helper of a third: the fit names
    the decode and the module it is in."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "images.py").write_text("import cv2\n\n\ndef read(path):\n    return cv2.imread(path, 1)\n")
    (tmp_path / "loader.py").write_text(
        "import numpy as np\nfrom images import read\n\n\ndef batches(paths, size):\n    while True:\n"
        "        yield np.array([read(p) for p in paths[:size]]), np.zeros(size)\n"
    )
    main = tmp_path / "main.py"
    main.write_text(
        "from tensorflow import keras\nfrom loader import batches\nmodel = keras.Sequential()\n"
        "model.fit(batches(paths, 4), steps_per_epoch=10, epochs=2)\n"
    )
    fit = next(site for site in analyse_file(main).callsites if site.api.endswith(".fit"))
    assert fit.features.get("input_kind") == "generator"
    assert fit.features.get("input_host_work") == "`cv2.imread` (images.py line 5)"


def test_a_from_generator_pipeline_carries_its_module_generators_host_work_to_the_fit(tmp_path):
    """`Dataset.from_generator()` of another module's generator that decodes each image: the fit on
    the pipeline names the decode, after a parallel map too; a `.cache()` after the generator drops it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "loader.py").write_text(
        "import cv2\n\n\ndef samples(paths, labels):\n    for p, y in zip(paths, labels):\n"
        "        yield cv2.imread(p.decode()), y\n"
    )
    main = tmp_path / "main.py"
    main.write_text(
        "import tensorflow as tf\nfrom loader import samples\nmodel = tf.keras.Sequential()\n"
        "ds = tf.data.Dataset.from_generator(samples, args=(paths, labels), output_types=(tf.uint8, tf.int64))\n"
        "model.fit(ds.map(f, num_parallel_calls=8).batch(32), epochs=20)\n"
        "model.fit(ds.cache().batch(32), epochs=20)\n"
    )
    fits = [site for site in analyse_file(main).callsites if site.api.endswith(".fit")]
    assert [fit.features.get("input_generator_host") for fit in fits] == ["`cv2.imread` (loader.py line 6)", None]
    assert all(fit.features.get("input_kind") == "dataset" for fit in fits)


def test_a_generators_text_encoding_is_known_through_a_star_import(tmp_path):
    """A package's generator (imported with `from .training import *`) that pads each window through a
    helper: the fit in the package's other module names the padding as per-item host work."""
    (tmp_path / ".git").mkdir()
    package = tmp_path / "textgen"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "training.py").write_text(
        "import numpy as np\nfrom tensorflow.keras.preprocessing import sequence\n\n\n"
        "def windows(texts, size):\n    while True:\n        x = []\n        for text in texts:\n"
        "            x.append(encode(text))\n            if len(x) == size:\n"
        "                yield np.array(x), np.zeros(size)\n                x = []\n\n\n"
        "def encode(text):\n    return sequence.pad_sequences([text], maxlen=40)[0]\n"
    )
    main = package / "model.py"
    main.write_text(
        "from tensorflow import keras\nfrom .training import *\n\n\n"
        "def train(texts):\n    model = keras.Sequential()\n"
        "    model.fit(windows(texts, 128), steps_per_epoch=100, epochs=10)\n"
    )
    fit = next(site for site in analyse_file(main).callsites if site.api.endswith(".fit"))
    assert fit.features.get("input_kind") == "generator"
    assert fit.features.get("input_host_work") == "`pad_sequences` (training.py line 16)"


def _fits_beside(tmp_path, batches: str, main: str) -> list:
    """The fit call sites of *main* (main.py) in a project whose batches.py is *batches*."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "batches.py").write_text(batches)
    (tmp_path / "main.py").write_text(main)
    return [site for site in analyse_file(tmp_path / "main.py").callsites if site.api.endswith(".fit")]


def test_a_project_sequence_that_only_slices_what_it_holds_is_sliced_in_its_subclasses(tmp_path):
    """A `Sequence` of another module whose `__getitem__` slices the arrays it makes: the fit on it,
    or on a subclass that keeps that `__getitem__`, is fed slices; one that overrides it reading a file is not."""
    fits = _fits_beside(
        tmp_path,
        "import numpy as np\nfrom tensorflow import keras\n\n\nclass Rows(keras.utils.Sequence):\n"
        "    def __init__(self):\n        self.x, self.y = np.zeros((64, 8)), np.zeros(64)\n\n"
        "    def __getitem__(self, i):\n        return self.x[i * 32:(i + 1) * 32], self.y[i * 32:(i + 1) * 32]\n\n\n"
        "class Kept(Rows):\n    pass\n\n\nclass Files(Rows):\n"
        "    def __getitem__(self, i):\n        return np.load(self.x[i]), self.y[i]\n",
        "from tensorflow import keras\nfrom batches import Files, Kept, Rows\nmodel = keras.Sequential()\n"
        "model.fit(Rows(), epochs=2)\nmodel.fit(Kept(), epochs=2)\nmodel.fit(Files(), epochs=2)\n",
    )
    assert [fit.features.get("input_sliced") for fit in fits] == [True, True, None]


def test_a_project_sequence_that_decodes_in_getitem_carries_its_host_work(tmp_path):
    """A `Sequence` of another module whose `__getitem__` decodes a file per item in a loop: the fit
    on it names that decode; one whose `__getitem__` slices arrays it holds names none."""
    fits = _fits_beside(
        tmp_path,
        "import cv2\nimport numpy as np\nfrom tensorflow import keras\n\n\nclass Faces(keras.utils.Sequence):\n"
        "    def __init__(self, paths):\n        self.paths = paths\n\n"
        "    def __getitem__(self, i):\n        x = np.zeros((32, 64, 64, 3))\n"
        "        for j, path in enumerate(self.paths[i * 32:(i + 1) * 32]):\n"
        "            x[j] = cv2.resize(cv2.imread(path), (64, 64))\n        return x, np.zeros(32)\n\n\n"
        "class Rows(keras.utils.Sequence):\n    def __init__(self):\n        self.x = np.zeros((64, 8))\n\n"
        "    def __getitem__(self, i):\n        return self.x[i * 32:(i + 1) * 32], self.x[i * 32:(i + 1) * 32]\n",
        "from tensorflow import keras\nfrom batches import Faces, Rows\nmodel = keras.Sequential()\n"
        "model.fit(Faces(paths), epochs=2)\nmodel.fit(Rows(), epochs=2)\n",
    )
    assert [fit.features.get("input_host_work") for fit in fits] == ["`cv2.imread` (batches.py line 13)", None]


def test_a_project_py_dataset_gives_its_workers_to_the_fit(tmp_path):
    """A Keras 3 `PyDataset` of another module given its workers in its constructor: the fit on it,
    or on a subclass that keeps that constructor, knows them."""
    fits = _fits_beside(
        tmp_path,
        "import keras\n\n\nclass Rows(keras.utils.PyDataset):\n    def __init__(self, **kwargs):\n"
        "        super().__init__(workers=6, use_multiprocessing=True, **kwargs)\n\n\nclass Kept(Rows):\n    pass\n",
        "import keras\nfrom batches import Kept, Rows\nmodel = keras.Sequential()\n"
        "model.fit(Rows(), epochs=2)\nmodel.fit(Kept(), epochs=2)\n",
    )
    assert [fit.features.get("input_workers") for fit in fits] == [6, 6]


@pytest.mark.parametrize(
    ("script", "kind"),
    [
        ("from data import *\ngen = train_generator(2)\n", "generator"),
        ("from data import train_generator\ngen = train_generator(2)\n", "generator"),
        ("import data\ngen = data.train_generator(2)\n", "generator"),
        ("from data import create_generators\ngen, val = create_generators()\n", "sequence"),
        ("from data import Batches\ngen = Batches()\n", "sequence"),
        ("from other import make\ngen = make()\n", None),  # not a project module: unknown
    ],
)
def test_a_fits_input_kind_is_known_across_modules(tmp_path, script, kind):
    (tmp_path / ".git").mkdir()
    (tmp_path / "data.py").write_text(DATA_MODULE)
    main = tmp_path / "main.py"
    main.write_text(
        f"from tensorflow import keras\n{script}model = keras.Sequential()\nmodel.fit_generator(gen, epochs=2)\n"
    )
    fit = next(site for site in analyse_file(main).callsites if site.api.endswith(".fit_generator"))
    assert fit.features.get("input_kind") == kind


#: A generator function that zips an image flow and a mask flow of the batch its caller gives.
ZIPPED_FLOWS = """from tensorflow.keras.preprocessing.image import ImageDataGenerator


def train_generator(batch_size, path, aug, target_size=(256, 256)):
    datagen = ImageDataGenerator(**aug)
    images = datagen.flow_from_directory(path, classes=["image"], class_mode=None, target_size=target_size,
                                         color_mode="grayscale", batch_size=batch_size, seed=1)
    masks = datagen.flow_from_directory(path, classes=["label"], class_mode=None, target_size=target_size,
                                        color_mode="grayscale", batch_size=batch_size, seed=1)
    for img, mask in zip(images, masks):
        yield img / 255, mask / 255
"""


def _fit_batch(path) -> dict:
    fit = next(site for site in analyse_file(path).callsites if site.api.endswith((".fit", ".fit_generator")))
    return fit.work["batch_size"]


def _project(tmp_path, scripts: dict[str, str], data: str = ZIPPED_FLOWS) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "data.py").write_text(data)
    for name, text in scripts.items():
        (tmp_path / name).write_text(text)


FIT_FROM = (
    "from tensorflow import keras\nfrom data import train_generator\nmodel = keras.Sequential()\n"
    "gen = train_generator({batch}, 'data/train', dict(rotation_range=0.2))\n"
    "model.fit_generator(gen, steps_per_epoch=300, epochs=5)\n"
)


def test_a_generator_of_another_module_yields_the_batch_its_call_passes(tmp_path):
    """The batch size given as an argument to a generator function of another module reaches the
    fit it feeds, with where it was read."""
    _project(tmp_path, {"main.py": FIT_FROM.format(batch=2)})
    batch = _fit_batch(tmp_path / "main.py")
    assert batch.value == 2
    assert batch.provenance == "inferred"
    assert "flow_from_directory(batch_size=2)" in batch.note
    assert batch.note.endswith("for the arguments this call passes")


def test_each_call_of_another_modules_generator_gets_its_own_batch(tmp_path):
    """Two scripts pass 2 and 16: each fit has its own call's batch, whichever is analysed first (the
    summary of the generator's module is shared and stays as its own walk left it)."""
    _project(tmp_path, {"small.py": FIT_FROM.format(batch=2), "large.py": FIT_FROM.format(batch=16)})
    assert _fit_batch(tmp_path / "small.py").value == 2
    assert _fit_batch(tmp_path / "large.py").value == 16
    assert _fit_batch(tmp_path / "small.py").value == 2


@pytest.mark.parametrize("batch", ["args.batch_size", "size", "*sizes"])
def test_a_batch_not_known_at_the_call_stays_unknown(tmp_path, batch):
    """A batch size the call does not state is unknown: never Keras' default of the flow it reaches."""
    _project(tmp_path, {"main.py": FIT_FROM.format(batch=batch)})
    found = _fit_batch(tmp_path / "main.py")
    assert found.value is None
    assert found.provenance == "unknown"


def test_a_generator_called_with_different_batches_in_its_own_module_gives_each_call_its_own(tmp_path):
    """Callers in the generator's module passing 2 and 8: merged, the parameter is unknown; each call
    is still walked with its own arguments."""
    fits = (
        "model = keras.Sequential()\nmodel.fit(train_generator(2, 'a', {}), steps_per_epoch=10, epochs=2)\n"
        "model.fit(train_generator(8, 'b', {}), steps_per_epoch=10, epochs=2)\n"
    )
    _project(
        tmp_path,
        {},
        data=ZIPPED_FLOWS.replace("from tensorflow", "from tensorflow import keras\nfrom tensorflow") + fits,
    )
    sites = [s for s in analyse_file(tmp_path / "data.py").callsites if s.api.endswith(".fit")]
    assert [s.work["batch_size"].value for s in sites] == [2, 8]


def test_a_generator_yielding_each_sample_of_a_drawn_batch_yields_no_batch_of_its_size(tmp_path):
    """A loop of its own over the drawn batch may yield each sample: the flow's batch is not the generator's."""
    per_sample = ZIPPED_FLOWS.replace(
        "        yield img / 255, mask / 255\n", "        for pair in zip(img, mask):\n            yield pair\n"
    )
    _project(tmp_path, {"main.py": FIT_FROM.format(batch=2)}, data=per_sample)
    assert _fit_batch(tmp_path / "main.py").value is None


#: A package re-exporting from modules outside its import cycle, in a namespace folder (`lib`, no
#: `__init__.py`) that only the working directory puts on the path (tf-models-official's
#: `official/nlp/modeling/networks`).
REEXPORTING = {
    "lib/pkg/__init__.py": "from lib.pkg import models\nfrom lib.pkg import nets\n",
    "lib/pkg/nets/__init__.py": "from lib.pkg.nets.head import Head\nfrom lib.pkg.nets.encoder import Encoder\n",
    "lib/pkg/nets/head.py": "import tensorflow as tf\n\n\nclass Head(tf.keras.layers.Layer):\n    pass\n",
    "lib/pkg/nets/encoder.py": "import tensorflow as tf\nfrom lib.pkg import models\n\n\nclass Encoder(tf.keras.layers.Layer):\n    pass\n",
    "lib/pkg/models/__init__.py": "from lib.pkg.models.span import Span\n",
    "lib/pkg/models/span.py": (
        "import tensorflow as tf\nfrom lib.pkg import nets\n\n\nclass Span(tf.keras.Model):\n"
        "    def __init__(self, x):\n        head = nets.Head()\n        super().__init__(inputs=x, outputs=head(x))\n"
    ),
}


def test_a_marker_above_the_checked_folder_changes_no_call_site(tmp_path, monkeypatch, request):
    # A project marker above the folder checked from its own root adds that folder as a root
    # (`search_roots`' folders between); a re-export was looked up without the working directory,
    # so its class was found only with such a marker: a stray /tmp/pyproject.toml moved
    # tf-models-official from 7046 to 7049 call sites between two runs of the same code.
    from greenlint import paths
    from greenlint.analysis import project

    monkeypatch.setattr(paths, "PROJECT_MARKERS", ("test-project-marker",))  # none but the test's own
    paths.project_root.cache_clear()
    request.addfinalizer(paths.project_root.cache_clear)  # no root found with the test's marker outlives it
    (tmp_path / "marked" / "test-project-marker").parent.mkdir()
    (tmp_path / "marked" / "test-project-marker").write_text("")
    found = {}
    for outer in ("plain", "marked"):
        corpus = tmp_path / outer / "corpus"
        for name, text in REEXPORTING.items():
            (corpus / name).parent.mkdir(parents=True, exist_ok=True)
            (corpus / name).write_text(text)
        monkeypatch.chdir(corpus)
        monkeypatch.setattr(project, "_INDEX", None)  # no summary kept from the other copy
        found[outer] = sorted((s.span.line, s.api) for s in analyse_file(corpus / "lib/pkg/models/span.py").callsites)
    assert found["plain"] == found["marked"]
    assert (8, "tensorflow.keras.Layer.__call__") in found["plain"]  # `head(x)`: nets.Head through the re-export


def test_what_decides_a_modules_analysis_follows_its_imports_its_tf_importers_and_its_libraries(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")  # the project's root: its .venv is searched
    (tmp_path / "config.py").write_text("SIZE = 1\n")
    (tmp_path / "loader.py").write_text("from config import SIZE\n")
    loader, index = str(tmp_path / "loader.py"), ProjectIndex()
    seen = [index.analysis_inputs(loader)]

    def changed(path, text):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        index.refresh()
        seen.append(index.analysis_inputs(loader))
        return seen[-1] != seen[-2]

    assert changed(tmp_path / "config.py", "SIZE = 2\n")  # a module it imports
    assert changed(tmp_path / "train.py", "import tensorflow as tf\nfrom loader import SIZE\n")  # a TF importer
    assert not changed(tmp_path / "notes.py", "x = 1\n")  # a module that neither imports it nor is imported
    site = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages"
    assert changed(site / "fancy-1.0.dist-info" / "METADATA", "Name: fancy\nVersion: 1.0\n")  # a library installed


def test_a_package_folder_finds_its_siblings_last_and_never_shadows_the_standard_library(tmp_path):
    """`import processor` in a script of a package folder (run from there) finds `processor.py` beside
    it; `import random` beside the package's own `random.py` is the standard library's."""
    package = tmp_path / "pkg"
    package.mkdir()
    for name in ("__init__.py", "processor.py", "random.py"):
        (package / name).write_text("")
    (package / "server.py").write_text("import processor\n\nif __name__ == '__main__':\n    serve()\n")
    roots = search_roots(str(package))
    assert find_module(roots, "processor").file == str(package / "processor.py")
    assert find_module(roots, "random") is None


def test_a_folder_of_modules_finds_its_siblings_through_the_scripts_above_it(tmp_path):
    """A repository with no project marker (downloaded without its .git): `python train.py` puts the
    repository on sys.path, so `import core.common` in core/yolov4.py (a namespace package) finds
    core/common.py there, wherever greenlint is run from; a folder of no Python file above is no root."""
    repo = tmp_path / "repo"
    (repo / "core").mkdir(parents=True)
    (repo / "core" / "common.py").write_text("import tensorflow as tf\n\ndef build():\n    return tf.keras.Sequential()\n")
    (repo / "core" / "model.py").write_text("import core.common as common\n\nm = common.build()\nm.fit(x, y, epochs=3)\n")
    (repo / "train.py").write_text("import core.model\n")
    found = {site.api for site in analyse_file(repo / "core" / "model.py").callsites}
    assert "tensorflow.keras.Sequential.fit" in found
    assert str(repo) in search_roots(str(repo / "core"))
    (repo / "train.py").unlink()
    project_index().refresh()
    assert str(repo) not in search_roots(str(repo / "core")) and str(tmp_path) not in search_roots(str(repo / "core"))
