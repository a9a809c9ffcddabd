"""Scaffold a rule: `python -m tools.new_rule GL504 tensor-in-loop --kind in-loop --api tensorflow.constant`.

Writes greenlint/rules/<snake_name>.py (the `Rule` subclass with every docstring section, its VALID
and INVALID cases and a working `check` for the chosen kind) and tests/fixtures/rules/<CODE>.py (the
fixture whose marked lines the rule must flag). The registry finds the module by itself; no list is
edited; greenlint/rules/codes.json, which `check` reads to import the rules it runs, is rewritten.
Then edit the docstring, cases and check to the real pattern, and run `python -m tools.generate_all`
(the rule's page, the index, the fixture's snapshot, codes.json again).

Kinds: `call` flags every call of the API; `in-loop` flags a call a loop repeats with the same inputs.
The new rule is opt-in (`DEFAULT_ENABLED = False`) until the real-world benchmark shows its precision.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from greenlint.atomic import atomic_write_text
from greenlint.rules.registry import all_rules
from tools import rule_codes

REPO_DIR = Path(__file__).resolve().parents[1]
RULES_DIR = REPO_DIR / "greenlint" / "rules"
FIXTURES_DIR = REPO_DIR / "tests" / "fixtures" / "rules"


class ScaffoldError(ValueError):
    """The code, name or API cannot make a new rule."""


def snake(name: str) -> str:
    return name.replace("-", "_")


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def call_expression(api: str) -> tuple[str, str]:
    """(the import line, the call written as a program would) for a canonical function API."""
    root, _, rest = api.partition(".")
    if root == "tensorflow":
        return "import tensorflow as tf", f"tf.{rest}(x)"
    return f"import {root}", f"{api}(x)"


def validate(code: str, name: str, kind: str, api: str, rules: dict | None = None) -> None:
    if not re.fullmatch(r"GL\d{3}", code):
        raise ScaffoldError(f"{code!r} is not a rule code (GL and three digits)")
    if not re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", name) or name.startswith(("no-", "disallow", "banned")):
        raise ScaffoldError(f"{name!r} is not a kebab-case name of the flagged pattern (`predict-in-loop`)")
    if kind not in KINDS:
        raise ScaffoldError(f"kind {kind!r} is not one of {', '.join(KINDS)}")
    if not re.fullmatch(r"[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+", api):
        raise ScaffoldError(f"{api!r} is not a canonical dotted API (`tensorflow.constant`)")
    rules = all_rules() if rules is None else rules
    if code in rules:
        raise ScaffoldError(f"{code} is taken by {rules[code].__module__}")
    taken = next((r for r in rules.values() if r.name == name), None)
    if taken is not None:
        raise ScaffoldError(f"the name {name} is taken by {taken.code}")


@dataclass(frozen=True)
class Kind:
    """A kind of rule: its summary, the body of `check`, MESSAGE, its VALID cases (the last one is
    also "Use instead") and INVALID case with the line flagged; `{imp}` and `{call}` stand for the
    API's import and call."""

    summary: str
    check: str
    message: str
    valid: tuple[str, ...]
    invalid: str
    line: int


KINDS = {
    "call": Kind(
        summary="Flags every call of `{api}`.",
        check="for site in facts.sites:\n"
              "            if site.api == API:\n"
              "                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(api=site.api))",
        message='"`{api}` is called"',
        valid=("{imp}\n",),
        invalid="{imp}\n{call}\n",
        line=2,
    ),
    "in-loop": Kind(
        summary="Flags `{api}` called again and again by a loop with the same inputs.",
        check="for site in facts.sites:\n"
              "            if site.api == API and site.repeats():\n"
              "                message = self.MESSAGE.format(api=site.api, times=site.loop_times())\n"
              "                yield self.diagnostic(site.callsite.span, facts.path, message)",
        message='"`{api}` is called inside a loop{times} with the same inputs"',
        valid=("{imp}\nfor x in xs:\n    {call}\n", "{imp}\ny = {call}\nfor i in range(10):\n    use(y)\n"),
        invalid="{imp}\nfor i in range(10):\n    {call}\n",
        line=3,
    ),
}

MODULE = '''"""{code} {name}: {summary}"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

API = "{api}"


class {cls}(Rule):
    """
    ## What it does
    {summary}

    ## Why is this bad?
    Say what the pattern costs and why, with the source of the claim.

    ## Example
    ```python
{example}
    ```

    ## Use instead
    ```python
{instead}
    ```

    ## Energy evidence
    Say what was measured (a pair under bench/rules/{code}/), or why it cannot be.

    ## Fix safety
    No automatic fix.

    ## Options
    None.
    """

    code = "{code}"
    name = "{name}"
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    CALLS = frozenset({{method(API)}})  # a file that never calls it is not checked
    MESSAGE = {message}
    FIX_TITLE = "Say what to write instead"
    EVIDENCE_APIS = (API,)
    VALID = (
{valid}
    )
    INVALID = (
{invalid}
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        {check}
'''


def _literal(source: str, indent: str) -> str:
    """Source as adjacent string literals, one line each."""
    return "\n".join(f"{indent}{line + chr(10)!r}" for line in source.splitlines())


def _block(source: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in source.splitlines())


def render_module(code: str, name: str, kind: str, api: str) -> str:
    spec = KINDS[kind]
    imp, call = call_expression(api)
    valid = [v.format(imp=imp, call=call) for v in spec.valid]
    invalid = spec.invalid.format(imp=imp, call=call)
    return MODULE.format(
        code=code, name=name, cls=class_name(name), api=api, summary=spec.summary.format(api=api),
        check=spec.check, message=spec.message, example=_block(invalid), instead=_block(valid[-1]),
        valid="\n".join(f"        Valid(\n{_literal(v, ' ' * 12)}\n        )," for v in valid),
        invalid=f"        Invalid(\n{_literal(invalid, ' ' * 12)},\n            line={spec.line},\n        ),",
    )


def render_fixture(code: str, kind: str, api: str) -> str:
    """The fixture: the INVALID case with its flagged line marked, then the "Use instead" code."""
    spec = KINDS[kind]
    imp, call = call_expression(api)
    lines = spec.invalid.format(imp=imp, call=call).splitlines()
    lines[spec.line - 1] += f"  # {code}"
    tail = spec.valid[-1].format(imp=imp, call=call).splitlines()[1:]
    return "\n".join(lines + (["", *tail] if tail else [])) + "\n"


def scaffold(code: str, name: str, kind: str, api: str, rules_dir: Path = RULES_DIR,
             fixtures_dir: Path = FIXTURES_DIR, rules: dict | None = None) -> list[Path]:
    """Write the rule module and its fixture; refuse to overwrite either."""
    validate(code, name, kind, api, rules)
    module, fixture = rules_dir / f"{snake(name)}.py", fixtures_dir / f"{code}.py"
    for path in (module, fixture):
        if path.exists():
            raise ScaffoldError(f"{path} exists: nothing written")
    atomic_write_text(module, render_module(code, name, kind, api))
    atomic_write_text(fixture, render_fixture(code, kind, api))
    return [module, fixture]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("code", help="GL and three digits, the hundreds by theme (CONTRIBUTING.md)")
    parser.add_argument("name", help="kebab-case name of the flagged pattern")
    parser.add_argument("--kind", choices=list(KINDS), default="call")
    parser.add_argument("--api", required=True, help="the canonical API the rule looks at")
    args = parser.parse_args(argv)
    try:
        written = scaffold(args.code, args.name, args.kind, args.api)
    except ScaffoldError as exc:
        print(f"new_rule: {exc}", file=sys.stderr)
        return 2
    all_rules.cache_clear()
    rule_codes.write()
    for path in written:
        print(f"wrote {path.relative_to(REPO_DIR)}")
    print(f"wrote {rule_codes.NAME}")
    print("next: write the docstring, cases and check; then `python -m tools.generate_all`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
