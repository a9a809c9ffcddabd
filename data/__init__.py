"""greenlint's bundled, derived data (catalog, KB, models, work tables), installed as the package
`greenlint.data` and found through `greenlint.paths.DATA_DIR`."""
