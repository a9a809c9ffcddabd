"""Callables whose trainable variables the code differentiates: models, whatever their value.

A training step's model often reaches it as a value the walk cannot type: a constructor's
argument kept on `self` (`self.generator(lr, training=True)`), a model kept in a
`tf.train.Checkpoint` (`self.checkpoint.model(lr)`). What the step does with it tells what it is:
`tape.gradient(loss, m.trainable_variables)` and `opt.apply_gradients(zip(grads,
m.trainable_variables))` read the trainable variables of a `tf.Module`, so `m`, called under the
tape, is a Keras model or layer whose forward pass that step trains. The resolver asks only for a
call under a tape whose callee it cannot type (`Resolver.e_call`), so a function's body is scanned
at most once, and only where such a call is made.
"""

from __future__ import annotations

import ast

from greenlint.analysis import trees

#: The attributes of a `tf.Module` (a Keras layer or model) that list the variables a step updates.
TRAINABLE = frozenset({"trainable_variables", "trainable_weights"})


def trained(body: ast.AST) -> frozenset[str]:
    """The expressions (as `ast.unparse` writes them) whose trainable variables *body* reads:
    `self.checkpoint.model` for `self.checkpoint.model.trainable_variables`."""
    return frozenset(
        ast.unparse(node.value) for node in trees.walk(body)
        if type(node) is ast.Attribute and node.attr in TRAINABLE and type(node.ctx) is ast.Load
    )
