"""On SQLite, a restore moves its log into the database after each step and leaves the write lock free a moment, so
that a save at another table waits for one step at most."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.large_backup import large_backup
from matches import restore as restoring
from matches.restore import restore
from matches.rows import Rows

from .factories import make_user


@pytest.mark.django_db(transaction=True)
def test_a_restore_checkpoints_its_log_and_leaves_the_lock_free_a_moment_after_each_step_on_sqlite(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pauses: list[float] = []
    monkeypatch.setattr(time, "sleep", pauses.append)
    steps: list[Rows] = []
    monkeypatch.setattr(restoring._Steps, "locked", _counted(restoring._Steps.locked, steps))
    with CaptureQueriesContext(connection) as statements:
        restore(large_backup(1200, "turns"), user=make_user("olga"))
    assert len(steps) > 2
    on_sqlite = connection.vendor == "sqlite"
    assert pauses == ([restoring.HANDOVER_SECONDS] * len(steps) if on_sqlite else [])
    checkpoints = [query for query in statements.captured_queries if "wal_checkpoint" in query["sql"]]
    assert len(checkpoints) == (len(steps) if on_sqlite else 0)


def _counted(locked: Callable[[restoring._Steps, Rows], None], steps: list[Rows]) -> Callable[..., None]:
    def counted(self: restoring._Steps, rows: Rows) -> None:
        steps.append(rows)
        locked(self, rows)

    return counted
