"""How much code a newcomer reads along three paths (issue 30, "Done when"): a trace of the functions run.

    python bench/trace_paths.py [--versus DIR]... [--show PATH]... [--no-write]

Each path runs once, in a fresh interpreter with an empty lint cache (cold), in a small git
project made in a temporary folder:

  - `check`: `greenlint check train.py`, a script whose `fit` in a loop is a GL101 message (a
    small dense model on MNIST, which every traced greenlint since 995e8f4 reports);
  - `fix`: the editor's quick fix, in process and without an editor: the language server (its
    analyses on a thread of this process) is driven over a pipe, opens `train.py` with
    `run_eagerly=True` in its `compile` and, once the finding is published, is asked for the code
    actions at it; traced is the `textDocument/codeAction` request alone, until the answer holding
    the fix (the analysis before it is the check path's);
  - `diff`: `greenlint diff` after a one-line change of that script (`epochs=50` -> `epochs=500`),
    HEAD against the working tree.

Each runs under `sys.setprofile` (and `threading.setprofile`, for the server's threads) in a child
process, and every call of a function defined in greenlint's package or its language server is
recorded. Reported:

  - functions: the distinct functions run (named ones: `<module>` bodies, lambdas and
    comprehensions left out; a class body, run as its module is imported, counts, and how many
    of them there are is said apart), and the files they are in;
  - package switches: the functions in the order each is first run (the order in which one
    reads the path top to bottom), and how often two neighbours in that order lie in different
    packages (`greenlint/check/`, `greenlint/analysis/`, `lsp_server/`, ...; top-level modules are
    the package `greenlint`);
  - entries per package: the runs of that order in each package (a package read in one go is
    entered once);
  - calls up the layers: the direct calls from a function of one package into one of a package
    above it in the layers contract (`.importlinter`): a callback, against the way data flows
    (a call down the layers, to a lower package's helper or record, is how the layers are used).

`--versus DIR` (repeatable) traces the greenlint of another checkout too (DIR holds its `greenlint/`,
`lsp_server/` and `data/`, which GREENLINT_DATA_DIR points at for that run), for the figures before
and after a change side by side; an older greenlint that does not reach the message is traced all
the same (a warning says so). The "Newcomer paths: functions traced" section of docs/benchmarks.md
is rewritten (unless `--no-write`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from report import REPO, machine, today, versions, write_section

from greenlint.profile.store import PROFILE_DIR, PROFILE_FILE

SECTION = "Newcomer paths: functions traced"
SCRIPT = """import tensorflow as tf

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
model = tf.keras.Sequential(
    [tf.keras.layers.Flatten(input_shape=(28, 28)), tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(10)]
)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
for trial in range(20):
    model.fit(x_train, y_train, epochs=50)
"""
CHANGED = SCRIPT.replace("epochs=50", "epochs=500")
EAGER = SCRIPT.replace('loss="sparse_categorical_crossentropy")', 'loss="sparse_categorical_crossentropy", run_eagerly=True)')
#: Each path: the command's words (`fix`: the editor session below) and what its output must hold.
PATHS = {"check": ["check", "train.py"], "fix": ["fix", "train.py"], "diff": ["diff", "HEAD"]}
EXPECTED = {"check": "GL101", "fix": "Remove `run_eagerly=True`", "diff": "×"}
#: A path that has not ended by then is stuck (a server that never publishes the finding): an error.
TIMEOUT_S = 600

# Run in the child: trace greenlint's own functions while the path runs, then write them as JSON.
CHILD = r"""
import inspect, json, os, sys, threading
root = os.path.realpath(sys.argv[1])
folders = {os.path.join(root, "greenlint", ""): "", os.path.join(root, "lsp_server", ""): "lsp_server/"}
order, seen, lock = [], set(), threading.Lock()
crossings, places = set(), {}  # calls from one package's function into another's; code -> (file, package)
recording = [sys.argv[2] != "fix"]  # the editor's path: its code action request alone

def place(code):
    found = places.get(code)
    if found is None:
        found = ("", "")
        for folder, prefix in folders.items():
            if code.co_filename.startswith(folder):
                relative = prefix + code.co_filename[len(folder):]
                head, sep, _ = relative.partition("/")
                found = (relative, head if sep else "greenlint")
        places[code] = found
    return found

def profile(frame, event, arg):
    if event != "call" or not recording[0]:
        return
    code = frame.f_code
    caller = frame.f_back
    if caller is not None and code.co_name[0] != "<":
        (into, callee), (out_of, calling) = place(code), place(caller.f_code)
        if callee and calling and callee != calling:
            with lock:
                crossings.add((out_of, caller.f_code.co_qualname, into, code.co_qualname))
    key = (code.co_filename, code.co_firstlineno, code.co_qualname)
    with lock:
        if key in seen:
            return
        seen.add(key)
        for folder, prefix in folders.items():
            if code.co_filename.startswith(folder) and not code.co_name.startswith("<"):
                order.append([prefix + code.co_filename[len(folder):], code.co_firstlineno, code.co_qualname,
                              not code.co_flags & inspect.CO_OPTIMIZED])  # a class body, run as its module is imported

def editor(path):
    # the language server, analysing on a thread of this process, driven over a pipe: open the
    # file, wait for its GL304 finding, trace the code action request at it
    from pathlib import Path
    from greenlint.lsp_server.build import build_server
    from greenlint.predict import load_predictor

    server = build_server(predictor_loader=load_predictor)
    to_server, to_us = os.pipe(), os.pipe()
    threading.Thread(target=server.start_io, args=(os.fdopen(to_server[0], "rb"), os.fdopen(to_us[1], "wb")),
                     daemon=True).start()
    out, into = os.fdopen(to_server[1], "wb"), os.fdopen(to_us[0], "rb")

    def send(message):
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        out.flush()

    def until(wanted):
        while True:
            headers = {}
            while (line := into.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            if not line:
                raise EOFError("the language server closed its output")
            message = json.loads(into.read(int(headers["content-length"])))
            if "method" in message and "id" in message:  # the server's own request (a refresh): answered
                send({"id": message["id"], "result": None})
            elif wanted(message):
                return message

    uri, text = Path(path).resolve().as_uri(), Path(path).read_text(encoding="utf-8")
    send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": Path.cwd().as_uri(),
                                                        "capabilities": {}}})
    until(lambda m: m.get("id") == 1)
    send({"method": "initialized", "params": {}})
    send({"method": "textDocument/didOpen",
          "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}})
    published = until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                      and any(d.get("code") == "GL304" for d in m["params"]["diagnostics"]))
    finding = next(d for d in published["params"]["diagnostics"] if d.get("code") == "GL304")
    send({"id": 2, "method": "$/traceBarrier"})  # answered once the analysis' listeners have run
    until(lambda m: m.get("id") == 2)
    recording[0] = True
    send({"id": 3, "method": "textDocument/codeAction",
          "params": {"textDocument": {"uri": uri}, "range": finding["range"],
                     "context": {"diagnostics": [finding], "only": ["quickfix"]}}})
    actions = until(lambda m: m.get("id") == 3)["result"]
    recording[0] = False
    for action in actions:
        print(action["title"], json.dumps(action.get("edit")))
    send({"id": 4, "method": "shutdown"})
    until(lambda m: m.get("id") == 4)
    return 0

threading.setprofile(profile)
sys.setprofile(profile)
sys.path.insert(0, root)
import greenlint
greenlint.__path__.append(root)  # greenlint.lsp_server is <root>/lsp_server, as an install maps it
from greenlint.cli import main
try:
    status = editor(sys.argv[3]) if sys.argv[2] == "fix" else main(sys.argv[2:])
except SystemExit as exc:
    status = exc.code
sys.setprofile(None)
threading.setprofile(None)
sys.stdout.flush()
with open(os.environ["GREENLINT_TRACE_OUT"], "w", encoding="utf-8") as out:
    json.dump({"status": status, "order": order, "crossings": sorted(crossings)}, out)
os._exit(0)  # the server's threads are not waited for
"""


def package_of(relative: str) -> str:
    """`check/runner.py` -> `check`, `lsp_server/features/hover.py` -> `lsp_server`; a top-level
    module (`paths.py`) -> `greenlint`."""
    head, sep, _ = relative.partition("/")
    return head if sep else "greenlint"


def layer_ranks(contract: Path = REPO / ".importlinter") -> dict[str, int]:
    """Each package's line in the layers contract, 0 the top (`cli`); the top-level modules
    (`greenlint`) share the bottom line."""
    text = contract.read_text(encoding="utf-8")
    block = text[text.index("[importlinter:contract:layers]"):]
    block = block[block.index("layers =") + len("layers ="):]
    lines = [line.strip() for line in block.splitlines()[1:]]
    lines = lines[: next((i for i, line in enumerate(lines) if not line.startswith("greenlint")), len(lines))]
    ranks = {name.strip().removeprefix("greenlint."): i for i, line in enumerate(lines) for name in line.split("|")}
    ranks["greenlint"] = len(lines) - 1
    return ranks


def summarise(order: list[list], crossings: list[list] = ()) -> dict:
    """Functions (and the class bodies among them), files, package switches and entries per package
    of a first-run order of [file, line, name, whether a class body]; and, of the *crossings* (each
    call from one package's function into another's: [caller's file, its name, callee's file, its
    name]), those going up the layers (a callee in a higher layer than its caller)."""
    packages = [package_of(entry[0]) for entry in order]
    runs = [p for i, p in enumerate(packages) if i == 0 or packages[i - 1] != p]
    ranks = layer_ranks()
    upward = [c for c in crossings if ranks[package_of(c[2])] < ranks[package_of(c[0])]]
    return {
        "functions": len(order),
        "class_bodies": sum(1 for entry in order if entry[3]),
        "files": len({entry[0] for entry in order}),
        "switches": max(0, len(runs) - 1),
        "entries": dict(Counter(runs).most_common()),
        "upward": [f"{a}:{b} -> {c}:{d}" for a, b, c, d in upward],
    }


def make_project(root: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    (root / "train.py").write_text(SCRIPT, encoding="utf-8")
    git("init", "-q")
    git("add", "train.py")
    git("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "base")


def trace(source: Path, name: str, strict: bool = True) -> dict:
    """Trace one path in a fresh project, with an empty lint cache and user cache; unless *strict*,
    a path that does not reach its message (an older greenlint's figures) is only warned about."""
    with tempfile.TemporaryDirectory(prefix="greenlint-trace-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        make_project(root)
        stray = next((found for folder in root.parents if (found := folder / PROFILE_DIR / PROFILE_FILE).exists()), None)
        if stray is not None:  # its profiles would be looked up on every path (a profiled file's figures)
            raise SystemExit(f"{stray}: a profile file above the traced project; set TMPDIR to a folder without one")
        if name != "check":
            (root / "train.py").write_text(CHANGED if name == "diff" else EAGER, encoding="utf-8")
        env = dict(os.environ, GREENLINT_CACHE_DIR=str(Path(tmp) / "cache"), XDG_CACHE_HOME=str(Path(tmp) / "xdg"))
        env.pop("PYTHONPATH", None)
        if not strict and (source / "data").is_dir():
            env["GREENLINT_DATA_DIR"] = str(source / "data")
        traced = Path(tmp) / "trace.json"
        env["GREENLINT_TRACE_OUT"] = str(traced)
        child = subprocess.run(
            [sys.executable, "-c", CHILD, str(source), *PATHS[name]], cwd=root, env=env, capture_output=True,
            timeout=TIMEOUT_S,
        )
        out, err = child.stdout, child.stderr
        if not traced.exists():
            raise SystemExit(f"trace of {name} failed:\n{err.decode(errors='replace')}")
        result = json.loads(traced.read_text(encoding="utf-8"))
        shown = out.decode(errors="replace")
        expected = EXPECTED[name]
        if expected not in shown:
            problem = f"the {name} path printed no {expected}:\n{shown}{err.decode(errors='replace')}"
            if strict:
                raise SystemExit(problem)
            print(f"warning: {problem}", file=sys.stderr)
        return summarise(result["order"], result["crossings"]) | {"reached": expected in shown, "order": result["order"]}


def markdown(results: dict[str, dict[str, dict]]) -> str:
    """*results*: per greenlint traced (a label), per path, its summary."""
    rows = ["| path | greenlint | functions | of which class bodies | files | package switches |"
            " entries per package (most first) | calls up the layers |"]
    rows.append("|---|---|---:|---:|---:|---:|---|---|")
    labels = {
        "check": "`greenlint check train.py` (cold) to a GL101 message",
        "fix": "the editor's quick fix: `textDocument/codeAction` at a GL304 finding",
        "diff": "`greenlint diff HEAD` on a one-line change",
    }
    for name, label in labels.items():
        for source, paths in results.items():
            r = paths[name]
            entries = ", ".join(f"{p} {n}" for p, n in r["entries"].items())
            source += "" if r["reached"] else " (no such message: a shorter path)"
            upward = "; ".join(f"`{u}`" for u in r["upward"]) or "none"
            rows.append(f"| {label} | {source} | {r['functions']} | {r['class_bodies']} | {r['files']} | {r['switches']}"
                        f" | {entries} | {upward} |")
    return "\n".join(
        [
            f"Measured {today()} by `python bench/trace_paths.py` ({versions()}; {machine()}).",
            "",
            "Each path runs once in a fresh interpreter with an empty lint cache, under `sys.setprofile`; the",
            "quick fix is the language server's `textDocument/codeAction` request alone, in process, after the",
            "document's analysis. A function counts once (named functions of the `greenlint` package and its",
            "language server only; a class body, run as its module is imported, counts as one). Package",
            "switches: in the order in which the functions are first run, neighbours that lie in different",
            "packages; entries: the runs of that order per package; calls up the layers: direct calls (any, not",
            "only first runs) from a function of one package into one of a package above it in `.importlinter`'s",
            "layers, a callback against the way data flows. Issue 30 measured 614 functions in 96 files",
            "entering `check/` four times (check) and 736 functions in 109 files with 98 package switches",
            "(diff) at 995e8f4, with a trace of its own that counted `<module>` bodies too (this script counting",
            "them as well: 610 functions in 97 files, and 715 in 109 files); the table leaves them out.",
            "",
            *rows,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versus", type=Path, metavar="DIR", action="append", default=[],
                        help="another checkout traced beside this one (repeatable)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    parser.add_argument("--show", choices=PATHS, action="append", default=[],
                        help="print this path's functions in first-run order (each checkout's)")
    args = parser.parse_args(argv)
    sources = {"this checkout": REPO} | {f"`{d.name}`": d.resolve() for d in args.versus}
    results = {}
    for label, source in sources.items():
        results[label] = {name: trace(source, name, strict=source == REPO) for name in PATHS}
        for name, r in results[label].items():
            if name in args.show:
                print(*(f"{package_of(f):>10}  {f}:{line} {name}{' (class body)' * body}"
                        for f, line, name, body in r["order"]), sep="\n")
            print(
                f"{label}, {name}: {r['functions']} functions ({r['class_bodies']} class bodies) in {r['files']} files,"
                f" {r['switches']} package switches;"
                f" entries {r['entries']}; calls up the layers {r['upward']}"
            )
    text = markdown(results)
    if not args.no_write:
        write_section(SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
