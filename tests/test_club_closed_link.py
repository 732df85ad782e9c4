"""A table's QR link, once its night is closed, opens a page of the site in the phone's language: the night is
closed, and here is its table (410: the link is gone for good). A link nobody made stays a plain 404."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from matches.leagues import services as clubs
from matches.leagues.models import ClubTable, Night
from matches.leagues.selectors import night_results

from .factories import make_user
from .test_queries import enter

pytestmark = pytest.mark.django_db


def _closed_night() -> tuple[Night, str]:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 26))
    for name in ("Anna Albers", "Ben", "Cleo"):
        clubs.check_in(night=night, name=name)
    anna = season.club.keeper.players.get(name="Anna Albers")
    clubs.roster_set(club=club, player=anna, guest=False, first_name_only=True, categories=[])
    clubs.night_draw(night=night, series=1, user=owner)
    table = ClubTable.objects.select_related("match").get(night=night)
    enter(table.match, 3)
    token = table.match.invite_token
    assert token is not None
    clubs.night_close(night=night, user=owner)
    return night, token


def test_a_closed_nights_table_link_says_the_night_is_closed_with_its_results_in_german() -> None:
    night, token = _closed_night()
    answer = Client(headers={"accept-language": "de"}).get(reverse("match_join", args=[token]))
    assert answer.status_code == 410
    page = answer.content.decode()
    assert '<html lang="de">' in page
    assert "Der Abend ist geschlossen" in page
    assert "Skatclub Herz Dame" in page
    results = night_results(night)
    assert results.night_places
    for place in results.night_places:
        assert f"<td>{place.place}" in page
    assert "Anna" in page
    assert "Albers" not in page  # a public page: first names only where asked


def test_a_reopened_nights_old_link_and_an_unknown_link_open_nothing() -> None:
    night, token = _closed_night()
    assert Client().get(reverse("match_join", args=["not-a-link-anybody-made"])).status_code == 404
    clubs.night_reopen(night=night, user=night.season.club.memberships.get().user)
    assert Client().get(reverse("match_join", args=[token])).status_code == 404
