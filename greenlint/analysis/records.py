"""`collections.namedtuple` records: a class made of literal field names, and an instance holding the
values its construction gave (`Model(train=tf.group(...), loss=loss)`), read back by field
(`model.train`), so that a graph's ops returned in a record reach the session run that fetches them.
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis.values import Const, Seq

#: The module and the function that make a record class.
ROOT = "collections"
NAMEDTUPLE = "collections.namedtuple"


class Record:
    """A record class (*values* None) or an instance of one: its field names, and per field the value
    its construction gave (None where unknown)."""

    __slots__ = ("fields", "values")

    def __init__(self, fields: tuple[str, ...], values: tuple | None = None):
        self.fields = fields
        self.values = values

    def __eq__(self, other: object) -> bool:
        return type(other) is Record and other.fields == self.fields and other.values == self.values

    def __hash__(self) -> int:
        return hash(self.fields)

    def __repr__(self) -> str:
        return f"Record({', '.join(self.fields)})"


def make_class(args: list, keywords: list) -> Record | None:
    """`namedtuple("Model", "outputs, train")` or `namedtuple("Model", ["outputs", "train"])`: the class
    of those fields; None where a name is not a literal, or `rename`/`defaults` change the fields."""
    given = args[1][1] if len(args) > 1 and not args[1][0] else dict(keywords).get("field_names")
    if any(name in ("rename", "defaults") for name, _ in keywords):
        return None
    names: Any = None
    if type(given) is Const and type(given.value) is str:
        names = given.value.replace(",", " ").split()
    elif type(given) is Const and type(given.value) in (list, tuple):
        names = given.value
    elif type(given) is Seq:
        names = [item.value if type(item) is Const else None for item in given.items]
    if not names or not all(type(name) is str and name.isidentifier() for name in names):
        return None
    return Record(tuple(names))


def construct(cls: Record, args: list, keywords: list) -> Record | None:
    """An instance of record class *cls* from a call's arguments (`(spread, value)` pairs and
    `(name, value)` keywords); None where a `*`/`**` spread or a name not a field hides which is which."""
    if any(spread for spread, _ in args) or any(name is None or name not in cls.fields for name, _ in keywords):
        return None
    if len(args) > len(cls.fields):
        return None
    values = [value for _, value in args] + [None] * (len(cls.fields) - len(args))
    for name, value in keywords:
        values[cls.fields.index(name)] = value
    return Record(cls.fields, tuple(values))


def field(record: Record, attr: str) -> Any:
    """The value of field *attr* of an instance (None: unknown, or a class's field)."""
    if record.values is None or attr not in record.fields:
        return None
    return record.values[record.fields.index(attr)]
