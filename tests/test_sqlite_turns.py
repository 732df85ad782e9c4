"""On SQLite, a write transaction that finds the write lock taken (a restore's step in another process) asks for it
again every half millisecond, and goes in as soon as it is free, instead of sleeping through SQLite's growing waits;
a restore leaves the lock free for a moment after each step. These tests open SQLite files of their own, whatever
database the suite runs on."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.db.utils import ConnectionHandler
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoDbBlocker

from bench.large_backup import large_backup
from matches import restore as restoring
from matches.restore import restore
from matches.rows import Rows
from scorekeeper.sqlite.base import RETRY_SECONDS, DatabaseWrapper

from .factories import make_user


@pytest.fixture(autouse=True)
def _own_files(django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """These files are the tests' own, not the suite's database."""
    with django_db_blocker.unblock():
        yield


def _waiter(path: Path, timeout: float) -> DatabaseWrapper:
    """A connection through the project's backend, as the web server opens one."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "scorekeeper.sqlite",
                "NAME": str(path),
                "OPTIONS": {"timeout": timeout, "transaction_mode": "IMMEDIATE"},
            }
        }
    )
    wrapper = handler["default"]
    assert isinstance(wrapper, DatabaseWrapper)
    wrapper.ensure_connection()
    return wrapper


def _holder(path: Path) -> sqlite3.Connection:
    """Another process's connection, holding the write lock."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE rows (x)")
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_transaction_asks_for_the_taken_write_lock_again_until_it_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "turns.sqlite3"
    holder = _holder(path)
    waits: list[float] = []

    def wait(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            holder.execute("COMMIT")  # the other process's step ends

    monkeypatch.setattr(time, "sleep", wait)
    waiter = _waiter(path, timeout=20)
    waiter._start_transaction_under_autocommit()
    waiter.connection.execute("INSERT INTO rows VALUES (1)")
    waiter.connection.execute("COMMIT")
    assert waits == [RETRY_SECONDS] * 3
    # Statements outside a transaction keep SQLite's own wait, as long as the settings say.
    assert waiter.connection.execute("PRAGMA busy_timeout").fetchone() == (20_000,)
    assert holder.execute("SELECT x FROM rows").fetchall() == [(1,)]
    waiter.close()
    holder.close()


def test_a_transaction_gives_up_on_the_write_lock_after_the_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "turns.sqlite3"
    holder = _holder(path)
    monkeypatch.setattr(time, "sleep", lambda seconds: None)
    waiter = _waiter(path, timeout=0.05)
    with pytest.raises(OperationalError, match="locked"):
        waiter._start_transaction_under_autocommit()
    assert waiter.connection.execute("PRAGMA busy_timeout").fetchone() == (50,)
    waiter.close()
    holder.close()


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
