"""Static analysis: find and name TF/Keras call sites without running user code.

`analyse_file(path)` / `analyse_source(text, path)` return a `FileAnalysis` holding the
`CallSite`s (canonical API, span, static features) and any `FileError`s. Only the standard
library's `ast` is used here; the TF/Keras catalog is loaded on first use.
"""

from greenlint.analysis.analyse import FileAnalysis, analyse_file, analyse_files, analyse_source
from greenlint.analysis.callsite import CallSite, Span
from greenlint.analysis.sources import FileError

__all__ = ["CallSite", "FileAnalysis", "FileError", "Span", "analyse_file", "analyse_files", "analyse_source"]
