# Stepwise: the two commands a fresh machine needs are `make serve` and `make test`.
# Each one installs what it needs first (venv + pinned Python deps, `npm ci`,
# and for the browser tests Debian's chromium via apt when it is missing).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
OUT    ?= dist
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: serve build test lint setup bench clean

serve: $(VENV)/.installed node_modules/.installed
	$(PY) build.py serve --port $(PORT) --out $(OUT)

build: $(VENV)/.installed node_modules/.installed
	$(PY) build.py --out $(OUT)

test: $(VENV)/.installed node_modules/.installed /usr/bin/chromium
	$(PY) -m ruff check .
	npm test
	$(PY) -m pytest

lint: $(VENV)/.installed
	$(PY) -m ruff check .

setup: $(VENV)/.installed node_modules/.installed /usr/bin/chromium

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); sleep 2; $(PYTHON) -m venv $(VENV); }  # ensurepip can fail once on a busy machine
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

node_modules/.installed: package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Debian's chromium for the Playwright tests (no browser download is possible here),
# plus CJK fonts so the Chinese lesson renders in screenshots.
/usr/bin/chromium:
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk

clean:
	rm -rf $(OUT) $(VENV) node_modules .pytest_cache .ruff_cache .hypothesis

# Performance figures against the budgets in bench/budgets.py (not part of `make test`; docs/performance.md
# says how long the last run took): writes bench/results.json and docs/performance.md.
# `$(PY) bench/run.py --report-only` renders docs/performance.md again from bench/results.json.
bench: $(VENV)/.installed node_modules/.installed /usr/bin/chromium
	$(PY) bench/run.py
