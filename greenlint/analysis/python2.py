"""Python 2 modules read as Python 3. Many research programs of TensorFlow 1's time are written in
Python 2 (`print loss`, `except IOError, e:`, `raise ValueError, "..."`, `os.makedirs(d, 0755)`),
which Python 3's parser refuses: without a reading greenlint would see none of their calls. Where
a module does not parse, its tokens are rewritten into the Python 3 forms, every other token kept
at its line and column (a `print ` becomes `print(`, a `raise`'s comma its `(`), so call sites,
findings and `noqa` comments stay where the file has them. The text is only read, never run, and
no fix is offered on it (LibCST parses the file as written)."""

from __future__ import annotations

import tokenize
from collections.abc import Iterator
from typing import NamedTuple

from greenlint.analysis.sources import lines_with_endings

#: Statements of Python 2 that are calls of a builtin in Python 3.
_STATEMENTS = frozenset({"print", "exec"})
#: Tokens that end a simple statement (a `print` runs to the first of them outside brackets).
_ENDS = frozenset({tokenize.NEWLINE, tokenize.ENDMARKER})
_SKIPPED = frozenset({tokenize.COMMENT, tokenize.NL})
#: Tokens after which a statement starts.
_STARTS = frozenset({tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT})
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")


class _Edit(NamedTuple):
    at: tuple[int, int]  # 1-based line, 0-based column
    length: int  # characters replaced
    text: str


#: How Python 3's parser words the first error it meets in a Python 2 module (3.10 and later).
_PYTHON2_ERRORS = (
    "Missing parentheses in call to",  # print, exec
    "multiple exception types must be parenthesized",  # except E, e:
    "leading zeros in decimal integer literals",  # 0755
    "invalid decimal literal",  # 10L
)


def written_in_python2(error: SyntaxError) -> bool:
    """Whether *error*, the first Python 3 met in a module, is one a Python 2 statement gives (the
    reading is tried only then: it tokenizes the whole text)."""
    message, line = error.msg or "", (error.text or "").lstrip()
    return message.startswith(_PYTHON2_ERRORS) or message == "invalid syntax" and line.startswith("raise ") and "," in line


def readable(text: str) -> str | None:
    """*text* with its Python 2 statements in Python 3's forms, or None where it has none (or the
    tokenizer cannot read it). One pass over the tokens, and one more over each statement rewritten."""
    try:
        tokens = [t for t in tokenize.generate_tokens(iter(lines_with_endings(text)).__next__)
                  if t.type not in _SKIPPED and not (t.type == tokenize.ERRORTOKEN and t.string.isspace())]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    edits: list[_Edit] = []
    start, depth, lambdas = True, 0, 0  # at a statement's start; brackets open; `lambda`s awaiting their `:`
    for i, token in enumerate(tokens):
        kind, word = token.type, token.string
        if kind == tokenize.NAME and start and word in _STATEMENTS:
            edits += _call(tokens, i)
        elif kind == tokenize.NAME and start and word == "raise":
            edits += _raise(tokens, i)
        elif kind == tokenize.NAME and start and word == "except":
            edits += _except(tokens, i)
        elif kind == tokenize.NUMBER:
            edits += _number(tokens, i)
        colon = kind == tokenize.OP and word == ":" and depth == 0
        if kind == tokenize.OP and word in _OPENING:
            depth += 1
        elif kind == tokenize.OP and word in _CLOSING:
            depth = max(depth - 1, 0)
        elif kind == tokenize.NAME and word == "lambda" and depth == 0:
            lambdas += 1
        start = kind in _STARTS or kind == tokenize.OP and word == ";" or colon and not lambdas  # `if x: print y`
        lambdas -= colon and lambdas > 0
        if kind in _STARTS:
            depth = lambdas = 0
    return _applied(text, edits) if edits else None


def _statement_end(tokens: list, i: int) -> int:
    """The index of the last token of the simple statement whose first token is at *i*."""
    depth, last = 0, i
    for j in range(i + 1, len(tokens)):
        token = tokens[j]
        if token.type in _ENDS or depth == 0 and token.type == tokenize.OP and token.string == ";":
            return last
        if token.type == tokenize.OP and token.string in _OPENING:
            depth += 1
        elif token.type == tokenize.OP and token.string in _CLOSING:
            depth -= 1
        last = j
    return last


def _call(tokens: list, i: int) -> list[_Edit]:
    """`print x, y` -> `print(x, y)`, `print >>f, x` -> `print(  f, x)`, `print` -> `print()`."""
    name, following = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else None
    if following is None or following.type == tokenize.OP and following.string in ("(", "=", ".", ",", ")"):
        return []  # already a call (or a name, under `from __future__ import print_function`)
    row, col = name.end
    if following.type in _ENDS or following.string == ";":
        return [_Edit((row, col), 0, "()")]
    last = tokens[_statement_end(tokens, i)]
    spaced = following.start[0] == row and name.line[col : col + 1] in (" ", "\t")
    opening = _Edit((row, col), 1 if spaced else 0, "(")  # the space after the keyword becomes the bracket
    edits = [opening, _Edit(last.end, 0, ")")]
    if following.type == tokenize.OP and following.string == ">>":  # `print >>sys.stderr, x`
        edits.insert(1, _Edit(following.start, 2, "  "))
    return edits


def _raise(tokens: list, i: int) -> list[_Edit]:
    """`raise E, "why"` -> `raise E( "why")`: the comma outside brackets becomes the call's bracket."""
    end = _statement_end(tokens, i)
    comma = _top_comma(tokens, i, end)
    if comma is None:
        return []
    return [_Edit(tokens[comma].start, 1, "("), _Edit(tokens[end].end, 0, ")")]


def _except(tokens: list, i: int) -> list[_Edit]:
    """`except IOError, e:` -> `except IOError as e:`."""
    comma = None
    for j in _top_level(tokens, i, len(tokens) - 1):
        if tokens[j].string == "," and comma is None:
            comma = j
        elif tokens[j].string == ":":
            named = comma is not None and comma + 2 == j and tokens[comma + 1].type == tokenize.NAME
            return [_Edit(tokens[comma].start, 1, " as")] if named and comma is not None else []
    return []


def _number(tokens: list, i: int) -> list[_Edit]:
    """`0755` -> `0o755` (read by the tokenizer as `0` then `755`); `10L` -> `10`."""
    token, following = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else None
    if following is None or following.start != token.end:
        return []
    if token.string == "0" and following.type == tokenize.NUMBER and following.string.isdigit():
        return [_Edit(token.end, 0, "o")]
    if following.type == tokenize.NAME and following.string in ("L", "l") and token.string.isdigit():
        return [_Edit(following.start, 1, "")]
    return []


def _top_comma(tokens: list, i: int, last: int) -> int | None:
    """The index of the first comma outside brackets between tokens *i* and *last*."""
    return next((j for j in _top_level(tokens, i, last) if tokens[j].string == ","), None)


def _top_level(tokens: list, i: int, last: int) -> Iterator[int]:
    """The indices of the operators outside brackets after token *i*, up to *last* or the statement's end."""
    depth = 0
    for j in range(i + 1, last + 1):
        token = tokens[j]
        if token.type in _STARTS or token.type in _ENDS:
            return
        if token.type != tokenize.OP:
            continue
        if token.string in _OPENING:
            depth += 1
        elif token.string in _CLOSING:
            depth -= 1
        elif depth == 0:
            yield j


def _applied(text: str, edits: list[_Edit]) -> str:
    """*text* with *edits* made, the later ones in a line first (so each column is the original's)."""
    lines = lines_with_endings(text)
    for edit in sorted(edits, key=lambda e: e.at, reverse=True):
        row, col = edit.at
        lines[row - 1] = lines[row - 1][:col] + edit.text + lines[row - 1][col + edit.length :]
    return "".join(lines)
