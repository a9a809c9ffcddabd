"""Fixes: what a rule's finding can be rewritten to, as data on the Diagnostic.

A rule names its fix's codemod, one of `greenlint.fix.codemods`, with its arguments
(`FIX = FixBy("SetArgument", {...}, safe=...)`); `greenlint.fix.engine` makes that codemod, finds the
finding's call in a LibCST tree, asks the codemod for its edits
(`Codemod.rewrite`), checks that they fit the line length and attaches them (`Diagnostic.fix`), and
applies them for `greenlint check --fix/--diff` and the editor's quick fix and fix-all alike.
"""
