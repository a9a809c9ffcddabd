"""The check pipeline: discovery, configuration, parallel cached analysis, rules, suppressions.

Its names are imported on first use, so that importing one module of the package (the lint cache,
the configuration) does not import the whole pipeline."""

__all__ = ["CheckResult", "Config", "ConfigError", "apply_rules", "check_source", "load_config", "run_check"]
_LAZY = {"Config": "config", "ConfigError": "config", "load_config": "config", "CheckResult": "pipeline",
         "apply_rules": "pipeline", "check_source": "pipeline", "run_check": "pipeline"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"greenlint.check.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'greenlint.check' has no attribute {name!r}")
