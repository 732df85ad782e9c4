"""The core's own ways for an app to correct a match it started: discard one on whose list nothing was entered,
give it another title, take games on a locked list again. Each under the match's lock, each telling the phones."""

import uuid

import pytest

from matches.errors import Invalid
from matches.models import Game, Match, MatchEvent, Seat
from matches.services import ListClosed, ListPlayed, match_discard, match_retitle, match_undo, match_unlock

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


def test_a_match_with_nothing_entered_is_discarded_with_its_seats() -> None:
    match = make_match(make_user())
    match_discard(match=match)
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Seat.objects.filter(match_id=match.pk).exists()


def test_a_match_that_had_a_game_stays_even_when_the_game_was_undone() -> None:
    owner = make_user()
    match = make_match(owner)
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    match_undo(match=match, user=owner, token=uuid.uuid4())
    with pytest.raises(ListPlayed):
        match_discard(match=match)
    assert Game.objects.filter(match=match).count() == 1
    assert MatchEvent.objects.filter(match=match).count() == 2


def test_a_locked_list_is_not_discarded() -> None:
    match = make_match(make_user())
    Match.objects.filter(pk=match.pk).update(locked=True)
    match.refresh_from_db()
    with pytest.raises(ListClosed):
        match_discard(match=match)
    assert Match.objects.filter(pk=match.pk).exists()


def test_a_new_title_moves_the_version_on_and_a_title_too_long_is_refused() -> None:
    match = make_match(make_user(), title="2026, 2026-11-24: series 1, table 1")
    version = match.version
    match_retitle(match=match, title="2026, 2026-11-25: series 1, table 1")
    match.refresh_from_db()
    assert (match.title, match.version) == ("2026, 2026-11-25: series 1, table 1", version + 1)
    match_retitle(match=match, title=match.title)
    assert Match.objects.get(pk=match.pk).version == version + 1
    with pytest.raises(Invalid) as refused:
        match_retitle(match=match, title="x" * 101)
    assert refused.value.errors[0].field == "title"


def test_an_unlocked_list_takes_games_again_and_its_phones_learn() -> None:
    match = make_match(make_user())
    Match.objects.filter(pk=match.pk).update(locked=True)
    match.refresh_from_db()
    version = match.version
    match_unlock(match=match, user=None)
    assert not Match.objects.get(pk=match.pk).locked
    assert Match.objects.get(pk=match.pk).version == version + 1
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    assert Game.objects.filter(match=match).count() == 1
