"""A backup moves between the two database engines: made on SQLite, restored into a fresh PostgreSQL database, backed
up there and restored into a fresh SQLite database, every step by the management commands in a process of its own,
as an operator moving a club's server would. Lists, totals and standings come out the same everywhere, and so do the
files; restoring the same files again changes nothing.

PostgreSQL is reached as ``tests/postgres.py`` says."""

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from .postgres import fresh_database, postgres_admin_url

ROOT = Path(settings.BASE_DIR)

# What a person sees of every match of the two books backed up (the demo account's and its club's; the demo's league
# and tournament keep books of their own) and of every club table, printed as JSON by ``manage.py shell``.
SUMMARY = """
import json
from django.db.models import Q
from matches.clubs.models import Night, Season
from matches.clubs.selectors import night_results, season_table
from matches.models import Match

def places(ranked):
    return [[p.place, p.standing.player, str(p.standing.score), p.standing.won, p.standing.lost] for p in ranked]

print(json.dumps({
    "matches": {
        str(match.public_id): {
            "totals": match.totals,
            "games": [list(row) for row in match.games.filter(deleted=False).order_by("position").values_list(
                "number", "passed", "declarer", "entry", "points", "breakdown")],
            "history": list(match.events.order_by("version").values_list("action", "number", "before", "after")),
        }
        for match in Match.objects.filter(Q(keeper__user__username="demo") | Q(keeper__club__name="Skatclub Herz Dame"))
    },
    "seasons": {str(season.public_id): places(season_table(season).places) for season in Season.objects.all()},
    "nights": {str(night.public_id): places(night_results(night).night_places) for night in Night.objects.all()},
}, sort_keys=True))
"""


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database of its own, dropped afterwards."""
    admin = postgres_admin_url()
    if admin is None:
        pytest.skip("needs PostgreSQL: set SCOREKEEPER_TEST_POSTGRES_URL (CI does)")
    with fresh_database(admin, "scorekeeper_move") as url:
        yield url


def manage(database: str, *arguments: str) -> str:
    """``manage.py`` with ``arguments`` on ``database``, in a process of its own; its standard output."""
    environment = {**os.environ, "DATABASE_URL": database, "DEBUG": "true"}
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"manage.py {' '.join(arguments)}: {done.stderr[-2000:]}"
    return done.stdout


def fresh(database: str) -> None:
    manage(database, "migrate", "--noinput", "-v", "0")
    manage(
        database,
        "shell",
        "--no-imports",
        "-c",
        "from django.contrib.auth.models import User; User(username='demo').save()",
    )


def backups(database: str, folder: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The demo account's and its club's backups made on ``database``, with the moment they were made left out."""
    made = []
    for option, value in (("--user", "demo"), ("--club", "Skatclub Herz Dame")):
        path = folder / f"{option.strip('-')}.json"
        manage(database, "backup", str(path), option, value)
        data = json.loads(path.read_text())
        data.pop("created")
        made.append(data)
    return made[0], made[1]


def restored(database: str, folder: Path) -> None:
    for name in ("user.json", "club.json"):
        manage(database, "restore", str(folder / name), "--user", "demo")


def summary(database: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(manage(database, "shell", "--no-imports", "-c", SUMMARY).splitlines()[-1])
    return result


@pytest.mark.slow
def test_a_backup_from_sqlite_restores_into_postgresql_and_back(postgres_url: str, tmp_path: Path) -> None:
    first, last = f"sqlite:///{tmp_path / 'first.sqlite3'}", f"sqlite:///{tmp_path / 'last.sqlite3'}"
    folders = {name: tmp_path / name for name in ("first", "postgres", "last")}
    for folder in folders.values():
        folder.mkdir()

    manage(first, "migrate", "--noinput", "-v", "0")
    manage(first, "demo")
    made_first = backups(first, folders["first"])
    fresh(postgres_url)
    for name in ("user.json", "club.json"):
        (folders["postgres"] / f"in-{name}").write_bytes((folders["first"] / name).read_bytes())
        manage(postgres_url, "restore", str(folders["postgres"] / f"in-{name}"), "--user", "demo")
    made_postgres = backups(postgres_url, folders["postgres"])
    restored(postgres_url, folders["postgres"])
    assert backups(postgres_url, folders["postgres"]) == made_postgres
    fresh(last)
    restored(last, folders["postgres"])
    made_last = backups(last, folders["last"])

    expected = summary(first)
    assert expected["matches"]
    assert any(expected["seasons"].values())
    assert summary(postgres_url) == expected
    assert summary(last) == expected
    assert made_postgres == made_first
    assert made_last == made_first
