"""The rule registry, built from the Rule classes of this package's modules (every module
imported: a run imports only the rules it runs, through greenlint.rules.codes)."""

from __future__ import annotations

import functools
import importlib
import pkgutil

import greenlint.rules as package
from greenlint.rules.base import Rule

#: Modules of this package that hold no rule.
FRAMEWORK_MODULES = frozenset({"base", "codes", "diagnostic", "registry", "syntax"})


@functools.cache
def all_rules() -> dict[str, type[Rule]]:
    """Every rule class by code, sorted by code."""
    found: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name in FRAMEWORK_MODULES:
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for obj in vars(module).values():
            is_rule = isinstance(obj, type) and issubclass(obj, Rule) and obj is not Rule
            if is_rule and obj.__module__ == module.__name__:
                if obj.code in found:
                    raise RuntimeError(f"rule code {obj.code} is used by {found[obj.code].__name__} and {obj.__name__}")
                found[obj.code] = obj
    return dict(sorted(found.items()))
