"""The slow kinds of test are marked by where they live, so that `make test-fast` can leave them out; `make test`
(which CI runs) leaves out nothing."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# One file of each slow kind and one of none, so that the collection stays quick.
SAMPLE = (
    "tests/browser/test_minified.py",
    "tests/test_load.py",
    "tests/test_schema_fuzz.py",
    "tests/test_state_machine.py",
    "tests/test_static.py",
)
SLOW = {"browser", "load", "fuzz"}
FAST = "not browser and not load and not fuzz"  # what `make test-fast` runs
# pytest, run with a plugin that lists each test's file and markers as collected.
LIST_MARKERS = """
import sys
import pytest


class Listing:
    def pytest_collection_finish(self, session):
        for item in session.items:
            print("marked", item.nodeid.split("::")[0], *(marker.name for marker in item.iter_markers()))


sys.exit(pytest.main(sys.argv[1:], plugins=[Listing()]))
"""
# Whatever on a pytest command line leaves tests out.
DESELECTING = ("-m", "-k", "--deselect", "--ignore", "--ignore-glob", "--lf", "--last-failed", "-x", "--exitfirst")


def _recipe(target: str) -> list[str]:
    """The command lines of a target of the Makefile."""
    makefile = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", makefile, flags=re.MULTILINE)
    assert found is not None, f"the Makefile has no target {target}"
    return [line.strip() for line in found[1].splitlines()]


def _pytest_arguments(target: str) -> list[str]:
    (command,) = [line for line in _recipe(target) if "pytest" in line]
    words = shlex.split(command)
    return words[words.index("pytest") + 1 :]


def _deselecting(arguments: list[str]) -> list[str]:
    return [word for word in arguments if word.split("=")[0] in DESELECTING]


def _addopts() -> list[str]:
    """pytest's options from pyproject.toml, which every run takes."""
    found = re.search(r'^addopts = "([^"]*)"', (ROOT / "pyproject.toml").read_text(), flags=re.MULTILINE)
    assert found is not None
    return shlex.split(found[1])


def test_make_test_runs_every_test_and_ci_runs_make_test() -> None:
    assert _deselecting(_pytest_arguments("test")) == []
    assert _deselecting(_addopts()) == []
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert [line for line in ci if re.search(r"\bmake test\b", line)]
    assert not [line for line in ci if "test-fast" in line or "pytest" in line]


def test_make_test_fast_leaves_out_the_slow_kinds() -> None:
    assert _pytest_arguments("test-fast") == ["-m", FAST]


def test_the_slow_kinds_are_marked_by_where_they_live() -> None:
    listing = subprocess.run(
        [sys.executable, "-c", LIST_MARKERS, "--collect-only", "-qq", "-p", "no:randomly", *SAMPLE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    marked: dict[str, set[str]] = {path: set() for path in SAMPLE}
    for line in listing.splitlines():
        if line.startswith("marked "):
            _, path, *markers = line.split()
            marked[path] |= set(markers) & SLOW
    assert marked == {
        "tests/browser/test_minified.py": {"browser"},
        "tests/test_load.py": {"load"},
        "tests/test_schema_fuzz.py": {"fuzz"},
        "tests/test_state_machine.py": {"fuzz"},
        "tests/test_static.py": set(),
    }
