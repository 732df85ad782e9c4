"""A person opens their record on a phone, with its chart, and a ranking list over their club's nights, in English
and in German: what they read is there by its labels and roles, and axe finds nothing."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from matches.clubs import services as clubs
from matches.models import Player
from matches.services import player_link
from matches.services.rankings import RankingForm, ranking_save

from ..factories import make_user
from ..test_record import paper_night
from .flow import signed_in
from .test_accessibility import _violations

WORDS = {
    "en": {
        "statistics": "Your own statistics",
        "chart": "Average per series, month by month",
        "average": "Average per series",
        "place": "Place",
        "series": "Series",
    },
    "de": {
        "statistics": "Deine eigene Statistik",
        "chart": "Schnitt je Serie, Monat für Monat",
        "average": "Schnitt je Serie",
        "place": "Platz",
        "series": "Serien",
    },
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_record_with_its_chart_and_a_ranking_list_on_a_phone(
    browser: Browser, live_server: Any, language: str
) -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    # Anna: 72 + 50 = 122 in November; in December 96 + 2 × 50, and 30 for Ben's lost game at a table of four: 226.
    paper_night(season, datetime.date(2026, 11, 3), [{"Anna": (72, 1, 0), "Ben": (0, 0, 0), "Cleo": (0, 0, 0)}])
    four = {"Anna": (96, 2, 0), "Ben": (-48, 0, 1), "Cleo": (0, 0, 0), "Dora": (0, 0, 0)}
    paper_night(season, datetime.date(2026, 12, 1), [four])
    anna = make_user("anna")
    player_link(player=Player.objects.get(keeper=club.keeper, name="Anna"), account=anna)
    # The club's list of its players, which its members see.
    clubs.member_set(club=club, username="anna", role="member")
    form = RankingForm(name="Clubrangliste", events=[str(season.public_id)], counted="book", circle=str(club.public_id))
    ranking = ranking_save(owner=owner, form=form)
    words = WORDS[language]

    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        device_scale_factor=2,
        locale={"en": "en-GB", "de": "de-DE"}[language],
        bypass_csp=True,
    )
    page = signed_in(context, live_server.url, anna)
    page.goto(f"{live_server.url}/players/me/")
    expect(page.get_by_role("heading", name=words["statistics"], exact=True)).to_be_visible()
    chart = page.get_by_role("img", name=words["chart"], exact=True)
    expect(chart).to_be_visible()
    # The picture is drawn on the server: it loaded, as an SVG with the line of the two months.
    assert chart.evaluate("(image) => image.complete && image.naturalWidth > 0")
    drawn = page.request.get(f"{live_server.url}{chart.get_attribute('src')}")
    assert drawn.headers["content-type"].startswith("image/svg+xml")
    assert "<polyline" in drawn.text()
    expect(page.get_by_role("definition").filter(has_text="174")).to_have_count(1)  # (122 + 226) / 2
    assert _violations(page) == []

    page.goto(f"{live_server.url}/rankings/{ranking.public_id}/")
    table = page.get_by_role("table", name="Clubrangliste")
    expect(table).to_be_visible()
    expect(table.get_by_role("columnheader", name=words["place"], exact=True)).to_be_visible()
    expect(table.get_by_role("columnheader", name=words["series"], exact=True)).to_be_visible()
    first = table.get_by_role("row").nth(1)
    expect(first.get_by_role("rowheader")).to_have_text("Anna")
    expect(first.get_by_role("cell").nth(1)).to_have_text("174")
    assert _violations(page) == []
    context.close()
