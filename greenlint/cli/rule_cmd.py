"""`greenlint rule CODE` prints a rule's documentation; `greenlint rule --all` lists the rules."""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import sys

HELP = "show a rule's documentation (`greenlint rule GL101`), or list every rule (`--all`)"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rule", nargs="?", metavar="CODE", help="rule code or name, e.g. GL101 or energy-hotspot")
    parser.add_argument("--all", action="store_true", help="list every rule")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def _as_json(rule, with_doc: bool) -> dict:
    out = {
        "code": rule.code,
        "name": rule.name,
        "summary": rule.summary(),
        "severity": rule.SEVERITY,
        "default_enabled": rule.DEFAULT_ENABLED,
        "message": rule.MESSAGE,
        "fix_title": rule.FIX_TITLE,
        "fix": rule.fix_availability(),
        "options": [
            {"key": o.key, "type": o.type.__name__, "default": o.default, "help": o.help} for o in rule.OPTIONS
        ],
    }
    if with_doc:
        from greenlint.rules.docs import render

        out["doc"] = render(rule)
    return out


#: The generated page's banner (an HTML comment) and its links, which a terminal shows raw.
_COMMENT = re.compile(r"<!--.*?-->\n?", re.S)
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_RULE_PAGE = re.compile(r"(GL\d{3})\.md")


def terminal_text(markdown: str) -> str:
    """A rule's page for a terminal: without HTML comments, each link as `text (where)`: another
    rule's page as the command that prints it, a page of the repository by its path, a URL as is."""

    def link(m: re.Match) -> str:
        text, url = m.groups()
        if "://" not in url:
            rule = _RULE_PAGE.fullmatch(url)
            url = f"greenlint rule {rule[1]}" if rule else posixpath.normpath(posixpath.join("docs/rules", url))
        return f"{text} ({url})"

    return _LINK.sub(link, _COMMENT.sub("", markdown))


def _print_markdown(text: str) -> None:
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(terminal_text(text)))
    else:
        sys.stdout.write(text)


def run(args: argparse.Namespace) -> int:
    from greenlint.rules.codes import get_rule
    from greenlint.rules.registry import all_rules

    if args.all or args.rule is None:  # `rule ""` (an unset variable) names no rule: an error below
        rules = all_rules().values()
        if args.format == "json":
            print(json.dumps([_as_json(r, with_doc=False) for r in rules], indent=2))
        else:
            for r in rules:
                state = "" if r.DEFAULT_ENABLED else " (off by default)"
                fix = {"safe": "fix", "unsafe": "fix*", "none": ""}[r.fix_availability()]
                print(f"{r.code}  {r.name:<32} {fix:<5} {r.summary()}{state}")
        return 0
    rule = get_rule(args.rule)
    if rule is None:
        print(f"greenlint: error: no rule {args.rule!r}; `greenlint rule --all` lists them", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(_as_json(rule, with_doc=True), indent=2))
    else:
        from greenlint.rules.docs import render

        _print_markdown(render(rule))
    return 0
