"""Hyperparameter searches (analysis/drivers.py SEARCHES): scikit-optimize's `gp_minimize(fitness, space,
n_calls=40)`, hyperopt's `fmin(objective, space, max_evals=50)` and an Optuna study's `optimize(objective,
n_trials=30)` call the objective once per trial, so
the training it runs counts every trial; a count the code does not state stays unknown."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source

OBJECTIVE = """
import numpy as np
import tensorflow as tf
{imports}

x = np.zeros((5000, 784))
y = np.zeros((5000, 10))


def fitness(params):
    model = tf.keras.Sequential([tf.keras.layers.Dense(64), tf.keras.layers.Dense(10)])
    model.compile("adam", "mse")
    return model.fit(x, y, epochs=3, batch_size=128).history["loss"][-1]


{search}
"""


def fit_runs(imports: str, search: str) -> dict:
    code = textwrap.dedent(OBJECTIVE).format(imports=imports, search=search)
    (fit,) = [s for s in analyse_source(code, "search.py").callsites if s.api.endswith(".fit")]
    return fit.runs.to_json()


@pytest.mark.parametrize(
    ("imports", "search", "count"),
    [
        ("from skopt import gp_minimize", "gp_minimize(func=fitness, dimensions=[(16, 512)], n_calls=40)", 40),
        ("from skopt import gp_minimize", "fitness([64])\nresult = gp_minimize(fitness, [(16, 512)], n_calls=12)", 13),
        ("import skopt", "skopt.forest_minimize(fitness, [(16, 512)])", 100),  # n_calls' default
        ("from hyperopt import fmin, tpe", "best = fmin(fitness, space, algo=tpe.suggest, max_evals=25)", 25),
        ("import optuna", "study = optuna.create_study(direction='minimize')\nstudy.optimize(fitness, n_trials=30)", 30),
    ],
)
def test_a_search_runs_its_objective_once_per_trial(imports: str, search: str, count: int) -> None:
    found = fit_runs(imports, search)
    assert (found["count"], found["bound"]) == (count, "exact")


@pytest.mark.parametrize(
    ("imports", "search"),
    [
        ("from hyperopt import fmin, tpe", "best = fmin(fitness, space, algo=tpe.suggest)"),  # max_evals not stated
        ("from skopt import gp_minimize\nimport sys", "gp_minimize(fitness, [(16, 512)], n_calls=int(sys.argv[1]))"),
        ("from somewhere import search", "search(fitness, n_calls=40)"),  # not a search greenlint knows
        ("import optuna", "study = optuna.create_study()\nstudy.optimize(fitness, timeout=600)"),  # until a timeout
    ],
)
def test_a_search_of_a_count_not_stated_leaves_the_runs_unknown(imports: str, search: str) -> None:
    assert fit_runs(imports, search)["count"] is None
