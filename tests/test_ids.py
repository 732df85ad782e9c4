"""Games and history entries get ids that begin with their moment (UUID version 7), so that a long list's rows land
at the end of their unique indexes."""

import datetime
import random
import uuid

import pytest

from bench.large_backup import large_backup
from matches.ids import time_ordered_id
from matches.models import MatchEvent

from .factories import add, make_match, make_user

MOMENT = datetime.datetime(2026, 11, 26, 19, 30, 15, 123456, tzinfo=datetime.UTC)


def _milliseconds(value: uuid.UUID) -> int:
    return value.int >> 80


def test_an_id_is_version_7_and_tells_its_moment_to_the_millisecond() -> None:
    made = time_ordered_id(MOMENT)
    assert made.version == 7
    assert made.variant == uuid.RFC_4122
    assert _milliseconds(made) == int(MOMENT.timestamp() * 1000)
    assert made.hex[:12] == f"{int(MOMENT.timestamp() * 1000):012x}"  # RFC 9562's layout: the moment first


def test_ids_of_later_moments_sort_after_as_the_databases_store_them() -> None:
    moments = [MOMENT + datetime.timedelta(milliseconds=step) for step in (0, 1, 2, 1000, 86_400_000)]
    made = [time_ordered_id(moment) for moment in moments]
    assert made == sorted(made)
    assert [value.hex for value in made] == sorted(value.hex for value in made)  # SQLite keeps 32 hex digits


def test_ids_of_one_millisecond_differ_and_a_seeded_source_makes_them_again() -> None:
    assert len({time_ordered_id(MOMENT) for _ in range(1000)}) == 1000
    first, second = random.Random("seed"), random.Random("seed")
    assert time_ordered_id(MOMENT, first.getrandbits) == time_ordered_id(MOMENT, second.getrandbits)


def test_a_moment_before_1970_is_refused() -> None:
    with pytest.raises(ValueError, match="outside the time"):
        time_ordered_id(datetime.datetime(1969, 12, 31, 23, 59, tzinfo=datetime.UTC))


@pytest.mark.django_db
def test_a_saved_game_and_its_history_entry_get_ids_of_the_moment_they_were_saved() -> None:
    match = make_match(make_user())
    before = datetime.datetime.now(datetime.UTC)
    games = [add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70) for _ in range(3)]
    after = datetime.datetime.now(datetime.UTC)
    events = list(MatchEvent.objects.filter(match=match).order_by("pk"))
    for made in [game.public_id for game in games] + [event.public_id for event in events]:
        assert made.version == 7
        assert int(before.timestamp() * 1000) <= _milliseconds(made) <= int(after.timestamp() * 1000)
    assert [game.public_id for game in games] == sorted(game.public_id for game in games)


def test_the_benchmarks_backup_has_the_ids_the_app_would_have_made() -> None:
    games = large_backup(50, "ids")["matches"][0]["games"]
    made = [uuid.UUID(game["id"]) for game in games]
    assert all(value.version == 7 for value in made)
    assert made == sorted(made)
    assert _milliseconds(made[0]) == int(datetime.datetime.fromisoformat(games[0]["created_at"]).timestamp() * 1000)
