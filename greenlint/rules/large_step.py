"""Evidence that a Keras training step is large enough for faster arithmetic to matter.

A step is compute-bound on its matrix multiplications and convolutions when its forward and
backward FLOPs (`Site.training_passes` x the model's FLOPs per sample x the batch: 3, fewer where
layers are frozen) reach the n-half of
greenlint's cost model (`HALF_PEAK_FLOPS`, greenlint/predict/work_energy.py): below it a GPU kernel
runs far under peak and the step's time is launches and Python. Where the analysis does not know
the FLOPs, only what the program names is evidence: a Keras Application or a keras-hub/keras-cv
model, or a project factory named after a large public architecture, called by the file or by
the project class or function it builds its model with. A few Dense or RNN layers on
data of unknown width are no evidence either way: unknown stays unknown.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from collections.abc import Callable, Iterator

from greenlint.analysis.callsite import UNTYPED_BATCH
from greenlint.analysis.import_table import resolver
from greenlint.analysis.project import file_stamp, project_bindings
from greenlint.predict.work_energy import HALF_PEAK_FLOPS, TRAINING_FLOPS
from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import read_tree
from greenlint.rules.defaults import other_mode
from greenlint.rules.networks import NETWORK_NAMES
from greenlint.rules.site import Site
from greenlint.rules.syntax import cell_units, last_name

#: Words naming public architectures whose training step is large at their usual input sizes
#: (10^9 FLOPs per sample and more: transformers at sequence lengths of hundreds, ImageNet CNNs,
#: detectors and segmentation networks at their image sizes; image-to-image generators, whose
#: convolutions run at every pixel: pix2pix's U-Net and CycleGAN's ResNet generator at 256x256,
#: 18.6 and 56.8 GMACs forward, U-GAT-IT's more; EDSR's and SRGAN's 16 residual blocks of 64
#: channels, about 4 MFLOPs per low-resolution pixel, some 2 GFLOPs on their smallest 24x24
#: training crops, ESRGAN's dense blocks far more; not DCGAN, whose MNIST forms are small, nor
#: WDSR's 32-channel baseline), as a project's factory function spells them
#: (`build_transformer_model`, `efficientdet(phi)`, `create_resnet50`).
ARCHITECTURES = frozenset(
    {
        "bert",
        "albert",
        "roberta",
        "electra",
        "unilm",
        "gpt",
        "gpt2",
        "t5",
        "transformer",
        "resnet",
        "resnext",
        "densenet",
        "inception",
        "xception",
        "vgg",
        "darknet",
        "efficientnet",
        "efficientdet",
        "yolo",
        "yolov3",
        "retinanet",
        "maskrcnn",
        "unet",
        "segnet",
        "pspnet",
        "deeplab",
        "deeplabv3",
        "pix2pix",
        "cyclegan",
        "ugatit",
        "edsr",
        "srgan",
        "esrgan",
    }
)

APPLICATIONS = "tensorflow.keras.applications."
#: TensorFlow Hub's loaders of a TF2 SavedModel into Keras code: the model computes in the float32 it was
#: exported with whatever the Keras policy, which reaches only the layers around it (tensorflow/hub
#: issues 466, 748 and 854): a factory that loads one is no evidence of a step the policy speeds up.
HUB_LOADERS = frozenset({"tensorflow_hub.KerasLayer", "tensorflow_hub.load"})


def step_flops(site: Site) -> tuple[float, bool, int | None] | None:
    """The training step's FLOPs where the model's are known: (FLOPs, a lower bound?, the batch or
    None where it is unknown, the FLOPs then those of a batch of one: a lower bound)."""
    flops, batch = site.work_value("flops_per_sample"), site.work_value("batch_size")
    if batch is None and site.work_value("step") is not None:
        batch = site.work_value("samples")  # a step's own samples: the batch a graph run or a forward call holds
    if not isinstance(flops, (int, float)) or isinstance(flops, bool) or flops <= 0:
        return None
    if not (isinstance(batch, int) and not isinstance(batch, bool) and batch > 0) or _assumed_batch(site):
        return site.training_passes() * flops, True, None
    return site.training_passes() * flops * batch, site.work_lower("flops_per_sample"), batch


def _assumed_batch(site: Site) -> bool:
    """The batch is Keras' default taken for an input the analysis does not know: 32 holds for
    arrays, but a dataset or a generator batches itself (a `.batch(flags.batch_size)` of 1024),
    so the batch is unknown."""
    batch = site.callsite.work.get("batch_size")
    return batch is not None and batch.note == UNTYPED_BATCH


def small_step(site: Site) -> bool:
    """The step's exact work is known and below `HALF_PEAK_FLOPS`: faster arithmetic saves nothing."""
    step = step_flops(site)
    return step is not None and not step[1] and step[0] < HALF_PEAK_FLOPS


def large_step(site: Site) -> str:
    """Why the fit's step is large, from its own work: its FLOPs (or their known lower bound) at
    or above `HALF_PEAK_FLOPS`, or a named model (a Keras Application, a keras-hub/keras-cv model);
    "" where the site gives no such evidence."""
    step = step_flops(site)
    name = site.work_value("model")
    named = isinstance(name, str) and name
    if step is not None and step[0] >= HALF_PEAK_FLOPS:
        flops, lower, batch = step
        whose = f"it trains {name}, whose" if named else "its"
        times = f"batch {batch}" if batch else "a batch of unknown size, taken as 1"
        passes = site.training_passes()
        frozen = "" if passes == TRAINING_FLOPS else ": no backward pass through its frozen layers"
        return (
            f"{whose} training step is {'at least ' if lower else ''}{flops:.1e} FLOPs "
            f"({passes:.3g} x forward FLOPs per sample x {times}{frozen}), compute-bound on a GPU"
        )
    if named:
        return f"it trains {name}, a large named architecture"
    library = site.features.get("library")
    if site.features.get("receiver") == "library" and isinstance(library, str):
        return f"it trains a {library} model, a large pretrained architecture"
    return ""


def built_backbone(facts: FileFacts) -> tuple[str, tuple[int, int]] | None:
    """Why the file's models are large, from what it builds, and where (cell, line; cell 0 in a
    script): a Keras Application (a pretrained backbone, often inside a `Sequential` the analysis
    cannot price), a call of a project factory function named after a large architecture (not
    an attribute of `self` called: `self.vgg(x)` runs a model the object holds, of any size, nor one
    whose definition loads its network from TensorFlow Hub, `_from_hub`), or of a project class or
    function of a module the file imports that builds one (`imported_builder`); None where none."""
    for site in facts.sites:
        name = site.api.rsplit(".", 1)[-1]
        if site.api.startswith(APPLICATIONS) and name[:1].isupper():
            span = site.callsite.span
            return f"the file builds keras.applications.{name}, a large pretrained architecture", (
                span.cell or 0,
                span.line,
            )
    for cell, _ in cell_units(facts):
        for node in facts.nodes(cell, ast.Call):  # the file's one walk, shared
            name = last_name(node.func)
            word = "" if _of_self(node.func) else architecture(name) or _defined_camel(facts, name)
            # not built in a mode beside the default only, nor loaded from TensorFlow Hub
            if word and not other_mode(facts, node, cell) and not _from_hub(facts, cell, node):
                why = f"the file builds its model with {name}(), named after the {word} architecture"
                return why, (cell or 0, node.lineno)
    return imported_builder(facts)


def _from_hub(facts: FileFacts, cell: int | None, call: ast.Call) -> bool:
    """The function or class *call* calls, defined in the file or in a project module it imports,
    loads a TensorFlow Hub SavedModel (`build_bert_model(handle)` whose body makes a
    `hub.KerasLayer(handle)`): the architecture its name names is that SavedModel (`HUB_LOADERS`)."""
    name = last_name(call.func)
    for where, function in facts.functions_named(name):
        if _loads_hub_model(function, functools.partial(facts.imported_path, cell=where)):
            return True
    for where, _ in cell_units(facts):
        for node in facts.nodes(where, ast.ClassDef):
            if isinstance(node, ast.ClassDef) and node.name == name \
                    and _loads_hub_model(node, functools.partial(facts.imported_path, cell=where)):
                return True
    sources = _imported_names(os.path.abspath(facts.path), facts.nodes(cell, ast.Import, ast.ImportFrom))
    return any(_defined_from_hub(file, name) for file in _callee_files(call.func, sources))


def _defined_from_hub(path: str, name: str) -> bool:
    """The top-level class or function *name* of the project module at *path* loads a TensorFlow Hub
    SavedModel, its names read through that module's imports."""
    module = _module(path, file_stamp(path))
    return any(
        isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
        and _loads_hub_model(node, resolver(module, node))
        for node in module.body
    )


def _loads_hub_model(definition: ast.AST, resolve: Callable[[ast.expr], str | None]) -> bool:
    """*definition* calls one of TensorFlow Hub's `HUB_LOADERS`, its callees' paths read by *resolve*."""
    return any(isinstance(node, ast.Call) and resolve(node.func) in HUB_LOADERS for node in ast.walk(definition))


def imported_builder(facts: FileFacts) -> tuple[str, tuple[int, int]] | None:
    """A call of the file to a class or function that a project module it imports defines
    (`model_lib.Model(n)` after `import model as model_lib`; `build(...)` after `from nets import
    build` or `import *`) whose own code builds a large architecture (`large_builder`): why, and
    where the file calls it; None where no such call."""
    for cell, node, sources in _imported_calls(facts):
        func = node.func
        if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name):
            for file in sources.get(func.value.id, ()) + sources.get("*", ()):
                if (held := large_registry(file, func.value.id)) and not other_mode(facts, node, cell):
                    return f"the file builds its model from {func.value.id}[...], which {held}", (cell or 0, node.lineno)
            continue
        for file in _callee_files(func, sources):
            if (built := large_builder(file, last_name(func))) and not other_mode(facts, node, cell):
                return f"the file builds its model with {ast.unparse(func)}(), whose definition {built}", (
                    cell or 0,
                    node.lineno,
                )
    return None


def imported_definitions(facts: FileFacts) -> Iterator[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef]:
    """The top-level classes and functions of project modules the file imports that the file calls
    (`Net` for `Net(...)` after `from model import Net`, `create_optimizer` for
    `optimization.create_optimizer(...)` after `import optimization`)."""
    for _, node, sources in _imported_calls(facts):
        name = last_name(node.func)
        for file in _callee_files(node.func, sources):
            for definition in _module(file, file_stamp(file)).body:
                if isinstance(definition, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                        and definition.name == name:
                    yield definition


def _imported_calls(facts: FileFacts) -> Iterator[tuple[int | None, ast.Call, dict[str, tuple[str, ...]]]]:
    """Each call of a cell (or the file) that imports project modules, with the files its imported names may
    come from (`_imported_names`)."""
    path = os.path.abspath(facts.path)
    for cell, _ in cell_units(facts):
        sources = _imported_names(path, facts.nodes(cell, ast.Import, ast.ImportFrom))
        if sources:
            for node in facts.nodes(cell, ast.Call):
                yield cell, node, sources


def _callee_files(func: ast.expr, sources: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The project files that may define what a call of *func* calls: the module an alias names
    (`model_lib.Net`, also after `from bert import modeling`: `modeling.BertModel`), or those a name
    was imported from (`Net`, or any `import *`)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return sources.get(func.value.id + ".", ())
    if isinstance(func, ast.Name):
        return sources.get(func.id, ()) + sources.get("*", ())
    return ()


def has_method(node: ast.AST, method: str) -> bool:
    """*node* is a class with its own *method*."""
    return isinstance(node, ast.ClassDef) and any(
        isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == method for f in node.body
    )


def _imported_names(path: str, imports: tuple[ast.Import | ast.ImportFrom, ...]) -> dict[str, tuple[str, ...]]:
    """The project files behind the names an import binds (`project_bindings`): `"alias."` for a
    module (its members are called through it), a name for what `from module import name` binds,
    `"*"` for the modules of `from module import *`."""
    names: dict[str, tuple[str, ...]] = {}
    for name, bound in project_bindings(path, imports).items():
        for file, member in bound:
            if file is not None and file != path:
                key = name if member else name + "."
                names[key] = names.get(key, ()) + (file,)
    return names


#: What a module defines at its top level that a program may call to build its model.
DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def large_builder(path: str, name: str, hops: int = 2) -> str:
    """What the top-level class or function *name* of the module at *path* builds, where it is a
    large architecture: itself, a CamelCase function or class of the whole network named after one
    (`ResnetV2(tf.keras.Model)`, `DeepLabResNetModel(Network)`: `whole_network`), or a Keras Application (`applications.ResNet50(...)`) or a
    factory named after one (`resnet.resnet(...)`) called in its body or its methods; "" otherwise, and
    where it loads its network from TensorFlow Hub (`HUB_LOADERS`). A package's `__init__` that imports
    *name* from a module of its own (`from .model import DeepLabResNetModel`) is read through to that
    module, a hop at a time (*hops* at most)."""
    module = _module(path, file_stamp(path))
    body = module.body
    if hops and not any(isinstance(node, DEFINITIONS) and node.name == name for node in body):
        imports = tuple(node for node in body if isinstance(node, (ast.Import, ast.ImportFrom)))
        for file, member in project_bindings(path, imports).get(name, ()):
            if file is not None and file != path and member and (built := large_builder(file, member, hops - 1)):
                return built
        return ""
    functions = {node.name for node in body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    functions |= {node.name for node in body if isinstance(node, ast.ClassDef) and whole_network(node)}
    for node in body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            if _loads_hub_model(node, resolver(module, node)):
                return ""
            if name in functions and (word := camel_architecture(name)):
                what = "model class" if isinstance(node, ast.ClassDef) else "function"
                return f"is a {what} named after the {word} architecture"
            if (registry := _returned_registry(node)) and (held := large_registry(path, registry)):
                return f"returns an entry of {registry}, which {held}"
            for call in ast.walk(node):
                if not isinstance(call, ast.Call) or _of_self(call.func):
                    continue
                called = last_name(call.func)
                if isinstance(call.func, ast.Attribute) and "applications" in ast.unparse(call.func.value):
                    return f"builds keras.applications.{called}, a large pretrained architecture"
                if (word := architecture(called)) or (called in functions and (word := camel_architecture(called))):
                    return f"calls {called}(), named after the {word} architecture"
    return ""


def _returned_registry(node: ast.AST) -> str:
    """The name a function returns an entry of (`return networks_obj[name]`: a getter of a registry); ""
    where it returns none."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ""
    returned = (n.value for n in ast.walk(node) if isinstance(n, ast.Return))
    return next((v.value.id for v in returned if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name)), "")


def large_registry(path: str, name: str) -> str:
    """What the registry *name* of the module at *path* holds, where most of its models are large:
    a dict of model constructors, filled at the module's top level (`name["vgg_unet"] =
    unet.vgg_unet`, or a dict literal), from which a program builds the model it trains by a key
    it is given (`name[args.model](n_classes)`, or through a getter, `get_network(name)` returning
    `name[...]`). An entry is large when its name, or the key a constructor (not a value: `{"vgg": 16}`) is
    filed under, has the name of a large architecture among its words (`resnet50_pspnet`, `fcn_8_vgg`, `"ssd_300_vgg": SSDNet`: a
    whole model built on that network) or its definition builds one (`large_builder`). "" where none,
    or at most half, are: the key chooses, and a registry of mostly small models is no evidence."""
    module = _module(path, file_stamp(path))
    entries: dict[str, ast.expr] = {}
    for node in module.body:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name:
                entries[_key(target.slice)] = node.value
            elif isinstance(target, ast.Name) and target.id == name and isinstance(node.value, ast.Dict):
                entries.update((_key(k), v) for k, v in zip(node.value.keys, node.value.values) if k)
    if not entries:
        return ""
    imports = tuple(n for n in module.body if isinstance(n, (ast.Import, ast.ImportFrom)))
    sources = _imported_names(path, imports)
    large = [
        key if _named_large(key) else last_name(value) for key, value in entries.items()
        if (_named_large(key) and isinstance(value, (ast.Name, ast.Attribute))) or _large_entry(path, value, sources)
    ]
    if 2 * len(large) <= len(entries):
        return ""
    return f"holds {len(large)} large architectures among its {len(entries)} models ({', '.join(large[:3])}, ...)"


def _key(key: ast.expr) -> str:
    """A registry's key as written: a string's own text (`"ssd_300_vgg"`), any other expression's source."""
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else ast.unparse(key)


def _named_large(name: str) -> bool:
    """A snake_case name has a large architecture's name among its words (`resnet50_pspnet`, `ssd_300_vgg`)."""
    return any(re.sub(r"\d+$", "", word) in ARCHITECTURES for word in name.split("_"))


def _large_entry(path: str, value: ast.expr, sources: dict[str, tuple[str, ...]]) -> bool:
    """A registry's constructor *value* builds a large model: its name has an architecture's among
    its words, or its definition (in the registry's module or one it imports) builds one."""
    called = last_name(value)
    if _named_large(called):
        return True
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
        files = sources.get(value.value.id, ()) + sources.get(value.value.id + ".", ())
    elif isinstance(value, ast.Name):
        files = (path, *sources.get(value.id, ()), *sources.get("*", ()))
    else:
        return False
    return any(large_builder(file, called) for file in files)


@functools.lru_cache(maxsize=256)
def _module(path: str, stamp: tuple[int, ...] | None) -> ast.Module:
    """The tree of the project module at *path* (as it is at *stamp*), the run's own where the run
    parsed it (`callbacks.read_tree`); an empty one where it cannot be read or parsed."""
    read = read_tree(path)
    return read[1] if read is not None else ast.Module(body=[], type_ignores=[])


def _of_self(func: ast.expr) -> bool:
    """`self.vgg(...)`: an object's attribute called (a model or layer it holds), not a factory."""
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"


#: A factory's name may begin with a verb and end with a noun around the architecture's name.
BUILDERS = frozenset({"build", "create", "make", "get", "construct", "new"})
NOUNS = frozenset({"model", "net", "network", "backbone", "body", "detector", "classifier", "encoder", "graph"})
#: What may follow the architecture's name: a depth, version or size (`resnet_50`, `bert_base`).
VARIANT = re.compile(r"(v?\d+[a-z]?|[a-z]\d+|base|large|small|tiny|lite|mini)")


def factory_architecture(function: str) -> str:
    """The large architecture the name of what is known to be a function names, snake_case
    (`architecture`) or CamelCase (`camel_architecture`): Keras code often names its factory
    functions as classes (yolov3-tf2's `YoloV3`, `Darknet`: each builds a model)."""
    return architecture(function) or camel_architecture(function)


def architecture(function: str) -> str:
    """The large architecture a snake_case factory function's name names: the architecture's name
    (with its depth or size: `resnet50`, `bert_base`), optionally after a verb and before a noun
    (`build_transformer_model`: "transformer", `efficientdet`, `create_unet`; `yolo_body`, the
    whole network but its loss, as YOLO code names it; `resnet_graph`, the network's graph, as TF1
    and Keras 2 code such as Mask R-CNN's names it); "" for any other
    name (`define_densenet_flags`, `resnet_block`) and for classes (CamelCase: a layer or block of
    any size)."""
    if not function or function != function.lower():
        return ""
    words = function.split("_")
    if len(words) > 1 and words[0] in BUILDERS:
        words = words[1:]
    if len(words) > 1 and words[-1] in NOUNS:
        words = words[:-1]
    head = re.sub(r"\d+$", "", words[0])
    if head not in ARCHITECTURES or not all(VARIANT.fullmatch(word) for word in words[1:]):
        return ""
    return head


_HEADS = "|".join(sorted(ARCHITECTURES, key=len, reverse=True))
#: A CamelCase name's words, lower-cased and joined: an architecture's, then depths, versions or sizes, then
#: optionally the backbone it is built on (`DeepLabResNet`), then a noun (`ResNet50`, `YoloV3`,
#: `EfficientNetB3`, `UNetModel`).
_CAMEL = re.compile(
    r"(?P<head>" + _HEADS + r")(?:" + VARIANT.pattern + r")*"
    + r"(?:(?:" + _HEADS + r")(?:" + VARIANT.pattern + r")*)?"
    + r"(?P<noun>" + "|".join(sorted(NOUNS)) + r")?"
)
#: The nouns that make a CamelCase class the whole network, whatever it derives from (`DeepLabResNetModel`,
#: a TF1 graph builder's class): never a block or layer's.
WHOLE_MODEL = frozenset({"model", "network"})


def _defined_camel(facts: FileFacts, name: str) -> str:
    """`camel_architecture` of *name* where the file defines a function of that name, or a class of
    the whole network (`whole_network`), not any other class."""
    word = camel_architecture(name)
    if not word:
        return ""
    if facts.functions_named(name):
        return word
    classes = (node for cell, _ in cell_units(facts) for node in facts.nodes(cell, ast.ClassDef))
    return word if any(isinstance(c, ast.ClassDef) and c.name == name and whole_network(c) for c in classes) else ""


def keras_model_class(node: ast.ClassDef) -> bool:
    """The class derives from a Keras `Model` or `Sequential` (`class ResnetV2(tf.keras.Model)`,
    `(Model)` after `from keras.models import Model`): a whole network, not a layer or block of any size."""
    return any(last_name(base) in NETWORK_NAMES for base in node.bases)


def whole_network(node: ast.ClassDef) -> bool:
    """The class is a whole network: a Keras model class (`keras_model_class`), or one whose CamelCase name
    ends in a `WHOLE_MODEL` noun after an architecture's (`class DeepLabResNetModel(Network)`, a TF1 graph
    builder's own base), which names the model, not a block of it (`ResNetBlock`, `class ResNet50(Layer)`)."""
    found = _CAMEL.fullmatch(node.name.lower()) if node.name[:1].isupper() and "_" not in node.name else None
    return keras_model_class(node) or (found is not None and found["noun"] in WHOLE_MODEL)


def camel_architecture(function: str) -> str:
    """The large architecture a CamelCase *function*'s name names (`YoloV3`, `ResNet50`, `UNet`,
    `Darknet`: how Keras Applications and much research code name their factories); "" for any other
    name (`DarknetConv`, `ResNetBlock`: a block of any size) and for snake_case (`architecture`'s).
    Read only for a name the code defines as a function or a class of the whole network
    (`whole_network`), never another class's: a class named so may be a layer of any size."""
    if not function[:1].isupper() or "_" in function:
        return ""
    found = _CAMEL.fullmatch(function.lower())
    return found["head"] if found else ""
