"""The check pipeline: discovery, configuration, parallel cached analysis, rules, suppressions."""

from greenlint.check.config import Config, ConfigError, load_config
from greenlint.check.pipeline import CheckResult, apply_rules, check_source, run_check

__all__ = ["CheckResult", "Config", "ConfigError", "apply_rules", "check_source", "load_config", "run_check"]
