"""Every form that makes something new ends on the new thing's page, at its own address: a reload, Back or a shared
link lands there too. A secretary starts a club and its season, a league's manager starts a league and adds a
division, a group, a team, a match day and its venue, an organiser announces a tournament; each in a browser, as a
person does."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from matches.clubs import services as clubs
from matches.clubs.models import Club, Season
from matches.interclub.models import Division, Group, League, MatchDay, Team, Venue
from matches.tournaments.models import Tournament

from ..factories import make_user
from .flow import signed_in

pytestmark = pytest.mark.django_db(transaction=True)


def _stays_at(page: Page, address: str | re.Pattern[str], heading: str | None = None) -> None:
    """The page's address is the new thing's (and its heading, if given, the new thing's name); a reload stays."""
    for _ in range(2):
        expect(page).to_have_url(address)
        if heading is not None:
            expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        page.reload()


def test_a_club_and_its_season_are_started_at_their_own_addresses(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    base = live_server.url
    page = signed_in(new_context(), base, make_user("secretary"))
    page.goto(base + "/clubs/")
    page.get_by_label("Name of the club", exact=True).fill("Skatclub Herz Dame")
    page.get_by_role("button", name="Start the club", exact=True).click()
    club = Club.objects.get()
    _stays_at(page, base + f"/clubs/{club.public_id}/", "Skatclub Herz Dame")

    page.get_by_role("link", name="New season", exact=True).click()
    page.get_by_label("Name", exact=True).fill("2027")
    page.get_by_role("button", name="Start the season", exact=True).click()
    season = Season.objects.get()
    _stays_at(page, base + f"/seasons/{season.public_id}/")


def test_a_league_and_everything_in_it_are_made_at_their_own_addresses(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    base = live_server.url
    manager = make_user("manager")
    for name in ("Herz Dame", "Kreuz Bube"):
        club = clubs.club_create(owner=manager, name=name)
        clubs.club_player_add(club=club, name=f"{name} 1")
    page = signed_in(new_context(), base, manager)
    page.goto(base + "/leagues/")
    page.get_by_label("Name of the league", exact=True).fill("Verbandsliga Nord")
    page.get_by_role("button", name="Start the league", exact=True).click()
    league = League.objects.get()
    _stays_at(page, base + f"/leagues/{league.public_id}/", "Verbandsliga Nord")

    page.get_by_label("Name of the division", exact=True).fill("Verbandsliga")
    page.get_by_role("button", name="Add the division", exact=True).click()
    Division.objects.get()
    _stays_at(page, base + f"/leagues/{league.public_id}/", "Verbandsliga Nord")

    page.get_by_label("Name of the group", exact=True).fill("Staffel 1")
    page.get_by_role("button", name="Add the group", exact=True).click()
    group = Group.objects.get()
    _stays_at(page, base + f"/leagues/groups/{group.public_id}/", "Staffel 1")

    for club_name in ("Herz Dame", "Kreuz Bube"):
        page.get_by_label("Club", exact=True).select_option(label=club_name)
        page.get_by_label("Name of the team", exact=True).fill(f"{club_name} I")
        page.get_by_role("button", name="Enter the team", exact=True).click()
        expect(page.get_by_role("link", name=f"{club_name} I", exact=True).first).to_be_visible()
    assert Team.objects.count() == 2
    expect(page).to_have_url(re.compile(rf"^{re.escape(base)}/leagues/(groups|teams)/[0-9a-f-]+/$"))

    page.goto(base + f"/leagues/groups/{group.public_id}/")
    page.get_by_label("Number of the match day", exact=True).fill("1")
    page.get_by_label("Date", exact=True).fill("2027-01-16")
    page.get_by_role("button", name="Add the match day", exact=True).click()
    match_day = MatchDay.objects.get()
    _stays_at(page, re.compile(rf"^{re.escape(base)}/leagues/.*{match_day.public_id}/"))

    page.get_by_label("Place", exact=True).fill("Vereinsheim")
    for club_name in ("Herz Dame", "Kreuz Bube"):
        page.get_by_role("checkbox", name=f"{club_name} I", exact=True).check()
    page.get_by_label("Host team", exact=True).select_option(label="Herz Dame I")
    page.get_by_role("button", name="Add the venue", exact=True).click()
    venue = Venue.objects.get()
    _stays_at(page, base + f"/leagues/venues/{venue.public_id}/")


def test_a_tournament_is_announced_at_its_own_address(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    base = live_server.url
    page = signed_in(new_context(), base, make_user("organiser"))
    page.goto(base + "/tournaments/new/")
    page.get_by_label("Name of the tournament", exact=True).fill("Preisskat im Löwen")
    page.get_by_label("Date", exact=True).fill("2027-02-06")
    page.get_by_role("button", name="Announce the tournament", exact=True).click()
    tournament = Tournament.objects.get()
    _stays_at(page, re.compile(rf"^{re.escape(base)}/tournaments/{tournament.public_id}/"))
