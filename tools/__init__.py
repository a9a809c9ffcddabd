"""greenlint's development tools: what builds the shipped data, trains and evaluates the predictor
and writes the generated docs (`make data`). Never installed: the runtime package only reads what
these write (CONTRIBUTING.md, "Runtime and tools")."""

from pathlib import Path

#: The repository's root (tools/ runs from a checkout, never from an install).
REPO_DIR = Path(__file__).resolve().parents[1]

#: The checkout's data/, which the generators write: never the installed copy that
#: `greenlint.paths.DATA_DIR` names outside an editable install.
DATA_DIR = REPO_DIR / "data"
