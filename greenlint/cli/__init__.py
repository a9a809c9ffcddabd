"""The `greenlint` command line: one entry point, one module per subcommand.

Each module in this package named in COMMANDS defines `HELP`, `register(parser)` and
`run(args) -> int`; heavy imports happen inside `run`, and only the module of the command being
run is imported at all, so `greenlint --version` and `greenlint check` start fast.
Exit codes follow ruff: 0 clean, 1 findings, 2 error.
"""

from __future__ import annotations

import importlib
import sys

from greenlint import __version__

TYPE_CHECKING = False  # typing itself is not imported: `greenlint --version` needs none of it
if TYPE_CHECKING:
    import argparse

COMMANDS = ("check", "calls", "diff", "rule", "kb", "measure", "calibrate", "profile", "lsp")
#: Commands whose words after `--` are paths, never revisions (as git reads them): given to the
#: command as `args.paths` (None without a `--`).
PATHS_AFTER_DASHES = ("diff",)
#: Modules that only an extra installs, by the extra (pyproject.toml; tests/test_dependencies.py).
EXTRA_MODULES = {
    "pygls": "lsp",
    "lsprotocol": "lsp",
    "tensorflow": "meter",
    "pandas": "data",
    "pyarrow": "data",
    "scipy": "data",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with *only*, the other commands are named but not loaded (no help text)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="greenlint",
        description="Energy linter for TensorFlow/Keras code. `greenlint PATH...` is `greenlint check PATH...`.",
    )
    parser.add_argument("--version", action="version", version=f"greenlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if only is not None and name != only:
            sub.add_parser(name)
            continue
        module = importlib.import_module(f"greenlint.cli.{name}_cmd")
        sp = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.register(sp)
        sp.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "check")
    command = argv[0] if argv and argv[0] in COMMANDS else None
    after_dashes = None
    if command in PATHS_AFTER_DASHES and "--" in argv:  # kept apart before argparse drops the `--`
        at = argv.index("--")
        argv, after_dashes = argv[:at], argv[at + 1 :]
    parser = build_parser(command or ("" if argv == ["--version"] else None))
    args = parser.parse_args(argv)
    if after_dashes is not None:
        args.paths = after_dashes
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    _printable_file_names()
    try:
        code = int(args._run(args) or 0)
        if not sys.stdout.closed:  # the language server closes it as it exits
            sys.stdout.flush()  # a closed pipe shows here, inside the handler below
        return code
    except BrokenPipeError:
        return _reader_gone()
    except ModuleNotFoundError as exc:
        extra = EXTRA_MODULES.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        from greenlint.paths import install_extra

        print(f"greenlint {args.command}: needs the `{extra}` extra ({exc}): {install_extra(extra)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("greenlint: interrupted", file=sys.stderr)
        return 130
    except ValueError as exc:
        from greenlint.predict.tables import ModelError

        if not isinstance(exc, ModelError):
            raise
        print(f"greenlint {args.command}: {exc}", file=sys.stderr)  # no model file: say which and how to build it
        return 2


def entry_point() -> None:
    """`greenlint` as a command (`python -m greenlint`, the installed script): `main`, then the
    process ends at once, as mypy ends: once the output is flushed and the exit handlers have run
    (the lint cache commits and closes its files), all that is left is freeing the run's objects one
    by one, about 1 s of CPU at the end of an 11 s `check -j 1` of tf-models-official. Where another
    thread still runs, a profiler or tracer watches (`python -m cProfile` writes its statistics once
    the module returns), or the output cannot be flushed, Python ends as usual."""
    code = main()
    import threading

    watched = sys.getprofile() is not None or sys.gettrace() is not None
    if threading.active_count() > 1 or watched or not _flushed():
        raise SystemExit(code)
    import atexit
    import os

    atexit._run_exitfuncs()  # what a normal exit runs first: the cache's close_all, logging's shutdown
    if not _flushed():  # a handler printed, and its output cannot be written
        raise SystemExit(code)
    os._exit(code)


def _flushed() -> bool:
    """Flush stdout and stderr; False where one could not be written."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None and not stream.closed:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True


def _printable_file_names() -> None:
    """A file name that is not valid UTF-8 is printed as its bytes (as `ls` does), never an error."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="surrogateescape" if stream is sys.stdout else "backslashreplace")
        except (AttributeError, ValueError):  # not a text file (tests capture into StringIO)
            pass


def _reader_gone() -> int:
    """`greenlint ... | head -1`: the reader left; stop quietly, as other tools do (exit 1).

    Python flushes stdout again at exit: point it at /dev/null so that this flush cannot fail."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 1
