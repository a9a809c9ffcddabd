"""Fixtures shared by the rule tests."""

import pytest


@pytest.fixture(scope="module")
def predictor():
    """A fake predictor with fixed figures, so rule cases do not depend on the shipped model."""
    from tests.check.fakes import Predictor

    return Predictor()


@pytest.fixture(scope="session")
def shipped():
    """The shipped predictor (no calibration overlay): for rule tests that need real figures, which
    follow data sizes and models as the fake predictor's do not."""
    from greenlint.predict import load_predictor

    return load_predictor(overlay=False)


def found(predictor, code: str, rule: str, options: dict | None = None, path: str = "train.py") -> list:
    """The findings of *rule* alone on *code*, checked as a file at *path*."""
    from greenlint.check.config import Config
    from greenlint.check.pipeline import check_source

    config = Config(select=(rule,), no_cache=True, options=options or {})
    return [d for d in check_source(code, path, config, predictor) if d.code == rule]


def check_in_project(root, predictor, files: dict, main: str, code: str, options: dict | None = None) -> list:
    """Write a small project under *root* (`files`: each relative path and its text) and check
    its module *main* with rule *code* alone (and *options*): that rule's diagnostics."""
    from greenlint.check.config import Config
    from greenlint.check.pipeline import check_source

    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    config = Config(select=(code,), no_cache=True, options=options or {})
    found = check_source(files[main], str(root / main), config, predictor)
    return [d for d in found if d.code == code]


def notebook(*cells: str) -> str:
    """A notebook's JSON with one code cell per text."""
    import json

    return json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c}
                  for c in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    })
