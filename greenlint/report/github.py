"""`github`: GitHub Actions workflow commands, one annotation per diagnostic."""

from __future__ import annotations

from greenlint.report.escape import visible

LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(level: str, path: str | None, span, title: str, message: str) -> str:
    """One workflow command `::level file=…,line=…,title=…::message` (no file or position where
    None); a notebook cell's position goes into the text."""
    props = [f"file={_prop(path)}"] if path else []
    if span is not None and span.cell is None:
        props += [f"line={span.line}", f"col={span.column}", f"endLine={span.end_line}", f"endColumn={span.end_column}"]
    elif span is not None:  # cell-relative lines mean nothing to GitHub's view of the .ipynb file: say them in the text
        message = f"cell {span.cell}:{span.line}:{span.column}: {message}"
    props.append(f"title={_prop(title)}")
    return f"::{level} {','.join(props)}::{_data(message)}"


def line(d) -> str:
    return annotation(LEVELS.get(d.severity, "warning"), d.path, d.span, d.code, d.message)


def render(diagnostics) -> str:
    return "".join(line(d) + "\n" for d in diagnostics)
