"""`importers.per_content`: a rule's read of a module is kept while the module keeps its stamp, and the memo
stays bounded in a long-lived process."""

from greenlint.analysis.project import project_index
from greenlint.rules import importers


def test_a_module_is_read_once_per_content_and_again_when_it_changes(tmp_path):
    module = tmp_path / "loader.py"
    module.write_text("x = 1\n")
    project_index().refresh()
    memo: dict = {}
    reads = []
    read = lambda: reads.append(module.read_text()) or len(reads)  # noqa: E731
    assert importers.per_content(memo, str(module), str(module), read) == 1
    assert importers.per_content(memo, str(module), str(module), read) == 1
    module.write_text("x = 22\n")
    project_index().refresh()
    assert importers.per_content(memo, str(module), str(module), read) == 2
    assert reads == ["x = 1\n", "x = 22\n"]


def test_the_memo_drops_its_oldest_entry_past_its_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(importers, "MAX_KEPT", 2)
    memo: dict = {}
    for name in "abc":
        path = tmp_path / f"{name}.py"
        path.write_text("")
        importers.per_content(memo, name, str(path), lambda name=name: name)
    assert list(memo) == ["b", "c"]
