"""Who writes a match: every write to a match, its seats, games, scores, paper lines, scorers or history must come
from the core's services (``matches/services/``; a restore's rows too, written through ``matches/rows.py``). The demo
tooling (``matches/management``) and the benchmarks (``bench/``) write their seeded data themselves, a data migration
moves stored rows to a new shape (with ``matches/moves.py``), and a test may set up a state directly; any other code
that writes those tables is a second writer.

``services_only`` watches every statement the database is sent while a test runs and refuses one that wrote rows of
those tables, asked for by project code with no service on the way."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.backends.signals import connection_created

from matches.models import ClosedList, Game, GameScore, Match, MatchEvent, PaperLine, Seat

WATCHED = frozenset(
    model._meta.db_table
    for model in (Match, Seat, Game, GameScore, PaperLine, ClosedList, MatchEvent, Match.scorers.through)
)
WRITE = re.compile(r'^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?', re.IGNORECASE)
RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)
ROOT = Path(settings.BASE_DIR).resolve()
WRITERS = tuple(
    str(ROOT / path)
    for path in (
        "matches/services/",
        "matches/management/",
        "bench/",
        "matches/migrations/",
        "matches/clubs/migrations/",
        "matches/interclub/migrations/",
        "matches/tournaments/migrations/",
        "matches/moves.py",
    )
)
PROJECT = tuple(str(ROOT / path) + "/" for path in ("matches", "scorekeeper", "bench", "tests"))
TESTS = str(ROOT / "tests") + "/"
HERE = str(Path(__file__).resolve())
# Writes rows for whoever calls it: its caller is the writer.
PLUMBING = frozenset({str(ROOT / "matches/rows.py")})


class SecondWriter(AssertionError):
    """A write to a match's tables from outside the core's services."""


def written_table(sql: str) -> str | None:
    """The watched table that ``sql`` writes to, if it writes one."""
    found = WRITE.match(sql)
    return found.group(1) if found and found.group(1) in WATCHED else None


def _frames(frame: FrameType | None) -> Iterator[FrameType]:
    while frame is not None:
        yield frame
        frame = frame.f_back


def writer_of(frame: FrameType | None) -> str | None:
    """The file of the project code that asked for a write, unless a writer may: None when a service is on the way,
    or when the nearest project code is a test setting up its state."""
    nearest = None
    for each in _frames(frame):
        name = each.f_code.co_filename
        if name.startswith(WRITERS):
            return None
        if nearest is None and name.startswith(PROJECT) and name != HERE and name not in PLUMBING:
            nearest = name
    if nearest is None or nearest.startswith(TESTS):
        return None
    return str(Path(nearest).relative_to(ROOT))


def _watcher(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """A statement that wrote rows of a watched table, asked for by a second writer, is refused (the test fails, and
    the transaction it ran in is rolled back). One that changed nothing passes: deleting an account sets its name to
    null in tables where the services took it off already."""
    result = execute(sql, params, many, context)
    table = written_table(sql)
    # An insert that returns what it wrote has written a row, though SQLite counts none until it is read back.
    if table is not None and (context["cursor"].rowcount > 0 or RETURNING.search(sql)):
        writer = writer_of(sys._getframe(1))
        if writer is not None:
            raise SecondWriter(f"{writer} writes {table} outside the core's services: {sql[:120]}")
    return result


@contextmanager
def services_only() -> Generator[None, None, None]:
    """Every connection (the live server's threads open their own) refuses a second writer while this lasts."""

    def watch(sender: Any, connection: Any, **kwargs: Any) -> None:
        connection.execute_wrappers.append(_watcher)

    opened = [connections[alias] for alias in connections]
    for connection in opened:
        connection.execute_wrappers.append(_watcher)
    connection_created.connect(watch)
    try:
        yield
    finally:
        connection_created.disconnect(watch)
        for connection in opened:
            if _watcher in connection.execute_wrappers:
                connection.execute_wrappers.remove(_watcher)
