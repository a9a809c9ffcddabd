"""`[tool.greenlint]` configuration: found in the nearest pyproject.toml, overridden by flags."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from greenlint.check.pyproject import (
    DEFAULT_LINE_LENGTH,
    ConfigError,
    find_pyproject,
    formatter_line_length,
    read_toml,
    tool_line_length,
    tool_table,
)

DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".eggs",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".ipynb_checkpoints",
    "node_modules",
    "site-packages",
    "build",
    "dist",
)
INCLUDE_SUFFIXES = (".py", ".pyi", ".ipynb")
#: The `[tool.greenlint]` keys besides rule options (those come from each rule's OPTIONS), with help.
SETTINGS = {
    "select": "Rule codes or prefixes to enable instead of the default set (`[\"GL1\", \"GL201\"]`, `[\"ALL\"]`).",
    "extend-select": "Rule codes or prefixes to enable on top of the selection (e.g. `[\"GL003\"]`).",
    "ignore": "Rule codes or prefixes to disable. The most specific of select and ignore wins.",
    "per-file-ignores": (
        "A table `\"glob\" = [codes]` disabling codes in matching files (paths relative to the pyproject.toml)."
    ),
    "exclude": "Gitignore-style patterns of files and directories never checked; replaces the default list.",
    "extend-exclude": "More patterns to exclude, on top of `exclude`.",
    "respect-gitignore": "Skip files that `.gitignore` files exclude (default true).",
    "force-exclude": (
        "Apply the excludes to files named on the command line too (default false; the pre-commit hook sets it)."
    ),
    "cache-dir": (
        "Where the lint cache lives (default: the user cache directory); a folder below the pyproject.toml"
        " or inside the user cache (`--cache-dir` may point anywhere). The calibration overlay applied is"
        " then the one under its `calibration/` folder (`GREENLINT_CACHE_DIR=<dir> greenlint calibrate` writes it)."
    ),
    "calibration": (
        "Apply this machine's calibration overlay (`greenlint calibrate`) to the figures (default true);"
        " `false` gives the reference figures, as `--no-calibration` does."
    ),
    "device": (
        "The GPU the code runs on, by name (`\"RTX 3090\"`, `\"A100-SXM4\"`, `\"T4\"`; the table in"
        " greenlint/predict/devices.py, from spec sheets): calls whose work is known are priced on it, as"
        " `--device` does. Unset: the reference machine's figures (or this machine's calibration)."
    ),
    "jobs": (
        "Worker processes for analysis (at most one per CPU), or `\"auto\"` (the default): one per CPU idle"
        " now (by the load average), and none for fewer than 16 files to analyse, where processes do not pay."
    ),
    "output-format": "Default output format: concise, full, json, json-lines, sarif, github or grouped.",
    "line-length": (
        "The longest line a fix may write (default: `line-length` of `[tool.ruff]`, else of"
        " `[tool.black]`, else 88): a longer edited line is wrapped as black would wrap it, or the"
        " fix is not offered; a line already longer may get shorter, never longer."
    ),
    "budget": (
        "A table `[tool.greenlint.budget]`: the energy budget of `greenlint diff`, keys `fail-above`, `max-file-j`,"
        " `max-program-j`, `max-added-j` and `allow` (README.md, \"Energy review of a change\")."
    ),
}
#: `[tool.greenlint.budget]` keys (`greenlint diff`, greenlint/review/budget.py; README.md documents them).
BUDGET_KEYS = ("fail-above", "max-file-j", "max-program-j", "max-added-j", "allow")


@dataclass(frozen=True)
class Config:
    """Settings of one check run. Relative patterns are relative to `root`."""

    root: Path = field(default_factory=Path.cwd)
    source: Path | None = None  # the pyproject.toml read, if any
    select: tuple[str, ...] | None = None  # None: every rule enabled by default
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    force_exclude: bool = False  # apply exclude patterns to files named on the command line too
    cache_dir: Path | None = None  # None: greenlint.paths.cache_dir() / "check"
    calibration: bool = True  # apply this machine's calibration overlay (`overlay_root`)
    no_cache: bool = False
    jobs: int | None = None  # None: auto (greenlint.check.runner.auto_jobs)
    device: str | None = None  # the GPU told (`device_arg`'s canonical name), None: the reference figures
    output_format: str = "concise"
    options: Mapping[str, Any] = field(default_factory=dict)  # rule options by key
    line_length: int = DEFAULT_LINE_LENGTH  # the longest line a fix writes
    budget: Mapping[str, Any] = field(default_factory=dict)  # `[tool.greenlint.budget]`, by BUDGET_KEYS

    @property
    def overlay(self) -> bool | str:
        """`load_predictor`'s `overlay` for this run: False with calibration off, True for the
        user cache's overlay, else the `overlay_root` under `cache-dir`."""
        if not self.calibration:
            return False
        return True if self.cache_dir is None else str(self.overlay_root)

    @property
    def overlay_root(self) -> Path | None:
        """Where this run looks for calibration overlays: `calibration/` under the cache directory
        (`cache-dir` when set, so that it isolates the overlay too), None with calibration off."""
        if not self.calibration:
            return None
        if self.cache_dir is not None:
            return self.cache_dir / "calibration"
        from greenlint.paths import calibration_dir

        return calibration_dir()


def _codes(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of rule codes")
    codes = tuple(v.strip().upper() for v in value)
    if "" in codes:
        raise ConfigError(f"{where}: an empty rule code (it would match every rule)")
    return codes


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings")
    return tuple(value)


def _per_file_ignores(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table of pattern = [codes]")
    for pattern in value:
        check_file_pattern(pattern, where)
    return {pattern: _codes(codes, f"{where}.{pattern}") for pattern, codes in value.items()}


#: The most `*` runs one path part of a file pattern may hold. The gitignore-style matcher
#: (pathspec: a regular expression) backtracks through each: `*a*a*a*a*b` takes 9 s on one name
#: of 250 `a`s, each `*` more multiplies it by the name's length; three take 0.1 s at worst.
MAX_WILDCARDS = 3


def too_many_wildcards(pattern: str) -> bool:
    """Whether a path part of *pattern* holds more than MAX_WILDCARDS runs of `*` (`**` is one)."""
    return any(len(re.findall(r"(?<!\\)\*+", part)) > MAX_WILDCARDS for part in pattern.split("/"))


def check_file_pattern(pattern: str, where: str) -> None:
    """Raise a ConfigError, saying *where*, for a per-file-ignores pattern that could never match a
    file: empty, a negation, a `.` or `..` component, `{a,b}` alternation, an unclosed `[`, more
    `*` in a part than can be matched in bounded time, or one the gitignore-style matcher refuses."""
    why = None
    if not pattern.strip():
        why = "it is empty"
    elif pattern.startswith("!"):
        why = "a negation (`!`) names no file to ignore codes in"
    elif any(part in (".", "..") for part in pattern.split("/")):
        why = ("a `.` or `..` component: files are matched by their path below the project root, which holds"
               " none (`/a.py` anchors a pattern there)")
    elif too_many_wildcards(pattern):
        why = f"more than {MAX_WILDCARDS} `*` in one path part, which greenlint cannot match in bounded time"
    elif re.search(r"(?<!\\)\{[^{}]*,[^{}]*\}", pattern):
        why = "`{a,b}` alternation, which gitignore-style patterns do not have: write one pattern per alternative"
    else:
        i = 0
        while i < len(pattern) and why is None:
            if pattern[i] == "\\":
                i += 2
                continue
            if pattern[i] == "[":
                end = pattern.find("]", i + 2)  # `[]x]`: a class holding `]`
                if end < 0 or "/" in pattern[i:end]:
                    why = "an unclosed `[`"
                    break
                i = end
            i += 1
    if why is None:
        import pathspec

        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except Exception as exc:  # pathspec's GitIgnorePatternError, re.error for `[b-a]`
            why = str(exc) or type(exc).__name__
    if why is not None:
        raise ConfigError(f"{where}: `{pattern}` is not a valid file pattern ({why}); it would never match")


def device_arg(value: Any, where: str) -> str:
    """The table's name of a GPU given as *value* (`--device`, `device = ...`); a ConfigError naming
    *where* and the known names otherwise."""
    from greenlint.predict.devices import device_names, gpu_spec

    spec = gpu_spec(value) if isinstance(value, str) else None
    if spec is None:
        raise ConfigError(f"{where}: unknown device {value!r}; known: {device_names()}")
    return spec.name


def parse_table(table: Mapping[str, Any], source: Path | None) -> dict[str, Any]:
    """Validate a `[tool.greenlint]` table into Config fields; unknown keys are an error."""
    where = f"{source or '<config>'}: [tool.greenlint]"
    base = source.parent if source else Path.cwd()
    fields: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for key, value in table.items():
        at = f"{where} key `{key}`"
        if key == "select":
            fields["select"] = _codes(value, at)
        elif key == "extend-select":
            fields["extend_select"] = _codes(value, at)
        elif key == "ignore":
            fields["ignore"] = _codes(value, at)
        elif key == "per-file-ignores":
            fields["per_file_ignores"] = _per_file_ignores(value, at)
        elif key == "exclude":
            fields["exclude"] = _strings(value, at)
        elif key == "extend-exclude":
            fields["extend_exclude"] = _strings(value, at)
        elif key in ("respect-gitignore", "force-exclude", "calibration"):
            if not isinstance(value, bool):
                raise ConfigError(f"{at}: expected true or false")
            fields[key.replace("-", "_")] = value
        elif key == "cache-dir":
            if not isinstance(value, str) or not value.strip() or "\0" in value:
                raise ConfigError(f"{at}: expected a path")
            fields["cache_dir"] = _project_cache_dir(base, value, at)
        elif key == "device":
            fields["device"] = device_arg(value, at)
        elif key == "jobs":
            if value != "auto" and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ConfigError(f"{at}: expected a positive integer or \"auto\"")
            fields["jobs"] = None if value == "auto" else value
        elif key == "output-format":
            from greenlint.report import FORMATS

            if value not in FORMATS:
                raise ConfigError(f"{at}: expected one of {', '.join(FORMATS)}")
            fields["output_format"] = value
        elif key == "line-length":
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ConfigError(f"{at}: expected a positive integer")
            fields["line_length"] = value
        elif key == "budget":
            fields["budget"] = parse_budget(value, at)
        elif key in _rule_options():
            options[key] = coerce_option(_rule_options()[key].type, value, at)
        else:
            raise ConfigError(f"{where}: unknown key `{key}`")
    fields["options"] = options
    return fields


def parse_budget(table: Any, where: str) -> dict[str, Any]:
    """Validate a `[tool.greenlint.budget]` table (BUDGET_KEYS): ratios > 0, joules >= 0."""
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table")
    out: dict[str, Any] = {}
    for key, value in table.items():
        at = f"{where}.{key}"
        if key == "allow":
            if not isinstance(value, dict):
                raise ConfigError(f"{at}: expected a table of \"glob\" = ratio")
            out[key] = {glob: _ratio(v, f"{at}.{glob}", infinite=True) for glob, v in value.items()}
        elif key == "fail-above":
            out[key] = _ratio(value, at)
        elif key in BUDGET_KEYS:
            out[key] = coerce_option(float, value, at)
        else:
            raise ConfigError(f"{where}: unknown key `{key}` (expected {', '.join(BUDGET_KEYS)})")
    return out


def _ratio(value: Any, where: str, infinite: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or (value == math.inf and not infinite):
        raise ConfigError(f"{where}: expected a ratio above 0{' (or inf)' if infinite else ''}, got {value!r}")
    return float(value)


def _project_cache_dir(base: Path, value: str, where: str) -> Path:
    """A repository's own config chooses its cache inside the project (a folder below its
    pyproject.toml) or inside the user cache: never the project folder itself, `/` or elsewhere.
    `--cache-dir` and GREENLINT_CACHE_DIR, chosen by the user, may point anywhere."""
    from greenlint.paths import cache_dir

    chosen = (base / Path(value).expanduser()).resolve()
    allowed = (base.resolve(), cache_dir().resolve(), Path(_user_cache_root()).resolve())
    if not any(chosen != root and chosen.is_relative_to(root) for root in allowed):
        raise ConfigError(
            f"{where}: {value!r} is {chosen}, outside the project folder and the user cache; a project may"
            " keep its cache in a folder below its pyproject.toml (use --cache-dir or GREENLINT_CACHE_DIR for"
            " anywhere else)"
        )
    return chosen


def _user_cache_root() -> str:
    from platformdirs import user_cache_dir

    return user_cache_dir()


def _rule_options() -> dict[str, Any]:
    """Every rule's `Option` by key (the rule modules are imported only for a key of theirs)."""
    from greenlint.rules.registry import all_rules

    return {opt.key: opt for rule in all_rules().values() for opt in rule.OPTIONS}


def coerce_option(kind: type, value: Any, where: str) -> Any:
    """Check a rule option's type (ints are accepted where floats are expected).

    Numeric options are thresholds and counts: a negative or non-finite number is an error.
    """
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool) != (kind is bool):
        raise ConfigError(f"{where}: expected {kind.__name__}, got {value!r}")
    if kind in (int, float) and not (0 <= value < math.inf):
        raise ConfigError(f"{where}: expected a number of at least 0, got {value!r}")
    return value


def load_config(paths: Sequence[Path] = (), config_file: Path | None = None, isolated: bool = False) -> Config:
    """The configuration for checking `paths`: `config_file`, else the nearest one, else defaults."""
    if isolated:
        return Config()
    if config_file is None:
        start = Path(paths[0]) if paths else Path.cwd()
        config_file = find_pyproject(start if os.path.exists(start) else Path.cwd())  # False for a name too long
    if config_file is None:
        start = Path(paths[0]) if paths else Path.cwd()
        return Config(line_length=formatter_line_length(start if os.path.exists(start) else Path.cwd()))
    config_file = Path(config_file)
    if not os.path.isfile(config_file):
        raise ConfigError(f"{config_file}: no such configuration file")
    tool = tool_table(read_toml(config_file))
    table = tool.get("greenlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{config_file}: [tool.greenlint] must be a table")
    fields = {"line_length": tool_line_length(tool) or Config.line_length, **parse_table(table, config_file)}
    return Config(root=config_file.parent.resolve(), source=config_file, **fields)
