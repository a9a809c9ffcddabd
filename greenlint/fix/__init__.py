"""Fixes: what a rule's finding can be rewritten to, as data on the Diagnostic.

A rule names its fix with one of the codemods of `greenlint.rules.codemods` (`FIX = SetArgument(...)`);
`greenlint.fix.engine` finds the finding's call in a LibCST tree, asks the codemod for its edits
(`Codemod.rewrite`), checks that they fit the line length and attaches them (`Diagnostic.fix`), and
applies them for `greenlint check --fix/--diff` and the editor's quick fix and fix-all alike.
"""
