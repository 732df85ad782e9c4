"""Derived data is guarded: a fresh scoring finds whatever was changed behind the services' back."""

import io

import pytest
from django.core.management import CommandError, call_command

from matches.clubs.models import NightStanding, SeasonStanding
from matches.engine import RULES_VERSION
from matches.models import Game, GameScore, Match

from .factories import add, make_match, make_user
from .test_commands_every_kind import closed_night

pytestmark = pytest.mark.django_db


def rescore(*args: str) -> str:
    out = io.StringIO()
    call_command("rescore", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def match() -> Match:
    match = make_match(make_user(), rules={"bock": True})
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, passed=True)
    return match


def test_every_game_records_the_rules_version_that_scored_it(match: Match) -> None:
    assert set(Game.objects.filter(match=match).values_list("rules_version", flat=True)) == {RULES_VERSION}


def test_a_check_of_untouched_data_finds_nothing(match: Match) -> None:
    assert rescore("--check").strip().endswith("1 matches, 0 differences")


def test_a_score_changed_behind_the_services_back_is_found_and_put_right(match: Match) -> None:
    GameScore.objects.filter(game__match=match, seat=1, points=48).update(points=4800)
    with pytest.raises(CommandError, match="1 differences"):
        rescore("--check")
    assert GameScore.objects.filter(points=4800).exists()
    assert "1 derived values rewritten" in rescore()
    assert not GameScore.objects.filter(points=4800).exists()
    assert rescore("--check").strip().endswith("0 differences")


def test_a_game_scored_by_an_older_engine_is_rescored(match: Match) -> None:
    Game.objects.filter(match=match).update(rules_version=RULES_VERSION - 1)
    with pytest.raises(CommandError):
        rescore("--check")
    rescore()
    assert set(Game.objects.filter(match=match).values_list("rules_version", flat=True)) == {RULES_VERSION}


def test_totals_and_bock_changed_behind_its_back_are_found(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(totals=[0, 0, 0])
    Game.objects.filter(match=match, number=2).update(bock=0)
    with pytest.raises(CommandError, match="2 differences"):
        rescore("--check")
    rescore()
    stored = Match.objects.get(pk=match.pk)
    assert stored.totals == [72, 48, 0]  # grand hand with 1: 24 × 3; clubs with 1 in Bock: 24 × 2
    assert Game.objects.get(match=match, number=2).bock == 1


def test_a_closed_nights_kept_sums_changed_behind_its_back_are_found_and_put_right() -> None:
    night = closed_night()
    season = night.season
    assert rescore("--check").strip().endswith("0 differences")
    NightStanding.objects.filter(night=night, score=98).update(score=9800)
    SeasonStanding.objects.filter(season=season, score=0).update(lists=7)
    # The night's corrupted row, and in the season the two rows changed and the one that no longer sums the night's.
    with pytest.raises(CommandError, match="4 differences"):
        rescore("--check")
    report = rescore()
    assert "1 players' kept sums rewritten" in report
    assert "2 players' kept sums rewritten" in report  # the season: the corrupted row and the lists changed
    assert sorted(SeasonStanding.objects.filter(season=season).values_list("score", "lists")) == [
        (0, 1),
        (0, 1),
        (98, 1),
    ]
    assert rescore("--check").strip().endswith("0 differences")
