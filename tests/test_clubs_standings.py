"""A table of standings reads the same wherever it is shown: the page, the CSV and JSON exports, the API and the
printed table give the same places, names and figures in the same order, and mark the same places decided by lot,
for a night with a paper table and for its season. Each writes a figure its own way: an average to one decimal for a
reader, to two for a program; the page's narrow headers for won and lost, the files' full ones."""

import csv
import datetime
import io
import json
import re
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader
from rest_framework.test import APIClient

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night, Season
from matches.clubs.standings import COLUMNS, standing_headers, standing_rows
from matches.engine.league import Place, Standing

from .factories import add, make_user

pytestmark = pytest.mark.django_db

MINUS = "\N{MINUS SIGN}"
# A paper list's footer (game points, won, lost per seat): one game won, one lost, two players with neither, who tie.
FOOTER = [(72, 1, 0), (-48, 0, 1), (0, 0, 0), (0, 0, 0)]
# One row as every projection can give it: place, name, points, game points, won, lost, lists.
Row = tuple[str, ...]


class _StandingsTable(HTMLParser):
    """The cells of the first table of standings on a page, as a reader sees them, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.state = "before"  # "inside" the table's body, "after" it
        self.rows: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.state == "before" and tag == "table" and "standings" in (dict(attrs).get("class") or "").split():
            self.state = "table"
        elif self.state == "table" and tag == "tbody":
            self.state = "inside"
        elif self.state == "inside" and tag == "tr":
            self.rows.append([])
        elif self.state == "inside" and tag == "td":
            self.rows[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if self.state == "inside" and tag == "tbody":
            self.state = "after"

    def handle_data(self, data: str) -> None:
        if self.state == "inside" and self.rows and self.rows[-1]:
            self.rows[-1][-1] += data


def _plain(text: str) -> str:
    return text.strip().replace(MINUS, "-")


def _page(response: Any) -> tuple[list[Row], list[bool]]:
    assert response.status_code == 200
    table = _StandingsTable()
    table.feed(response.content.decode())
    rows = [[_plain(cell) for cell in cells] for cells in table.rows]
    return [(row[0].removesuffix("*").strip(), *row[1:]) for row in rows], [row[0].endswith("*") for row in rows]


def _csv(response: Any) -> list[Row]:
    text = response.getvalue().decode().removeprefix("\ufeff")
    return [tuple(row) for row in list(csv.reader(io.StringIO(text)))[1:]]


def _json(response: Any) -> list[Row]:
    return [tuple(str(value) for value in item.values()) for item in json.loads(response.getvalue())]


def _api(response: Any) -> tuple[list[Row], list[bool]]:
    assert response.status_code == 200
    places = response.json()["places"]
    keys = ("place", "name", "score", "game_points", "won", "lost", "lists")
    # The API writes every score as a JSON number with a point; a whole one reads as the others write it.
    rows = [tuple(str(int(one[key]) if isinstance(one[key], float) else one[key]) for key in keys) for one in places]
    return rows, [one["by_lot"] for one in places]


def _printed(response: Any) -> tuple[list[Row], list[bool]]:
    assert response["Content-Type"] == "application/pdf"
    (page,) = PdfReader(io.BytesIO(response.content)).pages
    lines = [_plain(line).split() for line in page.extract_text().splitlines()]
    rows = [line for line in lines if len(line) == 7 and re.fullmatch(r"\d+\*?", line[0])]
    return [(row[0].removesuffix("*"), *row[1:]) for row in rows], [row[0].endswith("*") for row in rows]


def _night(owner: User) -> Night:
    """A night of two tables of four: one scored game by game (one grand won, so three players are level at 0), the
    other entered from its paper list (where two players are level)."""
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus", "Hanna"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    played, paper = ClubTable.objects.filter(night=night).select_related("match").order_by("number")
    declarer = (played.match.first_dealer + 1) % played.match.players
    add(played.match, declarer=declarer, contract="grand", matadors=1, declarer_card_points=80)
    seats = paper.match.seats.select_related("player").order_by("position")
    clubs.paper_enter(table=paper, lines=[(seat.player, *line) for seat, line in zip(seats, FOOTER, strict=True)])
    return night


@pytest.mark.parametrize("subject", ["night", "season"])
def test_the_page_the_exports_the_api_and_the_print_show_the_same_table(subject: str) -> None:
    owner = make_user("olga")
    night = _night(owner)
    key = night.public_id if subject == "night" else night.season.public_id
    browser = Client()
    browser.force_login(owner)
    api = APIClient()
    api.force_authenticate(owner)
    page_address = reverse(f"{subject}_detail", args=[key])
    shown, shown_lots = _page(browser.get(page_address))
    printed, printed_lots = _printed(browser.get(reverse(f"download-{subject}-table", args=[key, "pdf"])))
    given, given_lots = _api(api.get(f"/api/v1/{subject}s/{key}/standings/"))
    exported = _csv(browser.get(reverse(f"download-{subject}-table", args=[key, "csv"])))
    as_json = _json(browser.get(reverse(f"download-{subject}-table", args=[key, "json"])))
    # The paper list's winner (72 + 50 + 30 for the game lost beside him), the grand's declarer (48 + 50), the two
    # level at 30 for that lost game, the three level at nothing, the paper list's loser (-48 - 50).
    assert [row[2] for row in shown] == ["152", "98", "30", "30", "0", "0", "0", "-98"]
    assert shown_lots == [False, False, True, True, True, True, True, False]
    assert printed == shown
    assert given == shown
    assert exported == shown
    assert as_json == shown
    assert printed_lots == shown_lots
    assert given_lots == shown_lots


def test_an_average_reads_to_one_decimal_on_the_page_and_to_two_in_the_files_and_the_api() -> None:
    (row,) = standing_rows([Place(1, Standing("p", Fraction(-100, 3), won=2, lost=5, lists=3))], {"p": "Anna"})
    assert [row.text(column) for column in COLUMNS] == ["1", "Anna", f"{MINUS}33.3", "0", "2", "5", "3"]
    assert row.cells() == [1, "Anna", -33.33, 0, 2, 5, 3]
    assert row.api() == {
        "place": 1, "player": "p", "name": "Anna", "score": -33.33, "game_points": 0, "won": 2, "lost": 5,
        "lists": 3, "by_lot": False,
    }  # fmt: skip


def test_the_page_gives_won_and_lost_their_narrow_headers_where_the_files_spell_them_out() -> None:
    with translation.override("de"):
        assert [column.heading for column in COLUMNS][4:6] == ["Gew.", "Verl."]
        assert standing_headers(average=False)[4:6] == ["Gewonnen", "Verloren"]


@pytest.mark.parametrize(
    ("language", "points", "average", "average_file"),
    [("en", "Points", "Average", "Average per list"), ("de", "Punkte", "Durch\xadschnitt", "Durchschnitt je Liste")],
)
def test_a_season_ranked_by_the_average_heads_its_score_as_an_average_and_a_night_keeps_its_points(
    language: str, points: str, average: str, average_file: str
) -> None:
    owner = make_user("olga")
    night = _night(owner)
    Season.objects.filter(pk=night.season_id).update(ranking="average")
    browser = Client(headers={"accept-language": language})
    browser.force_login(owner)
    key = night.season.public_id

    def headers(page: Any) -> list[str]:
        found: list[str] = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', page.content.decode())
        return found

    assert headers(browser.get(reverse("season_detail", args=[key])))[2] == average
    assert headers(browser.get(reverse("night_detail", args=[night.public_id])))[2] == points
    exported = browser.get(reverse("download-season-table", args=[key, "csv"])).getvalue().decode()
    assert next(csv.reader(io.StringIO(exported.removeprefix("\ufeff"))))[2] == average_file
    (page,) = PdfReader(io.BytesIO(browser.get(reverse("download-season-table", args=[key, "pdf"])).content)).pages
    assert average_file in page.extract_text()
