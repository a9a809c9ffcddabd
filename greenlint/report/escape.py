"""Text someone else wrote (file names, source lines, messages quoting them) made safe to print.

`visible` shows terminal controls escaped (`\\x1b`): ESC starts the sequences that recolour,
retitle, hide text or write the clipboard (OSC 52); C1 controls, carriage returns and Unicode's
invisible direction marks ("Trojan Source") hide or reorder what a reader sees. Every text format
(`check`'s concise, full, grouped and github, `calls`' table, `diff`'s text and Markdown) prints
user text through it. `code_span` and `md_text` put such text into Markdown: a code span whose
fence is longer than any run of backticks in it, plain text with HTML's `<` and `&` escaped.
`patch_path` names a file in a patch's `---`/`+++` header as git does, quoted where it must be;
`leading_path` one that starts a line of text output, which a CI log must not read as a command.
"""

from __future__ import annotations

import re

#: C0 controls but tab and newline, DEL, C1 controls, the invisible bidirectional and line
#: separator characters (U+061C, U+200E/F, U+2028/9, U+202A–E, U+2066–9), the invisible
#: characters that make one name look like another (U+200B, U+2060–4, U+FEFF), and the bytes
#: 0x80–0x9F of a name that is not UTF-8 (held as U+DC80–U+DC9F by Python's surrogateescape, and
#: written back raw: a terminal reading 8-bit controls takes a lone 0x9B for CSI, as ESC [).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e"
                      "\u2060-\u2064\u2066-\u2069\ufeff\udc80-\udc9f]")


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDC9F:  # the byte itself
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, lines: bool = False) -> str:
    """*text* with every control character written as an escape (`\\x1b`, `\\u202e`); a tab and,
    with *lines*, a newline are kept (a source line's indentation, an output of many lines)."""
    text = _CONTROL.sub(_escaped, text)
    return text if lines else text.replace("\n", "\\n")


def code_span(text: str) -> str:
    """*text* as one Markdown code span: the fence one backtick longer than its longest run of
    backticks, padded where it starts or ends with one; controls and newlines escaped."""
    text = visible(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_text(text: str) -> str:
    """*text* as Markdown text that cannot open HTML, a code span or a link: `<`, `&`, backticks
    and brackets escaped, controls and newlines too."""
    text = visible(text).replace("&", "&amp;").replace("<", "&lt;")
    return re.sub(r"([`\[\]\\])", r"\\\1", text)


def leading_path(path: str) -> str:
    """*path* where it starts a line of text output (after blanks, as in an indented list): a relative
    path whose first non-blank characters are `::` written `./::…`, the same file. GitHub Actions reads
    every line of a job's log that starts so as a workflow command (`::error::`, `::add-mask::`,
    `::stop-commands::`), and a repository names its own files."""
    return f"./{path}" if path.lstrip().startswith("::") else path


_GIT_ESCAPES = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r",
                '"': '\\"', "\\": "\\\\"}


def patch_path(path: str) -> str:
    """*path* for a patch header: as it is, or, where it holds a control character, a quote or a
    backslash, in double quotes with those written as git writes them (`\\n`, `\\033`, `\\342\\200\\256`),
    which `git apply` and `patch` read back: a name can neither start a line nor reach a terminal."""
    if not (_CONTROL.search(path) or any(c in path for c in '\t\n"\\')):
        return path
    out = []
    for char in path:
        if char in _GIT_ESCAPES:
            out.append(_GIT_ESCAPES[char])
        elif _CONTROL.match(char):
            out.append("".join(f"\\{byte:03o}" for byte in char.encode("utf-8", "surrogateescape")))
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
