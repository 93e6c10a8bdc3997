# The two commands of the README: `make demo` and `make test`. Everything they need is
# installed here, into .venv, from the project's own files.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: env test lint demo bench schema clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

env: $(STAMP)

lint: env
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest

demo: env
	$(BIN)/mjaudit demo

schema: env
	$(BIN)/python -m schemas.generate

bench: env
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) mjdata demo-data tests/artifacts .pytest_cache .ruff_cache
