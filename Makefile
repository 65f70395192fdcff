# provcat: every target sets up .venv itself, so a fresh clone needs only Python >= 3.11.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: all help generate check docs test lint typecheck pytest oldest bench clean browser site drift-latest

all: generate

## help: list the targets and what each does
help:
	@awk 'BEGIN {FS = ": "} /^## / {sub(/^## /, ""); printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# Two installs: `make generate` / `make check` need only the generator's tools (the `generate`
# extra, about 30 packages); every other target installs the `dev` extra (tests, lint, the hub,
# the vendor SDKs of the drift check).
define install
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "provcat needs Python >= 3.11; set PYTHON=python3.11 (or newer)")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[$(1)]'
endef

GEN_STAMP := $(VENV)/.installed-generate
$(GEN_STAMP): pyproject.toml
	$(call install,generate)
	@touch $(GEN_STAMP)

$(STAMP): pyproject.toml
	$(call install,dev)
	@touch $(STAMP) $(GEN_STAMP)

## generate: validate the whole catalog and regenerate generated/ (snapshot package + docs)
generate: $(GEN_STAMP)
	@$(PY) -m generator build

## site: the static catalog site in build/site/ (open build/site/index.html, or serve the folder)
site: generate
	@$(PY) -m generator site

## check: fail when the catalog is invalid or generated/ does not match it
check: $(GEN_STAMP)
	@$(PY) -m generator check

## docs: regenerate docs/reference/ (the Python API from the docstrings, the CLI from the commands)
docs: $(GEN_STAMP)
	@$(PY) -m generator.reference

## lint: ruff check, ruff format --check, and the runtime's layers (import-linter)
lint: $(STAMP)
	$(VENV)/bin/ruff check src generator tests benchmarks
	$(VENV)/bin/ruff format --check src generator tests benchmarks
	$(VENV)/bin/lint-imports

## typecheck: mypy --strict on src/, generator/ and the generated snapshot
# generated/ is named: reached only through the install's path file, mypy would take it for a
# third-party package and stay silent about its errors
typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict src generator generated

## browser: Debian's chromium + chromedriver for the hub's browse-page tests (installed when missing)
browser:
	@command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver \
	  || { $$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive \
	       apt-get install -y -q chromium chromium-driver; }; }

## pytest: the test suite alone, one worker per core (at most 4; pytest-xdist)
pytest: $(STAMP) browser
	$(VENV)/bin/pytest -n auto --maxprocesses 4

## oldest: the runtime's tests on the oldest dependency releases pyproject.toml allows (.venv-oldest)
oldest: $(STAMP)
	$(PY) -m tests.oldest

## test: lint, types, the staleness check and the whole test suite
test: lint typecheck check pytest

## drift-latest: the vendor drift check against the newest official SDKs (a throwaway venv)
drift-latest: $(STAMP)
	$(PY) -m tests.drift.latest

BENCH_STAMP := $(VENV)/.installed-bench
$(BENCH_STAMP): $(STAMP)
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev,bench]'
	@touch $(BENCH_STAMP)

## bench: every benchmark, each against a baseline measured in the same run (BENCH=name to pick)
bench: $(BENCH_STAMP)
	@$(PY) -m benchmarks $(BENCH)

## clean: remove the virtual environment, the tool caches and the build cache
clean:
	rm -rf $(VENV) .venv-oldest .mypy_cache .pytest_cache .ruff_cache .provcat-cache build dist
