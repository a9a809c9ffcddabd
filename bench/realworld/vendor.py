"""Copy the vendored corpora from git snapshots of their repositories, notebook outputs stripped.

`python -m bench.realworld vendor --git ageron/handson-ml=DIR ...` reads each corpus's files at its
pinned commit from DIR (a git directory or clone of that repository, read with `git show`), writes
them under bench/realworld/vendored/<name>/ beside the repository's LICENSE and a PROVENANCE.md.
Notebooks keep their cells' sources exactly (the labels point at their lines); outputs, execution
counts, attachments and metadata other than the kernel's are dropped.
"""

from __future__ import annotations

import fnmatch
import json
import shutil
import subprocess
from pathlib import Path

from .corpora import CORPORA, SUFFIXES, Corpus, root

KEPT_NOTEBOOK_METADATA = ("kernelspec", "language_info")


def strip_notebook(text: str) -> str:
    """The notebook without outputs, execution counts, attachments or non-kernel metadata."""
    notebook = json.loads(text)
    for cell in notebook.get("cells", []):
        cell["metadata"] = {}
        cell.pop("attachments", None)
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    metadata = notebook.get("metadata", {})
    notebook["metadata"] = {k: metadata[k] for k in KEPT_NOTEBOOK_METADATA if k in metadata}
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def _git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True).stdout


def _git_dir(path: Path) -> Path:
    return path / ".git" if (path / ".git").exists() else path


def selected(corpus: Corpus, names: list[str]) -> list[str]:
    """The repository's files that belong to the corpus: named exactly (whatever its suffix: a
    configuration the program reads, `src/config.yaml`), or sources under an included folder
    (`dir/`) or matching an included glob (`pkg/*/tests/*.py`, where `*` also crosses `/`)."""

    def wanted(name: str, include: str) -> bool:
        if "*" in include:
            return fnmatch.fnmatchcase(name, include)
        return name == include or (include.endswith("/") and name.startswith(include))

    return sorted(n for n in names if n in corpus.include
                  or n.endswith(SUFFIXES) and any(wanted(n, inc) for inc in corpus.include))


def provenance(corpus: Corpus, files: list[str]) -> str:
    """The PROVENANCE.md written beside a vendored corpus: where its files come from, under which licence."""
    repo, commit = corpus.origin.split("@")
    return (
        f"# {corpus.name}\n\n"
        f"Files of https://github.com/{repo} at commit {commit}, licensed {corpus.licence} "
        f"(its LICENSE is beside them), copied by `python -m bench.realworld vendor`: notebooks have their "
        f"outputs, execution counts, attachments and non-kernel metadata removed; cell sources and scripts "
        f"are unchanged.\n\nStyle: {corpus.style}.\n\n"
        + (f"Third-party portions: {corpus.notice}.\n\n" if corpus.notice else "")
        + f"Files ({len(files)}):\n\n"
        + "".join(f"- `{name}`\n" for name in files)
    )


def vendor(corpus: Corpus, source: Path) -> list[str]:
    """Write the corpus from the git snapshot `source`; return the files written."""
    git_dir = _git_dir(source)
    commit = corpus.origin.split("@")[1]
    names = _git(git_dir, "ls-tree", "-r", "--name-only", commit).decode().splitlines()
    files = selected(corpus, names)
    folder = root(corpus)
    shutil.rmtree(folder, ignore_errors=True)
    for name in files:
        content = _git(git_dir, "show", f"{commit}:{name}")
        if name.endswith(".ipynb"):
            content = strip_notebook(content.decode("utf-8")).encode("utf-8")
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    (folder / "LICENSE").write_bytes(_git(git_dir, "show", f"{commit}:{corpus.licence_file}"))
    (folder / "PROVENANCE.md").write_text(provenance(corpus, files))
    return files


def vendor_all(sources: dict[str, Path]) -> dict[str, list[str]]:
    """Vendor every corpus whose repository is in `sources` ("owner/repo" -> git snapshot)."""
    out = {}
    for corpus in CORPORA:
        if corpus.vendored and corpus.origin.split("@")[0] in sources:
            out[corpus.name] = vendor(corpus, sources[corpus.origin.split("@")[0]])
    return out
