"""The slow kinds of test are marked by where they live, so that `make test-fast` can leave them out; `make test`
(which CI runs) leaves out nothing, runs on every core and starts the long tests first; the tests that touch no
database are marked so that CI's PostgreSQL run can leave them out."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# One file of each slow kind, one with a test marked slow and one of none, so that the collection stays quick.
SAMPLE = (
    "tests/browser/test_minified.py",
    "tests/test_load.py",
    "tests/test_schema_fuzz.py",
    "tests/test_state_machine.py",
    "tests/test_static.py",
    "tests/test_backup_engines.py",
)
NO_DATABASE_SAMPLE = ("tests/engine/test_variants.py", "tests/test_names_and_ownership.py", "tests/test_settings.py")
SLOW = {"browser", "load", "fuzz"}
FAST = "not browser and not load and not fuzz"  # what `make test-fast` runs
NO_DATABASE = '-m "not nodb"'  # what CI's PostgreSQL run leaves out
# pytest, run with a plugin that lists each test's file and markers as collected.
LIST_MARKERS = """
import sys
import pytest


class Listing:
    def pytest_collection_finish(self, session):
        for item in session.items:
            print("marked", item.nodeid.replace(" ", "_"), *(marker.name for marker in item.iter_markers()))


sys.exit(pytest.main(sys.argv[1:], plugins=[Listing()]))
"""
# Whatever on a pytest command line leaves tests out.
DESELECTING = ("-m", "-k", "--deselect", "--ignore", "--ignore-glob", "--lf", "--last-failed", "-x", "--exitfirst")


def _pytest_arguments(target: str, *variables: str) -> list[str]:
    """pytest's arguments in the command a target of the Makefile runs (``make -n``: printed, not run)."""
    printed = subprocess.run(
        ["make", "--no-print-directory", "-n", target, *variables], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    (command,) = [line for line in printed.splitlines() if " pytest " in line]
    words = shlex.split(command)
    return words[words.index("pytest") + 1 :]


def _deselecting(arguments: list[str]) -> list[str]:
    return [word for word in arguments if word.split("=")[0] in DESELECTING]


def _addopts() -> list[str]:
    """pytest's options from pyproject.toml, which every run takes."""
    found = re.search(r'^addopts = "([^"]*)"', (ROOT / "pyproject.toml").read_text(), flags=re.MULTILINE)
    assert found is not None
    return shlex.split(found[1])


def test_make_test_runs_every_test_on_every_core_and_ci_runs_make_test() -> None:
    arguments = _pytest_arguments("test")
    assert _deselecting(arguments) == []
    assert "--numprocesses=auto" in arguments
    assert _deselecting(_addopts()) == []
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    runs = [line for line in ci if re.search(r"\bmake test\b", line)]
    assert len(runs) == 2
    assert not [line for line in ci if "test-fast" in line or "pytest" in line]
    # The PostgreSQL run leaves out the tests that touch no database, which the SQLite run ran, and nothing else.
    assert "TESTS" not in runs[0]
    assert runs[1].endswith(f"make test TESTS='{NO_DATABASE}'")


def test_make_test_fast_leaves_out_the_slow_kinds_on_every_core() -> None:
    arguments = _pytest_arguments("test-fast")
    assert _deselecting(arguments) == ["-m"]
    assert arguments[arguments.index("-m") + 1] == FAST
    assert "--numprocesses=auto" in arguments


def test_a_run_takes_the_number_of_workers_and_more_options() -> None:
    arguments = _pytest_arguments("test", "WORKERS=1", f"TESTS={NO_DATABASE}")
    assert "--numprocesses=1" in arguments
    assert arguments[-2:] == shlex.split(NO_DATABASE)


@pytest.fixture(scope="module")
def collected() -> list[tuple[str, set[str]]]:
    """Each test of the sample files, as a run collects them (in its order, a random one), with its markers."""
    listing = subprocess.run(
        [sys.executable, "-c", LIST_MARKERS, "--collect-only", "-qq", *SAMPLE, *NO_DATABASE_SAMPLE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [
        (test, set(markers))
        for _, test, *markers in (line.split() for line in listing.splitlines() if line.startswith("marked "))
    ]


def test_the_slow_kinds_are_marked_by_where_they_live(collected: list[tuple[str, set[str]]]) -> None:
    marked: dict[str, set[str]] = {path: set() for path in SAMPLE}
    for test, markers in collected:
        if test.split("::")[0] in marked:
            marked[test.split("::")[0]] |= markers & SLOW
    assert marked == {
        "tests/browser/test_minified.py": {"browser"},
        "tests/test_load.py": {"load"},
        "tests/test_schema_fuzz.py": {"fuzz"},
        "tests/test_state_machine.py": {"fuzz"},
        "tests/test_static.py": set(),
        "tests/test_backup_engines.py": set(),
    }


def test_a_run_starts_the_long_tests_first(collected: list[tuple[str, set[str]]]) -> None:
    long = [bool(markers & (SLOW | {"slow"})) for _, markers in collected]
    assert long.count(True) >= 5
    assert long == sorted(long, reverse=True)
    assert (
        "slow"
        in dict(collected)["tests/test_backup_engines.py::test_a_backup_from_sqlite_restores_into_postgresql_and_back"]
    )


def test_the_tests_that_touch_no_database_are_marked_by_what_they_ask_for(
    collected: list[tuple[str, set[str]]],
) -> None:
    """``nodb``: the rules engine's tests and whatever else asks for no database, but not the tests that depend on the
    suite's engine without a database of their own (its settings, gunicorn on it)."""
    in_file = {
        path: {test: "nodb" in markers for test, markers in collected if test.startswith(path)}
        for path in NO_DATABASE_SAMPLE
    }
    assert in_file["tests/engine/test_variants.py"]
    assert all(in_file["tests/engine/test_variants.py"].values())
    assert in_file["tests/test_settings.py"]
    assert not any(in_file["tests/test_settings.py"].values())
    names_file = in_file["tests/test_names_and_ownership.py"]
    names = {test.split("::")[1].split("[")[0]: nodb for test, nodb in names_file.items()}
    assert names["test_names_that_differ_only_in_case_or_form_are_one_name"] is True
    assert names["test_a_retried_start_makes_one_match"] is False
    assert names["test_the_same_name_in_another_form_finds_the_same_player"] is False


MIXED = """
import pytest


@pytest.fixture(scope="module")
def shared(module_data):
    return module_data.build(dict)


def test_reads_what_the_module_shares(shared, db):
    pass


@pytest.mark.django_db(transaction=True)
def test_commits():
    pass
"""


@pytest.mark.slow
def test_a_module_sharing_data_in_its_transaction_may_hold_no_test_that_commits(tmp_path: Path) -> None:
    (tmp_path / "test_mixed.py").write_text(MIXED)
    (tmp_path / "conftest.py").write_text("from tests.conftest import *  # noqa: F403\n")
    command = [sys.executable, "-m", "pytest", "-c", "pyproject.toml", "--collect-only", "-q"]
    done = subprocess.run(
        [*command, str(tmp_path / "test_mixed.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "test_commits commits, in a module whose tests share data" in done.stderr
