"""Every rule is documented, has cases of both kinds, and its docs are current."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

import pytest

from greenlint.check.config import SETTINGS, Config, parse_table
from greenlint.check.pipeline import check_source
from greenlint.fix.codemods import CODEMODS, made
from greenlint.rules import codes
from greenlint.rules.base import SECTIONS
from greenlint.rules.codes import get_rule, option_defaults
from greenlint.rules.registry import all_rules
from tests.check.fakes import Predictor

RULES = list(all_rules().values())


def test_codes_and_names_are_unique_and_well_formed():
    codes = [r.code for r in RULES]
    names = [r.name for r in RULES]
    assert len(set(codes)) == len(codes) and len(set(names)) == len(names)
    for r in RULES:
        assert re.fullmatch(r"GL\d{3}", r.code), r.code
        assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", r.name), r.name
        assert not r.name.startswith(("no-", "disallow", "banned")), r.name
        assert r.SEVERITY in ("error", "warning", "info")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_doc_has_every_section_in_order(rule):
    sections = list(rule.sections())
    assert sections == list(SECTIONS), f"{rule.code}: sections {sections}"
    assert all(rule.sections()[s] for s in SECTIONS), f"{rule.code}: empty section"
    assert rule.MESSAGE and rule.FIX_TITLE and rule.summary()


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_has_cases_of_each_kind(rule):
    assert rule.VALID and rule.INVALID


@pytest.mark.parametrize("rule", [r for r in RULES if r.FIX is not None], ids=lambda r: r.code)
def test_a_fix_names_a_codemod_and_its_fields(rule):
    """`FixBy` names a codemod of greenlint.fix.codemods by its class and gives it only fields it has."""
    assert isinstance(made(rule.FIX), CODEMODS[rule.FIX.codemod])


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_a_fix_is_claimed_exactly_when_a_case_pins_it(rule):
    pinned = [c for c in rule.INVALID if c.expected_replacement is not None]
    assert bool(pinned) == (rule.FIX is not None), f"{rule.code}: FIX without a pinned fix, or the reverse"
    fix_safety = rule.sections()["Fix safety"].split(":")[0].split()[0].rstrip(".")
    assert fix_safety == {"none": "No", "safe": "Safe", "unsafe": "Unsafe"}[rule.fix_availability()], rule.code


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_doc_examples_parse(rule):
    blocks = re.findall(r"```python\n(.*?)```", rule.doc(), flags=re.S)
    assert blocks, f"{rule.code}: no python example"
    if rule.code == "GL001":  # its Example is the syntax error it reports
        blocks = blocks[1:]
    for block in blocks:
        ast.parse(block)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_documented_options_are_real_keys(rule):
    listed = set(re.findall(r"^- `([a-z0-9-]+)`", rule.sections()["Options"], flags=re.M))
    assert {o.key for o in rule.OPTIONS} <= listed
    assert listed <= set(SETTINGS) | set(option_defaults()), f"{rule.code}: not a [tool.greenlint] key"


def test_settings_are_what_the_parser_accepts():
    samples = {
        "per-file-ignores": {},
        "respect-gitignore": True,
        "force-exclude": False,
        "calibration": False,
        "cache-dir": ".cache",  # a folder below the project (the project itself is refused)
        "jobs": 2,
        "device": "RTX 3090",
        "output-format": "json",
        "line-length": 100,
        "budget": {"fail-above": 2, "allow": {"train.py": float("inf")}},
    }
    for key in SETTINGS:
        parse_table({key: samples.get(key, [])}, None)


def test_lookup_by_code_or_name():
    assert get_rule("gl101") is get_rule("energy-hotspot") is all_rules()["GL101"]
    assert get_rule("GL999") is None


def test_codes_json_lists_every_rule_as_the_registry_holds_it():
    """A run imports the rules it runs by codes.json (greenlint.rules.codes): a rule missing there,
    or listed with a stale default or option, would silently never run or run wrongly."""
    from tools import rule_codes

    assert codes.table() == rule_codes.build(), "codes.json is stale: run `python -m tools.generate_all`"
    assert all(codes.rule_class(code) is rule for code, rule in all_rules().items())


def test_a_rule_mentions_what_each_of_its_findings_needs():
    """A rule's MENTIONS gate the file before its module is imported: each of its INVALID cases (the
    findings it must make) holds one of them, or the gate would hide them."""
    for rule in RULES:
        for case in rule.INVALID if rule.MENTIONS else ():
            assert any(word in case.code for word in rule.MENTIONS), (rule.code, case.code)


def test_gl203_mentions_every_weight_transfer_it_reports():
    from greenlint.rules.numpy_in_step_loop import WEIGHT_ATTRIBUTES, WEIGHT_METHODS, NumpyInStepLoop

    assert all(any(word in name for word in NumpyInStepLoop.MENTIONS) for name in WEIGHT_ATTRIBUTES | WEIGHT_METHODS)


def test_a_file_mentioning_none_of_a_rules_words_is_not_checked_by_it():
    """GL208's stop needs `==`; GL330's loops a `while` or `count`: without either word the rule does
    not run; with one, it does."""
    assert not codes.may_report("GL208", frozenset({"predict"}), "for i in range(9):\n    m.predict(x)\n")
    assert codes.may_report("GL208", frozenset({"predict"}), "for i in range(9):\n    if y == 2: break\n")
    assert not codes.may_report("GL330", None, "for i in range(9):\n    m.fit(x)\n")
    assert codes.may_report("GL330", None, "while True:\n    m.fit(x)\n")


def test_a_siteless_rule_calls_for_nothing():
    """A SITELESS rule judges files without call sites: no method can be required of them."""
    assert [code for code, rule in all_rules().items() if rule.SITELESS and rule.CALLS] == []


def test_a_check_runs_the_rules_that_can_report_and_imports_them_alone(monkeypatch):
    """On a file calling `Sequential` and `compile`, the default selection runs the rules enabled by
    default that check a file themselves, call for no method or for one of those and mention
    nothing or a word of the file's text; in a fresh
    interpreter, `--select GL304` imports GL304's module and no other rule's."""
    source = 'import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile(loss="mse", run_eagerly=True)\n'
    ran = []
    load = codes.rule_class
    monkeypatch.setattr(codes, "rule_class", lambda code: (ran.append(code), load(code))[1])
    found = check_source(source, "train.py", Config(no_cache=True), Predictor(), fixes=False)
    assert "GL304" in {d.code for d in found}
    listed = codes.table()
    assert ran == [code for code, e in listed.items() if e["enabled"] and e["checks"]
                   and (not e["calls"] or {"Sequential", "compile"} & set(e["calls"]))
                   and (not e["mentions"] or any(word in source for word in e["mentions"]))]
    assert "GL330" not in ran  # no `while` or `count`: no endless loop
    assert "GL401" not in ran and "GL101" in ran  # calls for `batch`; judges every site
    script = (
        "import sys\n"
        "from greenlint.check.config import Config\n"
        "from greenlint.check.pipeline import check_source\n"
        "from greenlint.rules import codes\n"
        f"found = check_source({source!r}, 'train.py', Config(no_cache=True, select=('GL304',)))\n"
        "print(sorted({d.code for d in found}))\n"
        "print(sorted(e['module'] for e in codes.table().values()\n"
        "             if 'greenlint.rules.' + e['module'] in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["['GL304']", "['compile_run_eagerly']"]
