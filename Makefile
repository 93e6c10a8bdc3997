# The two commands of the README: `make demo` and `make test`. Everything they need is
# installed here, into .venv, from the project's own files.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: env browser test lint demo bench schema clean compiled

DEMO_STAMP := $(VENV)/.demo-stamp

# An editable install leaves the project's own modules without bytecode, and where
# PYTHONDONTWRITEBYTECODE is set (this machine, Docker's Python images) Python never writes
# it, so every mjaudit command compiled them all again: 0.2 s of a 0.65 s start-up. Compiled
# once here; an edited module's stale .pyc is ignored (Python checks the source's mtime).
BYTECODE = $(BIN)/python -m compileall -q ingest replay schemas dashboards mjaudit

# The tests and tools: the package with every extra and the test dependencies.
$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	$(BYTECODE)
	touch $(STAMP) $(DEMO_STAMP)

# The demo needs the package alone (no test tools, no browser driver, no Dask).
$(DEMO_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	$(BYTECODE)
	touch $(DEMO_STAMP)

env: $(STAMP) browser

# The dashboard's browser test drives Debian's chromium through Playwright; a browser is
# never downloaded (no `playwright install`). As root, install it when it is missing.
browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else \
		echo "note: /usr/bin/chromium is missing and you are not root: the dashboard's"; \
		echo "      browser test will be skipped. Install it with: sudo apt-get install chromium"; \
	fi

lint: env
	$(BIN)/ruff check .

# Every core runs tests (pytest-xdist): a test file stays on one worker (tests/conftest.py).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# The suite runs on the compiled core (tests/test_compiled.py fails where a compiler is
# present and a listed module was not compiled); the engine's golden and ruleset tests
# run once more on the pure-Python fallback.
PURE_TESTS := tests/golden tests/replay/test_hk_fan_recorded.py $(wildcard tests/replay/test_*_examples.py)

test: lint compiled
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup
	MJAUDIT_PURE_PYTHON=1 $(BIN)/python -m pytest -n $(JOBS) --dist loadgroup $(PURE_TESTS)

# Rebuild the compiled core in place after editing one of its modules (mjaudit/compiled.py
# lists them); until then the edited .py is used, with a warning. Only changed modules are
# compiled again (a few seconds when none changed), so `make test` always tests current code.
compiled: $(STAMP)
	$(BIN)/python hatch_build.py

demo: $(DEMO_STAMP)
	$(BIN)/mjaudit demo

schema: env
	$(BIN)/python -m mjaudit.parts.schemas.generate

bench: env
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) mjdata demo-data tests/artifacts .pytest_cache .ruff_cache build
	rm -f mjaudit/compiled-sources.json
	find replay schemas -name '*.so' -delete
