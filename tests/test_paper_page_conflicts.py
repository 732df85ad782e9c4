"""A table's paper-list page, for every kind of event, enters a list only over the list its form saw: a form opened
before another list was entered in another browser is refused (409), with the list as it stands now and who entered
it when above the form and what was typed kept, and sent again from there it goes in; the same form sent twice (a
double tap) enters its list once; a list entered is corrected from a form opened after it, its history kept. A form
opened before its series was drawn again (a club night's new draw, a league's series unseated and seated anew) is
refused in the same way, its table's match being another; and a refused form sent again puts each typed total beside
the player it was typed for, however the seats changed. Through the API, a list sent with the version of its event
seen before another list was entered is refused in the same way."""

from __future__ import annotations

import datetime
import html
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from knox.models import AuthToken
from rest_framework.test import APIClient

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.interclub import services as leagues
from matches.interclub.models import Venue, VenueTable
from matches.models import Match, MatchEvent, PaperLine, Player
from matches.tournaments import services as tournaments
from matches.tournaments.models import Series, Table

from .factories import make_user
from .interclub_setup import LeagueSetup, check_in_all, enter_series, league_setup
from .knockout.models import Knockout, KnockoutTable
from .knockout.things import knockout_things
from .tournaments_setup import announce, enter_field

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Opened:
    """A table's paper-list page of a kind of event, the match it enters, and two accounts that may enter it (each
    in a browser of their own)."""

    address: str
    match: Match
    first: User
    second: User


def _club_night() -> Opened:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    secretary = make_user("sepp")
    clubs.member_set(club=club, username=secretary.username, role="secretary")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 26))
    for name in ("Anna", "Ben", "Cleo", "Dora"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    table = ClubTable.objects.select_related("match").get(night=night)
    address = reverse("night_paper", args=[night.public_id, table.number]) + "?series=1"
    return Opened(address, table.match, secretary, owner)


def _seated_venue(series: int = 2) -> tuple[LeagueSetup, VenueTable]:
    setup = league_setup(series=series)
    for number in range(1, series + 1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
    table = VenueTable.objects.select_related("match").get(venue=setup.venue, series=series, number=1)
    return setup, table


def _league_venue() -> Opened:
    setup, table = _seated_venue()
    address = reverse("interclub_paper", args=[setup.venue.public_id, table.number]) + "?series=2"
    return Opened(address, table.match, setup.secretaries[0], setup.manager)


def _tournament() -> Opened:
    organiser = make_user("tara")
    tournament = announce(organiser)
    enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1, user=None)
    table = Table.objects.select_related("match").get(series=Series.objects.get(tournament=tournament), number=1)
    address = reverse("tournaments:paper", args=[tournament.public_id, 1, table.number])
    # The desk's computer and the organiser's phone.
    return Opened(address, table.match, organiser, organiser)


def _knockout() -> Opened:
    organiser = make_user("kurt")
    knockout = knockout_things(organiser)["knockout_id"]
    assert isinstance(knockout, Knockout)
    table = KnockoutTable.objects.select_related("match").get(knockout=knockout, series=1, number=1)
    address = reverse("knockout_paper", args=[knockout.public_id, 1, 1])
    return Opened(address, table.match, organiser, organiser)


KINDS: dict[str, Callable[[], Opened]] = {
    "club night": _club_night,
    "league venue": _league_venue,
    "tournament": _tournament,
    "knockout": _knockout,
}


def _browser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _lines(match: Match, points: int) -> dict[str, str]:
    """The first seat won one game of ``points`` (18: diamonds with one; 20: hearts with one), the others nothing."""
    lines: dict[str, str] = {}
    for seat in range(match.seats.count()):
        lines |= {f"points_{seat}": str(points if seat == 0 else 0), f"won_{seat}": str(int(seat == 0))}
        lines |= {f"lost_{seat}": "0"}
    return lines


def _form(client: Client, address: str, points: int, match: Match) -> dict[str, str]:
    """The page's form as the browser has it (its hidden fields: the series, the version it was made out for),
    filled in with ``points`` for the first seat."""
    page = client.get(address)
    assert page.status_code == 200
    return _hidden(page.content.decode()) | _lines(match, points)


def _hidden(page: str) -> dict[str, str]:
    form = page.split("<main>")[1].split("<form")[1].split("</form>")[0]
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)
        if name != "csrfmiddlewaretoken"
    }


def _shown(page: str) -> dict[str, str]:
    """Every field of the page's form as the browser shows it, to send as it stands."""
    form = page.split("<main>")[1].split("<form")[-1].split("</form>")[0]
    fields = {}
    for attributes in re.findall(r"<input ([^>]*)>", form):
        name = re.search(r'name="(\w+)"', attributes)
        value = re.search(r'value="([^"]*)"', attributes)
        if name is not None and name[1] != "csrfmiddlewaretoken":
            fields[name[1]] = html.unescape(value[1]) if value is not None else ""
    return fields


def _row(page: str, player: Player) -> str:
    """The fields of ``player``'s row in the page's form."""
    form = page.split("<main>")[1].split("<form")[-1]
    return form.split(f"<legend>{player.name}</legend>")[1].split("</fieldset>")[0]


def _totals(match: Match, player: Player) -> tuple[int, int, int]:
    return PaperLine.objects.values_list("game_points", "won", "lost").get(match=match, player=player)


def _stored(match: Match) -> list[tuple[int, int, int]]:
    return sorted(PaperLine.objects.filter(match=match).values_list("game_points", "won", "lost"))


def _entered(points: int, seats: int) -> list[tuple[int, int, int]]:
    return sorted([(points, 1, 0), *[(0, 0, 0)] * (seats - 1)])


def _paper_changes(match: Match) -> int:
    return MatchEvent.objects.filter(match=match, action=MatchEvent.Action.PAPER).count()


@pytest.mark.parametrize("kind", KINDS)
def test_a_form_that_did_not_see_the_list_entered_meanwhile_is_refused_with_the_list_as_it_stands(kind: str) -> None:
    opened = KINDS[kind]()
    seats = opened.match.seats.count()
    first, second = _browser(opened.first), _browser(opened.second)
    first_form = _form(first, opened.address, 18, opened.match)
    second_form = _form(second, opened.address, 20, opened.match)
    assert first.post(opened.address, first_form).status_code == 302

    refused = second.post(opened.address, second_form)

    assert refused.status_code == 409
    assert _stored(opened.match) == _entered(18, seats)
    assert _paper_changes(opened.match) == 1
    main = refused.content.decode().split("<main>")[1]
    summary = html.unescape(main.split('class="error-summary"')[1].split("<form")[0])
    assert "This table was changed while you had this form open; your list was not entered." in summary
    standing = summary.split('id="standing"')[1]
    first_seat = opened.match.seats.select_related("player").get(position=0).player.name
    assert re.search(rf"<th scope=\"row\">{re.escape(first_seat)}</th><td class=\"num\">18</td>", standing)
    assert f"Entered by {opened.first.username}," in standing
    # What was typed stays in the form, made out anew for the list as it stands: sent again, it goes in.
    assert re.search(r'<input [^>]*name="points_0" value="20"', main)
    again = _hidden(refused.content.decode())
    assert again["version"] == str(Match.objects.get(pk=opened.match.pk).version) != second_form["version"]
    assert second.post(opened.address, {**second_form, **again}).status_code == 302
    assert _stored(opened.match) == _entered(20, seats)
    assert _paper_changes(opened.match) == 2


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_form_sent_twice_enters_its_list_once(kind: str) -> None:
    opened = KINDS[kind]()
    browser = _browser(opened.first)
    form = _form(browser, opened.address, 18, opened.match)
    assert browser.post(opened.address, form).status_code == 302
    assert browser.post(opened.address, form).status_code == 302
    assert _stored(opened.match) == _entered(18, opened.match.seats.count())
    assert _paper_changes(opened.match) == 1


def test_a_complete_series_keeps_its_scores_when_a_stale_form_is_sent_and_is_corrected_from_a_fresh_one() -> None:
    setup, table = _seated_venue()
    enter_series(setup, 2, {team.name: 3000 + 100 * index for index, team in enumerate(setup.teams)}, setup.manager)
    address = reverse("interclub_paper", args=[setup.venue.public_id, table.number]) + "?series=2"
    venue_page = reverse("interclub_venue", args=[setup.venue.public_id])
    secretary, manager = _browser(setup.secretaries[0]), _browser(setup.manager)
    entered = _stored(table.match)
    stale = _form(manager, address, 20, table.match)
    corrected = _form(secretary, address, 18, table.match)
    assert secretary.post(address, corrected).status_code == 302
    results = manager.get(venue_page).content.decode().split("Results of series 2")[1]

    refused = manager.post(address, stale, headers={"accept-language": "de"})

    assert refused.status_code == 409
    german = html.unescape(refused.content.decode())
    assert "Dieser Tisch wurde geändert, während du dieses Formular offen hattest" in german
    assert f"Eingetragen von {setup.secretaries[0].username}," in german
    assert _stored(table.match) == _entered(18, 4) != entered
    assert manager.get(venue_page).content.decode().split("Results of series 2")[1] == results
    # Opened after the correction, the manager's form corrects it again: the history keeps every list.
    assert manager.post(address, _form(manager, address, 20, table.match)).status_code == 302
    assert _stored(table.match) == _entered(20, 4)
    assert _paper_changes(table.match) == 3


def test_a_list_sent_through_the_api_on_the_venues_version_before_a_list_entered_on_the_page_is_refused() -> None:
    setup, table = _seated_venue()
    seen = Venue.objects.get(pk=setup.venue.pk).version
    page = reverse("interclub_paper", args=[setup.venue.public_id, table.number]) + "?series=2"
    assert _browser(setup.secretaries[0]).post(page, {"series": "2", **_lines(table.match, 18)}).status_code == 302
    api = APIClient()
    _, token = AuthToken.objects.create(user=setup.manager)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    players = [seat.player for seat in table.match.seats.order_by("position")]
    body = {
        "series": 2,
        "table": table.number,
        "lines": [
            {"player": str(player.public_id), "game_points": 20 if seat == 0 else 0, "won": int(seat == 0), "lost": 0}
            for seat, player in enumerate(players)
        ],
    }
    headers = {"Idempotency-Key": str(uuid.uuid4()), "If-Match": f'"{seen}"'}
    refused = api.put(f"/api/v1/venues/{setup.venue.public_id}/paper/", body, format="json", headers=headers)
    assert refused.status_code == 409
    assert refused.json()["version"] == Venue.objects.get(pk=setup.venue.pk).version
    assert _stored(table.match) == _entered(18, 4)


def test_a_form_made_out_before_its_list_was_taken_back_to_the_phones_says_no_list_is_entered() -> None:
    opened = _club_night()
    table = ClubTable.objects.get(match=opened.match)
    secretary = _browser(opened.first)
    assert secretary.post(opened.address, _form(secretary, opened.address, 18, opened.match)).status_code == 302
    stale = _form(secretary, opened.address, 20, opened.match)
    clubs.paper_to_phones(table=table, user=opened.second)

    refused = secretary.post(opened.address, stale)

    assert refused.status_code == 409
    assert "No list is entered for this table now." in refused.content.decode().split("<main>")[1]
    assert _stored(opened.match) == []


def test_a_form_made_out_before_two_players_swapped_seats_gives_nobody_the_others_totals() -> None:
    opened = _club_night()
    table = ClubTable.objects.select_related("night").get(match=opened.match)
    first, second = [seat.player for seat in opened.match.seats.select_related("player").order_by("position")][:2]
    secretary = _browser(opened.first)
    stale = _form(secretary, opened.address, 18, opened.match)
    clubs.seats_swap(night=table.night, series=1, first=first, second=second, user=opened.second)

    refused = secretary.post(opened.address, stale)

    assert refused.status_code == 409
    assert _stored(opened.match) == []
    assert f"<legend>{second.name}</legend>" in refused.content.decode().split("<form")[-1].split("points_1")[0]


def _club_night_drawn_again(opened: Opened) -> Match:
    night = ClubTable.objects.get(match=opened.match).night
    clubs.night_draw(night=night, series=1, user=opened.second, again=True)
    return ClubTable.objects.select_related("match").get(night=night, series=1, number=1).match


def _league_series_seated_anew(opened: Opened) -> Match:
    venue = VenueTable.objects.get(match=opened.match).venue
    leagues.series_unseat(venue=venue, series=2)
    leagues.series_seat(venue=venue, series=2, user=opened.second)
    return VenueTable.objects.select_related("match").get(venue=venue, series=2, number=1).match


DRAWN_AGAIN: dict[str, Callable[[Opened], Match]] = {
    "club night": _club_night_drawn_again,
    "league venue": _league_series_seated_anew,
}


@pytest.mark.parametrize("kind", DRAWN_AGAIN)
def test_a_form_made_out_before_its_series_was_drawn_again_enters_nothing_on_the_new_table(kind: str) -> None:
    opened = KINDS[kind]()
    first_seat = opened.match.seats.select_related("player").get(position=0).player
    secretary = _browser(opened.first)
    stale = _form(secretary, opened.address, 18, opened.match)
    drawn = DRAWN_AGAIN[kind](opened)
    # The new table's match starts where the old one's did: its version alone does not tell them apart.
    assert drawn.pk != opened.match.pk
    assert str(drawn.version) == stale["version"]

    refused = secretary.post(opened.address, stale)

    assert refused.status_code == 409
    assert _stored(drawn) == []
    page = refused.content.decode()
    assert "No list is entered for this table now." in page.split("<main>")[1]
    # Sent again, the list goes in on the new table, the 18 beside the player it was typed for.
    assert re.search(r'name="points_\d+" value="18"', _row(page, first_seat))
    assert secretary.post(opened.address, _shown(page)).status_code == 302
    assert _stored(drawn) == _entered(18, drawn.seats.count())
    assert _totals(drawn, first_seat) == (18, 1, 0)


def test_a_list_sent_again_after_two_players_swapped_seats_puts_each_total_beside_its_player() -> None:
    opened = _club_night()
    table = ClubTable.objects.select_related("night").get(match=opened.match)
    first, second = [seat.player for seat in opened.match.seats.select_related("player").order_by("position")][:2]
    secretary = _browser(opened.first)
    typed = _form(secretary, opened.address, 18, opened.match) | {"points_1": "20", "won_1": "1"}
    clubs.seats_swap(night=table.night, series=1, first=first, second=second, user=opened.second)

    refused = secretary.post(opened.address, typed)

    assert refused.status_code == 409
    page = refused.content.decode()
    assert re.search(r'name="points_1" value="18"', _row(page, first))
    assert re.search(r'name="points_0" value="20"', _row(page, second))
    assert secretary.post(opened.address, _shown(page)).status_code == 302
    assert _totals(opened.match, first) == (18, 1, 0)
    assert _totals(opened.match, second) == (20, 1, 0)
