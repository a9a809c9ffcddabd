# Two commands: `make run` (lint the bundled example) and `make test` (the whole suite).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test install

$(BIN)/greenlint: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(BIN)/greenlint

install: $(BIN)/greenlint

run: $(BIN)/greenlint
	$(BIN)/greenlint calls examples/ --format text
	$(BIN)/greenlint check examples/ --exit-zero

test: $(BIN)/greenlint
	$(BIN)/python -m pytest
