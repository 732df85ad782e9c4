"""The demo data: every variant and scheme, every kind of change, and a second run that writes nothing."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import F, Model
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from matches.engine import VARIANTS, Scheme, Variant
from matches.engine.tournaments import WHOLE
from matches.interclub.models import CheckIn, ReportConfirmation, Venue
from matches.management.commands.demo import ENTRANTS, LEAGUE, LEAGUE_CLUBS, PASSWORD, TOURNAMENT, USERNAME
from matches.models import GAME_ACTIONS, Game, GameScore, Keeper, Match, MatchEvent, Player, Profile, Seat
from matches.tournaments.models import EntryStanding, Series, Tournament

pytestmark = pytest.mark.django_db

MODELS: tuple[type[Model], ...] = (User, Profile, Keeper, Player, Match, Seat, Game, GameScore, MatchEvent)


def state() -> dict[str, object]:
    """Every row count, and what a change would move: each match's version and totals."""
    counts: dict[str, object] = {model.__name__: model._default_manager.count() for model in MODELS}
    counts["matches"] = sorted(Match.objects.values_list("token", "version", "deals", "totals"), key=str)
    return counts


def demo() -> str:
    out = io.StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


@pytest.mark.slow
def test_running_the_demo_twice_changes_nothing_and_rescoring_finds_nothing() -> None:
    demo()
    first = state()
    output = demo()
    assert state() == first
    assert "Nothing to do" in output
    call_command("rescore", check=True, stdout=io.StringIO())


@pytest.mark.slow
def test_the_demo_has_every_variant_scheme_and_kind_of_change(client: Client) -> None:
    output = demo()
    assert PASSWORD in output
    # The login lockout's backend needs the request, as every view passes one.
    assert client.login(request=HttpRequest(), username=USERNAME, password=PASSWORD)
    assert Profile.objects.filter(user__username=USERNAME).exists()
    played = set(Match.objects.values_list("variant", "scheme", "players"))
    for spec in VARIANTS.values():
        assert any(variant == spec.variant for variant, _, _ in played), spec.variant
    assert {scheme for _, scheme, _ in played} == set(Scheme)
    officers = {scheme for variant, scheme, _ in played if variant == Variant.OFFICERS_SKAT}
    assert officers == set(VARIANTS[Variant.OFFICERS_SKAT].schemes)
    for scheme in (Scheme.STANDARD, Scheme.SEEGER_FABIAN):
        for players in (3, 4):
            assert (Variant.SKAT, scheme, players) in played
    assert Match.objects.filter(rules__kontra_re=True, rules__bock=True, rules__ramsch=True).exists()
    assert Match.objects.filter(planned_games=F("deals")).exists()
    assert Match.objects.filter(deals__gte=300).exists()
    live = Game.objects.filter(deleted=False)
    assert live.filter(bock__gt=0).exists()
    assert live.filter(entry__contract="ramsch").exists()
    assert live.filter(entry__ramsch__has_key="jungfrau").exists()
    assert live.filter(passed=True).exists()
    assert Game.objects.filter(deleted=True).exists()
    actions = set(MatchEvent.objects.values_list("action", flat=True))
    assert set(GAME_ACTIONS) | {MatchEvent.Action.LOCK} <= actions  # every change to a game, and closed lists
    assert Player.objects.filter(account__username=USERNAME).exists()


@pytest.mark.slow
def test_the_demo_has_a_league_with_an_accepted_match_day_and_a_tournament_two_series_in(client: Client) -> None:
    demo()
    venue = Venue.objects.get(match_day__group__division__league__name=LEAGUE)
    assert venue.closed_at is not None
    assert venue.accepted_at is not None
    assert ReportConfirmation.objects.filter(venue=venue).count() == len(LEAGUE_CLUBS)
    # The substitute came in for the second series.
    assert CheckIn.objects.filter(venue=venue, series=2, entry__substitute=False).count() < 4 * len(LEAGUE_CLUBS)
    tournament = Tournament.objects.get(name=TOURNAMENT)
    # Its prizes are shares of the prize money that add up to the whole of it, as an organiser may announce them.
    assert tournament.places["kind"] == "shares"
    assert sum(tournament.places["values"]) == WHOLE
    drawn = Series.objects.filter(tournament=tournament).order_by("number")
    assert [one.closed_at is not None for one in drawn] == [True, False]
    assert EntryStanding.objects.filter(tournament=tournament).count() == len(ENTRANTS)
    assert client.get(reverse("interclub_group", args=[venue.match_day.group.public_id])).status_code == 200
    live = client.get(reverse("tournaments:live", args=[tournament.public_id])).content.decode()
    assert "Standings after series 1 of 3" in live
