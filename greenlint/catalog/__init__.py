"""The TensorFlow API catalog: public names, signatures, and kinds.

Loaded from `data/catalog/` without importing TensorFlow; regenerate it with
``python -m tools.catalog.generate`` where TensorFlow is installed. Import what you use from its
modules (`greenlint.catalog.catalog`, `.names`, `.kinds`): the package itself loads none of them, so
a module reading `greenlint.catalog.names` alone (a rule's `TF1_PREFIX`, in a warm run) loads no
catalog loader.
"""
