"""Every export is read back by the library that reads its format and compared with the data it came from; text that
a spreadsheet would run as a formula is defused."""

import csv
import datetime
import io
import json
from typing import Any

import pytest
import tablib
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.clubs.selectors import night_results, season_table
from matches.exports.base import Format
from matches.labels import figure_cell
from matches.models import Match, Player
from matches.selectors import match_sheet
from matches.stats import player_stats

from .downloads import german_figure
from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

FORMATS = [choice.value for choice in Format]
HOSTILE = ('=HYPERLINK("http://x")', "+49 Ben", "-Cleo", "@SUM(A1)")


def _read(response: Any, fmt: str) -> tablib.Dataset:
    """The file as a spreadsheet program or a script would read it."""
    body = response.getvalue() if isinstance(response, StreamingHttpResponse) else response.content
    if fmt in ("csv", "csv-semicolon"):
        text = body.decode("utf-8")
        assert text.startswith("\ufeff")  # the byte order mark, so that spreadsheet programs read UTF-8
        rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";" if fmt == "csv-semicolon" else ","))
        if fmt == "csv-semicolon":
            rows = [[german_figure(cell) for cell in row] for row in rows]
        return tablib.Dataset(*rows[1:], headers=rows[0])
    if fmt == "json":
        items = json.loads(body)
        data = tablib.Dataset(headers=list(items[0]) if items else [])
        for item in items:
            data.append(list(item.values()))
        return data
    return tablib.Dataset().load(body, format=fmt)


def _cells(data: tablib.Dataset) -> list[list[str]]:
    """Every cell as text, as the CSV reader gives it (spreadsheets give numbers back as numbers, ODS as floats)."""
    return [[_text(cell) for cell in row] for row in data]


def _text(cell: object) -> str:
    if cell is None:
        return ""
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell)


@pytest.fixture
def owner() -> User:
    return make_user("olga")


@pytest.fixture
def browser(owner: User) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def match(owner: User) -> Match:
    match = make_match(owner, names=("Anna", "Ben", "Cleo"), rules={"bock": True}, title="Donnerstag")
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=2, contract="grand", matadors=2, declarer_card_points=40, hand=True)
    add(match, passed=True)
    add(match, declarer=1, contract="null", won=True)
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_match_exported_reads_back_as_its_list(browser: Client, match: Match, fmt: str) -> None:
    response = browser.get(reverse("match_export", args=[match.public_id, fmt]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = _read(response, fmt)
    assert data.headers == [
        "No.", "Dealer", "Declarer", "Contract", "Value", "Result", "Kontra", "Re", "Bock",
        "Anna: points", "Anna: total", "Ben: points", "Ben: total", "Cleo: points", "Cleo: total",
    ]  # fmt: skip
    sheet = match_sheet(match)
    assert len(data) == len(sheet.rows) == 4
    for row, cells in zip(sheet.rows, _cells(data), strict=True):
        assert cells[0] == str(row.number)
        assert cells[1] == row.dealer_name
        assert cells[2] == row.declarer_name
        assert cells[9:] == [str(value) for pair in row.cells for value in pair]
    assert _cells(data)[2][5] == "all passed"
    assert [cells[5] for cells in _cells(data)] == ["won", "lost · Hand", "all passed", "won"]


@pytest.mark.parametrize("fmt", [choice for choice in FORMATS if choice != "json"])
def test_names_a_spreadsheet_would_run_as_formulas_are_defused(browser: Client, owner: User, fmt: str) -> None:
    match = make_match(owner, names=HOSTILE[:3])
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=40)
    data = _read(browser.get(reverse("match_export", args=[match.public_id, fmt])), fmt)
    assert data.headers[9] == "'" + HOSTILE[0] + ": points"
    assert _cells(data)[0][1:3] == ["'" + HOSTILE[0], "'" + HOSTILE[1]]
    assert _cells(data)[0][9:13] == ["0", "0", "-48", "-48"]  # numbers stay numbers, negative ones too


def test_json_carries_every_value_as_it_is(browser: Client, owner: User) -> None:
    match = make_match(owner, names=HOSTILE[:3])
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    (item,) = json.loads(browser.get(reverse("match_export", args=[match.public_id, "json"])).getvalue())
    assert item["Dealer"] == HOSTILE[0]
    assert item[HOSTILE[0] + ": points"] == 0


def test_a_csv_export_streams(browser: Client, match: Match) -> None:
    response = browser.get(reverse("match_export", args=[match.public_id, "csv"]))
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == "text/csv; charset=utf-8"


def test_an_unknown_format_is_not_there(browser: Client, match: Match) -> None:
    assert browser.get(reverse("match_export", args=[match.public_id, "pdf"])).status_code == 404


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_players_statistics_read_back(browser: Client, match: Match, fmt: str) -> None:
    ben = Player.objects.get(name="Ben")
    data = _read(browser.get(reverse("player_export", args=[ben.public_id, fmt])), fmt)
    (stats,) = player_stats(ben)
    assert _cells(data) == [["Skat", "Standard", str(stats.total), str(stats.games), str(stats.declared),
                            str(stats.won), str(stats.lost), str(figure_cell(stats.average))]]  # fmt: skip


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_club_nights_and_a_seasons_tables_read_back(browser: Client, owner: User, fmt: str) -> None:
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        declarer = (table.match.first_dealer + 1) % table.match.players
        add(table.match, declarer=declarer, contract="grand", matadors=1, declarer_card_points=40)
    results = night_results(night)
    expected = [
        [str(place.place), results.players[place.standing.player].name, str(place.standing.score),
         str(place.standing.game_points), str(place.standing.won), str(place.standing.lost),
         str(place.standing.lists)]
        for place in results.night_places
    ]  # fmt: skip
    assert _cells(_read(browser.get(reverse("download-night-table", args=[night.public_id, fmt])), fmt)) == expected
    standings = season_table(season)
    season_data = _read(browser.get(reverse("download-season-table", args=[season.public_id, fmt])), fmt)
    assert [row[1] for row in _cells(season_data)] == [
        standings.players[place.standing.player].name for place in standings.places
    ]


def _sheet_name(response: Any, fmt: str) -> str:
    return str(tablib.Dataset().load(response.content, format=fmt).title)


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_each_spreadsheet_is_named_for_what_it_holds(browser: Client, owner: User, match: Match, fmt: str) -> None:
    assert _sheet_name(browser.get(reverse("match_export", args=[match.public_id, fmt])), fmt) == "Donnerstag"
    ben = Player.objects.get(keeper=match.keeper, name="Ben")
    assert _sheet_name(browser.get(reverse("player_export", args=[ben.public_id, fmt])), fmt) == "Ben"
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    assert (
        _sheet_name(browser.get(reverse("download-season-table", args=[season.public_id, fmt])), fmt) == "Season 2026"
    )
    night_sheet = _sheet_name(browser.get(reverse("download-night-table", args=[night.public_id, fmt])), fmt)
    assert night_sheet == "Club night of 11-24-2026"


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_sheet_name_keeps_within_the_spreadsheets_limits(browser: Client, owner: User, fmt: str) -> None:
    match = make_match(owner, title="'Skat [Donnerstag]: Kneipe *Zum Ass*? A/B\\C und noch viel mehr")
    name = _sheet_name(browser.get(reverse("match_export", args=[match.public_id, fmt])), fmt)
    assert name == "Skat -Donnerstag-- Kneipe -Zum"
    assert len(name) <= 31


def test_the_two_csv_files_download_under_different_names(browser: Client, match: Match) -> None:
    comma = browser.get(reverse("match_export", args=[match.public_id, "csv"]))["Content-Disposition"]
    semicolon = browser.get(reverse("match_export", args=[match.public_id, "csv-semicolon"]))["Content-Disposition"]
    assert comma == 'attachment; filename="Donnerstag.csv"'
    assert semicolon == 'attachment; filename="Donnerstag-semicolon.csv"'


def test_the_result_column_says_what_the_matchs_list_says(browser: Client, owner: User) -> None:
    match = make_match(owner, rules={"ramsch": True})
    add(match, declarer=1, contract="clubs", matadors=1, outcome="won-schneider", hand=True)
    add(match, declarer=2, contract="grand", matadors=1, outcome="lost-schwarz")
    add(match, declarer=0, contract="diamonds", matadors=-1, declarer_card_points=80, bid=22)
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [30, 72, 18]})
    data = _read(browser.get(reverse("match_export", args=[match.public_id, "csv"])), "csv")
    assert [cells[5] for cells in _cells(data)] == [
        "won Schneider · Hand",
        "lost Schwarz",
        "lost · overbid",
        "card points 30/72/18 · Ben lost",
    ]
    page = browser.get(f"/matches/{match.public_id}/").content.decode()
    assert '<span class="words"> · won Schneider · Hand</span>' in page
    assert '<span class="words"> · card points 30/72/18 · Ben lost</span>' in page


def test_a_ramsch_row_gives_each_players_card_points_by_seat(browser: Client, owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo", "Dora"), rules={"ramsch": True})
    # The dealer sits out: Anna the first game, Ben the second, Cleo the third, Dora the fourth.
    for card_points in ([0, 48, 72, 0], [30, 0, 72, 18], [30, 72, 0, 18], [0, 48, 72, 0]):
        add(match, declarer=None, contract="ramsch", ramsch={"card_points": card_points})
    data = _read(browser.get(reverse("match_export", args=[match.public_id, "csv"])), "csv")
    assert [cells[5] for cells in _cells(data)] == [
        "card points –/48/72/0 · Cleo lost",
        "card points 30/–/72/18 · Cleo lost",
        "card points 30/72/–/18 · Ben lost",
        "card points 0/48/72/– · Cleo lost",
    ]
    browser.cookies["django_language"] = "de"
    page = browser.get(f"/matches/{match.public_id}/").content.decode()
    assert '<span class="words"> · Augen –/48/72/0 · Cleo verliert</span>' in page
    assert '<span class="words"> · Augen 0/48/72/– · Cleo verliert</span>' in page


def test_a_ramsch_row_names_its_jungfrau_and_pushes_as_the_printed_list_does(browser: Client, owner: User) -> None:
    match = make_match(owner, rules={"ramsch": True, "ramsch_schieben": True})
    # Anna's 72, doubled for Cleo's Jungfrau and once for the push; a Durchmarsch doubles for its push alone, whoever
    # it names as Jungfrau.
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [72, 48, 0], "jungfrau": [2], "pushes": 1})
    add(
        match,
        declarer=None,
        contract="ramsch",
        ramsch={"card_points": [0, 120, 0], "jungfrau": [0, 2], "pushes": 1, "durchmarsch": 1},
    )
    data = _read(browser.get(reverse("match_export", args=[match.public_id, "csv"])), "csv")
    assert [cells[5] for cells in _cells(data)] == [
        "card points 72/48/0 · Jungfrau · pushed 1× · Anna lost",
        "card points 0/120/0 · pushed 1× · Durchmarsch: Ben",
    ]
    page = browser.get(f"/matches/{match.public_id}/").content.decode()
    assert '<span class="words"> · card points 72/48/0 · Jungfrau · pushed 1× · Anna lost</span>' in page
    assert '<span class="words"> · card points 0/120/0 · pushed 1× · Durchmarsch: Ben</span>' in page
    browser.cookies["django_language"] = "de"
    page = browser.get(f"/matches/{match.public_id}/").content.decode()
    assert '<span class="words"> · Augen 72/48/0 · Jungfrau · 1× geschoben · Anna verliert</span>' in page


def test_a_season_with_a_name_of_its_own_names_its_sheet_so(browser: Client, owner: User) -> None:
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="Saison 2026"))
    assert (
        _sheet_name(browser.get(reverse("download-season-table", args=[season.public_id, "xlsx"])), "xlsx")
        == "Saison 2026"
    )


def test_the_bock_column_gives_the_factor_the_game_was_multiplied_by(browser: Client, match: Match) -> None:
    data = _read(browser.get(reverse("match_export", args=[match.public_id, "csv"])), "csv")
    # The grand hand (game 2) starts a Bock round: games 3 and 4 count double.
    assert [cells[8] for cells in _cells(data)] == ["", "", "2", "2"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_kontra_and_re_columns_give_the_factor_each_doubled_by(browser: Client, owner: User, fmt: str) -> None:
    match = make_match(owner, rules={"kontra_re": True})
    add(match, declarer=1, contract="spades", matadors=1, declarer_card_points=70, kontra=True)  # 22 × 2 = 44
    add(match, declarer=2, contract="diamonds", matadors=1, declarer_card_points=50, kontra=True, re=True)  # 18 × 4
    add(match, declarer=0, contract="value", value=48, won=True, kontra=True)  # 48 × 2
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70)
    data = _read(browser.get(reverse("match_export", args=[match.public_id, fmt])), fmt)
    assert [cells[4:9] for cells in _cells(data)] == [
        ["44", "won · Kontra", "2", "", ""],
        ["72", "lost · Kontra · Re", "2", "2", ""],
        ["96", "won · Kontra", "2", "", ""],
        ["48", "won", "", "", ""],
    ]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_schafkopf_list_calls_its_doubling_stoss(browser: Client, owner: User, fmt: str) -> None:
    match = make_match(owner, variant="officers-schafkopf", names=("Anna", "Dora"))
    add(match, declarer=1, contract="clubs", declarer_card_points=70, kontra=True)
    data = _read(browser.get(reverse("match_export", args=[match.public_id, fmt])), fmt)
    assert data.headers[5:8] == ["Result", "Stoß", "Re"]
    assert _cells(data)[0][5:7] == ["won · Stoß", "2"]
    page = browser.get(f"/matches/{match.public_id}/").content.decode()
    assert '<span class="words"> · won · Stoß</span>' in page
    assert '<input type="checkbox" name="kontra" id="id_kontra"> <span>Stoß</span>' in page  # as the entry says it
    browser.cookies["django_language"] = "de"
    data = _read(browser.get(reverse("match_export", args=[match.public_id, fmt])), fmt)
    assert data.headers[6] == "Stoß"
    assert "Kontra" not in browser.get(f"/matches/{match.public_id}/").content.decode()


def test_json_carries_kontra_re_and_bock_as_numbers_or_null(browser: Client, owner: User) -> None:
    match = make_match(owner, rules={"kontra_re": True, "bock": True})
    add(match, declarer=1, contract="spades", matadors=1, declarer_card_points=70, kontra=True, re=True)
    add(match, declarer=2, contract="grand", matadors=1, declarer_card_points=70)
    items = json.loads(browser.get(reverse("match_export", args=[match.public_id, "json"])).getvalue())
    assert [(item["Kontra"], item["Re"], item["Bock"]) for item in items] == [(2, 2, None), (None, None, 2)]
