"""Every address the documentation gives is one the site answers: each path written in ``docs/*.md`` and the README
(on its own, or after the site's own host in an example) resolves with its placeholders filled in, so that a page or
a download moved is a documentation to change, not a 404 for its readers."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.urls import Resolver404, resolve

from matches.api.errors import no_such_address

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [*sorted(ROOT.glob("docs/*.md")), ROOT / "README.md"]

# A path: written on its own, after "…" (the rest of an address written just before), or after a host. What comes
# before it is not part of a word, a path, a number or a placeholder ("and/or", "/srv/scorekeeper/.venv/bin/gunicorn",
# "<name>/<part>").
ADDRESS = re.compile(r"(?<![\w.~/:>-])(?P<lead>https?://[\w.:-]+|…)?(?P<path>/(?:[\w.…/-]|<[\w-]+>)*)")
# The hosts the examples run the site on; any other host is somebody else's site.
SITE = re.compile(r"https?://(?:127\.0\.0\.1|localhost|192\.168\.[\d.]+|scores[\w-]*\.example\.org)(?::\d+)?")
# The server's own files, named where the guides set the server up.
FILES = ("/etc/", "/usr/", "/srv/", "/bin/", "/var/", "/tmp/", "/opt/", "/home/", "/run/", "/dev/")
# Where the site answers under a prefix that is no address of its own: the API's root, the static files.
PREFIXES = {"/api/v1/", "/static/"}
PLACEHOLDER = re.compile(r"<([\w-]+)>|[0-9a-f]+…")
# What a placeholder stands for: a name says, else an id (a public one, or a number).
FILLINGS = {
    "format": ["csv", "csv-semicolon", "pdf"],
    "subject": ["night"],
    "name": ["table"],
    "period": ["2026"],
}
IDS = ["00000000-0000-0000-0000-000000000001", "1"]


def addresses(text: str) -> Iterator[tuple[int, str, bool]]:
    """Each address of ``text``: its line, its path (without its query), and whether it continues an address before
    it ("…/close/")."""
    for number, line in enumerate(text.splitlines(), 1):
        for found in ADDRESS.finditer(line):
            lead, path = found["lead"] or "", found["path"]
            if lead.startswith("http") and not SITE.fullmatch(lead):
                continue
            if not re.search(r"[a-z]", path) or path.startswith(FILES):
                continue
            yield number, path, lead == "…"


def filled(path: str) -> Iterator[str]:
    """The path with its placeholders filled in every way they can be."""
    holes = list(PLACEHOLDER.finditer(path))
    choices = [FILLINGS.get(hole[1] or "", IDS) for hole in holes]
    for chosen in itertools.product(*choices):
        parts, start = [], 0
        for hole, value in zip(holes, chosen, strict=True):
            parts += [path[start : hole.start()], value]
            start = hole.end()
        yield "".join([*parts, path[start:]])


def answered(path: str) -> bool:
    if path in PREFIXES:
        return True
    for one in filled(path):
        try:
            found = resolve(one)
        except Resolver404:
            continue
        # The API's addresses that name nothing resolve to its 404.
        if found.func is not no_such_address:
            return True
    return False


def continued(suffix: str, before: list[str]) -> bool:
    """A "…/close/" answers where it does after one of the addresses the document wrote before it, or a part of one."""
    bases = {path[: index + 1] for path in before for index, char in enumerate(path) if char == "/"}
    return any(answered(base.rstrip("/") + suffix) for base in bases)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda document: document.name)
def test_every_address_the_documentation_gives_is_answered(document: Path) -> None:
    written = list(addresses(document.read_text()))
    whole = [path for _, path, partial in written if not partial]
    wrong = [
        f"{document.name}:{line}: {path}"
        for line, path, partial in written
        if not (continued(path, whole) if partial else answered(path))
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("the file `/files/venue/<id>/report.<format>`", ["/files/venue/<id>/report.<format>"]),
        ("curl -s http://127.0.0.1:8000/api/v1/matches/ab66…/games/ -H", ["/api/v1/matches/ab66…/games/"]),
        ("`POST …/close/` and/or `/etc/scorekeeper.env`, https://tablib.readthedocs.io/en/", ["/close/"]),
    ],
)
def test_the_addresses_are_found_in_the_text(text: str, found: list[str]) -> None:
    assert [path for _, path, _ in addresses(text)] == found


def test_an_address_the_site_does_not_answer_is_found_wrong() -> None:
    assert answered("/files/venue/<id>/report.<format>")
    assert answered("/books/<id>/member-imports/")
    assert not answered("/leagues/venues/<id>/report/export/<format>/")
    assert continued("/accept/", ["/api/v1/venues/<id>/confirm/"])
    assert not continued("/accepted/", ["/api/v1/venues/<id>/confirm/"])
