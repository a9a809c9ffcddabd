"""Static analysis: find and name TF/Keras call sites without running user code.

`analyse.analyse_file(path)` / `analyse.analyse_source(text, path)` return a `FileAnalysis` holding
the `CallSite`s (canonical API, span, static features: `callsite.py`) and any `FileError`s
(`sources.py`). The package exports nothing itself:
importing it imports no module, so that a warm `greenlint check` reads `Span`s and sources from the
cache without the resolver. Only the standard library's `ast` is used here (no libcst, no
TensorFlow); the TF/Keras catalog is loaded on first use.

What is followed (one pass per file, `resolver.py`): every import form (aliases, from-imports,
imports in functions, try/except and if/else fallbacks, `import *` from TF modules), assignments
and unpacking, `self.X` attributes across methods, class attributes and declared fields,
module-local factory functions (return values, recursion included), parameters bound to the
arguments of a function's or constructor's calls when every use of its name is a call seen and
the calls agree (otherwise they stay unknown), `with ... as`, chained calls, user subclasses
of TF classes (inherited methods, `super()`, calling the object), parameter and return
annotations, arithmetic, comparisons and indexing on tensors, and calls in every syntactic
position. Imports of the project's own modules (absolute, relative, `src/` layouts) are
followed through per-module summaries (`project.py`): names bound to TF objects or literals,
functions' return values, classes' TF bases, method returns and attributes; modules in an import
cycle with each other stay unknown to each other. A generator function whose batches its
parameters decide (`train_generator(2, ...)` drawing from `flow_from_directory(batch_size=
batch_size)`) is walked again for each call, in its module's or another's, with that call's
arguments; a batch the call does not state stays unknown. Where two paths disagree, or a value comes from
elsewhere (a module outside the project, a container, a loop variable, a parameter of a function
another module calls), the value is unknown and no call on it is reported.

Each call site also gets `runs` (how often it runs per program run: runs.py) and `work` (what
it computes: a model's params and FLOPs, the data's samples and batches, an op's elements and
FLOPs, each with its provenance: work.py, arrays.py, ops.py, layers.py, tables in data/work/).
NumPy and `tensorflow_datasets` are followed for shapes and sizes only; no call of theirs is
reported.

Not followed: values put in containers and read back (beyond literal tuple/list indexing and
unpacking), loop variables, `getattr`, `*args`/`**kwargs` forwarding.
"""
