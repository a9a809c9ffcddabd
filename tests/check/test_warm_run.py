"""A fully warm run loads nothing expensive: no resolver, catalog, predictor, libcst or pandas,
nor the process pool; `greenlint --version` loads nothing but the command line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from greenlint import __version__
from greenlint.paths import REPO_DIR

PROBE = """
import json, sys
from greenlint.cli import main
code = main(["check", "--exit-zero", sys.argv[1]])
heavy = tuple(sys.argv[2:])
heavy += ("libcst", "pandas", "sklearn", "numpy", "tensorflow", "greenlint.analysis.resolver",
         "greenlint.analysis.analyse", "greenlint.catalog.catalog", "greenlint.predict.predictor",
         "greenlint.predict.loading", "greenlint.kb", "multiprocessing", "concurrent.futures")
print(json.dumps({"code": code, "loaded": sorted(m for m in sys.modules if m.startswith(heavy))}), file=sys.stderr)
"""


def run(path, env, *also):
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(path), *also], env=env, capture_output=True, text=True, check=True, cwd=path.parent
    )
    return proc.stdout, json.loads(proc.stderr.strip().splitlines()[-1])


@pytest.mark.timeout(120)
def test_warm_run_loads_nothing_expensive(tmp_path):
    project = tmp_path / "examples"
    shutil.copytree(REPO_DIR / "examples", project)
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(tmp_path / "cache")}
    cold_out, cold = run(project, env)
    assert "GL101" in cold_out and cold["loaded"]  # the cold run did analyse
    warm_out, warm = run(project, env)
    assert warm_out == cold_out
    assert warm["loaded"] == []


@pytest.mark.timeout(120)
def test_without_rule_options_a_warm_run_imports_no_rule_module(tmp_path):
    project = tmp_path / "examples"
    shutil.copytree(REPO_DIR / "examples", project)
    (project / "pyproject.toml").unlink()  # it sets a rule option, whose type the registry checks
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(tmp_path / "cache")}
    cold_out, _ = run(project, env, *NOT_WARM)
    warm_out, warm = run(project, env, *NOT_WARM)
    assert warm_out == cold_out and "GL301" in warm_out  # without its option the toy GL101 is immaterial
    assert warm["loaded"] == []  # the rules' codes and defaults came from the lint cache


#: Besides the analysis: what a warm run without rule options never imports (the rules' codes and
#: defaults come from the lint cache, the data folder is found without importlib.resources, the
#: calibration note without the predictor's modules).
NOT_WARM = ("greenlint.rules.registry", "greenlint.rules.base", "importlib.resources", "tempfile",
            "greenlint.predict", "greenlint.profile.lookup", "logging")


@pytest.mark.timeout(120)
def test_a_warm_one_file_check_imports_no_pipeline(tmp_path):
    project = tmp_path / "examples"
    shutil.copytree(REPO_DIR / "examples", project)
    (project / "pyproject.toml").unlink()
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(tmp_path / "cache")}
    one = project / "train.py"
    pipeline = ("greenlint.check.runner", "greenlint.check.pipeline", "greenlint.check.config")  # answered before them
    # reading the file and its imports needs none of the resolver's value and work modules
    resolver = ("greenlint.analysis.features", "greenlint.analysis.arrays", "greenlint.analysis.worktables")
    cold_out, _ = run(one, env, *NOT_WARM, *pipeline, *resolver)
    warm_out, warm = run(one, env, *NOT_WARM, *pipeline, *resolver)
    assert warm_out == cold_out and "GL3" in warm_out
    assert warm["loaded"] == []


def test_version_loads_only_the_command_line():
    probe = (
        "import sys\nfrom greenlint.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('greenlint')))"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert proc.stdout.splitlines() == [f"greenlint {__version__}", "['greenlint', 'greenlint.cli']"]
