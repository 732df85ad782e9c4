"""The league pages through the test client: a venue's match day from check-in to closing, its report confirmed,
accepted and corrected, the group's table, a team's page, the league's setup; each refusal next to its field; and
every address asked by every persona of a league."""

from __future__ import annotations

import datetime
import html
import re
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from dataclasses import dataclass
from itertools import combinations

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, timezone, translation

from matches.clubs import services as clubs
from matches.interclub import services as leagues
from matches.interclub.models import CheckIn, Division, Group, League, MatchDay, RosterEntry, Team, Venue, VenueTable
from matches.interclub.selectors import players_ranking
from matches.labels import standing_label, total_label
from matches.models import Match, Player
from matches.services import Submission, game_add

from .factories import make_user
from .interclub_setup import LeagueSetup, check_in_all, enter_series, league_setup, paper_line, roster_player

pytestmark = pytest.mark.django_db

# Each team's series score in series 1 and 2 (made up, with no two teams equal).
WORKED_SCORES = (
    {"Herz Dame I": 3683, "Kreuz Bube I": 3000, "Pik As I": 2900, "Karo Sieben I": 2800},
    {"Herz Dame I": 3283, "Kreuz Bube I": 3400, "Pik As I": 3300, "Karo Sieben I": 3000},
)

LEAGUE_FORM = {
    "name": "Bezirksliga",
    "series_per_day": "3",
    "games_at_four": "48",
    "games_at_three": "36",
    "series_tie": "shared",
    "short_venue": "present",
    "per_team_beaten": "1",
    "table_tie": "shared",
    "minimum_series": "0",
}


def browser(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def check_in_data(setup: LeagueSetup, team: int, entries: list[RosterEntry], series: int = 1) -> dict[str, object]:
    prefix = f"s{series}-t{setup.teams[team].pk}"
    return {
        "series": str(series),
        "team": str(setup.teams[team].public_id),
        f"{prefix}-entries": [str(entry.pk) for entry in entries],
    }


def error_of(response_text: str, field_id: str) -> str:
    """The message shown next to the field of that id (``<p class="error" ... id="<id>_error">``)."""
    found = re.search(rf'id="{re.escape(field_id)}_error">([^<]*)<', response_text)
    assert found is not None, f"no message next to {field_id}"
    return found[1]


def shown_line_up(page: str, team: Team, series: int = 1) -> str:
    """The line-up the page's check-in form of ``team`` for ``series`` was made over, as it sends it back."""
    form = next(
        part
        for part in page.split("<form")[1:]
        if f'value="{team.public_id}"' in part and f'name="series" value="{series}"' in part
    )
    found = re.search(r'name="shown" value="([^"]*)"', form)
    assert found is not None, "no line-up shown in the form"
    return found[1]


def version_read(page: str) -> str:
    """The venue's version the report's page showed, as its confirmation and acceptance send it back."""
    found: set[str] = set(re.findall(r'name="version" value="([^"]*)"', page))
    assert len(found) == 1, found
    return found.pop()


def paper_post(table: VenueTable, totals: dict[int, int]) -> dict[str, str]:
    """The paper form of a table of four, each player's line giving the Seeger-Fabian total in ``totals``."""
    players = [seat.player for seat in table.match.seats.order_by("position")]
    data = {"series": str(table.series)}
    for index, player in enumerate(players):
        points, won, lost = paper_line(totals[player.pk])
        data |= {f"points_{index}": str(points), f"won_{index}": str(won), f"lost_{index}": str(lost)}
    return data


def team_totals(setup: LeagueSetup, scores: dict[str, int]) -> dict[int, int]:
    """Each regular player's total so that each team's series score is ``scores[team]``."""
    totals = {}
    for team, roster in zip(setup.teams, setup.rosters, strict=True):
        base, rest = divmod(scores[team.name], 4)
        for index, entry in enumerate(roster[:4]):
            totals[entry.league_player_id] = base + (1 if index < rest else 0)
    return totals


# --- The venue's match day --------------------------------------------------------------------------------------------


def test_the_host_secretary_runs_a_match_day_through_the_pages() -> None:
    setup = league_setup(series=2)
    secretary = browser(setup.secretaries[0])
    venue_url = reverse("interclub_venue", args=[setup.venue.public_id])
    page = secretary.get(venue_url).content.decode()
    assert "Check in Herz Dame I" in page
    for series in (1, 2):
        for team, roster in enumerate(setup.rosters):
            response = secretary.post(
                reverse("interclub_check_in", args=[setup.venue.public_id]),
                check_in_data(setup, team, roster[:4], series),
            )
            assert response.status_code == 302
        response = secretary.post(reverse("interclub_seat", args=[setup.venue.public_id]), {"series": str(series)})
        assert response.status_code == 302
        page = secretary.get(venue_url).content.decode()
        tables = VenueTable.objects.filter(venue=setup.venue, series=series).select_related("match")
        assert tables.count() == 4
        for table in tables:
            assert str(table.match.invite_token) in page  # each table's QR link, to score on a phone
            response = secretary.post(
                reverse("interclub_paper", args=[setup.venue.public_id, table.number]) + f"?series={series}",
                paper_post(table, team_totals(setup, WORKED_SCORES[series - 1])),
            )
            assert response.status_code == 302, response.content.decode()
    page = secretary.get(venue_url).content.decode()
    assert "Results of series 2" in page
    # The results follow the tables by themselves, and so does the way to close the venue.
    assert 'hx-select-oob="#results-1,#results-2,#close"' in page
    response = secretary.post(reverse("interclub_close", args=[setup.venue.public_id]))
    assert response.status_code == 302
    assert Venue.objects.get(pk=setup.venue.pk).closed_at is not None


def test_a_check_in_of_two_players_is_refused_next_to_the_teams_players() -> None:
    setup = league_setup()
    response = browser(setup.captains[1]).post(
        reverse("interclub_check_in", args=[setup.venue.public_id]), check_in_data(setup, 1, setup.rosters[1][:2])
    )
    assert response.status_code == 400
    message = error_of(response.content.decode(), f"id_s1-t{setup.teams[1].pk}-entries")
    assert "brings 2 players: a team plays with 3 or 4" in message
    assert not CheckIn.objects.exists()


def test_a_check_in_from_a_page_that_did_not_show_the_line_up_checked_in_meanwhile_is_refused_saying_it() -> None:
    """The host's secretary checks Kreuz Bube I in while its captain's page still says it is not: the captain's
    line-up is refused in their language, naming who checked the team in and with whom, and the secretary's stays;
    sent again from the page that refused it, the captain's line-up replaces it."""
    setup = league_setup()
    team, roster = setup.teams[1], setup.rosters[1]
    secretary = browser(setup.secretaries[0])
    captain = Client(headers={"accept-language": "de"})
    captain.force_login(setup.captains[1])
    venue_url = reverse("interclub_venue", args=[setup.venue.public_id])
    check_in = reverse("interclub_check_in", args=[setup.venue.public_id])
    captains_page = captain.get(venue_url).content.decode()
    secretarys_page = secretary.get(venue_url).content.decode()
    shown = shown_line_up(secretarys_page, team, 2)
    assert shown == shown_line_up(captains_page, team, 2) == ""
    response = secretary.post(check_in, check_in_data(setup, 1, roster[:3], 2) | {"shown": shown})
    assert response.status_code == 302
    response = captain.post(
        check_in, check_in_data(setup, 1, roster[:4], 2) | {"shown": shown_line_up(captains_page, team, 2)}
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert html.unescape(error_of(page, f"id_s2-t{team.pk}-entries")) == (
        "secretary0 hat Kreuz Bube I inzwischen für Serie 2 angemeldet: Kreu 1, Kreu 2, Kreu 3. Sieh dir die "
        "Aufstellung an und melde die Mannschaft dann erneut an."
    )
    checked = CheckIn.objects.filter(venue=setup.venue, series=2, team=team).order_by("position")
    assert [one.entry for one in checked] == roster[:3]
    shown = shown_line_up(page, team, 2)
    assert shown == ",".join(str(entry.league_player_id) for entry in roster[:3])
    response = captain.post(check_in, check_in_data(setup, 1, roster[:4], 2) | {"shown": shown})
    assert response.status_code == 302
    checked = CheckIn.objects.filter(venue=setup.venue, series=2, team=team).order_by("position")
    assert [one.entry for one in checked] == roster[:4]


def test_a_check_in_of_another_team_meanwhile_refuses_no_check_in() -> None:
    setup = league_setup()
    captain = browser(setup.captains[1])
    page = captain.get(reverse("interclub_venue", args=[setup.venue.public_id])).content.decode()
    leagues.series_check_in(
        venue=setup.venue, series=1, team=setup.teams[0], entries=setup.rosters[0][:4], user=setup.secretaries[0]
    )
    response = captain.post(
        reverse("interclub_check_in", args=[setup.venue.public_id]),
        check_in_data(setup, 1, setup.rosters[1][:4]) | {"shown": shown_line_up(page, setup.teams[1])},
    )
    assert response.status_code == 302
    assert CheckIn.objects.filter(venue=setup.venue, series=1).count() == 8


def test_the_venue_pages_line_ups_mark_a_substitute_as_the_check_in_form_does() -> None:
    setup = league_setup()
    otto = roster_player(setup.teams[1], "Otto", substitute=True)
    leagues.series_check_in(venue=setup.venue, series=1, team=setup.teams[1], entries=[*setup.rosters[1][:3], otto])
    captain = Client(headers={"accept-language": "de"})
    captain.force_login(setup.captains[1])
    page = html.unescape(captain.get(reverse("interclub_venue", args=[setup.venue.public_id])).content.decode())
    assert "<span>Otto (Ersatz)</span></label>" in page
    assert "<li>Kreuz Bube I: Kreu 1, Kreu 2, Kreu 3, Otto (Ersatz)</li>" in page


@pytest.mark.parametrize(
    ("language", "count", "words"),
    [
        ("en", 1, "Kreuz Bube I brings 1 player: a team plays with 3 or 4."),
        ("en", 2, "Kreuz Bube I brings 2 players: a team plays with 3 or 4."),
        ("de", 1, "Kreuz Bube I tritt mit 1 Spieler an: Eine Mannschaft spielt mit 3 oder 4."),
        ("de", 2, "Kreuz Bube I tritt mit 2 Spielern an: Eine Mannschaft spielt mit 3 oder 4."),
    ],
)
def test_a_check_in_too_short_counts_its_players_in_the_readers_language(language: str, count: int, words: str) -> None:
    setup = league_setup()
    captain = Client(headers={"accept-language": language})
    captain.force_login(setup.captains[1])
    response = captain.post(
        reverse("interclub_check_in", args=[setup.venue.public_id]), check_in_data(setup, 1, setup.rosters[1][:count])
    )
    assert response.status_code == 400
    assert html.unescape(error_of(response.content.decode(), f"id_s1-t{setup.teams[1].pk}-entries")) == words


def test_a_captain_checks_in_only_their_own_team() -> None:
    setup = league_setup()
    captain = browser(setup.captains[1])
    page = captain.get(reverse("interclub_venue", args=[setup.venue.public_id])).content.decode()
    assert "Check in Kreuz Bube I" in page
    assert "Check in Herz Dame I" not in page
    assert "Seat series 1" not in page
    response = captain.post(
        reverse("interclub_check_in", args=[setup.venue.public_id]), check_in_data(setup, 0, setup.rosters[0][:4])
    )
    assert response.status_code == 400
    assert "captain" in error_of(response.content.decode(), f"id_s1-t{setup.teams[0].pk}-entries")
    assert not CheckIn.objects.exists()


def test_a_series_is_offered_for_seating_once_a_team_is_checked_in_and_names_those_left_out() -> None:
    setup = league_setup(series=2)
    secretary = browser(setup.secretaries[0])
    venue_url = reverse("interclub_venue", args=[setup.venue.public_id])
    page = html.unescape(secretary.get(venue_url).content.decode())
    assert "Seat series 1" not in page
    assert "Seat series 2" not in page
    assert "A series is seated once its teams are checked in." in page
    for team in (0, 1):
        secretary.post(
            reverse("interclub_check_in", args=[setup.venue.public_id]),
            check_in_data(setup, team, setup.rosters[team][:4]),
        )
    page = html.unescape(secretary.get(venue_url).content.decode())
    assert "Seat series 1" in page
    assert "Seat series 2" not in page
    left_out = f"Not checked in, so left out when the series is seated: {setup.teams[2].name}, {setup.teams[3].name}"
    assert left_out in page


def test_a_captain_cannot_seat_and_is_told_why() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    response = browser(setup.captains[1]).post(
        reverse("interclub_seat", args=[setup.venue.public_id]), {"series": "1"}, follow=True
    )
    assert "Only the host's secretaries and the league's managers" in html.unescape(response.content.decode())
    assert not VenueTable.objects.exists()


def _names_at_tables(setup: LeagueSetup, series: int) -> list[list[str]]:
    tables = VenueTable.objects.filter(venue=setup.venue, series=series).select_related("match").order_by("number")
    return [[seat.player.name for seat in table.match.seats.select_related("player")] for table in tables]


def test_seating_a_series_names_the_pairs_that_sit_together_again_where_no_seating_avoids_them() -> None:
    """Four teams of three at three tables of four: the four who sat at a table of series 1 have three tables to go
    to in series 2, so two of them sit together again, for each table of series 1; the desk names those pairs as a
    tournament's desk does after a draw."""
    setup = league_setup(series=2)
    secretary = browser(setup.secretaries[0])
    seat = reverse("interclub_seat", args=[setup.venue.public_id])
    pages = []
    for series in (1, 2):
        for team, roster in zip(setup.teams, setup.rosters, strict=True):
            leagues.series_check_in(venue=setup.venue, series=series, team=team, entries=roster[:3])
        pages.append(html.unescape(secretary.post(seat, {"series": str(series)}, follow=True).content.decode()))
    assert "Series 1 is seated." in pages[0]
    assert "together again" not in pages[0]
    before = [set(table) for table in _names_at_tables(setup, 1)]
    again = [
        f"{one} & {other}"
        for table in _names_at_tables(setup, 2)
        for one, other in combinations(table, 2)
        if any({one, other} <= table_before for table_before in before)
    ]
    assert len(again) == 3
    assert "Series 2 is seated." in pages[1]
    assert f"3 pairs sit together again, as the draw could not avoid them all: {', '.join(again)}." in pages[1]


def test_a_paper_list_that_does_not_add_up_is_refused_next_to_its_numbers() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    table = VenueTable.objects.filter(venue=setup.venue, series=1).select_related("match").first()
    assert table is not None
    data = paper_post(table, team_totals(setup, WORKED_SCORES[0])) | {"won_0": "60"}
    response = browser(setup.manager).post(
        reverse("interclub_paper", args=[setup.venue.public_id, table.number]) + "?series=1", data
    )
    assert response.status_code == 400
    assert "The list is not entered yet" in response.content.decode()
    assert not VenueTable.objects.get(pk=table.pk).paper


def test_a_table_kept_on_paper_shows_its_list_on_its_match_page() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    enter_series(setup, 1, WORKED_SCORES[0], setup.manager)
    table = VenueTable.objects.filter(venue=setup.venue, series=1).select_related("match").first()
    assert table is not None
    page = browser(setup.manager).get(reverse("match_detail", args=[table.match.public_id])).content.decode()
    lines = {line.player_id: line for line in table.match.paper_lines.all()}
    seats = table.match.seats.order_by("position")
    totals = page.split('aria-label="Totals"')[1].split("</ol>")[0]
    for seat in seats:
        line = lines[seat.player_id]
        assert f'<span class="total">{line.game_points + 50 * line.won - 50 * line.lost}</span>' in totals
    assert "The list was kept on paper" in page
    assert "No games yet." not in page


def test_closing_a_venue_with_open_tables_says_which() -> None:
    setup = league_setup()
    response = browser(setup.secretaries[0]).post(reverse("interclub_close", args=[setup.venue.public_id]), follow=True)
    assert "Series 1 is not seated yet." in response.content.decode()
    assert Venue.objects.get(pk=setup.venue.pk).closed_at is None


# --- The match report -------------------------------------------------------------------------------------------------


def _closed(series: int = 2) -> LeagueSetup:
    setup = league_setup(series=series)
    for number in range(1, series + 1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
        enter_series(setup, number, WORKED_SCORES[number - 1], setup.manager)
    setup.venue = leagues.venue_close(venue=setup.venue, user=setup.manager)
    return setup


def test_the_report_is_confirmed_by_the_captains_and_accepted_by_the_manager() -> None:
    setup = _closed()
    report_url = reverse("interclub_report", args=[setup.venue.public_id])
    page = browser(None).get(report_url).content.decode()
    assert "Provisional" in page
    assert "Herz 1" in page
    assert "Ranking of series 2" in page
    captain = browser(setup.captains[2])
    page = captain.get(report_url).content.decode()
    assert "Confirm the report for Pik As I" in page
    assert "Confirm the report for Herz Dame I" not in page
    confirm = {"team": str(setup.teams[2].public_id), "version": version_read(page)}
    captain.post(reverse("interclub_confirm", args=[setup.venue.public_id]), confirm)
    page = captain.get(report_url).content.decode()
    assert "Confirm the report for Pik As I" not in page
    assert "captain2" in page
    manager = browser(setup.manager)
    read = version_read(manager.get(report_url).content.decode())
    manager.post(reverse("interclub_accept", args=[setup.venue.public_id]), {"version": read})
    page = manager.get(report_url).content.decode()
    assert "Accepted on" in page
    assert "by manager" in page


def test_the_reports_league_points_list_the_teams_best_first() -> None:
    setup = _closed()
    page = browser(None).get(reverse("interclub_report", args=[setup.venue.public_id])).content.decode()
    day = page.split('id="day-title"')[1].split("</table>")[0]
    listed = re.findall(r'<a href="/leagues/teams/[^"]+/">([^<]+)</a>', day)
    # Kreuz Bube I was second and first, Herz Dame I first and third, Pik As I third and second, Karo Sieben I last.
    assert listed == ["Kreuz Bube I", "Herz Dame I", "Pik As I", "Karo Sieben I"]


def test_a_captain_cannot_confirm_for_another_team() -> None:
    """The captain is told why on the report, which still offers the confirmation for their own team."""
    setup = _closed()
    response = browser(setup.captains[2]).post(
        reverse("interclub_confirm", args=[setup.venue.public_id]),
        {"team": str(setup.teams[0].public_id)},
        follow=True,
    )
    assert response.redirect_chain == [(reverse("interclub_report", args=[setup.venue.public_id]), 302)]
    page = response.content.decode()
    assert "A team&#x27;s captain confirms its report." in page
    assert "Confirm the report for Pik As I" in page
    assert not setup.venue.confirmations.exists()


def test_a_correction_after_acceptance_needs_a_reason_next_to_its_field() -> None:
    setup = _closed()
    leagues.report_accept(venue=setup.venue, user=setup.manager)
    manager = browser(setup.manager)
    url = reverse("interclub_reopen", args=[setup.venue.public_id])
    response = manager.post(url, {"reason": " "})
    assert response.status_code == 400
    assert "Say why" in error_of(response.content.decode(), "id_reason")
    assert Venue.objects.get(pk=setup.venue.pk).closed_at is not None
    response = manager.post(url, {"reason": "Table 2 swapped two lines"})
    assert response.status_code == 302
    venue = Venue.objects.get(pk=setup.venue.pk)
    assert venue.closed_at is None
    assert venue.corrections.get().reason == "Table 2 swapped two lines"


def _corrected(setup: LeagueSetup) -> None:
    """The report confirmed for Herz Dame I, accepted, and corrected: series 2 entered anew, Herz Dame I scoring 3383
    instead of 3283."""
    leagues.report_confirm(venue=setup.venue, team=setup.teams[0], user=setup.captains[0])
    leagues.report_accept(venue=setup.venue, user=setup.manager)
    leagues.venue_reopen(venue=setup.venue, user=setup.manager, reason="Table 1 of series 2 added wrongly")
    enter_series(setup, 2, {**WORKED_SCORES[1], "Herz Dame I": 3383}, setup.manager)
    setup.venue = leagues.venue_close(venue=setup.venue, user=setup.manager)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            (
                "Series 2, Herz Dame I: 3283 → 3383",
                "Herz Dame I: confirmed by captain0 on {confirmed}, before the correction of {corrected}",
                "Confirm the corrected report for Herz Dame I",
            ),
        ),
        (
            "de",
            (
                "Serie 2, Herz Dame I: 3283 → 3383",
                "Herz Dame I: am {confirmed} von captain0 bestätigt, vor der Berichtigung vom {corrected}",
                "Berichtigten Spielbericht für Herz Dame I bestätigen",
            ),
        ),
    ],
)
def test_a_corrected_report_lists_the_scores_changed_and_the_confirmations_of_the_earlier_result(
    language: str, words: tuple[str, ...]
) -> None:
    setup = _closed()
    _corrected(setup)
    confirmed = setup.venue.confirmations.get()
    correction = setup.venue.corrections.get()
    captain = Client(headers={"accept-language": language})
    captain.force_login(setup.captains[0])
    page = html.unescape(captain.get(reverse("interclub_report", args=[setup.venue.public_id])).content.decode())
    with translation.override(language):
        moments = {
            "confirmed": formats.localize(timezone.localtime(confirmed.created_at)),
            "corrected": formats.localize(timezone.localtime(correction.created_at)),
        }
    for one in words:
        assert one.format(**moments) in page
    assert "Series 2, Kreuz Bube I" not in page
    confirm = {"team": str(setup.teams[0].public_id), "version": version_read(page)}
    captain.post(reverse("interclub_confirm", args=[setup.venue.public_id]), confirm)
    page = html.unescape(captain.get(reverse("interclub_report", args=[setup.venue.public_id])).content.decode())
    assert words[2] not in page
    assert words[1].format(**moments) in page
    assert setup.venue.confirmations.count() == 2


def test_a_captains_confirmation_from_a_report_opened_before_its_correction_is_refused_showing_the_report() -> None:
    """Pik As I's captain opens the accepted report; the league's manager corrects it meanwhile: the captain's
    confirmation from the page opened before is refused in their language, on the report as it stands now, which
    they confirm from there."""
    setup = _closed()
    captain = Client(headers={"accept-language": "de"})
    captain.force_login(setup.captains[2])
    report_url = reverse("interclub_report", args=[setup.venue.public_id])
    confirm = reverse("interclub_confirm", args=[setup.venue.public_id])
    read = version_read(captain.get(report_url).content.decode())
    _corrected(setup)
    response = captain.post(confirm, {"team": str(setup.teams[2].public_id), "version": read})
    assert response.status_code == 409
    page = html.unescape(response.content.decode())
    assert (
        "Die Ergebnisse des Spielberichts wurden geändert, seit diese Seite geöffnet wurde: Lies sie, wie sie jetzt "
        "stehen, und bestätige sie dann erneut."
    ) in page
    assert "Serie 2, Herz Dame I: 3283 → 3383" in page
    assert "Spielbericht für Pik As I bestätigen" in page
    assert not setup.venue.confirmations.filter(team=setup.teams[2]).exists()
    now = version_read(page)
    assert now != read
    response = captain.post(confirm, {"team": str(setup.teams[2].public_id), "version": now})
    assert response.status_code == 302
    assert setup.venue.confirmations.filter(team=setup.teams[2]).exists()


def test_the_managers_acceptance_from_a_report_opened_before_its_correction_is_refused() -> None:
    setup = _closed()
    manager = browser(setup.manager)
    read = version_read(manager.get(reverse("interclub_report", args=[setup.venue.public_id])).content.decode())
    leagues.venue_reopen(venue=setup.venue, user=setup.secretaries[0])
    enter_series(setup, 2, {**WORKED_SCORES[1], "Herz Dame I": 3383}, setup.secretaries[0])
    leagues.venue_close(venue=setup.venue, user=setup.secretaries[0])
    response = manager.post(reverse("interclub_accept", args=[setup.venue.public_id]), {"version": read})
    assert response.status_code == 409
    page = html.unescape(response.content.decode())
    assert "The report's results were changed since this page was opened" in page
    assert "Accept the report" in page
    assert Venue.objects.get(pk=setup.venue.pk).accepted_at is None


def test_a_report_corrected_and_corrected_back_since_its_page_was_opened_is_not_confirmed_from_it() -> None:
    """Pik As I's captain opens the report; meanwhile it is corrected (Herz Dame I 3283 → 3383) and corrected back
    (3383 → 3283): the results stand as the page showed them, but they were changed twice since it was opened, so
    its confirmation is refused, as through the API, on the report as it stands, which is confirmed from there."""
    setup = _closed()
    captain = browser(setup.captains[2])
    report_url = reverse("interclub_report", args=[setup.venue.public_id])
    confirm = reverse("interclub_confirm", args=[setup.venue.public_id])
    read = version_read(captain.get(report_url).content.decode())
    leagues.venue_reopen(venue=setup.venue, user=setup.secretaries[0])
    enter_series(setup, 2, {**WORKED_SCORES[1], "Herz Dame I": 3383}, setup.secretaries[0])
    leagues.venue_close(venue=setup.venue, user=setup.secretaries[0])
    leagues.venue_reopen(venue=setup.venue, user=setup.secretaries[0])
    enter_series(setup, 2, WORKED_SCORES[1], setup.secretaries[0])
    leagues.venue_close(venue=setup.venue, user=setup.secretaries[0])
    response = captain.post(confirm, {"team": str(setup.teams[2].public_id), "version": read})
    assert response.status_code == 409
    page = html.unescape(response.content.decode())
    assert (
        '<p class="error" role="alert">The report\'s results were changed since this page was opened: read them as '
        "they stand now, then confirm them again.</p>"
    ) in page
    assert "Confirm the report for Pik As I" in page
    assert not setup.venue.confirmations.filter(team=setup.teams[2]).exists()
    response = captain.post(confirm, {"team": str(setup.teams[2].public_id), "version": version_read(page)})
    assert response.status_code == 302
    assert setup.venue.confirmations.filter(team=setup.teams[2]).exists()


def test_a_correction_that_changed_no_result_refuses_no_acceptance_from_the_report_opened_before_it() -> None:
    """The manager opens the report; the host reopens the venue and closes it again with its lists as they were:
    the results shown are the results that stand, and the acceptance from the page goes through, as through the
    API."""
    setup = _closed()
    manager = browser(setup.manager)
    read = version_read(manager.get(reverse("interclub_report", args=[setup.venue.public_id])).content.decode())
    leagues.venue_reopen(venue=setup.venue, user=setup.secretaries[0])
    enter_series(setup, 2, WORKED_SCORES[1], setup.secretaries[0])
    leagues.venue_close(venue=setup.venue, user=setup.secretaries[0])
    assert Venue.objects.get(pk=setup.venue.pk).version > int(read)
    response = manager.post(reverse("interclub_accept", args=[setup.venue.public_id]), {"version": read})
    assert response.status_code == 302
    assert Venue.objects.get(pk=setup.venue.pk).accepted_at is not None


UNSAID = "This page did not say which report it showed: read the report as it stands now, then send it again."


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ("x", "Enter a whole number, with the digits 0 to 9."),
        ("١٢", "Enter a whole number, with the digits 0 to 9."),
        ("-1", "Ensure this value is greater than or equal to 0."),
        # A page from before the report's forms said which version they showed, or one that lost it: never taken as
        # the report as it stands.
        ("", UNSAID),
        (None, UNSAID),
    ],
)
def test_an_acceptance_sending_no_version_the_page_can_show_is_refused_at_its_button(
    sent: str | None, said: str
) -> None:
    setup = _closed()
    sent_form = {} if sent is None else {"version": sent}
    response = browser(setup.manager).post(reverse("interclub_accept", args=[setup.venue.public_id]), sent_form)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert f'<p class="error" role="alert">{said}</p>' in page
    assert "Accept the report" in page
    assert Venue.objects.get(pk=setup.venue.pk).accepted_at is None


def test_a_confirmation_meanwhile_refuses_neither_another_captain_nor_the_manager() -> None:
    setup = _closed()
    report_url = reverse("interclub_report", args=[setup.venue.public_id])
    first, second, manager = browser(setup.captains[1]), browser(setup.captains[2]), browser(setup.manager)
    pages = [one.get(report_url).content.decode() for one in (first, second, manager)]
    confirm = reverse("interclub_confirm", args=[setup.venue.public_id])
    response = first.post(confirm, {"team": str(setup.teams[1].public_id), "version": version_read(pages[0])})
    assert response.status_code == 302
    response = second.post(confirm, {"team": str(setup.teams[2].public_id), "version": version_read(pages[1])})
    assert response.status_code == 302
    response = manager.post(
        reverse("interclub_accept", args=[setup.venue.public_id]), {"version": version_read(pages[2])}
    )
    assert response.status_code == 302
    assert setup.venue.confirmations.count() == 2
    assert Venue.objects.get(pk=setup.venue.pk).accepted_at is not None


def test_the_host_secretary_cannot_correct_an_accepted_report() -> None:
    """The secretary is told who may, on the report, which stays accepted."""
    setup = _closed()
    leagues.report_accept(venue=setup.venue, user=setup.manager)
    response = browser(setup.secretaries[0]).post(
        reverse("interclub_reopen", args=[setup.venue.public_id]), {"reason": "x"}, follow=True
    )
    assert response.redirect_chain == [(reverse("interclub_report", args=[setup.venue.public_id]), 302)]
    page = response.content.decode()
    assert "Only the league&#x27;s managers correct an accepted report." in page
    assert "Accepted on" in page
    assert Venue.objects.get(pk=setup.venue.pk).closed_at is not None


def test_the_host_secretary_reopens_a_report_not_yet_accepted_without_a_reason_and_its_confirmation_stays() -> None:
    setup = _closed()
    leagues.report_confirm(venue=setup.venue, team=setup.teams[1], user=setup.captains[1])
    response = browser(setup.secretaries[0]).post(reverse("interclub_reopen", args=[setup.venue.public_id]), {})
    assert response["Location"] == reverse("interclub_venue", args=[setup.venue.public_id])
    assert Venue.objects.get(pk=setup.venue.pk).closed_at is None
    page = browser(setup.manager).get(reverse("interclub_report", args=[setup.venue.public_id])).content.decode()
    assert "Confirmed before a correction, so of the earlier result" in page
    assert f"{setup.teams[1].name}: confirmed by {setup.captains[1].username} on" in page
    assert "reopened before the results were accepted" in page


def test_a_captain_confirming_before_the_venue_closes_is_told_the_report_is_not_ready() -> None:
    """Sent with a version, as the report's page would send it: the venue has not closed yet."""
    setup = league_setup()
    response = browser(setup.captains[1]).post(
        reverse("interclub_confirm", args=[setup.venue.public_id]),
        {"team": str(setup.teams[1].public_id), "version": str(setup.venue.version)},
        follow=True,
    )
    assert "The report is not ready" in response.content.decode()
    assert not setup.venue.confirmations.exists()


# --- The group's table, a team, the ranking ---------------------------------------------------------------------------


def test_the_group_table_shows_points_marks_and_provisional_days() -> None:
    setup = _closed()
    page = browser(None).get(reverse("interclub_group", args=[setup.group.public_id])).content.decode()
    assert 'hx-trigger="every 30s"' in page
    assert "provisional" in page
    assert "▲" in page
    assert "▼" in page
    assert "Players&#x27; ranking" in page or "Players' ranking" in page
    leagues.report_accept(venue=setup.venue, user=setup.manager)
    page = browser(None).get(reverse("interclub_group", args=[setup.group.public_id])).content.decode()
    assert "badge provisional" not in page


def test_a_group_before_its_first_match_day_ranks_nobody_and_lists_its_days_plainly() -> None:
    """Before a match day is played the table gives no rank, mark or "undecided"; a match day without a venue yet
    reads "Match day 2, <date> · Add a venue", with no colon before nothing."""
    setup = league_setup(series=2)
    leagues.match_day_create(group=setup.group, number=2, date=datetime.date(2026, 10, 17))
    page = html.unescape(browser(setup.manager).get(reverse("interclub_group", args=[setup.group.public_id])).text)
    table = page[page.index('id="league-table"') : page.index("</table>")]
    assert "undecided" not in table
    assert "▲" not in table
    assert "▼" not in table
    assert table.count('<td class="num">–') == len(setup.teams)
    days = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page[page.index('id="days-title"') :]))
    assert "Match day 2, Oct. 17, 2026 · Add a venue" in days
    assert ": ·" not in days


def test_the_leagues_players_ranking_is_offered_as_a_file_only_once_it_holds_somebody() -> None:
    setup = league_setup(series=2)
    address = reverse("interclub_league", args=[setup.league.public_id])
    file = reverse("download-league-players", args=[setup.league.public_id, "csv"]).removesuffix("csv")
    assert file not in browser(None).get(address).content.decode()
    for number, scores in enumerate(WORKED_SCORES[:2], start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
        enter_series(setup, number, scores, setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    assert file in browser(None).get(address).content.decode()


def test_the_players_ranking_rounds_each_average_and_writes_a_real_minus_sign() -> None:
    """Averages are exact and rounded only where shown: a player with 2519 over three series reads 839.7 (cut off, it
    was 839.6), on the group's page and on the league's, in the same way as in the printed ranking."""
    setup = league_setup(series=3)
    third = {"Herz Dame I": 3109, "Kreuz Bube I": 3500, "Pik As I": 3200, "Karo Sieben I": 2000}
    for number, scores in enumerate((*WORKED_SCORES, third), start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
        enter_series(setup, number, scores, setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    ranking = players_ranking(setup.league)
    averages = {one.player.name: one.row.average for one in ranking}
    # Figures where cutting off and rounding differ.
    assert any((average * 100) % 10 >= 5 for average in averages.values() if average.denominator != 1)
    for address in (
        reverse("interclub_group", args=[setup.group.public_id]),
        reverse("interclub_league", args=[setup.league.public_id]),
    ):
        page = html.unescape(browser(None).get(address).content.decode())
        for one in ranking:
            cells = re.search(
                rf"<td>{re.escape(one.player.name)}(?: <span[^>]*>[^<]*</span>)?</td><td class=\"num\">\d+</td>"
                r"<td class=\"num\">([^<]*)</td><td class=\"num\">([^<]*)</td>",
                page,
            )
            assert cells is not None, f"{one.player.name} is not in the ranking of {address}"
            assert cells[1] == standing_label(one.row.average)
            assert cells[2] == total_label(one.row.total)
    assert standing_label(averages["Herz 2"]) == "839.7"


def test_a_rank_shared_across_the_promotion_line_says_it_is_undecided() -> None:
    setup = league_setup(series=2)
    equal_at_the_top = {"Herz Dame I": 3400, "Kreuz Bube I": 3400, "Pik As I": 3000, "Karo Sieben I": 2800}
    for number in (1, 2):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
        enter_series(setup, number, equal_at_the_top, setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    page = browser(None).get(reverse("interclub_group", args=[setup.group.public_id])).content.decode()
    rows = re.findall(r"<tr[^>]*>.*?</tr>", page, re.S)
    # One place goes up, and the two teams sharing the first rank both stand on it: the league's manager decides.
    shared = [row for row in rows if "Herz Dame I" in row or "Kreuz Bube I" in row]
    assert len(shared) == 2
    assert all("▲" in row and ">undecided<" in row for row in shared)
    assert not any(">undecided<" in row for row in rows if row not in shared)


def test_a_teams_page_lists_its_match_days_and_roster() -> None:
    setup = _closed()
    page = browser(None).get(reverse("interclub_team", args=[setup.teams[0].public_id])).content.decode()
    assert "Vereinsheim Herz Dame" in page
    assert "Herz Ersatz" in page
    assert "Add to the roster" not in page


def test_a_secretary_adds_a_player_of_the_clubs_book_to_the_roster() -> None:
    setup = league_setup()
    team = setup.teams[1]
    player = clubs.club_player_add(club=team.club, name="Neu Spieler")
    response = browser(setup.secretaries[1]).post(
        reverse("interclub_roster", args=[team.public_id]),
        {"player": str(player.public_id), "federation_number": "12-345", "substitute": "on"},
    )
    assert response.status_code == 302
    entry = RosterEntry.objects.get(team=team, player=player)
    assert (entry.federation_number, entry.substitute) == ("12-345", True)


def test_a_player_of_another_clubs_roster_is_refused_next_to_the_player() -> None:
    setup = league_setup()
    account = make_user("greta")
    player = clubs.club_player_add(club=setup.teams[1].club, name="Doppelt")
    Player.objects.filter(pk__in=[setup.rosters[0][0].player.pk, player.pk]).update(account=account)
    response = browser(setup.manager).post(
        reverse("interclub_roster", args=[setup.teams[1].public_id]), {"player": str(player.public_id)}
    )
    assert response.status_code == 400
    assert "a player plays for one club in a league" in error_of(response.content.decode(), "id_player")


def test_a_federation_number_on_another_clubs_roster_is_refused_next_to_the_number_naming_whose_it_is() -> None:
    setup = league_setup()
    RosterEntry.objects.filter(pk=setup.rosters[0][0].pk).update(federation_number="0101001")
    player = clubs.club_player_add(club=setup.teams[1].club, name="Uwe")
    secretary = Client(headers={"accept-language": "de"})
    secretary.force_login(setup.secretaries[1])
    response = secretary.post(
        reverse("interclub_roster", args=[setup.teams[1].public_id]),
        {"player": str(player.public_id), "federation_number": "0101001"},
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert error_of(text, "id_federation_number") == (
        "0101001 ist die Passnummer von Herz 1, für Herz Dame I (Herz Dame) gemeldet: Ein Spieler spielt in einer "
        "Liga für einen Verein."
    )
    assert 'id="id_player_error"' not in text
    assert not RosterEntry.objects.filter(player=player).exists()


@pytest.mark.parametrize("typed", ["12345", "1.2/345"])
def test_a_federation_number_on_another_clubs_roster_written_otherwise_is_refused_next_to_the_number(
    typed: str,
) -> None:
    setup = league_setup()
    RosterEntry.objects.filter(pk=setup.rosters[0][0].pk).update(federation_number="12-345")
    player = clubs.club_player_add(club=setup.teams[1].club, name="Uwe")
    response = browser(setup.secretaries[1]).post(
        reverse("interclub_roster", args=[setup.teams[1].public_id]),
        {"player": str(player.public_id), "federation_number": typed},
    )
    assert response.status_code == 400
    text = html.unescape(response.content.decode())
    assert error_of(text, "id_federation_number") == (
        "12-345 is the federation number of Herz 1, on the roster of Herz Dame I (Herz Dame): a player plays for one "
        "club in a league."
    )
    assert "Its letters and digits make the number: 12-345 and 12345 are one number." in text
    assert not RosterEntry.objects.filter(player=player).exists()


def test_a_secretary_takes_a_player_off_the_roster_and_puts_them_on_again_as_the_league_player_they_were() -> None:
    setup = league_setup()
    team, entry = setup.teams[1], setup.rosters[1][4]
    client = browser(setup.secretaries[1])
    roster = reverse("interclub_roster", args=[team.public_id])
    assert client.post(roster, {"remove": str(entry.pk)}).status_code == 302
    assert not RosterEntry.objects.filter(team=team, player=entry.player).exists()
    assert client.post(roster, {"player": str(entry.player.public_id), "substitute": "on"}).status_code == 302
    assert RosterEntry.objects.get(team=team, player=entry.player).league_player == entry.league_player
    names = list(Player.objects.filter(keeper=setup.league.keeper).values_list("name", flat=True))
    assert entry.league_player.name == "Kreu Ersatz"
    assert not [name for name in names if "(" in name]


def test_a_division_group_or_team_named_as_one_there_in_other_letters_is_refused_next_to_its_name() -> None:
    setup = league_setup()
    manager = Client(headers={"accept-language": "de"})
    manager.force_login(setup.manager)
    response = manager.post(
        reverse("interclub_division_new", args=[setup.league.public_id]),
        {"division-name": "  verbandsliga ", "division-level": "2"},
    )
    assert response.status_code == 400
    assert error_of(response.content.decode(), "id_division-name") == (
        "Die Liga hat schon eine Spielklasse mit diesem Namen."
    )
    response = manager.post(
        reverse("interclub_group_new", args=[setup.league.public_id]),
        {
            "group-division": str(setup.group.division.pk),
            "group-name": "staffel  1 ",
            "group-promoted": "0",
            "group-relegated": "0",
        },
    )
    assert response.status_code == 400
    assert error_of(response.content.decode(), "id_group-name") == (
        "Die Spielklasse hat schon eine Staffel mit diesem Namen."
    )
    response = manager.post(
        reverse("interclub_team_new", args=[setup.group.public_id]),
        {"team-club": str(setup.clubs[1].public_id), "team-name": "KREUZ BUBE I", "team-captain": ""},
    )
    assert response.status_code == 400
    assert (
        error_of(response.content.decode(), "id_team-name") == "Die Staffel hat schon eine Mannschaft mit diesem Namen."
    )
    assert (Division.objects.count(), Group.objects.count(), Team.objects.count()) == (1, 1, 4)


# --- The league's setup -----------------------------------------------------------------------------------------------


def test_a_league_manager_sets_up_a_league_through_the_pages() -> None:
    manager = make_user("lea")
    owner = make_user("clubowner")
    club_a = clubs.club_create(owner=owner, name="Alpha")
    club_b = clubs.club_create(owner=owner, name="Beta")
    client = browser(manager)
    page = client.get(reverse("interclub_leagues")).content.decode()
    assert "the teams present are ranked among themselves" in page
    response = client.post(reverse("interclub_leagues"), LEAGUE_FORM)
    league = League.objects.get(name="Bezirksliga")
    assert response["Location"] == reverse("interclub_league", args=[league.public_id])
    client.post(
        reverse("interclub_division_new", args=[league.public_id]), {"division-name": "A", "division-level": "1"}
    )
    division = Division.objects.get(league=league)
    response = client.post(
        reverse("interclub_group_new", args=[league.public_id]),
        {"group-division": str(division.pk), "group-name": "Staffel", "group-promoted": "1", "group-relegated": "0"},
    )
    group = Group.objects.get(division=division)
    for club, name in ((club_a, "Alpha I"), (club_b, "Beta I")):
        response = client.post(
            reverse("interclub_team_new", args=[group.public_id]),
            {"team-club": str(club.public_id), "team-name": name, "team-captain": "clubowner"},
        )
        assert response.status_code == 302
    response = client.post(
        reverse("interclub_match_day_new", args=[group.public_id]), {"day-number": "1", "day-date": "2026-10-03"}
    )
    day = group.match_days.get()
    assert response["Location"] == reverse("interclub_venue_new", args=[day.public_id])
    teams = list(Team.objects.filter(group=group).order_by("name"))
    response = client.post(
        reverse("interclub_venue_new", args=[day.public_id]),
        {"place": "Clubheim", "teams": [str(team.public_id) for team in teams], "host_team": str(teams[0].public_id)},
    )
    venue = Venue.objects.get(match_day=day)
    assert response["Location"] == reverse("interclub_venue", args=[venue.public_id])
    assert venue.host_club == club_a
    assert venue.teams.count() == 2


def test_a_venues_place_is_where_it_plays_in_german_not_a_place_in_a_table() -> None:
    setup = league_setup()
    manager = Client(headers={"accept-language": "de"})
    manager.force_login(setup.manager)
    page = manager.get(reverse("interclub_venue_new", args=[setup.match_day.public_id])).content.decode()
    assert re.search(r'<label for="id_place"[^>]*>Spielort</label>', page)
    table = manager.get(reverse("interclub_group", args=[setup.group.public_id])).content.decode()
    assert re.search(r"<th[^>]*>Platz</th>", table)


def test_the_league_forms_rules_are_choices_that_wrap_on_a_phone_with_the_defaults_chosen() -> None:
    page = browser(make_user("manager")).get(reverse("interclub_leagues")).content.decode()
    for name, default in (("series_tie", "shared"), ("short_venue", "present"), ("table_tie", "shared")):
        chosen = re.findall(rf'<input type="radio" name="{name}" value="([^"]+)"[^>]*checked', page)
        assert chosen == [default], name


def test_a_league_with_bad_settings_is_refused_next_to_the_fields() -> None:
    response = browser(make_user("lea")).post(
        reverse("interclub_leagues"),
        {"name": "", "series_per_day": "9", "games_at_four": "48", "games_at_three": "36"},
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert error_of(text, "id_name")
    assert error_of(text, "id_series_per_day")
    assert not League.objects.exists()


def test_a_team_of_a_name_taken_is_refused_next_to_its_name() -> None:
    setup = league_setup()
    response = browser(setup.manager).post(
        reverse("interclub_team_new", args=[setup.group.public_id]),
        {"team-club": str(setup.clubs[0].public_id), "team-name": "Herz Dame I", "team-captain": "nobody-here"},
    )
    assert response.status_code == 400
    assert "There is no account of that name." in error_of(response.content.decode(), "id_team-captain")
    response = browser(setup.manager).post(
        reverse("interclub_team_new", args=[setup.group.public_id]),
        {"team-club": str(setup.clubs[0].public_id), "team-name": "Herz Dame I", "team-captain": ""},
    )
    assert "already" in error_of(response.content.decode(), "id_team-name")


def test_a_match_day_number_taken_is_refused_next_to_its_number() -> None:
    setup = league_setup()
    response = browser(setup.manager).post(
        reverse("interclub_match_day_new", args=[setup.group.public_id]), {"day-number": "1", "day-date": "2026-11-01"}
    )
    assert response.status_code == 400
    assert "match day 1 already" in error_of(response.content.decode(), "id_day-number")


def test_a_captain_and_a_manager_are_found_by_the_accounts_name_in_any_case() -> None:
    setup = league_setup()
    anna = User.objects.create_user("anna")
    team = setup.teams[0]
    answer = browser(setup.manager).post(reverse("interclub_captain", args=[team.public_id]), {"captain": "Anna"})
    assert answer.status_code == 302
    assert Team.objects.get(pk=team.pk).captain == anna
    owner = setup.league.managers.get(role="owner").user
    answer = browser(owner).post(
        reverse("interclub_manager_new", args=[setup.league.public_id]),
        {"manager-username": "ANNA", "manager-role": "manager"},
    )
    assert answer.status_code == 302
    assert setup.league.managers.filter(user=anna).exists()


def test_a_venue_with_a_team_playing_elsewhere_is_refused() -> None:
    setup = league_setup()
    response = browser(setup.manager).post(
        reverse("interclub_venue_new", args=[setup.match_day.public_id]),
        {"teams": [str(setup.teams[0].public_id)], "host_team": str(setup.teams[0].public_id)},
    )
    assert response.status_code == 400
    assert "plays at Vereinsheim Herz Dame on this match day" in response.content.decode()


# --- Every address, every persona -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Persona:
    name: str
    user: Callable[[LeagueSetup], User | None]


PERSONAS = (
    Persona("league manager", lambda setup: setup.manager),
    Persona("captain", lambda setup: setup.captains[1]),
    Persona("host secretary", lambda setup: setup.secretaries[0]),
    Persona("other club's member", lambda setup: _other_member()),
    Persona("stranger", lambda setup: make_user("stranger")),
    Persona("anonymous", lambda setup: None),
    Persona("table's phone", lambda setup: None),
)


def arrive(persona: Persona, setup: LeagueSetup) -> tuple[User | None, Client]:
    """The persona's account and browser; a table's phone has opened its table's scoring link, as the QR code does."""
    user = persona.user(setup)
    client = browser(user)
    if persona.name == "table's phone":
        table = VenueTable.objects.filter(venue=setup.venue).select_related("match").first()
        assert table is not None
        client.post(reverse("match_join", args=[table.match.invite_token]))
    return user, client


def _other_member() -> User:
    member = make_user("outsider")
    club = clubs.club_create(owner=make_user("outsider-owner"), name="Andere")
    clubs.member_set(club=club, username=member.username, role="secretary")
    return member


# Who gets in at each address (the others: anonymous sent to log in, the signed in answered 404): everybody views;
# writes as the league's permissions say. "scorers": the manager, the host's secretary and the venue's captains.
EVERYBODY = {persona.name for persona in PERSONAS}
SIGNED_IN = EVERYBODY - {"anonymous", "table's phone"}
SEES_LINKS = {"league manager", "host secretary"}
MANAGER = {"league manager"}
SCORERS = {"league manager", "captain", "host secretary"}
TEAM_KEEPERS = {"league manager"}  # team 0: its club's secretary is the host secretary
ADDRESSES: dict[str, tuple[str, set[str], set[str]]] = {
    # name: (subject, who gets a GET, who gets a POST)
    "interclub_leagues": ("", SIGNED_IN, SIGNED_IN),
    "interclub_league": ("league", EVERYBODY, EVERYBODY),
    "interclub_manager_new": ("league", MANAGER, MANAGER),
    "interclub_division_new": ("league", MANAGER, MANAGER),
    "interclub_group_new": ("league", MANAGER, MANAGER),
    "interclub_group": ("group", EVERYBODY, EVERYBODY),
    "interclub_team_new": ("group", MANAGER, MANAGER),
    "interclub_match_day_new": ("group", MANAGER, MANAGER),
    "interclub_venue_new": ("match_day", MANAGER, MANAGER),
    "interclub_team": ("team", EVERYBODY, EVERYBODY),
    "interclub_roster": ("team", MANAGER | {"host secretary"}, MANAGER | {"host secretary"}),
    "interclub_captain": ("team", MANAGER | {"host secretary"}, MANAGER | {"host secretary"}),
    "interclub_venue": ("venue", EVERYBODY, EVERYBODY),
    "interclub_check_in": ("venue", SCORERS, SCORERS),
    "interclub_seat": ("venue", SCORERS, SCORERS),
    "interclub_unseat": ("venue", SCORERS, SCORERS),
    "interclub_paper": ("venue", SCORERS, SCORERS),
    "interclub_close": ("venue", SCORERS, SCORERS),
    "interclub_report": ("venue", EVERYBODY, EVERYBODY),
    "interclub_venue_screen": ("venue", EVERYBODY, EVERYBODY),
    "interclub_confirm": ("venue", SCORERS, SCORERS),
    "interclub_accept": ("venue", MANAGER, MANAGER),
    "interclub_reopen": ("venue", SCORERS, SCORERS),
}


def _address(name: str, subject: str, setup: LeagueSetup) -> str:
    things: dict[str, League | Group | MatchDay | Team | Venue] = {
        "league": setup.league,
        "group": setup.group,
        "match_day": setup.match_day,
        "team": setup.teams[0],
        "venue": setup.venue,
    }
    if not subject:
        return reverse(name)
    args: list[object] = [things[subject].public_id]
    if name == "interclub_paper":
        args.append(1)
    return reverse(name, args=args)


def test_every_league_address_answers_every_persona_as_the_league_says() -> None:
    """Anonymous visitors refused are sent to log in; signed-in ones refused meet a 404, as if nothing were there;
    whoever gets in gets a page, a redirect, a 400 or a 405 (a POST-only address asked with GET), never a 500; the
    tables' scoring links are shown only to who seats the venue."""
    setup = league_setup()
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    visitors = {persona.name: arrive(persona, setup) for persona in PERSONAS}
    links = [str(token) for token in Match.objects.values_list("invite_token", flat=True)]
    from matches.interclub.urls import urlpatterns

    assert {pattern.name for pattern in urlpatterns} == set(ADDRESSES)
    problems = []
    for name, (subject, getters, posters) in ADDRESSES.items():
        address = _address(name, subject, setup)
        for persona, (user, client) in visitors.items():
            for method, allowed in (("GET", getters), ("POST", posters)):
                # Each request meets the same venue: whatever it changed is rolled back.
                with transaction.atomic():
                    response = client.get(address) if method == "GET" else client.post(address, {})
                    transaction.set_rollback(True)
                status = response.status_code
                shown = response.content.decode() if status == 200 else ""
                if persona not in SEES_LINKS and any(link in shown for link in links):
                    problems.append(f"{method} {name} as {persona}: shows a table's scoring link")
                if persona in allowed:
                    refused = status == 404 or (status == 302 and "/accounts/login/" in response["Location"])
                    if refused or status >= 500:
                        problems.append(f"{method} {name} as {persona}: {status}, expected to get in")
                elif user is None:
                    if not (status == 302 and "/accounts/login/" in response["Location"]):
                        problems.append(f"{method} {name} as {persona}: {status}, expected to be sent to log in")
                elif status != 404:
                    problems.append(f"{method} {name} as {persona}: {status}, expected 404")
    assert not problems, "\n".join(problems)


def test_a_tables_phone_scores_by_its_link_and_sees_the_venue_without_its_links() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    table = VenueTable.objects.filter(venue=setup.venue, series=1).select_related("match").first()
    assert table is not None
    phone = Client()
    phone.post(reverse("match_join", args=[table.match.invite_token]))
    assert phone.get(reverse("match_detail", args=[table.match.public_id])).status_code == 200
    page = phone.get(reverse("interclub_venue", args=[setup.venue.public_id])).content.decode()
    assert str(table.match.invite_token) not in page
    assert "Seat series" not in page
    response = phone.post(reverse("interclub_seat", args=[setup.venue.public_id]), {"series": "2"})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    assert Match.objects.count() == 4


def test_a_tables_link_after_the_venue_closed_says_the_list_is_closed_and_where_the_report_is() -> None:
    setup = league_setup(series=2)
    for series in (1, 2):
        check_in_all(setup, series)
        leagues.series_seat(venue=setup.venue, series=series, user=setup.manager)
    table = VenueTable.objects.filter(venue=setup.venue, series=1, number=1).select_related("match").get()
    link = reverse("match_join", args=[table.match.invite_token])
    phone = Client()
    phone.post(link)
    for series in (1, 2):
        enter_series(setup, series, WORKED_SCORES[series - 1], setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    report = reverse("interclub_report", args=[setup.venue.public_id])
    # The QR code scanned again, by anybody; the phone that scored by it opening its list, and saving on it.
    for answer in (
        Client().get(link),
        phone.get(reverse("match_detail", args=[table.match.public_id])),
        phone.post(reverse("game_create", args=[table.match.public_id]), {"contract": "clubs"}, HTTP_HX_REQUEST="true"),
    ):
        assert answer.status_code == 410
        page = html.unescape(answer.content.decode())
        assert "The table's list is closed" in page
        assert "Table 1 of series 1 · Verbandsliga Nord · Staffel 1 · match day 1" in page
        assert f'href="{report}"' in page
    assert 'id="entry" hx-swap-oob="true"' in answer.content.decode()


def test_the_venue_page_costs_the_same_before_the_seating_and_after(
    django_assert_max_num_queries: Callable[[int], ContextManager[CaptureQueriesContext]],
) -> None:
    """Check-in forms for every series and team, or tables with their lists: the page reads a fixed number of times."""
    setup = league_setup(series=3)
    manager = browser(setup.manager)
    url = reverse("interclub_venue", args=[setup.venue.public_id])
    manager.get(url)
    with django_assert_max_num_queries(30) as before:
        manager.get(url)
    for series in (1, 2):
        check_in_all(setup, series)
        leagues.series_seat(venue=setup.venue, series=series, user=setup.manager)
    with django_assert_max_num_queries(30) as seated:
        manager.get(url)
    assert len(seated.captured_queries) <= len(before.captured_queries) + 2


# --- The room's screen ------------------------------------------------------------------------------------------------


def _screen(venue: Venue) -> str:
    return reverse("interclub_venue_screen", args=[venue.public_id])


def test_a_venues_room_screen_is_public_and_answers_a_304_until_a_table_saves_a_game() -> None:
    setup = league_setup(series=2)
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    client = Client()
    page = client.get(_screen(setup.venue))
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "League points of the day" in text
    assert "League table" in text
    assert "0 of 48 games" in text
    part = client.get(_screen(setup.venue), headers={"HX-Request": "true"})
    assert part.content.decode().lstrip().startswith('<div id="screen"')
    asked = {"HX-Request": "true", "If-None-Match": part["ETag"]}
    assert client.get(_screen(setup.venue), headers=asked).status_code == 304
    table = VenueTable.objects.filter(venue=setup.venue, series=1).order_by("number").first()
    assert table is not None
    game_add(
        match=table.match,
        user=None,
        token=uuid.uuid4(),
        submission=Submission(declarer=1, entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70}),
    )
    changed = client.get(_screen(setup.venue), headers=asked)
    assert changed.status_code == 200
    assert "1 of 48 games" in changed.content.decode()
    # Another venue of the group closing moves the group's table: the screen asks again too.
    again = {"HX-Request": "true", "If-None-Match": changed["ETag"]}
    assert client.get(_screen(setup.venue), headers=again).status_code == 304
    Venue.objects.filter(pk=setup.venue.pk).update(version=F("version") + 1)
    assert client.get(_screen(setup.venue), headers=again).status_code == 200


def test_a_venues_page_links_its_room_screen() -> None:
    setup = league_setup(series=2)
    page = Client().get(reverse("interclub_venue", args=[setup.venue.public_id])).content.decode()
    assert f'<a href="{_screen(setup.venue)}">Room screen</a>' in page


def test_a_venues_room_screen_asks_again_when_a_team_enters_the_group() -> None:
    setup = league_setup(series=2)
    client = Client()
    part = client.get(_screen(setup.venue), headers={"HX-Request": "true"})
    asked = {"HX-Request": "true", "If-None-Match": part["ETag"]}
    assert client.get(_screen(setup.venue), headers=asked).status_code == 304
    club = clubs.club_create(owner=make_user("newcomer"), name="Grand Hand Essen")
    leagues.team_enter(group=setup.group, club=club, name="Grand Hand Essen I")
    changed = client.get(_screen(setup.venue), headers=asked)
    assert changed.status_code == 200
    assert "Grand Hand Essen I" in changed.content.decode()


def test_a_venues_page_follows_with_a_304_until_a_table_saves_and_tells_visitors_apart() -> None:
    setup = league_setup(series=2)
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    address = reverse("interclub_venue", args=[setup.venue.public_id])
    manager = Client()
    manager.force_login(setup.manager)
    whole = manager.get(address)
    assert whole.status_code == 200
    assert "ETag" not in whole
    followed = manager.get(address, headers={"HX-Request": "true"})
    assert 'id="venue-follow"' in followed.content.decode()
    asked = {"HX-Request": "true", "If-None-Match": followed["ETag"]}
    assert manager.get(address, headers=asked).status_code == 304
    # A guest holding the manager's mark gets the page as a guest sees it.
    assert Client().get(address, headers=asked).status_code == 200
    table = VenueTable.objects.filter(venue=setup.venue, series=1).order_by("number").first()
    assert table is not None
    game_add(
        match=table.match,
        user=None,
        token=uuid.uuid4(),
        submission=Submission(declarer=1, entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70}),
    )
    assert manager.get(address, headers=asked).status_code == 200


def test_a_groups_page_follows_with_a_304_until_its_table_moves() -> None:
    setup = league_setup(series=2)
    address = reverse("interclub_group", args=[setup.group.public_id])
    client = Client()
    followed = client.get(address, headers={"HX-Request": "true"})
    assert 'id="league-table"' in followed.content.decode()
    asked = {"HX-Request": "true", "If-None-Match": followed["ETag"]}
    assert client.get(address, headers=asked).status_code == 304
    club = clubs.club_create(owner=make_user("newcomer"), name="Grand Hand Essen")
    leagues.team_enter(group=setup.group, club=club, name="Grand Hand Essen I")
    moved = client.get(address, headers=asked)
    assert moved.status_code == 200
    assert "Grand Hand Essen I" in moved.content.decode()


def test_a_groups_page_opened_reads_no_follow_state() -> None:
    """The follow's state is read only when htmx asks again: the page a member opens costs what it did without it.
    (Opened by anybody without an account, it carries the ETag a shared cache asks again with.)"""
    setup = league_setup(series=2)
    address = reverse("interclub_group", args=[setup.group.public_id])
    assert Client().get(address).has_header("ETag")
    client = Client()
    client.force_login(setup.manager)
    with CaptureQueriesContext(connection) as opened:
        assert client.get(address).status_code == 200
    with CaptureQueriesContext(connection) as followed:
        assert client.get(address, headers={"HX-Request": "true"}).status_code == 200
    summed = [query["sql"] for query in followed.captured_queries if "SUM(" in query["sql"].upper()]
    assert summed
    assert not [query["sql"] for query in opened.captured_queries if query["sql"] in summed]
