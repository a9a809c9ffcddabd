"""bench/report.py rewrites only its own section of docs/benchmarks.md."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH_REPORT = Path(__file__).resolve().parents[2] / "bench" / "report.py"


def _module():
    spec = importlib.util.spec_from_file_location("bench_report", BENCH_REPORT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_write_section_replaces_only_its_own(tmp_path):
    report = _module()
    doc = tmp_path / "benchmarks.md"
    report.write_section("Linter", "first", doc)
    assert doc.read_text().startswith("# Benchmarks\n")
    doc.write_text(doc.read_text() + "\n## Catalog load\n\nsomeone else's\n")
    report.write_section("Import", "imports", doc)
    report.write_section("Linter", "second\n\n| a |\n", doc)
    text = doc.read_text()
    assert "first" not in text and text.count("## Linter") == 1
    assert text.index("## Linter\n\nsecond\n\n| a |\n") < text.index("## Catalog load\n\nsomeone else's\n") < text.index(
        "## Import\n\nimports\n")
    assert text.endswith("imports\n")
