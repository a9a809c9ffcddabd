"""Generated bad input for greenlint: files, notebooks, configuration, cache entries (through the
command line, in this process) and raw JSON-RPC for the language server.

A kind of input *survives* when every generated case of it ends with exit code 0, 1 or 2, no
exception escapes, JSON output parses, no diagnostic says "internal error", and a warm (cached)
run says what the cold one said. Seeded: a failure is reproduced by its kind, seed and case.

    python -m tests.hardening.fuzz                  # the bounded run `make test` does (seconds)
    python -m tests.hardening.fuzz --long --write docs/hardening.md   # the benchmark run
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import string
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SEED = 20_260_211
#: A character no text output may print as it is (greenlint.report.escape.visible shows it escaped).
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
TF = "import tensorflow as tf\n"
SNIPPETS = [
    "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.fit(x, y, epochs=5, batch_size=32)\n",
    "for i in range(100):\n    y = tf.matmul(tf.ones((4, 4)), tf.ones((4, 4)))\n",
    "ds = tf.data.Dataset.range(n).map(lambda x: x + 1).batch(2)\n",
    "@tf.function\ndef f(x):\n    return tf.reduce_sum(x)\nfor step in range(10):\n    f(tf.constant([step]))\n",
    "class M(tf.keras.Model):\n    def call(self, x):\n        return tf.nn.relu(x)\nM()(tf.ones((1, 2)))\n",
]


def _code(rng: random.Random) -> str:
    return TF + "".join(rng.sample(SNIPPETS, rng.randint(1, len(SNIPPETS))))


def _mutate(rng: random.Random, text: str, edits: int = 5) -> str:
    chars = list(text)
    for _ in range(edits):
        at = rng.randrange(len(chars) + 1)
        action = rng.random()
        if action < 0.4 and chars:
            del chars[min(at, len(chars) - 1)]
        elif action < 0.8:
            chars.insert(at, rng.choice(string.printable + "()[]{}:=\\'\"\t\x0c\u00e9\u2028\ufeff"))
        else:
            chars[at:at] = list(rng.choice(["async ", "lambda", "yield ", "return ", "await ", "match x:\n case 1:", "*", "**"]))
    return "".join(chars)


# --- file kinds: each writes one case under a folder -------------------------------------------

def _write(folder: Path, name: str, data: str | bytes) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))


def random_bytes(rng, folder):
    _write(folder, "a.py", bytes(rng.randrange(256) for _ in range(rng.randint(0, 4000))))


def nul_bytes(rng, folder):
    _write(folder, "a.py", _code(rng).encode()[:50] + b"\0" + _code(rng).encode())


def not_utf8(rng, folder):
    data = bytearray(_code(rng).encode())
    for _ in range(3):
        data.insert(rng.randrange(len(data)), rng.choice([0xFF, 0xC3, 0x80, 0xED]))
    _write(folder, "a.py", bytes(data))


def coding_cookie(rng, folder):
    codec = rng.choice(["rot13", "base64", "zlib", "hex", "bz2", "uu", "quopri", "nope", "latin-1", "utf-16", "utf-32",
                        "cp1252", "ascii", "utf-8", "idna", "punycode", "undefined", "mbcs"])
    bom = b"\xef\xbb\xbf" if rng.random() < 0.3 else b""
    _write(folder, "a.py", bom + f"# -*- coding: {codec} -*-\n".encode() + _code(rng).encode("latin-1", "replace"))


def syntax_soup(rng, folder):
    _write(folder, "a.py", _mutate(rng, _code(rng), rng.randint(1, 30)))


def compiler_only_errors(rng, folder):
    body = rng.choice(["return 1\n", "def f(a, a):\n    pass\n", "nonlocal q\n", "break\n", "continue\n",
                       "yield 1\n", "await g()\n", "def f():\n    x = 1\n    global x\n", "class C:\n    return 2\n"])
    _write(folder, "a.py", _code(rng) + body)


def deep_nesting(rng, folder):
    depth = rng.choice([100, 1000, 20_000, 100_000])
    shape = rng.choice(["(" * depth + "1" + ")" * depth, "-" * depth + "1", "[" * depth + "]" * depth,
                        "x" + " + x" * depth, "not " * depth + "x", "if x:\n" + "".join(" " * (i + 1) + "if x:\n" for i in range(min(depth, 150))) + " " * 152 + "pass"])
    _write(folder, "a.py", TF + "y = " + shape + "\ntf.constant(1)\n")


def long_lines(rng, folder):
    _write(folder, "a.py", TF + "x = [" + ", ".join(str(i) for i in range(rng.choice([2_000, 8_000]))) + "]\n" + _code(rng))


def huge_literals(rng, folder):
    digits = rng.choice([4300, 5000, 100_000])
    epochs = rng.choice(["-5", "0", "float('inf')", "2**64", "1e308", "10**400"])
    _write(folder, "a.py", TF + f"n = {'9' * digits}\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=n)\n"
           f"m.fit(x, y, epochs=1e308, batch_size=1e-308)\nm.fit(x, y, epochs={epochs})\n")


def surrogate_names(rng, folder):
    name = os.fsdecode(bytes(rng.choice([0xFF, 0xE9, 0x80]) for _ in range(3)) + b".py")
    (folder / name).write_text(_code(rng))


def odd_files(rng, folder):
    choice = rng.randrange(5)
    if choice == 0:
        os.mkfifo(folder / "fifo.py")
    elif choice == 1:
        (folder / "loop.py").symlink_to("loop.py")
    elif choice == 2:
        (folder / "dir.py").mkdir()
    elif choice == 3:
        (folder / "dangling.py").symlink_to("nowhere.py")
    else:
        _write(folder, "empty.py", b"")
    _write(folder, "b.py", _code(rng))


def ipython(rng, folder):
    lines = ["??tf.constant", "tf.constant?", "! ls -l", "!pip install x", "%time 1", "%%timeit\ntf.ones(1)", "x = !ls",
             "%matplotlib inline", "get_ipython().run_line_magic('time', '1')", "await tf.constant(1)"]
    cells = [{"cell_type": "code", "source": TF + rng.choice(lines) + "\n" + rng.choice(SNIPPETS)} for _ in range(3)]
    _write(folder, "n.ipynb", json.dumps({"cells": cells, "nbformat": 4, "metadata": {}}))


def malformed_notebooks(rng, folder):
    shapes = [
        lambda: "[" * 50_000 + "]" * 50_000,
        lambda: json.dumps({"cells": [{"cell_type": "code", "source": "\ud800 = 1"}]}),
        lambda: json.dumps({"worksheets": [{"cells": rng.choice([5, "x", None, [1], [{"cell_type": "code", "input": 3}]])}]}),
        lambda: json.dumps({"worksheets": rng.choice([[None], {}, "x", [[{"cells": []}]]]), "nbformat": 3}),
        lambda: json.dumps({"cells": rng.choice([{}, 3, "abc", [None], [[1]], [{"cell_type": 5, "source": {}}]])}),
        lambda: json.dumps(rng.choice([[], 1, "x", None, {"metadata": {"language_info": 5}, "cells": []}])),
        lambda: json.dumps({"cells": [{"cell_type": "code", "source": ["a", 1]}]}),
        lambda: '{"cells": [' + '{"cell_type": "code", "source": "x"},' * 3,
        lambda: json.dumps({"cells": [{"cell_type": "code", "source": _mutate(rng, _code(rng), 10)}]}),
    ]
    _write(folder, "n.ipynb", rng.choice(shapes)())


def gitignore_lines(rng, folder):
    lines = ["!", "\\", "!!", "[", "**/***", "/", "\\!x", "#", " ", "a[b-a]", "*.py", "!a.py", "\udcff", "\\ "]
    (folder / ".git").mkdir()
    _write(folder, ".gitignore", "\n".join(rng.sample(lines, 5)) + "\n")
    _write(folder, "a.py", _code(rng))


def config_tables(rng, folder):
    values = ['"x"', "5", "true", "[]", '[""]', '["!"]', '["GL999"]', '["\\\\"]', '""', '"/"', '".."', "{}", "-1",
              "1e999", "nan", '"auto"', "0", "42", '["ALL"]', "[1, 2]", '"~"', '"json"']
    keys = ["select", "ignore", "extend-select", "exclude", "extend-exclude", "cache-dir", "jobs", "output-format",
            "per-file-ignores", "respect-gitignore", "force-exclude", "hotspot-threshold-j", "nope"]
    body = "\n".join(f"{k} = {rng.choice(values)}" for k in rng.sample(keys, rng.randint(1, 4)))
    text = rng.choice([f"[tool.greenlint]\n{body}\n", f"tool = {rng.choice(values)}\n", f"[tool]\ngreenlint = {rng.choice(values)}\n",
                       "[tool.greenlint\n", f"[tool.greenlint]\n{body}\n"])
    data = text.encode() if rng.random() < 0.8 else text.encode() + b"\n# \xff\xfe\n"
    _write(folder, "pyproject.toml", data)
    _write(folder, "a.py", _code(rng))


def profile_files(rng, folder):
    site = {"api": "tensorflow.matmul", "line": 3, "column": 9, "statement": "x", "executions": 9, "median_j": 1.0}
    broken = rng.choice([
        {"schema_version": 1, "files": {"a.py": rng.choice([5, [7], [{**site, "line": "3"}], [{**site, "iqr_j": [1]}],
                                                             [{**site, "time_s": "x"}], None])}},
        {"schema_version": 2, "files": {}}, [1], "x", {"files": 3},
    ])
    _write(folder, ".greenlint/profiles.json", json.dumps(broken) if rng.random() < 0.9 else b"{\xff")
    _write(folder, "pyproject.toml", "")
    _write(folder, "a.py", _code(rng))


#: What a terminal or a Markdown renderer would act on (issue 29): CSI and OSC 52 (clipboard)
#: sequences, C1 controls, BEL, a carriage return, a bidi override, backticks, HTML, a table pipe.
CONTROLS = ["\x1b[2J", "\x1b]52;c;cm0gLXJmIH4=\x07", "\x9b31m", "\u202e", "\x07", "\r", "\x7f", "`", "``",
            "<img src=x onerror=alert(1)>", "|", "\x1b]8;;http://x\x1b\\"]


def escapes(rng, folder):
    name = "".join(rng.sample(CONTROLS, 2)).replace("/", "") + ".py"
    line = TF + SNIPPETS[0] + "# " + "".join(rng.sample(CONTROLS, 3)) + "\n"
    literal = f"label = \"{rng.choice(CONTROLS).replace(chr(34), '')}\"\n"
    _write(folder, name, line + literal + rng.choice(SNIPPETS))


HUGE = 4 * 1024**3  # a sparse file: nothing on disk, 4 GiB to read


def odd_companions(rng, folder):
    (folder / ".git").mkdir()
    target = folder / rng.choice([".gitignore", ".gitignore", "pyproject.toml", "sub/.gitignore"])
    target.parent.mkdir(exist_ok=True)
    choice = rng.randrange(3)
    if choice == 0:
        os.mkfifo(target)
    elif choice == 1:
        target.symlink_to("/dev/zero")
    else:
        with open(target, "wb") as f:
            f.truncate(HUGE)
    _write(folder, "a.py", _code(rng))
    _write(folder, "sub/b.py", _code(rng))


FILE_KINDS: dict[str, Callable[[random.Random, Path], None]] = {
    "random bytes": random_bytes,
    "NUL bytes": nul_bytes,
    "invalid UTF-8": not_utf8,
    "coding cookies (text and non-text codecs, BOM conflicts)": coding_cookie,
    "mutated TF code (syntax soup)": syntax_soup,
    "errors only the compiler finds": compiler_only_errors,
    "deep nesting (parentheses, unary minus, chains)": deep_nesting,
    "very long lines": long_lines,
    "huge and overflowing literals": huge_literals,
    "file names that are not UTF-8": surrogate_names,
    "FIFOs, symlink loops, folders named *.py, empty files": odd_files,
    "IPython syntax in notebook cells": ipython,
    "malformed notebooks": malformed_notebooks,
    ".gitignore lines git cannot use": gitignore_lines,
    "pyproject.toml of any shape": config_tables,
    "profiles.json of any shape": profile_files,
    "terminal escapes, backticks and HTML in file names and source lines": escapes,
    ".gitignore or pyproject.toml that is a FIFO, /dev/zero or a 4 GiB sparse file": odd_companions,
}


@dataclass
class KindResult:
    tried: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def survived(self) -> bool:
        return not self.failures


def _main(argv: list[str]) -> tuple[int, str, str]:
    from greenlint.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _diff(repo: Path, *argv: str) -> tuple[int, str, str]:
    """`greenlint diff ARGV` run in process from inside *repo*, as a hook runs it."""
    here = os.getcwd()
    os.chdir(repo)
    try:
        return _main(["diff", *argv])
    finally:
        os.chdir(here)


def _judge(case: str, code: int, out: str, err: str) -> str | None:
    if code not in (0, 1, 2):
        return f"{case}: exit code {code}"
    if "Traceback" in err or "Traceback" in out:
        return f"{case}: a traceback: {err.strip().splitlines()[-1:]}"
    if code in (0, 1):
        try:
            found = json.loads(out)
        except ValueError as exc:
            return f"{case}: output is not JSON ({exc})"
        records = found["call_sites"] if isinstance(found, dict) else found  # `calls`' document, `check`'s list
        internal = [d["message"] for d in records if "internal error" in d.get("message", "")]
        if internal:
            return f"{case}: {internal[0]}"
    elif not err.strip():
        return f"{case}: exit 2 without a message"
    return None


def check_case(folder: Path, cache: Path, case: str) -> str | None:
    """Check *folder* cold then warm (cached), then list its calls; the reason it did not survive, or None."""
    argv = ["check", str(folder), "--format", "json", "--cache-dir", str(cache), "-j", "1"]
    runs = []
    for _ in range(2):
        try:
            runs.append(_main(argv))
        except SystemExit as exc:
            return f"{case}: SystemExit({exc.code})"
        except Exception:  # what the fuzzer is here to find
            return f"{case}: {traceback.format_exc().strip().splitlines()[-1]}"
        failure = _judge(case, *runs[-1])
        if failure:
            return failure
    if runs[0][:2] != runs[1][:2]:
        return f"{case}: the cached run differs from the first"
    try:  # the human format with source lines: no terminal control printed raw
        code, out, err = _main(["check", str(folder), "--format", "full", "--cache-dir", str(cache), "-j", "1"])
    except Exception:
        return f"{case} (full): {traceback.format_exc().strip().splitlines()[-1]}"
    raw = RAW_CONTROL.search(out + err)
    if raw:
        return f"{case} (full): a raw control character {raw.group()!r} printed"
    try:  # the call sites and their figures, from the same cache
        return _judge(f"{case} (calls)", *_main(["calls", str(folder), "--format", "json", "--cache-dir", str(cache)]))
    except Exception:
        return f"{case} (calls): {traceback.format_exc().strip().splitlines()[-1]}"


def corrupt_cache(rng: random.Random, cache: Path) -> None:
    """Replace or damage every cache entry: what a full disk, a crash or a hostile writer leaves."""
    from tests.check import cache_entries

    for key in cache_entries.keys(cache):
        data = cache_entries.raw(cache, key)
        how = rng.randrange(6)
        if how == 0:
            cache_entries.write_raw(cache, key, b"")
        elif how == 1:
            cache_entries.write_raw(cache, key, data[: rng.randrange(len(data) + 1)])
        elif how == 2:
            cache_entries.write_raw(cache, key, bytes(rng.randrange(256) for _ in range(200)))
        else:  # well-formed, the wrong shape
            value = rng.choice([7, None, [], [[], ["t", ["l", 1], None]], {"record": "diagnostics", "version": 1},
                                {"record": "diagnostics", "version": 1, "diagnostics": [{"path": 1}], "cells": None},
                                {"record": "file", "version": 1, "path": "a.py", "sites": [{"schema_version": 2}]},
                                {"record": "file", "version": 99}, [[["os:system", []]], [0]], "x" * 1000])
            cache_entries.forge(cache, key, json.dumps(value))


def run_files(cases_per_kind: int, seed: int = SEED, root: Path | None = None) -> dict[str, KindResult]:
    results: dict[str, KindResult] = {}
    with tempfile.TemporaryDirectory(prefix="greenlint-fuzz-", dir=root) as tmp:
        tmp = Path(tmp)
        for k, (kind, make) in enumerate(FILE_KINDS.items()):
            result = results.setdefault(kind, KindResult())
            for case in range(cases_per_kind):
                rng = random.Random(f"{seed}:{kind}:{case}")
                folder = tmp / f"k{k}c{case}"
                folder.mkdir()
                make(rng, folder)
                result.tried += 1
                failure = check_case(folder, tmp / "cache", f"{kind} #{case}")
                if failure:
                    result.failures.append(failure)
                shutil.rmtree(folder, ignore_errors=True)
        kind = "corrupt cache entries (any bytes, valid JSON of the wrong shape)"
        result = results.setdefault(kind, KindResult())
        for case in range(cases_per_kind):
            rng = random.Random(f"{seed}:cache:{case}")
            folder, cache = tmp / f"cache-case{case}", tmp / f"cache{case}"
            folder.mkdir()
            _write(folder, "a.py", _code(rng))
            _write(folder, "n.ipynb", json.dumps({"cells": [{"cell_type": "code", "source": _code(rng)}]}))
            result.tried += 1
            before = _main(["check", str(folder), "--format", "json", "--cache-dir", str(cache), "-j", "1"])
            corrupt_cache(rng, cache)
            failure = check_case(folder, cache, f"cache #{case}")
            after = _main(["check", str(folder), "--format", "json", "--cache-dir", str(cache), "-j", "1"])
            if failure is None and after[:2] != before[:2]:
                failure = f"cache #{case}: a corrupt entry changed the findings"
            if failure:
                result.failures.append(failure)
    return results


# --- repositories someone else controls, through `greenlint diff` ------------------------------

PWNED = "open('/tmp/greenlint-fuzz-pwned', 'w')  # written by a hostile tree entry"
#: A call only the file `check_repo_case` puts outside the repository makes: seen in the output, that file was read.
LEAKED = "leaked_outside_call"
_GIT_ENV = {"GIT_AUTHOR_NAME": "fuzz", "GIT_AUTHOR_EMAIL": "fuzz@example.com", "GIT_COMMITTER_NAME": "fuzz",
            "GIT_COMMITTER_EMAIL": "fuzz@example.com", "GIT_CONFIG_NOSYSTEM": "1"}


def _git(repo: Path, *args: str, data: str | None = None) -> str:
    env = {**os.environ, **_GIT_ENV, "HOME": str(repo.parent)}
    return subprocess.run(["git", "-C", str(repo), *args], input=data, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def repository_case(tmp_path: Path, source: str) -> tuple[Path, Path, Path]:
    """(case root, a repository with one commit of *source* as a.py, a folder outside it that must stay
    as it is), three levels below the root so that `..` entries have somewhere to point."""
    base = tmp_path / "case" / "1" / "2" / "3"
    repo, outside = base / "repo", base / "outside"
    repo.mkdir(parents=True)
    outside.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _write(repo, "a.py", source)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    return tmp_path / "case", repo, outside


def recording_script(outside: Path) -> Path:
    """A command that records that it ran (in *outside*, where `check_repo_case` looks)."""
    script = outside.parent / "run.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {outside / 'ran'}\ncat\n")
    script.chmod(0o755)
    return script


def _tree(repo: Path, *entries: tuple[str, str, str]) -> str:
    kinds = {"100644": "blob", "120000": "blob", "040000": "tree"}
    return _git(repo, "mktree", data="".join(f"{m} {kinds[m]} {sha}\t{name}\n" for m, sha, name in entries))


def _blob(repo: Path, text: str) -> str:
    return _git(repo, "hash-object", "-w", "--stdin", data=text)


def hostile_trees(rng, repo: Path, outside: Path) -> list[str]:
    """A commit whose tree climbs out with `..` entries, or holds a link and a folder of one name."""
    evil = _blob(repo, f"{PWNED}\n")
    code = _blob(repo, _code(rng))
    if rng.random() < 0.5:
        inner = _tree(repo, ("100644", evil, rng.choice(["sitecustomize.py", "a.py", ".gitignore", "pyproject.toml"])))
        for _ in range(rng.randint(1, 9)):
            inner = _tree(repo, ("040000", inner, ".."))
        top = _tree(repo, ("040000", inner, rng.choice(["a", "..", "pkg"])), ("100644", code, "a.py"))
    else:
        name = rng.choice(["pkg.py", ".gitignore", "x.ipynb", "setup.py"])
        folder = _tree(repo, ("100644", evil, "sitecustomize.py"))
        top = _tree(repo, ("120000", _blob(repo, str(outside)), name), ("040000", folder, name), ("100644", code, "a.py"))
    hostile = _git(repo, "commit-tree", top, "-p", "HEAD", "-m", "hostile")
    # the snapshots beside the repository: 10 `..` at most climb from there to the case's folder, no further
    return ["--cache-dir", str(repo.parent / "cache"), "HEAD", hostile, "--format", rng.choice(["json", "text", "markdown"])]


def hostile_caches(rng, repo: Path, outside: Path) -> list[str]:
    """`<cache-dir>/snapshots` committed as a link to folders elsewhere, or holding folders of the user's."""
    for i in range(12):
        (outside / f"folder{i:02}").mkdir()
        (outside / f"folder{i:02}" / "keep.txt").write_text("mine")
    if rng.random() < 0.5:
        (repo / ".glcache").mkdir()
        (repo / ".glcache" / "snapshots").symlink_to(outside)
        (repo / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glcache"\n')
        _git(repo, "add", ".")
        _git(repo, "commit", "-qm", "a cache link")
        _write(repo, "a.py", _code(rng))
        _git(repo, "add", "a.py")
        return rng.choice([["--staged"], ["HEAD~1", "HEAD"]])
    users = outside / "cache" / "snapshots"  # a cache-dir the user chose, holding folders of theirs
    users.mkdir(parents=True)
    for i in range(12):
        (users / rng.choice([f"data{i:02}", f"{i:024x}"])).mkdir(exist_ok=True)
    for i in range(rng.randint(2, 10)):
        _write(repo, "a.py", _code(rng) + f"# {i}\n")
        _git(repo, "commit", "-qam", f"step {i}")
    return ["--cache-dir", str(outside / "cache"), "HEAD~2", "HEAD"]


def hostile_config(rng, repo: Path, outside: Path) -> list[str]:
    """A `.git/config` naming commands: fsmonitor, filters, textconv, an external diff, hooks, a pager."""
    script = outside.parent / "run.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {outside / 'ran'}\ncat\n")
    script.chmod(0o755)
    settings = [("core.fsmonitor", str(script)), ("filter.x.clean", str(script)), ("filter.x.smudge", str(script)),
                ("filter.x.process", str(script)), ("filter.x.required", "true"), ("diff.x.textconv", str(script)),
                ("diff.x.command", str(script)), ("diff.external", str(script)), ("core.hooksPath", str(outside.parent)),
                ("core.pager", str(script))]
    for key, value in [*settings[:2], *rng.sample(settings[2:], rng.randint(0, len(settings) - 2))]:
        _git(repo, "config", key, value)
    (repo / ".gitattributes").write_text("* filter=x diff=x\n")
    _write(repo, "a.py", _code(rng) + "# changed\n")
    os.utime(repo / "a.py", (1, 1))
    if rng.random() < 0.5:
        safe = ["-c", "core.fsmonitor=false", "-c", "filter.x.clean=cat", "-c", "filter.x.process=", "-c", "filter.x.required=false"]
        subprocess.run(["git", "-C", str(repo), *safe, "add", "a.py"], env={**os.environ, **_GIT_ENV}, check=True,
                       capture_output=True)
        (outside / "ran").unlink(missing_ok=True)  # only what greenlint runs counts
    return rng.choice([["HEAD"], ["--staged"], [], ["HEAD", "--", "a.py"]])


def hostile_links(rng, repo: Path, outside: Path) -> list[str]:
    """Files committed as links to a device or another project's folder."""
    name, target = rng.choice([(".gitignore", "/dev/zero"), ("pyproject.toml", "/dev/zero"), ("b.py", "/dev/zero"),
                               (".greenlint", str(outside)), ("sub/.gitignore", "/dev/zero"), ("c.ipynb", "/dev/urandom")])
    (repo / name).parent.mkdir(exist_ok=True)
    (repo / name).symlink_to(target)
    _write(repo, "sub/d.py", _code(rng))
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "links")
    return ["HEAD~1", "HEAD", "--format", "json"]


def hostile_transports(rng, repo: Path, outside: Path) -> list[str]:
    """A partial clone whose config allows a transport again (`protocol.<name>.allow`) and names a
    command for it, and a commit naming a blob it lacks: reading the blob makes git fetch it."""
    script = recording_script(outside)
    remote = outside.parent / "remote"
    _git(remote.parent, "init", "-q", str(remote))
    url, settings = rng.choice([
        (f"ext::{script}", [("protocol.ext.allow", rng.choice(["always", "user"]))]),
        (str(remote), [("protocol.file.allow", "always"), ("remote.origin.uploadpack", str(script))]),
        ("git://example.invalid/x", [("protocol.git.allow", "always"), ("core.gitProxy", str(script))]),
        ("ssh://example.invalid/x", [("protocol.ssh.allow", "always"), ("core.sshCommand", str(script))]),
    ])
    tree = _git(repo, "mktree", "--missing", data=f"100644 blob {'12' * 20}\tb.py\n100644 blob {_blob(repo, _code(rng))}\ta.py\n")
    commit = _git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "a blob to fetch")
    for key, value in [("core.repositoryformatversion", "1"), ("extensions.partialClone", "origin"), ("remote.origin.url", url),
                       ("remote.origin.promisor", "true"), ("remote.origin.partialclonefilter", "blob:none"), *settings]:
        _git(repo, "config", key, value)
    return ["HEAD", commit, "--format", rng.choice(["json", "text"])]


def outside_links(rng, repo: Path, outside: Path) -> list[str]:
    """A Python file or notebook that is a link to a file outside the repository (where
    `check_repo_case` puts a file of LEAKED calls): in the working tree, staged or committed, its
    target absolute or climbing out with `..` from wherever the file is written."""
    leak = outside / "leak.py"
    target = str(leak) if rng.random() < 0.5 else "../" * 20 + str(leak)[1:]
    name = rng.choice(["a.py", "b.py", "sub/c.py", "n.ipynb"])
    (repo / name).parent.mkdir(exist_ok=True)
    (repo / name).unlink(missing_ok=True)
    (repo / name).symlink_to(target)
    where = rng.choice(["worktree", "index", "commit"])
    if where != "worktree":
        _git(repo, "add", "-A")
    if where == "commit":
        _git(repo, "commit", "-qm", "a link out")
    sides = {"worktree": ["HEAD"], "index": ["--staged"], "commit": ["HEAD~1", "HEAD"]}[where]
    return [*sides, "--format", rng.choice(["json", "text", "markdown"])]


REPO_KINDS: dict[str, Callable[[random.Random, Path, Path], list[str]]] = {
    "git trees with `..` entries, or a link and a folder of one name (diff)": hostile_trees,
    "a committed `<cache-dir>/snapshots` link, user folders among the snapshots (diff)": hostile_caches,
    "a .git/config naming fsmonitor, filters, textconv, external diff, hooks (diff)": hostile_config,
    "files committed as links to /dev/zero or another project (diff)": hostile_links,
    "a partial clone whose config allows a transport again and names its command (diff)": hostile_transports,
    "files that are links to a file outside the repository, in the working tree, staged or committed (diff)": outside_links,
}


def _tree_state(folder: Path) -> dict[str, bytes | str]:
    """Every entry below *folder*: a file's bytes, a link's target, a folder's marker."""
    out: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        out[rel] = os.readlink(path) if path.is_symlink() else "dir" if path.is_dir() else path.read_bytes()
    return out


def check_repo_case(case_root: Path, repo: Path, outside: Path, argv: list[str], case: str) -> str | None:
    """`greenlint diff ARGV` in *repo*: the reason it did not survive, or None. It survives when it
    exits 0, 1 or 2 (2 with a message), with no traceback, JSON that parses, nothing written or
    removed outside the repository and its cache, nothing read from there into the output (a file
    of calls to LEAKED put there first), and no command of the repository's config run."""
    if not (outside / "leak.py").exists():
        _write(outside, "leak.py", f"{TF}for i in range(9):\n    tf.{LEAKED}(i)\n")
    before = _tree_state(outside)
    here = os.getcwd()
    os.chdir(repo)
    try:
        code, out, err = _main(["diff", *argv])
    except Exception:
        return f"{case}: {traceback.format_exc().strip().splitlines()[-1]}"
    finally:
        os.chdir(here)
    if code not in (0, 1, 2) or "Traceback" in err or (code == 2 and not err.strip()):
        return f"{case}: exit {code}: {err.strip()[-200:]}"
    if "--format" in argv and argv[argv.index("--format") + 1] == "json" and code != 2:
        try:
            json.loads(out)
        except ValueError as exc:
            return f"{case}: output is not JSON ({exc})"
    raw = RAW_CONTROL.search(out + err)
    if raw:
        return f"{case}: a raw control character {raw.group()!r} printed"
    if LEAKED in out + err:
        return f"{case}: a file outside the repository was read into the output"
    if (outside / "ran").exists():
        return f"{case}: git ran a command of the repository's config"
    after = _tree_state(outside)
    changed = [k for k in before if after.get(k) != before[k]]  # what was there: never changed nor removed
    changed += [k for k in after if k not in before and not k.startswith("cache/")]  # new: only in a cache-dir there
    if changed:
        return f"{case}: written or removed outside the repository and its cache: {sorted(changed)[:3]}"
    for path in case_root.rglob("*"):  # a refused tree entry is written nowhere
        if ".git" not in path.parts and path.is_file() and not path.is_symlink() and path.stat().st_size < 4096:
            if PWNED.encode() in path.read_bytes():
                return f"{case}: a hostile tree entry was written: {path.relative_to(case_root)}"
    return None


def run_repos(cases_per_kind: int, seed: int = SEED, root: Path | None = None) -> dict[str, KindResult]:
    """Each REPO_KINDS generator on a fresh repository (one commit of generated code), then `greenlint diff`."""
    results: dict[str, KindResult] = {}
    with tempfile.TemporaryDirectory(prefix="greenlint-fuzz-git-", dir=root) as tmp:
        for k, (kind, make) in enumerate(REPO_KINDS.items()):
            result = results.setdefault(kind, KindResult())
            for case in range(cases_per_kind):
                rng = random.Random(f"{seed}:{kind}:{case}")
                case_root = Path(tmp) / f"r{k}c{case}"
                base = case_root.joinpath(*"1234567")  # deep: 10 `..` from the snapshot land in case_root at most
                repo, outside = base / "repo", base / "outside"
                repo.mkdir(parents=True)
                outside.mkdir()
                _git(repo, "init", "-q", "-b", "main")
                _write(repo, "a.py", _code(rng))
                _git(repo, "add", ".")
                _git(repo, "commit", "-qm", "base")
                result.tried += 1
                try:
                    argv = make(rng, repo, outside)
                except subprocess.CalledProcessError as exc:  # the generator's own git refused the case
                    result.failures.append(f"{kind} #{case}: could not build the case: {exc.stderr}")
                    continue
                failure = check_repo_case(case_root, repo, outside, argv, f"{kind} #{case}")
                if failure:
                    result.failures.append(failure)
                shutil.rmtree(case_root, ignore_errors=True)
    return results


# --- the language server -------------------------------------------------------------------------

LSP_METHODS = ["textDocument/hover", "textDocument/codeAction", "textDocument/codeLens", "textDocument/inlayHint",
               "workspace/executeCommand", "textDocument/documentSymbol", "greenlint/unknown", "shutdown?"]


def _junk(rng: random.Random):
    return rng.choice([None, -1, 2**31, 2**63, 1.5, "", "\ud800", "x" * 300, [], {}, True, [None], {"line": "0"}])


def _position(rng):
    return {"line": rng.choice([0, 1, 2, 5, 2**31 - 1, rng.randrange(4)]), "character": rng.choice([0, 3, 10**6, 2**31 - 1])}


def _params(rng: random.Random, method: str, uri: str):
    document = {"uri": rng.choice([uri, uri, "file:///nowhere.py", "untitled:1", "%%%", "\ud800"])}
    if method == "workspace/executeCommand":
        params = {"command": "greenlint.showHotspots", "arguments": rng.choice([[uri], None, [None], [1, 2], [uri, 3]])}
    elif method in ("textDocument/codeAction", "textDocument/inlayHint"):
        params = {"textDocument": document, "range": {"start": _position(rng), "end": _position(rng)},
                  "context": {"diagnostics": [], "only": rng.choice([None, ["source.fixAll.greenlint"], ["quickfix"]])}}
    else:
        params = {"textDocument": document, "position": _position(rng)}
    if rng.random() < 0.4:  # break it: a wrong type, a missing field, junk anywhere
        target = rng.choice([params, params.get("textDocument", params), params.get("position", params)])
        key = rng.choice(list(target) or ["x"])
        if rng.random() < 0.3:
            target.pop(key, None)
        else:
            target[key] = _junk(rng)
    return rng.choice([params] * 9 + [None])


@dataclass
class LspResult:
    requests: int = 0
    answered: int = 0
    codes: Counter = field(default_factory=Counter)
    unanswered: list[str] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)
    alive: bool = True
    diagnostics_after: bool = False
    seconds: float = 0.0


def run_lsp(requests: int, seed: int = SEED, big_mb: int = 10) -> LspResult:
    """A session of raw JSON-RPC: valid and broken requests and notifications, cancels, surrogates, a
    *big_mb* MB document, bytes that are not JSON; every request must be answered, none with an
    internal error, and no error shown to the user (`window/showMessage`, counted as internal)."""
    from tests.hardening.rpc import RawClient

    rng = random.Random(f"{seed}:lsp")
    result = LspResult()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="greenlint-lsp-fuzz-") as tmp:
        ws = Path(tmp)
        (ws / "pyproject.toml").write_text("[tool.greenlint]\n")
        client = RawClient(ws, {"GREENLINT_CACHE_DIR": str(ws / ".cache")})
        try:
            pending: dict[int, str] = {}
            early = client.request("textDocument/hover", {"textDocument": {"uri": "file:///a.py"}, "position": {"line": 0, "character": 0}})
            pending[early] = "hover before initialize"
            client.initialize(ws)
            uri = (ws / "a.py").as_uri()
            text = TF + SNIPPETS[0] + SNIPPETS[1]
            client.open(uri, text)
            big = (ws / "big.py").as_uri()
            client.open(big, "x = 1\n" + "#" * (big_mb * 1024 * 1024) + "\n")
            client.send_raw(b'{"jsonrpc": "2.0", "id": 99999, "method": ')  # not JSON
            client.send_raw(json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text + "# \ud800\n"}]}}).encode())
            version = 3
            for _ in range(requests):
                method = rng.choice(LSP_METHODS)
                if method == "shutdown?":  # an edit instead, sometimes with a surrogate or a range past the end
                    change = {"text": rng.choice(["\ud800", "x", "\n", "tf.ones(1)\n"]),
                              "range": {"start": _position(rng), "end": _position(rng)}}
                    if rng.random() < 0.5:
                        change = {"text": _mutate(rng, text, 3)}
                    elif rng.random() < 0.2:  # a notification that does not fit its method: logged, left out
                        change["range"]["start"] = rng.choice([{"line": -1, "character": 0}, {"line": "0"}, None])
                    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                             "contentChanges": [change]})
                    version += 1
                    continue
                rid = client.request(method, _params(rng, method, uri))
                pending[rid] = method
                if rng.random() < 0.2:
                    client.notify("$/cancelRequest", {"id": rng.choice([rid, rid, 10**9, "x", None, {"a": rid}, [rid]])})
            client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}, id_="last")
            pending["last"] = "final hover"
            result.requests = len(pending)
            deadline = time.monotonic() + 60 + requests * 0.5
            answers = [m for m in client.seen if "id" in m and "method" not in m]  # read during initialize
            while pending and time.monotonic() < deadline:
                message = answers.pop() if answers else client.wait_for(
                    lambda m: "id" in m and "method" not in m, max(0.1, deadline - time.monotonic()))
                if message is None:
                    break
                method = pending.pop(message["id"], None)
                if method is None:
                    continue
                result.answered += 1
                code = message.get("error", {}).get("code") if "error" in message else "result"
                result.codes[code] += 1
                if code == -32603:
                    result.internal.append(f"{method}: {message['error']['message'][:200]}")
            result.unanswered = sorted(str(v) for v in pending.values())
            result.internal += [f"shown to the user: {m['params']['message'][:200]}" for m in client.seen
                                if m.get("method") == "window/showMessage" and m["params"].get("type") == 1]
            client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"text": text}]})
            result.diagnostics_after = client.find(
                lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                and m["params"].get("version") == version, 120) is not None
        except EOFError:
            result.alive = False
        finally:
            result.alive = result.alive and client.proc.poll() is None
            status = client.close()
            result.alive = result.alive and status == 0
    result.seconds = time.monotonic() - started
    return result


# --- the report ------------------------------------------------------------------------------------

def report(files: dict[str, KindResult], lsp: LspResult, cases: int, seconds: float,
           repos: dict[str, KindResult] | None = None, repo_cases: int = 0) -> str:
    survived = sum(r.survived for r in files.values())
    lines = [
        "# Hardening: bad input greenlint survives",
        "",
        "Generated by `python -m tests.hardening.fuzz --long --write docs/hardening.md` (seed "
        f"{SEED}; {cases} cases per kind; {seconds:.0f} s). `make test` runs the same generators with a",
        "few cases per kind and a shorter LSP session (tests/hardening/test_fuzz.py); each item of issue 20",
        "also has its own regression test under tests/hardening/.",
        "",
        "Each case is checked cold, then from the cache, then listed by `greenlint calls --format json`.",
        "A kind **survives** when every case of it exits 0, 1 or 2 with no exception escaping, its JSON",
        "output parses, no diagnostic says \"internal error\", the cached run repeats the first, and",
        "`--format full` prints no terminal control character raw.",
        "",
        f"## Command line: {survived} of {len(files)} kinds survived",
        "",
        "| kind | cases | survived | first failure |",
        "| --- | ---: | --- | --- |",
    ]
    for kind, r in files.items():
        lines.append(f"| {kind} | {r.tried} | {'yes' if r.survived else 'no'} | {(r.failures[0] if r.failures else '').replace('|', '/')} |")
    if repos:
        lines += _repo_section(repos, repo_cases)
    codes = {"result": "result", -32602: "-32602 InvalidParams", -32601: "-32601 MethodNotFound",
             -32002: "-32002 ServerNotInitialized", -32800: "-32800 RequestCancelled", -32603: "-32603 InternalError"}
    lines += [
        "",
        f"## Language server: {lsp.requests} requests, {lsp.answered} answered",
        "",
        "Raw JSON-RPC over stdio: hover, code actions (fixAll too), code lenses, inlay hints and",
        "`greenlint.showHotspots` with valid and broken params (wrong types, missing fields, positions",
        "up to 2³¹, lone surrogates), cancels, edits with surrogates and ranges past the end, a "
        "10 MB document, a body that is not JSON and a request before `initialize`.",
        "",
        "| answer | requests |",
        "| --- | ---: |",
    ]
    for code, count in sorted(lsp.codes.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {codes.get(code, code)} | {count} |")
    lines += [
        f"| never answered | {len(lsp.unanswered)} |",
        "",
        f"Internal errors: {len(lsp.internal)}. Server alive at the end and exiting 0: {'yes' if lsp.alive else 'no'}. "
        f"Diagnostics published after the session: {'yes' if lsp.diagnostics_after else 'no'}. {lsp.seconds:.0f} s.",
        "",
        "## Issue 20's inputs, each with its regression test",
        "",
        "| input | what greenlint does now | test |",
        "| --- | --- | --- |",
        *(f"| {what} | {does} | `{test}` |" for what, does, test in ISSUE_ITEMS),
        "",
        "## Issue 29's inputs (security, races, resources), each with its regression test",
        "",
        "| input | what greenlint does now | test |",
        "| --- | --- | --- |",
        *(f"| {what} | {does} | `{test}` |" for what, does, test in ISSUE_29_ITEMS),
        "",
        "Fixes are linear in the findings: a unit's code is generated once and a fix's lines checked alone",
        "(200 GL502 findings in 2,000 lines: 1 s; a dense 760 KB file with 8,097: 27 s, was 3 min 18 s;",
        "tests/check/test_fix.py). Not held here: `attach_fixes` parses the top-level statements that",
        "hold a finding with LibCST and its position metadata, so a finding inside a statement that is",
        "itself a very large literal still parses all of it; the \"very long lines\" kind keeps",
        "its literals at 8,000 elements for that reason.",
        "",
    ]
    return "\n".join(lines)


def _repo_section(repos: dict[str, KindResult], cases: int) -> list[str]:
    """The guarantees on a repository someone else controls, and the kinds of `run_repos`."""
    lines = [
        "",
        f"## Repositories someone else controls: {sum(r.survived for r in repos.values())} of {len(repos)} kinds survived",
        "",
        "`greenlint diff` runs in pre-commit hooks, in CI on pull requests and in the editor, on exactly such",
        "repositories. What it guarantees (tests/review/test_hostile_repo.py):",
        "",
        "- **A snapshot is written only inside its own folder.** Every tree entry's path is checked: a `..`,",
        "  `.` or empty component, an absolute path, a NUL byte, a `.git` component or a folder that is a",
        "  link in the same tree refuses that entry (a GL002 naming the commit and the path; the rest of the",
        "  commit is written and compared). Each write opens every folder with `O_NOFOLLOW` and creates its",
        "  file anew, never through a link.",
        "- **Pruning never follows a link and never deletes what greenlint did not create.** `<cache-dir>/snapshots`",
        "  and a snapshot folder must be real folders (a link is an error, exit 2); each snapshot greenlint",
        "  writes holds the marker `.greenlint-snapshot`, whose second line is a random token kept in the",
        "  user cache (a repository can commit a look-alike, never the token; it is in the folder's name",
        "  too), and only real folders named as greenlint names them and holding it are pruned or reused.",
        "- **git runs no command a repository's configuration names**: every git greenlint runs gets",
        "  `core.fsmonitor=false`, `core.hooksPath=/dev/null`, no external diff, pager, ssh command or",
        "  credential helper, every configured filter driver's clean, smudge and process emptied,",
        "  `GIT_CONFIG_NOSYSTEM=1`, `GIT_OPTIONAL_LOCKS=0` and an empty `GIT_ALLOW_PROTOCOL` (no transport,",
        "  whatever `protocol.<name>.allow` the repository sets: a partial clone's lazy fetch runs no",
        "  `ext::` command, `uploadpack` or `core.gitProxy`); `git diff` gets `--no-ext-diff --no-textconv",
        "  --ignore-submodules=all` (git never looks inside a submodule, whose own config could name a filter);",
        "  blobs are read with `git cat-file --batch`, which applies no filter. The analysed code is never run.",
        "- **Text is never printed raw**: file names, source lines and messages go through",
        "  `greenlint.report.escape` in every text format (ESC, OSC 52, C1 controls and bidi marks shown as",
        "  `\\x1b`, `\\u202e`); in Markdown a name sits in a code span no backtick in it can close.",
        "- **Files beside the code are read only when regular and small**: a `.gitignore`, pyproject.toml",
        "  or profile file that is a FIFO, a device or a huge file, directly or through a committed link, is",
        "  named and not read (768 KiB for `.gitignore` and pyproject.toml, 16 MiB for profiles.json). A",
        "  committed blob over 16 MiB (gigabytes of one byte are kilobytes in git) is never read from git:",
        "  its snapshot file is a sparse file of its size, named as too large.",
        "",
        f"Each case ({cases} per kind) builds a repository and runs `greenlint diff` on it. A kind **survives** when",
        "every case exits 0, 1 or 2 (2 with a message) with no traceback, its JSON parses, no raw control",
        "character is printed, nothing outside the repository and its cache is written or removed, and no",
        "command of the repository's configuration runs.",
        "",
        "| kind | cases | survived | first failure |",
        "| --- | ---: | --- | --- |",
    ]
    for kind, r in repos.items():
        lines.append(f"| {kind} | {r.tried} | {'yes' if r.survived else 'no'} | {(r.failures[0] if r.failures else '').replace('|', '/')} |")
    return lines


#: Issue 29's findings of the security, race and resource kind.
ISSUE_29_ITEMS = [
    ("a tree with `..` entries; a link and a folder of one name (`git mktree`)", "the entry refused by name (GL002 with the commit), the rest compared; writes never leave the snapshot", "test_hostile_repo.py"),
    ("`.glcache/snapshots` committed as a link; user folders under `<cache-dir>/snapshots`", "an error naming the link, nothing followed; only marked snapshots pruned", "test_hostile_repo.py"),
    ("`core.fsmonitor`, a `clean` filter, textconv, `diff.external`, hooks in `.git/config`", "none runs (each turned off on git's command line)", "test_hostile_repo.py"),
    ("a backtick in a file name (`--format markdown`); ESC / OSC 52 in names and source lines", "a code span longer than any backtick run; controls shown escaped in every text format", "test_escape.py"),
    ("two runs creating the lint cache at once", "judged and made in one write transaction: never taken for foreign", "test_cache.py (tests/check)"),
    ("`.gitignore` as a FIFO, `/dev/zero`, a 4 GB sparse file, or a committed link to one", "named (GL002), ignores nothing, the run goes on", "test_ignore_files.py"),
    ("paths over NAME_MAX / PATH_MAX to `check`, `calls`, `profile show`; `profile clear` through a linked `.greenlint`", "named, the run goes on; never written through a link", "test_paths.py"),
    ("the editor's energy report of a file named `-x.py`", "the file passed after `--`", "vscode-extension/test/report.test.ts"),
    ("a checked-out submodule whose own config names a clean filter (held-out variant)", "git never looks inside a submodule (`--ignore-submodules=all`): nothing runs", "test_hostile_variants.py"),
    ("folders committed under a project's cache-dir with a copied `.greenlint-snapshot` marker (held-out variant)", "neither pruned nor reused: a marker holds a token kept in the user cache", "test_hostile_variants.py"),
    ("a committed blob of gigabytes that git stores in kilobytes (held-out variant)", "never read from git: its snapshot file is sparse, named as too large", "test_hostile_variants.py"),
    ("tree entries NTFS or HFS+ read as `.git`: `.git `, `.git.`, `GIT~1`, `.git::$INDEX_ALLOCATION`, `.g` U+200C `it` (held-out variant)", "refused by name as git's checkout refuses them, the rest compared", "test_hostile_variants.py"),
    ("a partial clone whose promisor remote names `uploadpack`; a `.git` file naming another repository's config; snapshots swapped for links while pruning (held-out variants)", "no transport allowed (nothing fetched, nothing run); nothing of that config runs; no link followed nor removed", "test_hostile_variants.py"),
    ("a newline, tab or control character in a file name in `check --diff`; U+202E in the HTML report (held-out variant)", "quoted in patch headers as git quotes them (the patch applies); escaped on a terminal and in the page", "test_output_variants.py"),
    ("`diff -- PATH` with a typo, a pathspec or a name over NAME_MAX; a `--cache-dir` that cannot be a folder (held-out variant)", "an error naming it (exit 2), never 'nothing changed' nor a traceback", "test_argument_variants.py"),
    ("`diff main` where `main` is a branch and a folder (held-out variant)", "an error as in git (exit 2): `--` says which; never one guessed", "test_argument_variants.py"),
    ("`diff HEAD -- sub/m.py`, a file of a checked-out submodule (held-out variant)", "on neither side: an error naming it (exit 2), as git refuses it, never 'nothing changed'", "test_argument_variants.py"),
    ("`diff A..B`, `A..`, `..B`, `A...B` (held-out variant)", "both sides named as `git diff` reads them (`...`: from the merge-base); an end that is no revision named (exit 2)", "test_argument_variants.py"),
    ("a folder holding links to one of its files; per-file-ignores `./a.py`, `{a,b}.py` (held-out variant)", "checked and fixed once; the pattern a config error naming it", "test_check_variants.py"),
    ("`# noqa` and `# greenlint: noqa` in a file whose lines end in a lone `\\r` (held-out variant)", "read at the lines Python reads (universal newlines), as with `\\n` and `\\r\\n`", "test_noqa_variants.py"),
    ("an empty PATH (`check \"\"`, `calls \"\"`, `diff A B -- \"\"`: a script's unset variable) (held-out variant)", "an error naming it (exit 2), never the whole folder checked or compared", "test_argument_variants.py"),
    ("a notebook cell with no `cell_type` string (missing, `null`, a number) (held-out variant)", "GL002 `malformed notebook` naming the cell, never skipped as Markdown; nbformat 3 `heading` cells still skipped", "test_sources.py"),
    ("LSP: a document URI whose path holds a NUL (`file:///…/a%00.py`) (held-out variant)", "its code analysed (findings, hovers); the NUL is the name's, never a GL001 of the code", "test_lsp.py, test_sources.py"),
    ("LSP: a notebook cell sent by `textDocument/didOpen` (`vscode-notebook-cell:…/n.ipynb#…`, languageId python; a client without notebook sync) (held-out variant)", "analysed as the Python it is, never read as the notebook's JSON (GL002 invalid JSON)", "test_lsp.py"),
    ("`diff --staged` during a merge conflict (stages 1-3, no stage 0 in the index) (held-out variant)", "a GL002 naming the unmerged file; not compared, never reported `deleted` (×0)", "test_argument_variants.py"),
    ("an empty `--config` or `--cache-dir` (`check`, `calls`, `diff`, `lsp`; a script's unset variable) (held-out variant)", "a usage error naming the option (exit 2), never the configuration found or the user cache used instead", "test_argument_variants.py"),
    ("`rule \"\"` (an empty rule name) (held-out variant)", "`no rule ''` (exit 2), never the list of every rule", "test_argument_variants.py"),
    ("LSP: a second `initialize` (held-out variant)", "InvalidRequest (-32600); the session and its open documents stay", "test_lsp.py"),
    ("LSP: a request whose `method` is not a string (`5`, `null`, a list) (held-out variant)", "InvalidRequest (-32600) with its id, never an internal error; the session goes on", "test_lsp.py"),
    ("LSP: a notebook whose `cells` name a cell missing from `cellTextDocuments` (held-out variant)", "that cell left out (never read from disk); the others analysed, every hover answered", "test_lsp.py"),
    ("`lint.sqlite` (or its `-wal`, `-shm`, `-journal`) committed as a link in a project's cache-dir", "the link removed and named, its target never opened (SQLite created or rewrote it anywhere)", "test_session_variants.py"),
    ("a pyproject.toml key or table of 100,000 dotted parts", "a config error naming the line (tomllib is quadratic in a key's parts: 8,000 took 5 s and 270 MB, 100,000 was killed)", "test_session_variants.py"),
    ("a `.gitignore` line, exclude or per-file-ignores pattern of many `*` (`*a*a*a*a*a*b`)", "the `.gitignore` line named and skipped, the option a config error (a regular expression backtracked for minutes on one long name)", "test_session_variants.py"),
    ("a FIFO named requirements.txt, pyproject.toml, setup.cfg or environment.yml (the TensorFlow pin files); imported modules that are FIFOs or device links", "never opened: pins read only from regular files under 768 KiB (a FIFO hung every check); the modules named (GL002)", "test_session_variants.py"),
    ("a partial clone whose own config allows a transport again (`protocol.ext.allow=always`, `protocol.file.allow` with `uploadpack`, `protocol.git.allow` with `core.gitProxy`) and lacks a blob a commit names (held-out variant)", "no transport at all (GIT_ALLOW_PROTOCOL empty; `-c protocol.allow=never` was only a default the repository's config overrode): nothing fetched, nothing run, no 120 s wait", "test_held_out_kinds.py"),
    ("`kb show '[/]'`, `kb show` of a name holding OSC 52 (held-out variant)", "`No measurements of …` with the name shown escaped; before, rich's MarkupError traceback, or the escape printed raw", "test_held_out_kinds.py"),
    ("`profile show` of a committed profiles.json whose API, file name and note hold OSC 52, CSI or a bidi override (held-out variant)", "each line shown escaped; before, printed raw", "test_held_out_kinds.py"),
    ("LSP: notifications that do not fit their method (a change at line -1, `$/setTrace` of an unknown value, `contentChanges: null`, a method that is no string) and `$/cancelRequest` of an object id; a body that is no JSON (held-out variant)", "logged as a warning and left out; before, a traceback in the log and \"Error in server\" shown to the user", "test_held_out_kinds.py"),
    ("git config through `include.path`, odd filter driver names, display settings; gitlinks; names with newlines or OSC 52; notebooks with `%%bash` cells or a BOM; noqa in strings; odd option values; LSP messages out of order", "nothing runs, the comparison unchanged, shown escaped, findings kept, usage errors, every request answered", "test_session_variants.py"),
    ("a committed `x.py` linking out of the project or to another of its files, a linked folder leading out; `--fix`, the editor's fix-all", "refused, the file and where the link leads named; nothing written through a link (a file met by its own name too is fixed by it)", "test_fix_writing.py, test_code_action.py"),
    ('git settings reached other than through `.git/config` (GIT_CONFIG_GLOBAL, a relative `include.path` to a committed file, `includeIf hasconfig:remote.*.url`, a `.git` link, a linked worktree, alternates, GIT_DIR/GIT_INDEX_FILE/GIT_WORK_TREE of a hook) (judged variant)', "nothing runs, nothing written outside; a hook's index and GIT_DIR honoured", 'test_judged_kinds.py'),
    ('a repository of an unknown format (`extensions.*` git does not know) (judged variant)', "exit 2 with git's whole message (the extension named); before, its first line only, which named nothing", 'test_judged_kinds.py'),
    ('a file name or source line holding a zero-width space, a word joiner or a BOM inside the text (judged variant)', 'shown escaped like the direction marks (`\\u200b`); before, printed raw: `a\\u200bb.py` read as `ab.py`', 'test_judged_kinds.py'),
    ('a full disk (ENOSPC) while a diff snapshot is written (judged variant)', 'exit 2 naming the cache-dir and the disk, no snapshot kept; before, a snapshot kept without the file, which every later run reported as refused', 'test_judged_kinds.py'),
    ('a cache-dir or GREENLINT_CACHE_DIR that is a file (judged variant)', 'the findings, and a warning naming it (`cannot hold the lint cache (not a folder)`); before, every run cold without a word', 'test_judged_kinds.py'),
    ('a FIFO, `/dev/zero` or a folder as PATH, `--config` or `lint.sqlite`; a 50 MB notebook; a million lines; `# noqa:` spellings; `-j 0`; a full disk or SIGINT during `--fix`, the cache or a snapshot; an unborn HEAD; two `--fix` at once; LSP: a second didOpen, an edit past the end or reversed, a save of a document never opened, cancel, a deleted cache, two servers on one cache, a 10 MB document (judged variants)', 'named (GL002 or exit 2) and the run goes on, never waited on; the old file whole, no temporary left; fixed once; every request answered', 'test_judged_kinds.py'),
    ('characters `str.splitlines` breaks at and Python does not (form feed, U+2028/9, \\\\x1c–\\\\x1e, NEL, VT) in a comment or string (own round)', "every view counts the lines Python counts: the full format's context, the `# noqa` quick fix, UTF-16 hover columns, the editor's incremental edits, comments declaring code slow on purpose, `.gitignore` patterns; before, each such character shifted every later line (the quick fix edited the middle of the code; the server's text drifted from the editor's)", 'test_line_breaks.py'),
    ('a file name starting with `::` (`::error`, `::add-mask::`, `::stop-commands::`) in a text format (own round)', 'written `./::…` where it starts a line, never a GitHub workflow command; before, a line of `check`, `calls`, `diff` or `profile show` output started with it', 'test_own_round.py'),
    ('`diff ^HEAD`; origin/HEAD naming a branch `--all`; an orphan branch; a repository another user owns; an index cut short (own round)', "`not a revision`; that branch is the base; `share no commit`; git's refusal with its `safe.directory` advice; `the index is damaged` (exit 2); before, git's bare messages, a usage error, the `-c` settings printed, every file reported deleted", 'test_own_round.py'),
    ('greenlint diff\'s snapshots under a project cache-dir that is neither hidden nor ignored (`cache-dir = "src"`) (own round)', "never walked as the project's files; before, `check` reported each copy's findings and `diff`'s working tree counted the copies as added files", 'test_own_round.py'),
    ('a `.gitignore` that is a symbolic link (own round)', "not followed, as git 2.32+ does not: named in a warning, it ignores nothing; before, its target's patterns hid files git checks", 'test_own_round.py'),
    ('a UTF-16 or UTF-32 file; a 700 KB source line; `profile clear` on a full disk; LSP: an unknown command (own round)', 'GL002 naming UTF-16/32 (was `binary`); the line cut around the finding (was 2.8 MB of output); the file left as it was, exit 2 (was a traceback); InvalidParams with no traceback logged', 'test_own_round.py'),
    ('pinned as they are (own round): replace refs, a SHA-256 repository, `core.bare`, entries over NAME_MAX, a file and a folder of one name, backslash names, link loops, cookies Python ignores, notebooks of another language or with odd sources, sockets, a relative XDG_CACHE_HOME, a hard-linked profile; LSP: versions out of order or of the wrong kind, closed documents, odd URIs and workspace folders, settings of the wrong kind, an edit inside a surrogate pair', 'read as git and Python read them; named and the run goes on; every request answered', 'test_own_round.py'),
    ('a file name that is not UTF-8 holding a byte 0x80–0x9F, e.g. 0x9B (own round)', 'shown `\\x9b` in every text format, other bytes as they are; before, written back raw: CSI to a terminal reading 8-bit controls', 'test_own_round.py'),
    ("GREENLINT_CACHE_DIR inside the repository's work tree, the repository committing the snapshot token and folders marked with it (own round)", 'a token git tracks is not trusted: the run uses its own, nothing committed is pruned or reused; before, the forged folders (tracked files) were pruned', 'test_own_round.py'),
    ('a `.git` that came with a checkout, its config including a FIFO (own round)', 'the first git call stopped at its limit ends the run, naming the command and the likely cause; before, the filter read swallowed the timeout and went on without its overrides, waiting a second time', 'test_own_round.py'),
    ("a repository's `diff.renameLimit = 0` with thousands of files renamed (own round)", "rename detection compares at most git's default 1,000 files; before, quadratic in the files renamed (2,000 by 2,000: 5 s)", 'test_own_round.py'),    ('`diff.orderFile` naming a FIFO in a `.git` that came with a checkout (second own round)', 'never read (`-O/dev/null`): the diff runs at once; before, rename detection hung until the time limit', 'test_round_git.py'),
    ('files a sparse checkout (or `--skip-worktree`) leaves out of the working tree (second own round)', 'unchanged, as git reads them; before, reported deleted and their joules taken off the change', 'test_round_git.py'),
    ('profiles.json numbers that are no measurement: infinite, NaN, negative, over 1 TJ, a component that is no number (second own round)', 'the file named malformed, the forecast stands; before, GL002 internal errors, `NaN` in the JSON, `inf MJ`', 'test_round_io.py'),
    ('a pyproject.toml starting with a UTF-8 byte-order mark (second own round)', "a config error naming the mark; before, tomllib's `Invalid statement (at line 1, column 1)`", 'test_round_io.py'),
    ("code nested past Python's parser (20,000 subscripts, calls or method calls) (second own round)", 'one GL001 `cannot parse: too deeply nested`; before, `cannot parse: cannot parse: …`', 'test_round_io.py'),
    ('LSP: `workspace/executeCommand` of a known command with the wrong arguments (second own round)', 'InvalidParams and one warning line; before, pygls logged an error with its traceback', 'test_round_server.py'),
    ('LSP: a Markdown, plain-text or JSON document synced as a text document (second own round)', 'not read as Python, its requests answered at once; before, a GL001 published', 'test_round_server.py'),
    ('inlay hints of a compound basis (`calibrated here, estimated`) beside a range, or a J or Wh figure of many digits (second own round)', "the figure and the basis fit VS Code's 43 characters (the qualifier cut first, `calibrated here…`, then auto units); before, cut inside the basis", 'test_energy_text.py (tests/lsp_server)'),
    ("pinned as they are (second own round): an attributes FIFO, glob-like and option-like path arguments, committed links to folders outside and links that become folders, a submodule's `update = !cmd`, the caller's GIT_* commands, a damaged commit-graph, tags of blobs, linked, locked or cut lint caches, names GitHub, SARIF, HTML and Markdown must keep as data, a BOM beside a cookie; LSP: astral and UTF-8 positions, CRLF hints, ids of every kind, notebook changes out of range, notifications not served, an initialize without a usable root", 'as git and Python read them; named and the run goes on; every request answered', 'test_round_git.py, test_round_io.py, test_round_server.py'),
    ("a file that is a symbolic link leading out of the repository, in the working tree, staged or committed (absolute or climbing target) (third own round)", "GL002 `a symbolic link leading out of the repository`, never read; before, the diff read the file it points to (any file of the machine running it) into its output", 'test_next_git.py'),
    ("a clone nested in the work tree, not a submodule (third own round)", "not the project's files, as git never looks inside it; before, each of its files counted as added", 'test_next_git.py'),
    ("a commit naming a blob the object store lacks (third own round)", "GL002 saying the blob is missing; before, the message said the path could write outside the snapshot", 'test_next_git.py'),
    ("an invalid `--exclude`/`--extend-exclude` pattern with files named, as a pre-commit hook names them (third own round)", "the same config error as when a folder is walked; before, accepted without a word", 'test_next_input.py'),
    ("`# noqa: GL101,,GL201` and other runs of commas and spaces between codes (third own round)", "every code read, as flake8 splits them; before, the codes after a doubled comma were dropped", 'test_next_input.py'),
    ("LSP: a `content-length` header in another case or spacing (third own round)", "read as `Content-Length`; before, the message was never read and every later one out of step (the session hung)", 'test_next_server.py'),
    ("pinned as they are (third own round): tags of tags and of trees, grafts, `gpg.program` with `log.showSignature`, `diff.renames = copies` and `diff.relative`, a `config.worktree` naming commands, a checked-out submodule, a file removed from the index only, an empty repository with files staged, ranges, reflog entries, blob paths and message searches as revisions, a word that is a branch and a file, `--` with nothing after it, branch names with bidi marks; every config key given a date or a table, an empty or slash-ended path, fullwidth identifiers, bidi overrides in every text format, files of only a BOM or a form feed, latin-1 columns, raw, Markdown and heading cells, nbformat 3 `input` strings, per-cell noqa, paths past PATH_MAX; LSP: changes past a line's end, several in one notification, rapid edits, lone CRs, a second initialize, a reversed code-action range, split messages, `exit` without `shutdown`, UTF-32-only clients, Markdown cells", 'as git, Python and the protocol read them; named and the run goes on; every request answered', 'test_next_git.py, test_next_input.py, test_next_server.py, test_round_server.py'),
]


#: Issue 20's findings: the input, what greenlint does with it now, and the test that holds it.
ISSUE_ITEMS = [
    ("`# coding: rot13` / `base64` / `zlib`", "GL002 naming the codec, the run goes on", "test_cli.py"),
    ("a file name that is not UTF-8", "cached, reported in every format (SARIF/HTML URIs %-encode its bytes)", "test_cli.py, test_cache.py"),
    ("`.gitignore` lines `!`, `\\`; `exclude = [\"!\"]`", "lines skipped as git does; the exclude pattern is a config error (exit 2)", "test_config.py"),
    ("`tool = \"x\"`, `tool = 5`, non-UTF-8 pyproject.toml", "not greenlint's table / a config error naming the byte", "test_config.py"),
    ("a cache entry of valid JSON and the wrong shape; emptied; cut short; filed under another key; 300 MB; a corrupt or foreign cache file",
     "a miss: shape and field types checked, the key stored in the entry, a 64 MiB cap; a damaged greenlint cache named and replaced (built aside, renamed), a file greenlint did not make named and left as it is (the run goes on without the cache)", "test_cache.py"),
    ("profiles.json of the wrong shape; `profile show/clear`", "named and ignored by check; show exits 2; `profile clear` resets it", "test_profiles.py"),
    ("`kb predict \"\"`, emoji, non-UTF-8 names, 100k unary minus", "exit 2 with the reason", "test_cli.py"),
    ("`epochs=1e308`", "an unknown figure (no `inf MJ`), JSON always valid", "test_cli.py"),
    ("`--fix` in a read-only folder", "that file reported, the others fixed", "test_fix_writing.py"),
    ("`rule --all | head -1`, `kb predict | head -1`", "exit quietly", "test_cli.py"),
    ("a 3,000-class chain; 300 classes with wide bases", "C3 MRO kept per class: linear", "test_time.py"),
    ("a file edited while `--fix` runs", "compared right before the rename; refused with the reason", "test_fix_writing.py"),
    ("`--fix` on a symlink, a hard link, another user's or a read-only file, a BOM file", "refused with the reason (a link: nothing written through it, its target named) / owner, mode, BOM and encoding kept", "test_fix_writing.py"),
    ("an imported module edited keeping size and mtime", "seen (its change time and inode are stamped too)", "test_stale_cache.py"),
    ("an unreadable folder", "GL002 `cannot read directory`", "test_sources.py"),
    ("`return` outside a function, a duplicate argument", "GL001 (the tree is compiled, never run)", "test_sources.py"),
    ("`??obj`, `! ls` cells; syntax newer than the running Python", "no GL001 / GL001 says which Python parsed", "test_sources.py"),
    ("deeply nested notebook JSON, lone surrogates, odd nbformat 3 worksheets", "GL002 `malformed notebook`", "test_sources.py"),
    ("`cache-dir = \"\"` / `\"/\"` / anywhere; `jobs = 42`; `select = [\"\"]`", "refused unless inside the project or user cache; capped at the CPUs; an error", "test_config.py"),
    ("`measure` killed, `os._exit`, no meter extra", "child dies with it, temp folder swept; explained; the extra named at once", "test_measure.py"),
    ("`profile clear` of sub-projects", "found as `profile show` finds them", "test_profiles.py"),
    ("the extension in a workspace holding `argparse.py`", "`python -P` (or a launcher): not executed; Restricted Mode declared", "test_extension_launch.py"),
    ("LSP: invalid params, before `initialize`, `showHotspots` null, unknown `greenlint.ignore` code, surrogate edit", "-32602 / -32002 / -32602 / fixAll works / recovers", "test_lsp.py"),
    ("LSP: one heavy document; memory per edit", "a second analysis process; flat memory", "test_lsp.py"),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help="the benchmark run: many cases per kind")
    parser.add_argument("--write", type=Path, help="write the report (Markdown) here")
    args = parser.parse_args(argv)
    cases, requests = (40, 3000) if args.long or os.environ.get("GREENLINT_FUZZ") == "long" else (3, 150)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as home:
        os.environ.setdefault("GREENLINT_CACHE_DIR", str(Path(home) / "cache"))
        files = run_files(cases)
        repo_cases = max(2, cases // 4)  # each case builds a repository: fewer of them
        repos = run_repos(repo_cases)
        lsp = run_lsp(requests)
    text = report(files, lsp, cases, time.monotonic() - started, repos, repo_cases)
    if args.write:
        args.write.write_text(text, encoding="utf-8")
    print(text)
    failed = [f for r in (*files.values(), *repos.values()) for f in r.failures] + lsp.internal + lsp.unanswered
    return 1 if failed or not lsp.alive or not lsp.diagnostics_after else 0


if __name__ == "__main__":
    sys.exit(main())
