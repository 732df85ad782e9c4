"""Every write to a match goes through the core's services: the suite refuses any other writer (``tests/writers.py``),
and these tests show that it does."""

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from matches.models import Game, Match, MatchEvent, Seat
from matches.rows import row_inserted, row_updated
from matches.services import match_lock

from .factories import add, make_match, make_user
from .writers import SecondWriter, writer_of, written_table

pytestmark = pytest.mark.django_db

WRITES = {
    "a match's row": "Match.objects.filter(pk=match.pk).update(locked=True)",
    "its seats": "Seat.objects.filter(match=match, position=0).update(position=9)",
    "its games": "Game.objects.filter(match=match).update(deleted=True)",
    "its co-scorers": "match.scorers.add(match.created_by)",
    "its scores": "match.games.get().scores.all().delete()",
    "its history, row by row": "row_inserted(MatchEvent(match=match, action='lock', version=99))",
    "its totals, row by row": "match.version = 99; row_updated(match, ['version'])",
}


def _run_as_if_in(path: str, code: str, **names: Any) -> None:
    """Run ``code`` as if it were written in the project's file ``path``."""
    compiled = compile(code, str(Path(settings.BASE_DIR) / path), "exec")
    known = {"Match": Match, "Seat": Seat, "Game": Game, "MatchEvent": MatchEvent}
    exec(compiled, {**known, "row_inserted": row_inserted, "row_updated": row_updated, **names})


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
@pytest.mark.parametrize(
    "path", ["matches/clubs/services/nights.py", "matches/views/games.py", "matches/accounts.py", "matches/restore.py"]
)
def test_a_write_to_a_match_from_outside_the_services_fails_the_test(path: str, write: str) -> None:
    match = make_match(make_user())
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70)
    with pytest.raises(SecondWriter, match=f"{path} writes matches_"):
        _run_as_if_in(path, write, match=match)


@pytest.mark.parametrize(
    "path",
    [
        "matches/services/games.py",
        "matches/services/restored.py",
        "matches/management/commands/demo.py",
        "bench/bulk.py",
    ],
)
def test_the_services_and_the_tooling_may_write(path: str) -> None:
    match = make_match(make_user())
    _run_as_if_in(path, WRITES["a match's row"], match=match)
    assert Match.objects.get(pk=match.pk).locked


def test_code_that_calls_a_service_on_the_way_may_ask_for_a_write() -> None:
    match = make_match(make_user())
    _run_as_if_in(
        "matches/clubs/services/nights.py", "match_lock(match=match, user=None)", match=match, match_lock=match_lock
    )
    assert Match.objects.get(pk=match.pk).locked


def test_a_statement_that_changes_no_row_is_no_write() -> None:
    match = make_match(make_user())
    _run_as_if_in("matches/accounts.py", "Match.objects.filter(pk=-1).update(locked=True)", match=match)


def test_reads_and_other_tables_are_not_watched() -> None:
    assert written_table('SELECT * FROM "matches_match"') is None
    assert written_table('UPDATE "matches_player" SET "name" = %s') is None
    assert written_table('INSERT INTO "matches_game" ("match_id") VALUES (%s)') == "matches_game"
    assert written_table('DELETE FROM "matches_match_scorers" WHERE 1') == "matches_match_scorers"
    assert written_table('INSERT OR IGNORE INTO "matches_match_scorers" ("match_id")') == "matches_match_scorers"
    assert writer_of(None) is None
