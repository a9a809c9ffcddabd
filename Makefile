# Two commands: `make run` (lint the bundled examples: installs the linter alone, no TensorFlow)
# and `make test` (the whole suite: adds the dev extras, TensorFlow included).
# `make test-fast`: the edit-test loop (rules, analysis, report, review, the check pipeline; no test marked slow), not a substitute for `make test`.
# `make test-editor`: the VS Code extension in a real editor (code-server + Chromium), apart from `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test test-fast install data applications static-features test-editor

# `--quiet` twice: errors only (setuptools prints a page-long notice on every editable install).
$(BIN)/greenlint: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --quiet --upgrade pip
	$(BIN)/pip install --quiet --quiet -e .
	touch $(BIN)/greenlint

$(VENV)/.dev-extras: $(BIN)/greenlint
	$(BIN)/pip install --quiet --quiet -e '.[dev]'
	touch $(VENV)/.dev-extras

install: $(BIN)/greenlint

run: $(BIN)/greenlint
	$(BIN)/greenlint calls examples/ --format text
	$(BIN)/greenlint check examples/ --exit-zero

test: $(VENV)/.dev-extras
	$(BIN)/python -m pytest

FAST_TESTS := tests/rules tests/analysis tests/report tests/review tests/check

test-fast: $(VENV)/.dev-extras
	$(BIN)/python -m pytest $(FAST_TESTS) -q -m "not slow and not tensorflow and not shared and not e2e" -p no:cacheprovider

# The extension packaged with vsce, installed in code-server 4.100.3 and driven in Debian's Chromium
# through Playwright; screenshots go to docs/img/. Needs root for the Debian packages (or install
# them first: chromium libkrb5-dev ripgrep), npm and PyPI. See docs/editor.md.
EDITOR_TEST := vscode-extension/test/editor
EDITOR_DEBS := chromium libkrb5-dev ripgrep

test-editor: $(BIN)/greenlint
	$(BIN)/pip install --quiet --quiet -e '.[lsp,editor]' 'pytest>=8' 'pytest-timeout>=2'
	@dpkg -s $(EDITOR_DEBS) >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(EDITOR_DEBS); } || \
		{ echo "test-editor: install the Debian packages $(EDITOR_DEBS) (as root)" >&2; exit 2; }
	cd vscode-extension && npm ci --no-audit --no-fund
	$(EDITOR_TEST)/setup.sh
	$(BIN)/python -m pytest $(EDITOR_TEST) -m e2e -p no:cacheprovider

# Rebuild the derived data in dependency order (needs ../shared and the meter extra's TensorFlow):
# catalog -> KB -> predictor model -> docs/accuracy.md -> rule docs (they quote the predictor) -> README's
# `greenlint diff` example (its figures are the predictor's).
# The Keras Applications tables (data/work/keras_applications.csv, keras_application_layers.csv) are rebuilt
# apart, by `make applications` (it builds all 40 models to count their FLOPs: tens of minutes).
# data/kb/static_features.csv and script_sites.csv are regenerated apart: `make static-features data` does both.
# The table of libraries built on Keras (data/catalog/libraries.json.gz) is read from those installed here; a
# library not installed keeps its entries (data/catalog/README.md says how to read it from its wheel instead).
data: $(VENV)/.dev-extras
	$(BIN)/python -m tools.catalog.generate
	$(BIN)/python -m tools.catalog.libraries
	$(BIN)/greenlint kb build --out data/kb
	$(BIN)/python -m tools.model.training_data
	$(BIN)/python -m tools.model.train
	$(BIN)/python -m tools.model.evaluate
	$(BIN)/python -m tools.generate_all

applications: $(VENV)/.dev-extras
	$(BIN)/python -m tools.applications
	$(BIN)/python -m tools.application_layers

# The resolver's static features and work of the measured call sites, and every call of the tutorials
# measured end to end (data/kb/PROVENANCE.md): needs git snapshots of the measured sources, by default
# bare clones at $(MIRROR)/<owner>+<name>/repo; override any, e.g.
# make static-features DOCS_GIT=../docs.git FECOM_GIT=../FECoM.git REPOS="tensorflow/gnn=../gnn.git"
# Then `make data` (the staleness test of data/kb/static_features.inputs asks for both).
MIRROR ?= ../.mirror
DOCS_GIT ?= $(MIRROR)/tensorflow+docs/repo
FECOM_GIT ?= $(MIRROR)/SMART-Dal+FECoM/repo
REPOS ?= $(foreach r,tensorflow/gnn tensorflow/model-optimization tensorflow/recommenders,$(r)=$(MIRROR)/$(subst /,+,$(r))/repo)
static-features: $(BIN)/greenlint
	$(BIN)/python -m tools.kb.static_features --docs $(DOCS_GIT) --fecom $(FECOM_GIT) $(foreach r,$(REPOS),--repo $(r))
