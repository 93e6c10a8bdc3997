# The two commands of the README: `make demo` and `make test`. Everything they need is
# installed here, into .venv, from the project's own files.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: env browser test lint demo bench schema clean

DEMO_STAMP := $(VENV)/.demo-stamp

# The tests and tools: the package with every extra and the test dependencies.
$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP) $(DEMO_STAMP)

# The demo needs the package alone (no test tools, no browser driver, no Dask).
$(DEMO_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
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

test: lint
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup

demo: $(DEMO_STAMP)
	$(BIN)/mjaudit demo

schema: env
	$(BIN)/python -m mjaudit.parts.schemas.generate

bench: env
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) mjdata demo-data tests/artifacts .pytest_cache .ruff_cache
