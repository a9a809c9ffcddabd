"""Per-site profiles: what `greenlint measure` measured at each call site, stored for `check`,
`calls`, GL101 and the editor to show instead of the forecast (docs/measurements.md, "Profiles").

`store` reads and writes the versioned `.greenlint/profiles.json`; `lookup` matches a file's call
sites to their profiles by statement hash and turns a match into a `profiled` Prediction. The package
exports nothing: the check runner imports `store` alone, not the predictions `lookup` imports.
"""
