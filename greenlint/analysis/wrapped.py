"""A wrapper method's call walked with its caller's arguments (issue 26: a function's summary stays
symbolic in its parameters and is instantiated per call, across modules).

`model = modellib.MaskRCNN(mode="training", config=config, ...)` then `model.train(..., epochs=30)` in a
script: `MaskRCNN.train` (another module) spends its work in `self.keras_model.fit_generator(...,
epochs=epochs, steps_per_epoch=self.config.STEPS_PER_EPOCH)`. The call in the script is a call site of
that API (wrappers.py), and the wrapped call's arguments are known only for one call: so the class
keeps such a method and its `__init__` as `Template`s (`keeps`, `keep_constructor`), an instance
carries what its construction passed (`ExtInst.passed`), and each call walks `__init__` with those,
then the method with its own arguments (`Resolver.constructed_returns`, values only), and takes the
wrapped call's features and work as that walk found them (`follow`). Two callers giving different
epochs each get their own; the wrapped call in its own module keeps its parameters unknown. A method
building graph ops from what `__init__` kept (`reader.dequeue(batch_size)` batching the element its
construction decoded and cropped) is walked so too, and returns that construction's tensors (`built`).
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis.values import ClassInfo, ExtClass, ExtInst, FuncInfo, Template, Walk

#: The features of the wrapped call the caller's site keeps its own of (where it is, how often it runs,
#: what its receiver is: the wrapper, whatever the wrapped call's own receiver was).
OWN = frozenset({"loop_multiplier", "receiver", "receiver_kind", "via", "fed", "in_keras_step", "in_tf_function"})


def keeps(method: FuncInfo) -> bool:
    """Whether a class keeps *method* as a `Template` for its callers: an ordinary method with
    parameters that spends its work in a TF call (`FuncInfo.runs`), `__call__` aside (kept where
    it builds graph ops, `project._builds_graph`)."""
    return method.runs is not None and method.kind == "method" and method.has_parameters \
        and method.node.name not in ("__init__", "__call__")


def keep_constructor(ext: ExtClass, info: ClassInfo, functions: tuple, model: bool = False, graphs: bool = False) -> None:
    """Keep the class's own `__init__` as a `Template` where it keeps a method `keeps` takes, or the
    class is a Keras model (*model*) or keeps a method building graph ops (*graphs*: `reader.dequeue(n)`,
    its tensors shaped by what the construction gave) whose `__init__` has parameters (its layers sized
    by each construction's arguments: `Resolver.constructed_layers`), so that each construction records
    what it passes (`ExtInst.passed`)."""
    init = info.find_method("__init__")
    if "__init__" in ext.templates or init is None or init.state is not Walk.DONE or init.cls is not info:
        return
    if (model or graphs) and init.has_parameters or any(keeps(template.info) for template in ext.templates.values()):
        ext.templates["__init__"] = Template(init, functions)


def follow(resolver: Any, bound: tuple[ExtInst, str], api: str, args: list, keywords: list) -> tuple[dict, dict] | None:
    """(features, work) of the call of *api* that the method *bound* (an instance, a method name)
    of the caller's walk (*resolver*, the `Resolver`: this module is below it)
    spends its work in, for this call's *args* and *keywords* and the instance's construction;
    None where that cannot be told: the construction's arguments not kept, the method already
    being walked, or its walk making no such call or several (in its own body)."""
    from greenlint.analysis.unroll import MAX_DEPTH  # (as the resolver's: a warm run never follows one)
    from greenlint.analysis.wrappers import WRAPPER

    inst, name = bound
    init, method = inst.cls.templates.get("__init__"), inst.cls.templates.get(name)
    if inst.passed is None or init is None or method is None or init.info.cls is None \
            or method.info.cls not in init.info.cls.mro() \
            or id(method.info) in resolver.unrolling or len(resolver.unrolling) >= MAX_DEPTH:
        return None
    made: list[Any] = []
    given = resolver.bind_arguments(method.info, args, keywords)
    # its module names TensorFlow or Keras (its walk found the TF call): an untyped `.predict(` there is Keras's
    imported, resolver.tf_imported = resolver.tf_imported, True
    try:
        resolver.constructed_returns(init.info, inst.passed, method.info, method.functions, given, made)
    finally:
        resolver.tf_imported = imported
    found = [c for c in made if c.api == api and c.func is method.info and c.features.get("receiver") != WRAPPER]
    if not found or any(c.node is not found[0].node or c.work != found[0].work for c in found[1:]):
        return None
    features = {key: value for key, value in found[0].features.items() if key not in OWN}
    return features, found[0].work


def built(resolver: Any, bound: tuple[ExtInst, str], args: list, keywords: list) -> Any:
    """What the graph-building method *bound* (an instance, a method name: `reader.dequeue(batch_size)`)
    returns for this call's *args* and *keywords* after the instance's construction (its `__init__`
    walked with what it passed, values only: `Resolver.constructed_returns`), where that holds a tensor
    (the queue's batch of the element's static shape that construction gives); None where that cannot be
    told: the construction's arguments not kept, the method being walked, or no tensor returned."""
    from greenlint.analysis.arrays import holds_tensor
    from greenlint.analysis.unroll import MAX_DEPTH

    inst, name = bound
    init, method = inst.cls.templates.get("__init__"), inst.cls.templates.get(name)
    if inst.passed is None or init is None or method is None or init.info.cls is None or name == "__init__" \
            or method.info.state is not Walk.DONE or method.info.runs is not None \
            or method.info.cls not in init.info.cls.mro() \
            or id(method.info) in resolver.unrolling or len(resolver.unrolling) >= MAX_DEPTH:
        return None
    given = resolver.bind_arguments(method.info, args, keywords)
    returns = resolver.constructed_returns(init.info, inst.passed, method.info, method.functions, given)
    value = returns[0] if len(returns) == 1 else None
    return value if holds_tensor(value) else None
