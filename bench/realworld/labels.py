"""Findings, their keys, the hand-made labels (labels.csv) and the lines they point at.

A finding is keyed by (corpus, file, cell, line, code): the corpora are pinned, so a key names the
same source line whatever greenlint version found it. A label gives one key a verdict (true,
debatable, false), a one-line reason and the stripped text of the line, which `source_line` checks.
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass, fields
from pathlib import Path

from greenlint.analysis.sources import notebook_cells, split_lines

LABELS = Path(__file__).resolve().parent / "labels.csv"
# A second judge's blind verdicts on a fixed-seed sample of already-labelled default findings (agreement).
SECOND_JUDGE = Path(__file__).resolve().parent / "second_judge.csv"
VERDICTS = ("true", "debatable", "false")
Key = tuple[str, str, int, int, str]  # corpus, file, cell (0 outside notebooks), line, code


@dataclass(frozen=True)
class Label:
    corpus: str
    file: str
    cell: int  # 1-based code cell of a notebook, 0 otherwise
    line: int
    code: str
    verdict: str
    reason: str
    text: str

    @property
    def key(self) -> Key:
        return (self.corpus, self.file, self.cell, self.line, self.code)


COLUMNS = tuple(f.name for f in fields(Label))


def read_labels(path: Path = LABELS) -> list[Label]:
    """The labels, checked: known verdicts, one label per key."""
    if not path.is_file():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    labels = [Label(**{**row, "cell": int(row["cell"] or 0), "line": int(row["line"])}) for row in rows]
    seen: set[Key] = set()
    for label in labels:
        if label.verdict not in VERDICTS:
            raise ValueError(f"{path}: {label.key}: verdict {label.verdict!r} is not one of {VERDICTS}")
        if label.key in seen:
            raise ValueError(f"{path}: {label.key} is labelled twice")
        seen.add(label.key)
    return labels


def write_labels(labels: list[Label], path: Path = LABELS) -> None:
    """Write the labels sorted by key (stable diffs)."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        for label in sorted(labels, key=lambda lab: lab.key):
            writer.writerow([getattr(label, c) for c in COLUMNS])


def source_lines(path: Path, cell: int) -> list[str]:
    """The lines of a file, or of a notebook's 1-based code cell, as greenlint numbers them."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        cells, error = notebook_cells(str(path), text)
        if error is not None or not 1 <= cell <= len(cells):
            raise LookupError(f"{path}: no code cell {cell}")
        text = cells[cell - 1]
    return split_lines(text)


def source_line(corpus_root: Path, file: str, cell: int, line: int) -> str:
    """The stripped text at a finding's position; raises LookupError when it is not there."""
    path = corpus_root / file
    if not path.is_file():
        raise LookupError(f"{path}: no such file")
    lines = source_lines(path, cell)
    if not 1 <= line <= len(lines):
        raise LookupError(f"{path}: no line {line}" + (f" in cell {cell}" if cell else ""))
    return lines[line - 1].strip()


def line_problem(corpus_root: Path, file: str, cell: int, line: int, text: str) -> str | None:
    """Why the source line at a position does not read `text` (gone, or reading otherwise), or None."""
    try:
        found = source_line(corpus_root, file, cell, line)
    except LookupError as exc:
        return str(exc)
    return None if found == text else f"the line reads {found!r}, not {text!r}"


def relative(filename: str) -> str:
    """A file name greenlint reported in the corpus's folder, as the corpus names it."""
    file = filename.replace("\\", "/")
    return file[2:] if file.startswith("./") else file


def finding_key(corpus: str, finding: dict) -> Key:
    """The key of one finding of `greenlint check --format json` run in the corpus's folder."""
    return (corpus, relative(finding["filename"]), finding.get("cell") or 0, finding["location"]["row"], finding["code"])


def sample_rank(key: Key, seed: str) -> str:
    """A finding's place in the fixed-seed sample: a hash of its key, so the sample keeps its members
    when other findings appear or vanish."""
    return hashlib.sha256(("\x1f".join(map(str, (seed, *key)))).encode()).hexdigest()


def sample(keys: list[Key], size: int, seed: str) -> list[Key]:
    """All keys when there are at most `size`; otherwise `size` of them, taking each corpus's keys in
    hash order in turn (every corpus with findings is represented before any gives a second)."""
    keys = sorted(set(keys))
    if len(keys) <= size:
        return keys
    by_corpus: dict[str, list[Key]] = {}
    for key in sorted(keys, key=lambda k: sample_rank(k, seed)):
        by_corpus.setdefault(key[0], []).append(key)
    queues = [by_corpus[c] for c in sorted(by_corpus)]
    chosen: list[Key] = []
    depth = 0
    while len(chosen) < size:
        for queue in queues:
            if depth < len(queue) and len(chosen) < size:
                chosen.append(queue[depth])
        depth += 1
    return sorted(chosen)
