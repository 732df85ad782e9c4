PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MO := locale/de/LC_MESSAGES/django.mo

.PHONY: run serve test test-fast bench loadtest check translations clean

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

# Compiled with polib, so that no system gettext is needed.
$(MO): locale/de/LC_MESSAGES/django.po $(STAMP)
	$(BIN)/python -c 'import sys, polib; polib.pofile(sys.argv[1]).save_as_mofile(sys.argv[2])' $< $@

translations: $(MO)

# The web server and, beside it, the task worker (restores of backups run there).
run: $(STAMP) $(MO)
	$(BIN)/python -m scorekeeper.develop

# The phones at the table: production settings (DEBUG off) on this computer's local network, under gunicorn, with the
# task worker beside it.
serve: $(STAMP) $(MO)
	$(BIN)/python -m scorekeeper.serve

# The tests run on every core (WORKERS=N for another number of workers), each worker with a database of its own, in a
# random order that the run names at its top (`--randomly-seed=N`; TESTS=--randomly-seed=N repeats it), the long tests
# first and dealt one at a time. TESTS adds pytest's options, as CI's PostgreSQL run leaves out the tests that touch no
# database (docs/testing.md). Python keeps its compiled modules and pytest its rewritten tests whatever the
# environment says: otherwise every worker and every process a test starts compiles them all again.
WORKERS ?= auto
TESTS ?=
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest --numprocesses=$(WORKERS) --dist=load --maxschedchunk=1

# Every test, as CI runs them.
test: $(STAMP) $(MO)
	$(PYTEST) $(TESTS)

# For the edit loop: every test but the slow kinds (the browser, load and fuzz markers, set by where a test lives).
test-fast: $(STAMP) $(MO)
	$(PYTEST) -m "not browser and not load and not fuzz" $(TESTS)

# A report, not a test: ratios of interleaved medians, in a temporary database of its own.
bench: $(STAMP) $(MO)
	$(BIN)/python -m bench

# A federation's match day against gunicorn, the task worker and (where installed) nginx with its shared cache, on a
# database of its own (PostgreSQL beside DATABASE_URL's, else SQLite), with Locust: LOADTEST adds its options
# (--venues, --spectators, --seconds, --save-every; docs/benchmarks.md).
LOADTEST ?=
loadtest: $(STAMP) $(MO)
	$(BIN)/python -m loadtest $(LOADTEST)

check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python manage.py makemigrations --check --dry-run

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis staticfiles $(MO)
