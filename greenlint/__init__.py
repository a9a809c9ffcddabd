"""greenlint: an energy linter for TensorFlow/Keras code.

Importing this package is cheap on purpose: heavy dependencies (libcst, pandas,
scipy) are imported by the submodules that need them, and TensorFlow never is.
"""

__version__ = "0.1.0"
