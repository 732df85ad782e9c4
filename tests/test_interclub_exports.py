"""What leaves the app of a league: the group's table, a venue's match report and the players' ranking, in every
format the core writes and as PDF, read back and compared with what the selectors say; who may download them."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from typing import Any

import pytest
import tablib
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from matches.clubs import services as clubs
from matches.clubs.models import Club
from matches.exports.pdf import PAGE_WIDTH, Document, TableColumn, _fitted
from matches.interclub import services as leagues
from matches.interclub.models import RosterEntry, VenueTable
from matches.interclub.selectors import group_table, players_ranking, venue_report

from .factories import make_user
from .interclub_setup import LeagueSetup, check_in_all, enter_series, league_setup

pytestmark = pytest.mark.django_db

MINUS = "\N{MINUS SIGN}"
# Team I 3683 / 3283 / 3109 = 10075 game points and 3:0 + 1:2 + 1:2 = 5:4, as the league's worked match day.
WORKED = (
    {"Herz Dame I": 3683, "Kreuz Bube I": 3000, "Pik As I": 2900, "Karo Sieben I": 2800},
    {"Herz Dame I": 3283, "Kreuz Bube I": 3400, "Pik As I": 3300, "Karo Sieben I": 3000},
    {"Herz Dame I": 3109, "Kreuz Bube I": 3500, "Pik As I": 3200, "Karo Sieben I": 2000},
)
FORMATS = ("csv", "csv-semicolon", "xlsx", "ods", "json")


def played(*, close: bool = True) -> LeagueSetup:
    setup = league_setup(series=3)
    secretary = setup.secretaries[0]
    for number, scores in enumerate(WORKED, start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=secretary)
        enter_series(setup, number, scores, secretary)
    if close:
        setup.venue = leagues.venue_close(venue=setup.venue, user=secretary)
    return setup


def accepted(setup: LeagueSetup) -> None:
    for team, captain in zip(setup.teams, setup.captains, strict=True):
        leagues.report_confirm(venue=setup.venue, team=team, user=captain)
    setup.venue = leagues.report_accept(venue=setup.venue, user=setup.manager)


def rows_of(content: bytes, fmt: str) -> list[list[Any]]:
    """The file's rows, the header first, as a program reads each format."""
    if fmt in ("csv", "csv-semicolon"):
        text = content.decode("utf-8")
        assert text.startswith("\ufeff")
        return list(csv.reader(io.StringIO(text[1:]), delimiter=";" if fmt == "csv-semicolon" else ","))
    if fmt == "json":
        items = json.loads(content)
        return [list(items[0])] + [list(item.values()) for item in items]
    data = tablib.Dataset().load(content, format=fmt)
    # An ODS file keeps every number as a float: 5 reads back as 5.0.
    return [list(data.headers), *[[whole(cell) for cell in row] for row in data]]


def whole(cell: Any) -> Any:
    return int(cell) if isinstance(cell, float) and cell.is_integer() else cell


def body(answer: Any) -> bytes:
    """The download's bytes, streamed (CSV, JSON) or made whole (the spreadsheets)."""
    return b"".join(answer.streaming_content) if answer.streaming else bytes(answer.content)


def download(client: Client, name: str, key: Any, fmt: str) -> Any:
    return client.get(reverse(name, args=[key, fmt]))


def pdf_text(response: Any) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_group_table_downloads_in_every_format_with_the_tables_figures(client: Client, fmt: str) -> None:
    setup = played()
    table = group_table(setup.group)
    answer = download(client, "download-group-table", setup.group.public_id, fmt)
    assert answer.status_code == 200
    rows = rows_of(body(answer), fmt)
    assert rows[0][:4] == ["Place", "Team", "Club", "League points"]
    assert [row[1] for row in rows[1:]] == [one.team.name for one in table.rows]
    herz = next(row for row in rows[1:] if row[1] == "Herz Dame I")
    assert herz[2] == "Herz Dame"
    assert herz[3] == "5:4"
    assert [str(cell) for cell in herz[4:8]] == ["5", "4", "10075", "1"]
    assert herz[9] == "yes"


def with_a_team_yet_to_play() -> LeagueSetup:
    """The played venue's group with a fifth team, of another club, that has played no match day: the group has one
    place down."""
    setup = played()
    club = clubs.club_create(owner=make_user("owner-lippstadt"), name="Lippstadt")
    leagues.team_enter(group=setup.group, club=club, name="Lippstadt I")
    return setup


def test_a_team_yet_to_play_has_no_place_nor_mark_on_the_page_and_in_every_file(client: Client) -> None:
    """The page, every file and the printed table agree: the four teams that played hold places 1 to 4, the last of
    them the group's place down (▼, "relegation"); the team yet to play follows with a dash (no place in a file)
    and no mark."""
    setup = with_a_team_yet_to_play()
    page = html.unescape(client.get(reverse("interclub_group", args=[setup.group.public_id])).content.decode())
    table = page[page.index('id="league-table"') : page.index("</table>")]
    cells = [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, flags=re.S)[1:]
    ]
    assert [(row[0], row[1].removesuffix(" provisional")) for row in cells] == [
        ("1 ▲", "Kreuz Bube I"),
        ("2", "Herz Dame I"),
        ("3", "Pik As I"),
        ("4 ▼", "Karo Sieben I"),
        ("–", "Lippstadt I"),
    ]
    for fmt in FORMATS:
        rows = rows_of(body(download(client, "download-group-table", setup.group.public_id, fmt)), fmt)
        # A CSV reads every cell as text, an empty one as "", where the other formats keep a number and nothing.
        assert [(str(row[0] or "–"), row[1], row[8] or None) for row in rows[1:]] == [
            ("1", "Kreuz Bube I", "promotion"),
            ("2", "Herz Dame I", None),
            ("3", "Pik As I", None),
            ("4", "Karo Sieben I", "relegation"),
            ("–", "Lippstadt I", None),
        ], fmt
    printed = pdf_text(client.get(reverse("download-group-table", args=[setup.group.public_id, "pdf"])))[0]
    assert "4 Karo Sieben I † Karo Sieben 0:9 7800 1 relegation" in printed
    assert "– Lippstadt I Lippstadt 0:0 0 0\n" in printed
    assert printed.count("relegation") == 1


def shared_top() -> LeagueSetup:
    """Two teams equal at the top of a group where one team goes up: their rank spans the promotion line."""
    setup = league_setup(series=2)
    equal_at_the_top = {"Herz Dame I": 3400, "Kreuz Bube I": 3400, "Pik As I": 3000, "Karo Sieben I": 2800}
    for number in (1, 2):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
        enter_series(setup, number, equal_at_the_top, setup.manager)
    setup.venue = leagues.venue_close(venue=setup.venue, user=setup.manager)
    return setup


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_rank_shared_across_the_promotion_line_is_undecided_in_every_format(client: Client, fmt: str) -> None:
    setup = shared_top()
    rows = rows_of(body(download(client, "download-group-table", setup.group.public_id, fmt)), fmt)
    assert rows[0][-1] == "Undecided"
    undecided = {row[1] for row in rows[1:] if row[-1] == "yes"}
    assert undecided == {"Herz Dame I", "Kreuz Bube I"}


def test_the_printed_table_marks_a_rank_shared_across_the_promotion_line(client: Client) -> None:
    setup = shared_top()
    table = pdf_text(client.get(reverse("download-group-table", args=[setup.group.public_id, "pdf"])))[0]
    assert table.count("promotion ?") == 2
    assert "? undecided: the rank spans the line, the league's manager decides" in table


def test_a_semicolon_csv_is_what_a_german_spreadsheet_opens() -> None:
    setup = played()
    answer = Client().get(reverse("download-group-table", args=[setup.group.public_id, "csv-semicolon"]))
    text = body(answer).decode("utf-8")
    assert text.startswith("\ufeffPlace;Team;Club;League points;")
    assert answer["Content-Disposition"].endswith('-semicolon.csv"')


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_players_ranking_downloads_in_every_format(client: Client, fmt: str) -> None:
    setup = played()
    ranking = players_ranking(setup.league)
    answer = download(client, "download-league-players", setup.league.public_id, fmt)
    assert answer.status_code == 200
    rows = rows_of(body(answer), fmt)
    assert rows[0] == ["Place", "Player", "Average", "Points", "Series", "Provisional"]
    assert len(rows) == 1 + len(ranking) == 17
    assert [row[1] for row in rows[1:]] == [one.player.name for one in ranking]
    best = ranking[0].row
    assert [str(cell) for cell in rows[1][3:5]] == [str(best.total), str(best.series)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_closed_venues_report_downloads_with_every_players_line_and_each_teams_day(client: Client, fmt: str) -> None:
    setup = played()
    report = venue_report(setup.venue)
    answer = download(client, "download-venue-report", setup.venue.public_id, fmt)
    assert answer.status_code == 200
    assert "provisional" in answer["Content-Disposition"]
    rows = rows_of(body(answer), fmt)
    assert rows[0][:5] == ["Series", "Table", "Team", "Player", "Points"]
    players = [row for row in rows[1:] if row[3] not in ("", None)]
    assert len(players) == 3 * 16
    first = report.series[0].tables[0].lines[0]
    assert first.team is not None
    assert [str(cell) for cell in players[0][:5]] == ["1", "1", first.team.name, first.player.name, str(first.total)]
    days = [row for row in rows[1:] if row[0] == "Match day"]
    assert report.day is not None
    assert [row[2] for row in days] == [day.team for day in report.day.rows]  # best first
    herz = next(row for row in days if row[2] == "Herz Dame I")
    assert (str(herz[4]), herz[9]) == ("10075", "5:4")
    series_two = [row for row in rows[1:] if str(row[0]) == "2" and row[3] in ("", None)]
    assert [(row[2], str(row[8]), row[9]) for row in series_two][:3] == [
        ("Kreuz Bube I", "1", "3:0"),
        ("Pik As I", "2", "2:1"),
        ("Herz Dame I", "3", "1:2"),
    ]


def test_the_german_report_heads_its_series_number_serie_and_the_ranking_its_series_played_serien(
    client: Client,
) -> None:
    setup = played()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    report = rows_of(body(download(client, "download-venue-report", setup.venue.public_id, "csv")), "csv")
    assert report[0][:3] == ["Serie", "Tisch", "Mannschaft"]
    ranking = rows_of(body(download(client, "download-league-players", setup.league.public_id, "csv")), "csv")
    assert ranking[0][4] == "Serien"


def _substituted(series: int = 2, digits: int = 5) -> LeagueSetup:
    """``series`` series closed; every player carries a federation number of ``digits`` digits; in series 2 Pik As I
    brings its substitute in for its fourth player."""
    setup = league_setup(series=series)
    for roster in setup.rosters:
        for index, entry in enumerate(roster):
            federation_number = f"{entry.team_id:02d}{index:03d}".zfill(digits)
            RosterEntry.objects.filter(pk=entry.pk).update(federation_number=federation_number)
    secretary = setup.secretaries[0]
    for number, scores in enumerate(WORKED[:series], start=1):
        check_in_all(setup, number)
        if number == 2:
            pik = setup.rosters[2]
            leagues.series_check_in(venue=setup.venue, series=2, team=setup.teams[2], entries=[*pik[:3], pik[4]])
        leagues.series_seat(venue=setup.venue, series=number, user=secretary)
        enter_series(setup, number, scores, secretary)
    setup.venue = leagues.venue_close(venue=setup.venue, user=secretary)
    return setup


def test_the_report_marks_a_substitute_and_whom_they_came_in_for_and_every_federation_number(
    client: Client,
) -> None:
    """The report a federation files (Spielbericht): on the page, in the PDF and in the files."""
    setup = _substituted()
    pik = setup.rosters[2]
    substitute, left = (RosterEntry.objects.select_related("player").get(pk=entry.pk) for entry in (pik[4], pik[3]))
    said = f"no. {substitute.federation_number}, substitute, in for {left.player.name} from series 2"
    page = html.unescape(client.get(reverse("interclub_report", args=[setup.venue.public_id])).content.decode())
    assert f"{substitute.player.name} ({said})" in page
    assert f"{left.player.name} (no. {left.federation_number})" in page
    printed = " ".join(
        " ".join(pdf_text(client.get(reverse("download-venue-report", args=[setup.venue.public_id, "pdf"])))).split()
    )
    # Under the name, in lines of small type that the other teams' columns interleave.
    interleaved = r" (?:no\. \d+ )?".join(re.escape(word) for word in said.split())
    assert re.search(interleaved, printed), printed
    rows = rows_of(body(download(client, "download-venue-report", setup.venue.public_id, "csv")), "csv")
    assert rows[0][-2:] == ["Federation number", "Line-up"]
    lines = {(row[0], row[3]): row for row in rows[1:] if row[3]}
    assert lines[("2", substitute.player.name)][-2:] == [substitute.federation_number, said]
    assert lines[("1", left.player.name)][-2:] == [left.federation_number, f"no. {left.federation_number}"]


def test_the_report_of_a_venue_still_playing_says_so(client: Client) -> None:
    setup = played(close=False)
    assert download(client, "download-venue-report", setup.venue.public_id, "csv").status_code == 200
    text = "\n".join(pdf_text(client.get(reverse("download-venue-report", args=[setup.venue.public_id, "pdf"]))))
    assert "Provisional: the venue is still playing" in text


def test_an_unknown_format_is_not_there(client: Client) -> None:
    setup = played()
    assert download(client, "download-group-table", setup.group.public_id, "docx").status_code == 404


def test_a_player_named_like_a_formula_stays_a_name_in_a_spreadsheet(client: Client) -> None:
    setup = played()
    player = setup.rosters[0][0].league_player
    player.name = "=HYPERLINK(1)"
    player.save()
    answer = download(client, "download-league-players", setup.league.public_id, "csv")
    assert "'=HYPERLINK(1)" in body(answer).decode()


def test_the_printed_report_holds_teams_players_results_and_says_it_is_provisional(client: Client) -> None:
    setup = played()
    report = venue_report(setup.venue)
    pages = pdf_text(client.get(reverse("download-venue-report", args=[setup.venue.public_id, "pdf"])))
    assert len(pages) == 1
    text = pages[0]
    assert "Match report · Verbandsliga Nord" in text
    assert "Provisional: not accepted by the league yet" in text
    for series in report.series:
        assert f"Series {series.number}" in text
        for table in series.tables:
            for line in table.lines:
                assert line.player.name in text
    assert "Result of the match day" in text
    assert "Herz Dame I 5:4 10075" in text
    assert "3. place · 1:2" in text
    assert "Not confirmed for Kreuz Bube I" in text


def test_the_printed_report_of_an_accepted_venue_names_who_confirmed_and_who_accepted(client: Client) -> None:
    setup = played()
    accepted(setup)
    pages = pdf_text(client.get(reverse("download-venue-report", args=[setup.venue.public_id, "pdf"])))
    assert len(pages) == 1
    text = pages[0]
    assert "Accepted on" in text
    assert f"by {setup.manager.username}" in text
    assert "Provisional" not in text
    for team, captain in zip(setup.teams, setup.captains, strict=True):
        assert f"Confirmed for {team.name} by {captain.username}" in text


def test_the_printed_report_of_a_corrected_venue_gives_the_scores_changed_and_the_confirmations_before(
    client: Client,
) -> None:
    setup = played()
    accepted(setup)
    setup.venue = leagues.venue_reopen(venue=setup.venue, user=setup.manager, reason="Table 1 added wrongly")
    enter_series(setup, 3, {**WORKED[2], "Pik As I": 3300}, setup.manager)
    setup.venue = leagues.venue_close(venue=setup.venue, user=setup.manager)
    leagues.report_confirm(venue=setup.venue, team=setup.teams[2], user=setup.captains[2])
    text = " ".join(pdf_text(client.get(reverse("download-venue-report", args=[setup.venue.public_id, "pdf"]))))
    assert f"by {setup.manager.username}: Table 1 added wrongly" in text
    assert "Series 3, Pik As I: 3200 → 3300" in text
    assert "Series 3, Herz Dame I" not in text
    assert "Confirmed for Herz Dame I by captain0 on" in text
    assert ", before the correction of" in text
    assert "Not confirmed for Herz Dame I" in text
    assert "Not confirmed for Pik As I" not in text


def test_the_printed_report_names_each_account_as_the_reports_page_and_the_api_do(client: Client) -> None:
    """The league's manager and a captain with a full name in their accounts: the printout, the report's page and
    the API's report name them alike, by their usernames, for a manager comparing the page with the printout."""
    setup = played()
    for user, first, last in ((setup.manager, "Maria", "Leitner"), (setup.captains[0], "Hans", "Dammer")):
        user.first_name, user.last_name = first, last
        user.save()
    accepted(setup)
    setup.venue = leagues.venue_reopen(venue=setup.venue, user=setup.manager, reason="Table 1 added wrongly")
    setup.venue = leagues.venue_close(venue=setup.venue, user=setup.manager)
    leagues.report_confirm(venue=setup.venue, team=setup.teams[0], user=setup.captains[0])
    text = " ".join(pdf_text(client.get(reverse("download-venue-report", args=[setup.venue.public_id, "pdf"]))))
    page = html.unescape(client.get(reverse("interclub_report", args=[setup.venue.public_id])).content.decode())
    report = client.get(f"/api/v1/venues/{setup.venue.public_id}/report/").json()
    for shown in (text, page):
        assert "Maria Leitner" not in shown
        assert "Hans Dammer" not in shown
    assert "Confirmed for Herz Dame I by captain0 on" in text
    assert f"by {setup.manager.username}: Table 1 added wrongly" in text
    assert "Herz Dame I (captain0)" in page
    assert f"· {setup.manager.username}: Table 1 added wrongly" in page
    assert [one["by"] for one in report["confirmed"]] == ["captain0"]
    assert [one["by"] for one in report["corrections"]] == [setup.manager.username]


def twice_corrected() -> LeagueSetup:
    """A venue of four teams and three series, every player with a federation number and Pik As I's substitute in
    for its fourth player in series 2, accepted and corrected twice (the first changing three teams' series scores,
    the second all four), with the captains' confirmations before the corrections, and one team's after each."""
    setup = _substituted(series=3, digits=7)
    accepted(setup)
    third = dict(WORKED[2])
    for reason, changed in (
        ("Tischliste 1 der Serie 3 falsch addiert", {"Herz Dame I": 3129, "Pik As I": 3300, "Karo Sieben I": 2100}),
        ("Tischliste 2 der Serie 3 falsch übertragen", {team: score - 20 for team, score in WORKED[2].items()}),
    ):
        setup.venue = leagues.venue_reopen(venue=setup.venue, user=setup.manager, reason=reason)
        third.update(changed)
        enter_series(setup, 3, third, setup.manager)
        setup.venue = leagues.venue_close(venue=setup.venue, user=setup.manager)
        leagues.report_confirm(venue=setup.venue, team=setup.teams[2], user=setup.captains[2])
    return setup


def test_the_printed_report_of_four_teams_three_series_and_two_corrections_fits_one_page(client: Client) -> None:
    setup = twice_corrected()
    pages = pdf_text(client.get(reverse("download-venue-report", args=[setup.venue.public_id, "pdf"])))
    assert len(pages) == 1
    text = pages[0]
    assert "Tischliste 1 der Serie 3 falsch addiert" in text
    assert "Tischliste 2 der Serie 3 falsch übertragen" in text
    # The series scores a correction changed, side by side beneath it, each whole.
    changed = [
        *("Herz Dame I: 3109 → 3129", "Karo Sieben I: 2000 → 2100", "Kreuz Bube I: 3500 → 3480"),
        *("Pik As I: 3300 → 3180", "Herz Dame I: 3129 → 3089", "Karo Sieben I: 2100 → 1980"),
    ]
    assert all(f"Series 3, {change}" in text for change in changed)
    assert " · Series 3, " in text
    assert "Confirmed for Pik As I by captain2 on" in text
    assert "Not confirmed for Karo Sieben I" in text


def test_the_printed_group_table_and_ranking_show_the_downloads_rows(client: Client) -> None:
    setup = played()
    table = pdf_text(client.get(reverse("download-group-table", args=[setup.group.public_id, "pdf"])))[0]
    assert "League table" in table
    assert "Herz Dame I † Herz Dame 5:4 10075 1" in table
    assert "† provisional" in table
    ranking = players_ranking(setup.league)
    printed = pdf_text(client.get(reverse("download-league-players", args=[setup.league.public_id, "pdf"])))[0]
    assert "Players' ranking" in printed
    assert all(one.player.name in printed for one in ranking)
    accepted(setup)
    again = pdf_text(client.get(reverse("download-group-table", args=[setup.group.public_id, "pdf"])))[0]
    assert "†" not in again
    assert MINUS not in again


def test_a_venue_tables_printed_list_names_its_league_group_match_day_series_and_table() -> None:
    setup = played(close=False)
    table = VenueTable.objects.filter(venue=setup.venue).order_by("series", "number").select_related("match").first()
    assert table is not None
    manager = Client()
    manager.force_login(setup.manager)
    text = "\n".join(pdf_text(manager.get(reverse("match_print", args=[table.match.public_id]))))
    assert f"Verbandsliga Nord · {setup.group.name} · match day {setup.match_day.number}" in text
    assert f"Series: {table.series}" in text
    assert f"Table: {table.number}" in text


def test_the_printed_group_table_writes_a_long_clubs_name_whole_where_the_page_has_room(client: Client) -> None:
    setup = played()
    long_name = "Grand Hand Skatfreunde Essen"
    Club.objects.filter(pk=setup.clubs[0].pk).update(name=long_name)
    table = pdf_text(client.get(reverse("download-group-table", args=[setup.group.public_id, "pdf"])))[0]
    assert long_name in table
    assert "…" not in table


def test_a_printed_tables_columns_fit_what_they_hold_within_the_page() -> None:
    doc = Document("fit")
    columns = [TableColumn("Place", 14), TableColumn("Club", 28, text=True), TableColumn("Points", 60)]
    rows = [["1", "Grand Hand Skatfreunde Oberhausen-Sterkrade", "10075"]]
    fitted = _fitted(doc, columns, rows, 9)
    assert sum(column.width for column in fitted) <= PAGE_WIDTH + 1e-9
    doc.pdf.set_font("DejaVu", "", 9)
    assert fitted[1].width >= doc.pdf.get_string_width(rows[0][1]) + 2 * doc.pdf.c_margin
    assert fitted[0].width == 14
    # Nothing cut: the widths stay as given.
    short = [["1", "SC Herz", "10"]]
    assert [column.width for column in _fitted(doc, columns, short, 9)] == [14, 28, 60]
