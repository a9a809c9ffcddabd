"""data/work/keras_application_layers.csv matches what `tools.application_layers` makes from the installed
TensorFlow (its first layers: one profile each)."""

from __future__ import annotations

import csv
import importlib.metadata
import json
import subprocess
import sys

import pytest

from greenlint.paths import DATA_DIR, REPO_DIR
from tests.environment import missing

FIRST = 4
MAKE = ("import json, itertools; from tools.application_layers import rows; "
        f"print(json.dumps(list(itertools.islice(rows('VGG16'), {FIRST}))))")


@pytest.mark.tensorflow
@pytest.mark.slow
def test_the_first_tabled_layers_are_what_the_generator_makes():
    with open(DATA_DIR / "work" / "keras_application_layers.csv", encoding="utf-8", newline="") as handle:
        shipped = [row for row in csv.DictReader(handle) if row["name"] == "VGG16"][:FIRST]
    version = importlib.metadata.version("tensorflow")
    if not shipped[0]["source"].startswith(f"tensorflow {version} "):
        missing(f"the table is for {shipped[0]['source'].split(' keras.')[0]}, installed is tensorflow {version}")
    made = subprocess.run([sys.executable, "-c", MAKE], cwd=REPO_DIR, capture_output=True, text=True, check=True)
    rows = json.loads(made.stdout.strip().splitlines()[-1])
    assert [{k: str(v) for k, v in row.items()} for row in rows] == shipped
