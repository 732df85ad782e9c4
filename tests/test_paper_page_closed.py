"""A table's paper-list page of a closed night, venue or series says that its lists stay and shows no form to fill
in, for every kind of event: nobody types a table's totals only to have them refused; a list sent all the same is
refused (409) and nothing changes."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.interclub import services as leagues
from matches.interclub.models import VenueTable
from matches.models import MatchEvent, PaperLine
from matches.tournaments import services as tournaments
from matches.tournaments.models import Series, Table

from .factories import make_user
from .interclub_setup import check_in_all, enter_series, league_setup
from .tournaments_setup import announce, enter_field, play_series

pytestmark = pytest.mark.django_db

LINES = {f"{field}_{seat}": "0" for seat in range(4) for field in ("points", "won", "lost")}


def _signed_in(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def _closed_page(client: Client, address: str, says: str) -> None:
    """The page says ``says`` in place of the form, in English and in German; a list posted is refused."""
    page = client.get(address)
    assert page.status_code == 200
    main = page.content.decode().split("<main>")[1]
    assert says in main
    assert "<form" not in main
    german = client.get(address, headers={"accept-language": "de"}).content.decode()
    assert "Listen bleiben" in german
    events, lines = MatchEvent.objects.count(), sorted(PaperLine.objects.values_list("pk", "game_points"))
    refused = client.post(address, LINES)
    assert refused.status_code == 409
    assert "The list was not entered." in refused.content.decode()
    assert (MatchEvent.objects.count(), sorted(PaperLine.objects.values_list("pk", "game_points"))) == (events, lines)


def test_a_closed_club_nights_paper_list_page_says_the_night_is_closed_and_has_no_form() -> None:
    owner = make_user("olga")
    season = clubs.season_create(
        club=clubs.club_create(owner=owner, name="Skatclub Herz Dame"), settings=clubs.SeasonSettings(name="2026")
    )
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 26))
    for name in ("Anna", "Ben", "Cleo", "Dora"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    table = ClubTable.objects.get(night=night)
    address = reverse("night_paper", args=[night.public_id, table.number]) + "?series=1"
    client = _signed_in(owner)
    assert "<form" in client.get(address).content.decode().split("<main>")[1]
    clubs.night_close(night=night, user=owner, unfinished=True)
    _closed_page(client, address, "This night is closed: its lists stay as they are.")


def test_a_closed_league_venues_paper_list_page_says_the_venue_is_closed_and_has_no_form() -> None:
    setup = league_setup(series=2)
    for series in (1, 2):
        check_in_all(setup, series)
        leagues.series_seat(venue=setup.venue, series=series, user=setup.manager)
        enter_series(setup, series, {team.name: 3000 for team in setup.teams}, setup.manager)
    table = VenueTable.objects.filter(venue=setup.venue, series=1, number=1).get()
    address = reverse("interclub_paper", args=[setup.venue.public_id, table.number]) + "?series=1"
    client = _signed_in(setup.manager)
    assert "<form" in client.get(address).content.decode().split("<main>")[1]
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    _closed_page(client, address, "This venue is closed: its lists stay as they are.")


def test_a_closed_tournament_series_paper_list_page_says_the_series_is_closed_and_has_no_form() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1, user=None)
    series = Series.objects.get(tournament=tournament)
    table = Table.objects.get(series=series, number=1)
    address = reverse("tournaments:paper", args=[tournament.public_id, 1, table.number])
    client = _signed_in(tournament.organiser)
    assert "<form" in client.get(address).content.decode().split("<main>")[1]
    play_series(series)
    tournaments.series_close(series=series, user=None)
    _closed_page(client, address, "Series 1 is closed: its lists stay.")
