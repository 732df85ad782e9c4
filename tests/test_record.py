"""A player's record across events, on the page of their own statistics: every closed list of the players linked to
their account, with the figures worked out by hand here from the paper lists (``docs/rules.md``, "A player's
record"), the chart, the lists a page at a time and the whole record as a JSON file; nobody else's page shows it."""

from __future__ import annotations

import datetime
import html
import re
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night, Season
from matches.models import Player
from matches.records import Figures, Overview, chart_points
from matches.services import closed_lists_report, player_link
from matches.views import people as people_views

from .factories import make_match, make_user

pytestmark = pytest.mark.django_db


def paper_night(season: Season, date: datetime.date, footers: list[dict[str, tuple[int, int, int]]]) -> Night:
    """A closed club night whose every series was kept on paper at one table, with these footers."""
    owner = season.club.memberships.get(role="owner").user
    night = clubs.night_create(season=season, date=date, series=len(footers))
    for name in footers[0]:
        clubs.check_in(night=night, name=name)
    for series, footer in enumerate(footers, start=1):
        clubs.night_draw(night=night, series=series, user=owner)
        table = ClubTable.objects.select_related("match").get(night=night, series=series)
        seated = {seat.player.name: seat.player for seat in table.match.seats.all()}
        clubs.paper_enter(table=table, lines=[(seated[name], *line) for name, line in footer.items()], user=owner)
    return clubs.night_close(night=night, user=owner)


@pytest.fixture
def anna() -> tuple[Player, Client]:
    """Anna's club: a night of three in November (two series), a night of four in December (one series); Anna's
    player is linked to her account, and she is signed in."""
    owner = make_user("olga")
    season = clubs.season_create(
        club=clubs.club_create(owner=owner, name="Skatclub Herz Dame"), settings=clubs.SeasonSettings(name="2026")
    )
    three = {"Anna": (72, 1, 0), "Ben": (0, 0, 0), "Cleo": (0, 0, 0)}
    lost = {"Anna": (-48, 0, 1), "Ben": (0, 0, 0), "Cleo": (0, 0, 0)}
    paper_night(season, datetime.date(2026, 11, 3), [three, lost])
    four = {"Anna": (96, 2, 0), "Ben": (-48, 0, 1), "Cleo": (0, 0, 0), "Dora": (0, 0, 0)}
    paper_night(season, datetime.date(2026, 12, 1), [four])
    player = Player.objects.get(keeper=season.club.keeper, name="Anna")
    account = make_user("anna")
    player_link(player=player, account=account)
    client = Client()
    client.force_login(account)
    return player, client


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_record_shows_every_figure_as_worked_out_by_hand(anna: tuple[Player, Client]) -> None:
    _, client = anna
    page = client.get(reverse("player_me"))
    assert page.status_code == 200
    text = text_of(page.content.decode())
    # Seeger-Fabian: game points + 50 per game won − 50 per game lost + 40 (three) or 30 (four) per game the others
    # lost. November: 72 + 50 = 122, then −48 − 50 = −98; December at four: 96 + 100 + 30 (Ben's lost game) = 226.
    # 250 points in 3 series: 83.3 a series. Series of 36, 36 and 48 games mix: 250 × 48 / 120 = 100 per 48 games.
    # Won 3, lost 1: a quarter of the games as declarer lost.
    assert "Series 3" in text
    assert "Average per series 83.3" in text
    assert "Average per 48 games 100" in text
    assert "Best series 226" in text
    assert "Won : lost 3 : 1" in text
    assert "Games lost 25 %" in text
    # The share keeps its sign on its line.
    assert "25\N{NO-BREAK SPACE}%</dd>" in page.content.decode()
    # By kind, by year; whom she sat with: Ben and Cleo at all three tables (83.3), Dora at one (226).
    assert "Club nights 3 83.3 226 3 1" in text
    assert "2026 3 83.3 226 3 1" in text
    assert "Ben 3 83.3 Cleo 3 83.3 Dora 1 226" in text
    # The lists, the latest first.
    assert "12/01/2026 Skatclub Herz Dame · 2026 1 4 226 96 2 0" in text
    assert "11/03/2026 Skatclub Herz Dame · 2026 2 3 −98 −48 0 1" in text
    assert reverse("player_me_chart") in page.content.decode()
    assert "Average per series, month by month: November 2026 – December 2026" in text
    assert "Month by month Month Average November 2026 12 December 2026 226" in text


def test_the_games_figures_say_that_lists_kept_on_paper_are_not_in_them(anna: tuple[Player, Client]) -> None:
    player, client = anna
    paper = "Tables whose list was entered on paper are not in these figures"
    assert paper in text_of(client.get(reverse("player_me")).content.decode())
    owner = Client()
    owner.force_login(User.objects.get(username="olga"))
    assert paper in text_of(owner.get(reverse("player_detail", args=[player.public_id])).content.decode())
    # A player who only ever played on phones is told nothing of paper.
    ben = make_match(User.objects.get(username="olga")).seats.get(position=1).player
    assert paper not in text_of(owner.get(reverse("player_detail", args=[ben.public_id])).content.decode())


def test_the_chart_draws_the_average_month_by_month(anna: tuple[Player, Client]) -> None:
    _, client = anna
    picture = client.get(reverse("player_me_chart"))
    assert picture["Content-Type"] == "image/svg+xml"
    # November's average is (122 − 98) / 2 = 12, December's 226: a line of two points, the second at the top.
    points = re.findall(r'<polyline points="([^"]+)"', picture.content.decode())
    assert len(points) == 1
    (first, second) = [tuple(map(float, point.split(","))) for point in points[0].split()]
    assert first[0] < second[0]
    assert second[1] == 8.0  # the highest value, at the top of the box


def test_the_whole_record_downloads_as_json(anna: tuple[Player, Client]) -> None:
    player, client = anna
    answer = client.get(reverse("player_me_record"))
    assert answer["Content-Disposition"] == 'attachment; filename="record.json"'
    lists = answer.json()["lists"]
    assert [(row["date"], row["series"], row["table_size"], row["games"], row["total"]) for row in lists] == [
        ("2026-11-03", 1, 3, 36, 122),
        ("2026-11-03", 2, 3, 36, -98),
        ("2026-12-01", 1, 4, 48, 226),
    ]
    assert {row["player"] for row in lists} == {player.name}
    assert {row["kind"] for row in lists} == {"club"}


def test_the_lists_come_a_page_at_a_time(anna: tuple[Player, Client], monkeypatch: pytest.MonkeyPatch) -> None:
    _, client = anna
    monkeypatch.setattr(people_views, "LISTS_PER_PAGE", 2)
    first = client.get(reverse("player_me")).content.decode()
    assert "12/01/2026" in text_of(first)
    assert "11/03/2026 Skatclub Herz Dame · 2026 2" in text_of(first)
    after = re.search(r'href="(\?after=[^"]+)"', first)
    assert after is not None
    second = text_of(client.get(reverse("player_me") + html.unescape(after[1])).content.decode())
    assert "11/03/2026 Skatclub Herz Dame · 2026 1 3 122" in second
    # The lists' table alone: the joins further down are dated by the day they were made, which may be any day.
    assert "12/01/2026" not in second.split("Series by series")[1].split("Who sees your record")[0]


def test_nobody_else_sees_the_record(anna: tuple[Player, Client]) -> None:
    ben = Client()
    ben.force_login(make_user("ben"))
    assert "Series by series" not in ben.get(reverse("player_me")).content.decode()
    assert ben.get(reverse("player_me_record")).json()["lists"] == []
    assert "<polyline" not in ben.get(reverse("player_me_chart")).content.decode()
    for name in ("player_me", "player_me_chart", "player_me_record"):
        assert Client().get(reverse(name)).status_code == 302


def test_series_of_one_length_give_no_average_per_48_games(anna: tuple[Player, Client]) -> None:
    _, client = anna
    night = Night.objects.get(date=datetime.date(2026, 12, 1))
    clubs.night_reopen(night=night, user=User.objects.get(username="olga"))
    text = text_of(client.get(reverse("player_me")).content.decode())
    assert "Series 2" in text
    assert "Average per series 12" in text  # (122 − 98) / 2
    assert "Average per 48 games" not in text


def test_a_nights_series_are_listed_in_their_order_however_their_lists_were_kept(anna: tuple[Player, Client]) -> None:
    _, client = anna
    first = ClubTable.objects.get(night__date=datetime.date(2026, 11, 3), series=1).match_id
    closed_lists_report(match_ids=[first])  # series 1's rows written again, after series 2's
    text = text_of(client.get(reverse("player_me")).content.decode()).split("Series by series")[1]
    assert text.index("11/03/2026 Skatclub Herz Dame · 2026 2") < text.index("11/03/2026 Skatclub Herz Dame · 2026 1")
    lists = client.get(reverse("player_me_record")).json()["lists"]
    assert [(row["date"], row["series"]) for row in lists][:2] == [("2026-11-03", 1), ("2026-11-03", 2)]


def test_lists_of_another_scheme_are_kept_apart_from_the_seeger_fabian_figures(anna: tuple[Player, Client]) -> None:
    player, client = anna
    club = player.keeper.club
    standard = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="Sommer", scheme="standard"))
    paper_night(standard, datetime.date(2026, 7, 7), [{"Anna": (72, 1, 0), "Ben": (0, 0, 0), "Cleo": (0, 0, 0)}])
    text = text_of(client.get(reverse("player_me")).content.decode())
    assert "Series 3" in text
    assert "Average per series 83.3" in text
    assert "1 list of a season scored by another scheme is not summed here" in text
    lists = client.get(reverse("player_me_record")).json()["lists"]
    assert (lists[0]["date"], lists[0]["scheme"], lists[0]["total"]) == ("2026-07-07", "standard", 72)
    assert len(lists) == 4


def test_a_player_at_the_same_tables_sees_only_their_own_lists(anna: tuple[Player, Client]) -> None:
    player, _ = anna
    ben = make_user("ben")
    player_link(player=Player.objects.get(keeper=player.keeper, name="Ben"), account=ben)
    client = Client()
    client.force_login(ben)
    text = text_of(client.get(reverse("player_me")).content.decode())
    # Ben: 0, then 40 in November (Anna lost a game), −48 − 50 = −98 in December: −58 in 3 series.
    assert "Series 3" in text
    assert "Average per series −19.3" in text
    assert "Anna 3" in text
    assert {row["player"] for row in client.get(reverse("player_me_record")).json()["lists"]} == {"Ben"}


def test_a_long_record_is_charted_year_by_year() -> None:
    figures = Figures(series=2, games=96, won=2, lost=0, total=300, best=200, lengths=1)
    months = [(datetime.date(2020 + index // 12, index % 12 + 1, 1), Fraction(150)) for index in range(37)]
    long = Overview(figures, [], [(2023, figures), (2022, figures), (2021, figures), (2020, figures)], months, 0)
    by_years, points = chart_points(long)
    assert by_years
    assert points == [(datetime.date(year, 1, 1), Fraction(150)) for year in (2020, 2021, 2022, 2023)]
    short = Overview(figures, [], [], months[:36], 0)
    assert chart_points(short) == (False, months[:36])
