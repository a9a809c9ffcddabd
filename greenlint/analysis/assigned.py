"""The attributes a module's code may set on any object, read from its text alone (`obj.lr = ...`,
`self.config.lr *= decay`, `setattr(config, "lr", ...)`): a class attribute of the project read through an
instance keeps its literal only where no module that could hold the instance sets it (`Imports.held`).
Over-counted, never under: a comment or a string that looks like an assignment counts; `setattr` with a
name not literal, or `__dict__`/`vars(...)` written to, may set any (None)."""

from __future__ import annotations

import re

#: `.name =` and `.name op=`, not `==`, `<=`, `>=`, `!=`.
_SET = re.compile(r"\.\s*([A-Za-z_]\w*)\s*(?:\*\*|//|<<|>>|[-+*/%&|^@])?=(?!=)")
#: The targets of a line's assignment (what stands before its first bare `=`: `a.lr, b.wd = ...`), and of a
#: `for` loop (`for cfg.epoch in ...`): every attribute named there counts as set.
_TARGETS = re.compile(r"^([^=\n]*?)(?<![=!<>:])=(?!=)|\bfor\b([^\n]*?)\bin\b", re.MULTILINE)
#: An attribute a target ends with (`a.lr` in `a.lr, b = ...`; not `config` in `self.config.lr = ...`).
_ATTRIBUTE = re.compile(r"\.\s*([A-Za-z_]\w*)\s*(?=[,)\]]|$)")
#: `setattr(obj, "name"` with a literal name, and any `setattr(` at all.
_SETATTR = re.compile(r"""\bsetattr\s*\(\s*[^,()]+,\s*(?:["']([A-Za-z_]\w*)["'])?""")
#: Writing an object's attributes wholesale (`obj.__dict__.update(d)`, `vars(obj)[k] = v`).
_WHOLESALE = re.compile(r"__dict__|\bvars\s*\(")


def attributes_set(text: str) -> frozenset[str] | None:
    """The names of the attributes *text*'s code may set; None where it may set any."""
    found = set(_SET.findall(text))
    for targets in _TARGETS.finditer(text):
        found.update(_ATTRIBUTE.findall((targets.group(1) or targets.group(2)).rstrip()))
    for name in _SETATTR.findall(text):
        if not name:
            return None
        found.add(name)
    if _WHOLESALE.search(text):
        return None
    return frozenset(found)
