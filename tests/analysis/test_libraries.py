"""Classes of libraries built on TF/Keras, read from an installed package's source (never imported):
a project's virtualenv, the per-version user cache, links out of the environment, broken sources,
and the generated table of libraries that are not installed."""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap

import pytest

from greenlint.analysis import installed, libraries
from greenlint.analysis.analyse import analyse_file
from greenlint.catalog.catalog import load_catalog
from greenlint.catalog.libraries import load_libraries

PROGRAM = """
import numpy as np
from fancy import Net
import fancy.models


class Mine(fancy.models.Net):
    pass


x = np.zeros((100, 4))
Net().fit(x, x, epochs=3)
Mine().fit(x, x, epochs=2)
"""


def _write(folder, files: dict[str, str]) -> None:
    for name, code in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")


def _install(site, version: str, base: str = "tf.keras.Model") -> None:
    """A distribution `fancy` whose `Net` derives from *base* through two modules."""
    for old in site.glob("fancy-*.dist-info"):
        for f in old.iterdir():
            f.unlink()
        old.rmdir()
    _write(site, {
        f"fancy-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: fancy\nVersion: {version}\n"
                                                "Requires-Dist: tensorflow>=2.0\n",
        "fancy/__init__.py": "from .models import Net\n",
        "fancy/models.py": "from fancy.base import Base as _Base\n\n\nclass Net(_Base):\n    pass\n",
        "fancy/base.py": f"import tensorflow as tf\n\n\nclass Base({base}):\n    pass\n",
    })


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project with a `.venv` holding `fancy` 1.0, and the user cache in the test's folder."""
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    root = tmp_path / "proj"
    site = root / ".venv" / "lib" / f"python3.{sys.version_info.minor}" / "site-packages"
    _install(site, "1.0")
    _write(root, {"pyproject.toml": "[project]\nname = 'p'\n", "train.py": PROGRAM})
    libraries.clear()
    yield root, site
    libraries.clear()


def _fits(root) -> dict[int, dict]:
    result = analyse_file(root / "train.py")
    assert result.errors == []
    return {s.span.line: s.features for s in result.callsites if s.api == "tensorflow.keras.Model.fit"}


def test_a_class_of_the_projects_virtualenv_is_read_through_two_modules(project):
    root, _ = project
    fits = _fits(root)
    assert fits[11]["receiver"] == "library"  # `Net()`: a Keras model, from fancy/base.py via fancy/models.py
    assert 12 in fits  # a project class deriving from it is a Keras model too
    libraries.save()
    kept = json.loads((root.parent / "cache" / "libraries" / "fancy-1.0.json").read_text())
    assert kept["version"] == "1.0" and kept["classes"]["fancy.Net"] == "tensorflow.keras.Model"


def test_the_cache_is_kept_per_version_and_a_new_version_is_read_again(project):
    root, site = project
    assert set(_fits(root)) == {11, 12}
    _install(site, "1.0", base="object")  # same version, source edited: the kept answer stands
    libraries.clear()
    assert set(_fits(root)) == {11, 12}
    _install(site, "2.0", base="object")  # a new version: read again, Net is no Keras model now
    libraries.clear()
    assert _fits(root) == {}
    libraries.save()
    assert json.loads((root.parent / "cache" / "libraries" / "fancy-2.0.json").read_text())["classes"]["fancy.Net"] is None


def test_a_run_writes_each_librarys_cache_file_once_when_its_lookups_are_done(project, monkeypatch):
    """Every new answer is kept in memory; the file is written once, by `save` (the lint cache's
    `flush_all` at the end of a run or of a worker's chunk), and not again without a new answer."""
    from greenlint.check import cache

    root, _ = project
    written = []
    real = libraries.atomic_write_text
    monkeypatch.setattr(libraries, "atomic_write_text", lambda path, text: written.append(path) or real(path, text))
    kept = root.parent / "cache" / "libraries" / "fancy-1.0.json"
    assert set(_fits(root)) == {11, 12} and written == [] and not kept.exists()
    cache.flush_all()
    assert written == [kept] and json.loads(kept.read_text())["classes"]["fancy.models.Net"] == "tensorflow.keras.Model"
    cache.flush_all()
    assert written == [kept]


def test_the_cache_is_kept_per_catalog_and_another_catalog_reads_again(project, monkeypatch):
    root, site = project
    assert set(_fits(root)) == {11, 12}
    _install(site, "1.0", base="object")  # same version, source edited, and a regenerated catalog
    monkeypatch.setattr(load_catalog(), "digest", "another catalog")
    libraries.clear()  # as a new process would start
    assert libraries.base("fancy.Net", str(root / "train.py"), load_catalog()) is None
    libraries.save()  # as the end of a run does
    kept = json.loads((root.parent / "cache" / "libraries" / "fancy-1.0.json").read_text())
    assert kept["catalog"] == "another catalog" and kept["classes"]["fancy.Net"] is None


def test_a_namespace_package_is_found_as_python_finds_it(project):
    """`nsp/` has no `__init__.py` (PEP 420, as `google/` of google-cloud-*): its distribution is
    named by its top_level.txt, its modules read through the folder."""
    root, site = project
    _write(site, {
        "nsp_fancy-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: nsp-fancy\nVersion: 1.0\n"
                                             "Requires-Dist: tensorflow>=2.0\n",
        "nsp_fancy-1.0.dist-info/top_level.txt": "nsp\n",
        "nsp/fancy/__init__.py": "from nsp.fancy.models import Net\n",
        "nsp/fancy/models.py": "import tensorflow as tf\n\n\nclass Net(tf.keras.Model):\n    pass\n",
    })
    (root / "train.py").write_text("import numpy as np\nfrom nsp.fancy import Net\n\nx = np.zeros((100, 4))\n"
                                   "Net().fit(x, x, epochs=3)\n", encoding="utf-8")
    library = installed.find(installed.of_file(str(root / "train.py")), "nsp")
    assert (library.name, library.version, library.keras) == ("nsp-fancy", "1.0", True)
    assert _fits(root)[5]["receiver"] == "library"


def test_an_editable_install_is_read_from_its_source_folder(project, tmp_path):
    """`pip install -e`: a `.pth` path line (flit, hatch, setuptools' compat mode) or a setuptools
    finder's MAPPING names the source folder, read as text, never run. The project's own `.venv`
    reaches no folder outside the project."""
    root, site = project
    for old in site.glob("fancy*"):
        shutil.rmtree(old)
    _write(root, {"src/fancy/__init__.py": "import tensorflow as tf\n\n\nclass Net(tf.keras.Model):\n    pass\n",
                  "lib/other/__init__.py": "import tensorflow as tf\n\n\nclass Net(tf.keras.Layer):\n    pass\n"})
    _write(site, {"fancy-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: fancy\nVersion: 1.0\n"
                                                   "Requires-Dist: tensorflow>=2.0\n",
                  "__editable__.fancy-1.0.pth": f"{root / 'src'}\nimport sys; sys.exit(3)\n",
                  "__editable___other_1_0_finder.py": f"MAPPING: dict[str, str] = {{'other': {str(root / 'lib' / 'other')!r}}}\n",
                  "outside.pth": f"{tmp_path}\n"})
    _write(tmp_path, {"away/__init__.py": "class Net:\n    pass\n"})
    sites = installed.of_file(str(root / "train.py"))
    assert installed.editable_folders(os.path.realpath(site)) == (str(root / "src"), str(root / "lib"))
    library = installed.find(sites, "fancy")
    assert (library.name, library.version, library.site, library.keras) == ("fancy", "", str(root / "src"), True)
    catalog = load_catalog()
    assert libraries.base("fancy.Net", str(root / "train.py"), catalog) == "tensorflow.keras.Model"
    assert libraries.base("other.Net", str(root / "train.py"), catalog) == "tensorflow.keras.Layer"
    assert installed.find(sites, "away") is None  # the .pth line out of the project is not followed
    assert not (root.parent / "cache" / "libraries" / "fancy-1.0.json").exists()  # its source is read each run


def test_a_link_out_of_the_environment_is_not_followed(project, tmp_path, capsys):
    root, site = project
    outside = tmp_path / "elsewhere.py"
    outside.write_text("import tensorflow as tf\n\n\nclass Base(tf.keras.Model):\n    pass\n", encoding="utf-8")
    (site / "fancy" / "base.py").unlink()
    os.symlink(outside, site / "fancy" / "base.py")
    assert _fits(root) == {}
    err = capsys.readouterr().err
    assert "base.py: links out of the environment" in err and err.count("links out") == 1


@pytest.mark.parametrize("content", [b"class Net(\n", b"\xff\xfe\x00garbage\x00", b"x = (" * 200_000])
def test_a_broken_library_source_is_a_warning_and_unknown(project, capsys, content):
    root, site = project
    (site / "fancy" / "models.py").write_bytes(content)
    assert _fits(root) == {}
    assert "fancy/models.py: library source not" in capsys.readouterr().err


def test_a_library_not_installed_is_known_from_the_generated_table(tmp_path):
    table = load_libraries()
    assert table["versions"]["keras-hub"] and table["roots"]["transformers"] == "transformers"
    catalog = load_catalog()
    module = str(tmp_path / "train.py")
    assert installed.find(installed.of_file(None), "keras_hub") is None  # not installed here
    assert libraries.base("keras_hub.models.BertClassifier", module, catalog) == "tensorflow.keras.Model"
    assert libraries.base("keras_nlp.models.BertClassifier", module, catalog) == "tensorflow.keras.Model"  # re-exported
    assert libraries.base("transformers.TFBertModel", module, catalog) == "tensorflow.keras.Model"
    assert libraries.base("transformers.BertModel", module, catalog) is None  # PyTorch's
    assert libraries.built_on_keras("transformers", module) and not libraries.built_on_keras("requests", module)


def test_the_generator_reads_a_site_directory(project):
    from tools.catalog.libraries import read_library

    _, site = project
    reader = libraries.Reader(os.path.realpath(site), load_catalog())
    assert read_library(reader, "fancy") == {"fancy.Net": "tensorflow.keras.Model"}


def test_star_imports_all_and_guarded_imports_are_followed(project):
    """transformers' shape: a lazy `__init__` whose names are imported under `if TYPE_CHECKING:`
    through star imports that `__all__` filters, and a `try:` import of Keras with a fallback."""
    _, site = project
    _write(site, {
        "fancy/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .zoo import *\n",
        "fancy/zoo/__init__.py": "from .hidden import *\nfrom .shown import *\n",
        "fancy/zoo/hidden.py": "__all__ = []\nfrom fancy.base import Base as Stopper\n",
        "fancy/zoo/shown.py": "__all__ = ['Stopper']\ntry:\n    import tf_keras as keras\nexcept ImportError:\n"
                             "    import keras\n\n\nclass Stopper(keras.callbacks.Callback):\n    pass\n",
    })
    reader = libraries.Reader(os.path.realpath(site), load_catalog())
    assert reader.base("fancy.Stopper") == "tensorflow.keras.callbacks.Callback"  # hidden.py's is not exported
    assert reader.base("fancy.zoo.shown.Stopper") == "tensorflow.keras.callbacks.Callback"
    assert reader.base("fancy.Missing") is None


def test_a_pretrained_model_of_the_table_is_a_keras_model_and_pytorch_code_stays_apart(tmp_path):
    _write(tmp_path, {
        "tf_program.py": """
            from transformers import TFBertForSequenceClassification

            model = TFBertForSequenceClassification.from_pretrained("bert-base-uncased")
            model.fit(x, y, epochs=2)
            """,
        "torch_program.py": """
            from transformers import BertModel

            model = BertModel.from_pretrained("bert-base-uncased")
            model.fit(x, y, epochs=2)
            """,
    })
    fits = [s for s in analyse_file(tmp_path / "tf_program.py").callsites if s.api == "tensorflow.keras.Model.fit"]
    assert [s.features["library"] for s in fits] == ["transformers.TFBertForSequenceClassification"]
    assert analyse_file(tmp_path / "torch_program.py").callsites == []  # a PyTorch model is no Keras one
