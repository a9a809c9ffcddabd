"""TensorFlow 1 queue pipelines that decode files again on every pass (GL408): a filename queue that
cycles through its files for ever (`tf.train.string_input_producer(files)`, no `num_epochs`), a
reader's `read` of it, and a decoder given the contents read (`tf.image.decode_jpeg(value)`, also
through a name bound to decoders alone: `decode = tf.image.decode_png`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

from greenlint.rules.base import FileFacts, argument
from greenlint.rules.syntax import bound_name, enclosing, scope_body, target_binds
from greenlint.rules.tf_decoders import DECODER

#: The decoders of image and audio files.
MEDIA = re.compile(r"\.decode_(jpeg|png|gif|bmp|webp|image|and_crop_jpeg|wav)$")
#: The filename queue's maker, as the imports name it.
PRODUCERS = ("tensorflow.train.string_input_producer", "tensorflow.compat.v1.train.string_input_producer")


@dataclass(frozen=True)
class QueueDecode:
    decode: ast.Call  # the decoder's call, given what the reader read
    cell: int | None
    producer: ast.Call  # the queue cycling for ever
    what: str  # the decoder as written, and what a name stands for: "`decode()` (`tf.image.decode_jpeg`)"


def queue_decodes(facts: FileFacts) -> Iterator[QueueDecode]:
    """The file's decoders of the contents a reader reads from a filename queue that cycles for ever
    (`num_epochs` not given, or None), in the function (or module) that makes the queue."""
    if "string_input_producer" not in facts.text:
        return  # no queue: the tree is not needed
    for cell in facts.cells:
        for producer in facts.calls_named(cell, "string_input_producer"):
            if facts.imported_path(producer.func, cell) not in PRODUCERS:
                continue
            epochs = argument(producer, "num_epochs", 1)
            if epochs is not None and not (isinstance(epochs, ast.Constant) and epochs.value is None):
                continue  # a count of passes (a parameter may be 1)
            queue = bound_name(facts, producer, cell)
            scope = enclosing(facts, producer, cell)
            if queue is None or scope is None:
                continue
            for contents in _read_from(facts, scope, queue, cell):
                yield from _decoders_of(facts, scope, contents, producer, cell)


def _read_from(facts: FileFacts, scope: ast.AST, queue: str, cell: int | None) -> list[str]:
    """The names *scope* binds to the contents a reader reads from *queue* (`key, value = reader.read(queue)`)."""
    found = []
    for node in scope_body(scope):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
            continue
        call, target = node.value, node.targets[0]
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "read"):
            continue
        given = argument(call, "queue", 0)
        if isinstance(given, ast.Name) and given.id == queue and isinstance(target, ast.Tuple):
            if len(target.elts) == 2 and isinstance(target.elts[1], ast.Name):
                found.append(target.elts[1].id)
    return found


def _decoders_of(
    facts: FileFacts, scope: ast.AST, contents: str, producer: ast.Call, cell: int | None
) -> Iterator[QueueDecode]:
    for node in scope_body(scope):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Name) and first.id == contents):
            continue
        apis = _decoder_apis(facts, scope, node.func, cell)
        if not apis:
            continue
        what = f"`{ast.unparse(node.func)}()`"
        if isinstance(node.func, ast.Name):  # a name bound to decoders
            what += " (" + " or ".join(f"`{api.replace('tensorflow.', 'tf.', 1)}`" for api in apis) + ")"
        yield QueueDecode(node, cell, producer, what)


def _decoder_apis(facts: FileFacts, scope: ast.AST, func: ast.expr, cell: int | None) -> list[str]:
    """The decoders *func* names: itself (`tf.image.decode_jpeg`), or, for a name *scope* binds, the
    decoders its every binding there names (`decode = tf.image.decode_jpeg`, `decode = tf.image.decode_png`
    under an `if`); [] where one of them is no decoder."""
    path = facts.imported_path(func, cell)
    if path is not None and _decodes_media(path):
        return [path]
    if not isinstance(func, ast.Name):
        return []
    bound = [
        node.value
        for node in scope_body(scope)
        if isinstance(node, ast.Assign) and any(target_binds(t, func.id) for t in node.targets)
    ]
    paths = [facts.imported_path(value, cell) for value in bound]
    if not paths or not all(p is not None and _decodes_media(p) for p in paths):
        return []
    return sorted({p for p in paths if p is not None})


def _decodes_media(path: str) -> bool:
    """An image or audio decoder (`tf.image.decode_jpeg`, `tf.audio.decode_wav`), not a record's parse nor
    `decode_raw` (bytes reinterpreted: nothing worth keeping decoded)."""
    return DECODER.match(path) is not None and MEDIA.search(path) is not None
