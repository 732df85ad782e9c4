PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MO := locale/de/LC_MESSAGES/django.mo

.PHONY: run serve test test-fast bench check translations clean

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

# Every test, as CI runs them.
test: $(STAMP) $(MO)
	$(BIN)/python -m pytest

# For the edit loop: every test but the slow kinds (the browser, load and fuzz markers, set by where a test lives).
test-fast: $(STAMP) $(MO)
	$(BIN)/python -m pytest -m "not browser and not load and not fuzz"

# A report, not a test: ratios of interleaved medians, in a temporary database of its own.
bench: $(STAMP) $(MO)
	$(BIN)/python manage.py bench

check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python manage.py makemigrations --check --dry-run

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis staticfiles $(MO)
