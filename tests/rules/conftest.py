"""Fixtures shared by the rule tests."""

import pytest


@pytest.fixture(scope="module")
def predictor():
    """A fake predictor with fixed figures, so rule cases do not depend on the shipped model."""
    from tests.check.fakes import Predictor

    return Predictor()
