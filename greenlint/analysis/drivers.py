"""Drivers that call a function they are given again and again: SciPy's optimizers, hyperparameter
searches (scikit-optimize's `gp_minimize(fitness, space, n_calls=40)`, hyperopt's `fmin`, an Optuna
study's `optimize(objective, n_trials=50)`: a whole training per trial), the builtin
`map`, which calls it once per element of the iterable it is given (`list(map(score, rows))`: a
loop written as a call), and the same methods of other libraries' objects (pandas'
`df["text"].apply(score)`, a pool's `map`: as many elements as the data holds, not known here).

`fmin_l_bfgs_b(evaluator.loss, x0, fprime=evaluator.grads, maxfun=20)` evaluates the objective up
to 20 times per call. Where a function given to a driver spends its work in a TF call (wrappers.py:
the graph K.function built, a session's run, a model's predict), the driver's call is a call site of
that API: `features.receiver` "driver", `features.via` where the TF call is, `work.driver` what calls
it, run per run of the driver's call as often as the call's count argument states (`maxfun=20`: at
most 20 times; `options={"maxiter": 100}` of `minimize`), else an unknown number of times (at least
once: the figure is one evaluation's). The given function's own call sites keep their count (it is
passed where greenlint cannot count), so the driver's site is where its repetition shows.
"""

from __future__ import annotations

import ast
from typing import Any

from greenlint.analysis.runs import EXACT, UNKNOWN, UPPER, Local
from greenlint.analysis.values import Const

ROOT, MODULE = "scipy", "scipy.optimize"
#: What a driver's call site is (`features.receiver`).
DRIVER = "driver"
#: Driver -> the keyword arguments bounding how often it calls the functions given, evaluations first.
DRIVERS = {
    "minimize": ("maxfun", "maxfev", "maxiter"),  # in `options`
    "minimize_scalar": ("maxiter",),  # in `options`
    "fmin_l_bfgs_b": ("maxfun", "maxiter"),
    "fmin_bfgs": ("maxiter",),
    "fmin_cg": ("maxiter",),
    "fmin_ncg": ("maxiter",),
    "fmin": ("maxfun", "maxiter"),
    "fmin_powell": ("maxfun", "maxiter"),
    "fmin_tnc": ("maxfun",),
    "least_squares": ("max_nfev",),
    "leastsq": ("maxfev",),
    "curve_fit": ("maxfev", "max_nfev"),
    "differential_evolution": ("maxiter",),
    "dual_annealing": ("maxfun", "maxiter"),
    "basinhopping": ("niter",),
}
#: Hyperparameter searches: the objective they are given (a whole training, typically) is evaluated
#: once per trial, as many trials as the keyword states, else its documented default (None: required).
SEARCHES = {
    "skopt.gp_minimize": ("n_calls", 100),
    "skopt.forest_minimize": ("n_calls", 100),
    "skopt.gbrt_minimize": ("n_calls", 100),
    "skopt.dummy_minimize": ("n_calls", 100),
    "hyperopt.fmin": ("max_evals", None),
    "optuna.study.Study.optimize": ("n_trials", None),
}
#: Optuna's study, what `create_study()` makes, and its search.
STUDY = "optuna.study.Study"
STUDY_OPTIMIZE = f"{STUDY}.optimize"
STUDY_MAKERS = frozenset({"optuna.create_study", "optuna.load_study"})
#: The keywords naming a search's objective.
OBJECTIVES = frozenset({"func", "fn"})
#: Their modules, valued for them alone.
SEARCH_ROOTS = frozenset(path.partition(".")[0] for path in SEARCHES)
PATHS = frozenset(f"{MODULE}.{name}" for name in DRIVERS) | frozenset(SEARCHES)
#: The builtin that calls the function it is given once per element of its iterables.
PER_ELEMENT = "map"
#: Methods of another library's objects that call the function they are given once per element (or row):
#: pandas' `Series.apply`, `Series.map`, `DataFrame.apply`/`applymap`; a process or thread pool's `map`.
PER_ELEMENT_METHODS = frozenset({"apply", "map", "applymap", "starmap", "imap", "imap_unordered"})
#: Keywords counting evaluations of the function; the others count iterations (about one each).
_EVALUATIONS = frozenset({"maxfun", "maxfev", "max_nfev"})


def imported(path: str) -> bool:
    """Whether `import path` gives something this module values: SciPy (for `scipy.optimize`), the
    optimize module or a driver; SciPy's other names stay foreign."""
    return path in (ROOT, MODULE) or path in SEARCH_ROOTS or path in PATHS or path in STUDY_MAKERS


def calls(path: str, node: ast.Call, keywords: list) -> tuple[Local, str]:
    """How often the driver *path* called at *node* (its evaluated *keywords*) calls the functions
    it is given per run of the call, and a note saying why."""
    name = path.rpartition(".")[2]
    given = {key: value.value for key, value in keywords if key and type(value) is Const}
    if path in SEARCHES:
        key, default = SEARCHES[path]
        stated = key in (k for k, _ in keywords)
        count = given.get(key, None if stated else default)
        if type(count) is int and count > 0:
            how = f"{key}={count}" if stated else f"{key}'s default, {count}"
            return Local(count, EXACT), f"{name} evaluates it once per trial, {count} trials ({how})"
        return Local(None, UNKNOWN), f"{name} evaluates it once per trial: how many is not stated here"
    given.update(_options(node))
    for key in DRIVERS[name]:
        count = given.get(key)
        if type(count) is int and count > 0:
            per = "evaluations" if key in _EVALUATIONS else "iterations of about one evaluation each"
            return Local(count, UPPER), f"{name} stops after at most {count} {per} ({key}={count})"
    return Local(None, UNKNOWN), f"{name} calls it until it converges: how often is not stated (at least once)"


def per_element(name: str, trips: int | None, upper: bool) -> tuple[Local, str]:
    """How often the per-element driver *name* (`map`, `apply`) calls the function it is given: once
    per element, *trips* of them where that is known (at most, *upper*), and a note saying why."""
    if trips is None:
        return Local(None, UNKNOWN), f"{name} calls it once per element of what it is given (how many is not known here)"
    return Local(trips, UPPER if upper else EXACT), f"{name} calls it once per element of what it is given ({trips})"


def _options(node: ast.Call) -> dict[Any, Any]:
    """The literal entries of `options={"maxiter": 100}` (scipy.optimize.minimize's counts)."""
    for keyword in node.keywords:
        if keyword.arg == "options" and type(keyword.value) is ast.Dict:
            return {
                key.value: value.value
                for key, value in zip(keyword.value.keys, keyword.value.values)
                if type(key) is ast.Constant and type(key.value) is str and type(value) is ast.Constant
            }
    return {}


def note(driver: str, name: str, where: str, why: str) -> str:
    """The basis note of a driver's call site."""
    return f"{driver} calls {name}, which spends its work in {where}: listed as that call, once per call of it; {why}"
