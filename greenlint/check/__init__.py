"""The check pipeline: discovery, configuration, parallel cached analysis, rules, suppressions.

The package exports nothing: callers import each name from the module that defines it
(`greenlint.check.pipeline:run_check`, `greenlint.check.config:Config`), so importing one module of
the package (the lint cache, the configuration) does not import the whole pipeline."""
