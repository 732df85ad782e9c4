"""Django's SQLite backend, but a write transaction that finds the database's write lock taken asks for it again
every ``RETRY_SECONDS`` instead of through SQLite's own busy handler.

SQLite's handler sleeps in growing steps (1, 2, 5, 10, 15, 20, 25 ms and on), so a save that arrives while another
process holds the lock (a restore writes in steps of about 20 ms) wakes up to 25 ms after the lock came free, and by
then the next step may hold it again. Asked every half millisecond, the save goes in as soon as the step ends; the
restore leaves the lock free that long between its steps (``matches.restore``). Only the start of a transaction
waits this way: every statement inside one holds the lock already, and a statement outside one keeps SQLite's
handler, up to the same ``timeout``."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

RETRY_SECONDS = 0.0005
DEFAULT_TIMEOUT = 5.0  # Python's sqlite3 module waits this long where the settings name no ``timeout``


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        self.lock_timeout = float(params.get("timeout", DEFAULT_TIMEOUT))
        return params

    def _start_transaction_under_autocommit(self) -> None:
        raw = self.connection
        begin = super()._start_transaction_under_autocommit  # type: ignore[misc]
        raw.execute("PRAGMA busy_timeout = 0")
        deadline = time.monotonic() + self.lock_timeout
        try:
            while True:
                try:
                    begin()
                    return
                except OperationalError as error:
                    if not _busy(error) or time.monotonic() >= deadline:
                        raise
                time.sleep(RETRY_SECONDS)
        finally:
            raw.execute(f"PRAGMA busy_timeout = {int(self.lock_timeout * 1000)}")


def _busy(error: OperationalError) -> bool:
    """Whether the database's write lock was taken (SQLITE_BUSY), rather than anything else going wrong."""
    cause = error.__cause__
    return isinstance(cause, sqlite3.OperationalError) and cause.sqlite_errorcode == sqlite3.SQLITE_BUSY
