"""Copy the whole SQLite database while the server keeps running (``manage.py dbbackup FILE``).

A plain file copy of a live SQLite database can catch a write halfway, or miss what is still in its write-ahead log;
SQLite's online backup copies a consistent state of the database, whatever other connections write meanwhile
(writers go on during the copy; readers in WAL mode never wait). The copy is written beside ``FILE`` first, checked,
and only then moved into place, so ``FILE`` is either the previous backup or a complete new one. PostgreSQL has its
own tools for this (``pg_dump``; see docs/operations.md).
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from matches.models import Game, Match


class Command(BaseCommand):
    help = "Copy the live SQLite database to FILE with SQLite's online backup (for PostgreSQL use pg_dump)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the copy (replaced once the new copy is complete)")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        if connection.vendor != "sqlite":
            raise CommandError(f"the database is {connection.vendor}: back it up with pg_dump (see docs/operations.md)")
        target = Path(file).resolve()
        if target == Path(connection.settings_dict["NAME"]).resolve():
            raise CommandError("the copy cannot replace the database itself")
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        try:
            copy_database(partial)
            games, matches = counted(partial)
        except (sqlite3.Error, CommandError):
            partial.unlink(missing_ok=True)
            raise
        partial.chmod(0o600)  # the copy holds sessions and password hashes: for its owner's eyes only
        os.replace(partial, target)
        self.stdout.write(f"{matches} matches, {games} games copied to {target} ({target.stat().st_size} bytes)")


def copy_database(path: Path) -> None:
    """The database as one consistent state, in one self-contained file at ``path`` (no write-ahead log beside it)."""
    connection.ensure_connection()
    source = connection.connection
    with closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
        (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
        if verdict != "ok":
            raise CommandError(f"the copy fails SQLite's integrity check: {verdict}")


def counted(path: Path) -> tuple[int, int]:
    """The games and matches in the copy, read back from it."""
    with closing(sqlite3.connect(path)) as copy:
        games = copy.execute(f'SELECT COUNT(*) FROM "{Game._meta.db_table}"').fetchone()[0]
        matches = copy.execute(f'SELECT COUNT(*) FROM "{Match._meta.db_table}"').fetchone()[0]
    return int(games), int(matches)
