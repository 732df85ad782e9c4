"""A table that kept its list on paper shows, on its match page and in its printed list, the totals that were
entered (the game points and the Seeger-Fabian columns), and says the list was kept on paper."""

import datetime
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.models import Match

from .factories import make_user

pytestmark = pytest.mark.django_db

MINUS = "\N{MINUS SIGN}"
# Each seat's game points, won and lost games as the list's footer has them: one game won (a grand with 2, 72) and
# one lost (clubs with 1, 24, counted twice), so the others' lost games give 30 each at a table of four.
FOOTER = [(72, 1, 0), (-48, 0, 1), (0, 0, 0), (0, 0, 0)]
TOTALS = [72 + 50 + 30, -48 - 50, 30, 30]


def _paper_table(scheme: str = "seeger-fabian") -> tuple[Client, Match]:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026", scheme=scheme))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 26))
    for name in ("Anna", "Ben", "Cleo", "Dora"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    table = ClubTable.objects.select_related("match").get(night=night)
    seats = table.match.seats.select_related("player").order_by("position")
    lines = [(seat.player, *footer) for seat, footer in zip(seats, FOOTER, strict=True)]
    clubs.paper_enter(table=table, lines=lines)
    client = Client()
    client.force_login(owner)
    return client, Match.objects.get(pk=table.match_id)


def _number(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def _pdf_text(response: Any) -> str:
    assert response.status_code == 200
    (page,) = PdfReader(io.BytesIO(response.content)).pages
    return page.extract_text()


def test_a_paper_tables_page_shows_the_totals_entered_and_says_it_was_kept_on_paper() -> None:
    client, match = _paper_table()
    page = client.get(reverse("match_detail", args=[match.public_id])).content.decode()
    totals = page.split('aria-label="Totals"')[1].split("</ol>")[0]
    for total in TOTALS:
        assert f'<span class="total">{_number(total)}</span>' in totals
    assert "The list was kept on paper" in page
    assert "games left" not in page
    assert "No games yet." not in page
    footer = page.split("Entered from the paper list")[1].split("</table>")[0]
    for title, values in (
        ("Game points", [72, -48, 0, 0]),
        ("+ 50 × games won", [50, 0, 0, 0]),
        ("− 50 × games lost", [0, -50, 0, 0]),
        ("+ 30 × games the others lost", [30, 0, 30, 30]),
        ("Total", TOTALS),
    ):
        cells = "".join(f'<td class="num">{_number(value)}</td>' for value in values)
        assert f'<th scope="row">{title}</th>{cells}' in footer, title


def test_a_paper_tables_printed_list_has_the_footer_entered_and_says_it_was_kept_on_paper() -> None:
    client, match = _paper_table()
    text = _pdf_text(client.get(reverse("match_print", args=[match.public_id])))
    assert "The list was kept on paper" in text
    assert "Game points 72 " + _number(-48) + " 0 0" in text
    assert "+ 30 × games the others lost 30 0 30 30" in text
    assert "Total " + " ".join(_number(total) for total in TOTALS) in text


def test_a_paper_list_under_another_scheme_totals_its_game_points() -> None:
    client, match = _paper_table(scheme="standard")
    page = client.get(reverse("match_detail", args=[match.public_id])).content.decode()
    totals = page.split('aria-label="Totals"')[1].split("</ol>")[0]
    for points, _won, _lost in FOOTER:
        assert f'<span class="total">{_number(points)}</span>' in totals
    text = _pdf_text(client.get(reverse("match_print", args=[match.public_id])))
    assert "Total 72 " + _number(-48) + " 0 0" in text
    assert "× games won" not in text
