"""Per-site profiles: what `greenlint measure` measured at each call site, stored for `check`,
`calls`, GL101 and the editor to show instead of the forecast (docs/measurements.md, "Profiles").

`store` reads and writes the versioned `.greenlint/profiles.json`; `lookup` matches a file's call
sites to their profiles by statement hash and turns a match into a `profiled` Prediction.
"""

__all__ = [
    "PROFILE_DIR",
    "PROFILE_FILE",
    "FileProfiles",
    "ProfileError",
    "apply_profiles",
    "find_profile_file",
    "for_file",
    "stamp",
    "statement_hash",
]

#: Imported on first use: the check runner needs only `stamp`, not the predictions `lookup` imports.
_LAZY = {"FileProfiles": "lookup", "apply_profiles": "lookup", "for_file": "lookup", "statement_hash": "lookup",
         "PROFILE_DIR": "store", "PROFILE_FILE": "store", "ProfileError": "store", "find_profile_file": "store",
         "stamp": "store"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"greenlint.profile.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'greenlint.profile' has no attribute {name!r}")
