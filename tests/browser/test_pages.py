import datetime
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night
from matches.services import Submission, game_add
from matches.services.rankings import RankingForm, ranking_save

from .flow import signed_in


def test_the_api_docs_render_offline_on_a_phone(phone: Any, live_server: Any) -> None:
    outside: list[str] = []

    def only_this_server(route: Route) -> None:
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    phone.route("**/*", only_this_server)
    phone.goto(f"{live_server.url}/api/v1/docs/")
    expect(phone.get_by_role("heading", name="Scorekeeper API")).to_be_visible()
    expect(phone.get_by_text("Score one game")).to_be_visible()
    assert outside == []


def test_the_home_page_switches_to_german(phone: Any, live_server: Any) -> None:
    phone.goto(f"{live_server.url}/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Scores for Skat and its two-player relatives")
    phone.get_by_role("contentinfo").get_by_role("link", name="Language and cards", exact=True).click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Language and cards")
    phone.get_by_role("combobox", name="Language").select_option("de")
    phone.get_by_role("button", name="Switch language").click()
    # Back on the page it came from, in German.
    expect(phone).to_have_url(f"{live_server.url}/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Spielabrechnung für Skat und seine Verwandten zu zweit")
    expect(phone.get_by_role("main").get_by_role("link", name="Registrieren")).to_be_visible()


PASSWORD = "a-long-enough-password-1"
MEMBERS = ("Hannelore", "Klaus-Dieter", "Oluwaseun", "Siobhán", "Renate", "Mateo", "Gisela")


def _season_with_a_night(members: Sequence[str] = MEMBERS) -> str:
    """A season whose table has a night's results, with names as long as a club's: the season page's address."""
    owner = User.objects.create_user("owner", password=PASSWORD)
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in members:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        declarer = (table.match.first_dealer + 1) % table.match.players
        entry = {"contract": "grand", "matadors": 2, "declarer_card_points": 95}
        game_add(
            match=table.match, user=owner, token=uuid.uuid4(), submission=Submission(declarer=declarer, entry=entry)
        )
    return f"/seasons/{season.public_id}/"


def _text_tops(page: Page) -> list[list[float]]:
    """Per row of the table, the top of the place's text and of the name's text."""
    tops: list[list[float]] = page.get_by_role("table").evaluate(
        """(table) => Array.from(table.tBodies[0].rows).map((row) => Array.from(row.cells).slice(0, 2).map((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell.querySelector("a") || cell);
            return range.getClientRects()[0].top;
        }))"""
    )
    return tops


@pytest.mark.django_db(transaction=True)
def test_the_season_table_reads_whole_on_a_phone_in_german(browser: Browser, live_server: Any) -> None:
    address = _season_with_a_night()
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        locale="de",
        extra_http_headers={"Accept-Language": "de"},
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Benutzername", exact=True).fill("owner")
    page.get_by_label("Passwort", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Anmelden", exact=True).click()
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}{address}")
    table = page.get_by_role("table", name="Saisontabelle")
    headers = table.get_by_role("columnheader")
    expect(headers).to_have_text(["Platz", "Spieler", "Punkte", "Spielpunkte", "Gew.", "Verl.", "Listen"])
    table_box = table.bounding_box()
    assert table_box is not None
    for header in headers.all():
        box = header.bounding_box()
        assert box is not None
        clipped = header.evaluate("(cell) => cell.scrollWidth > cell.clientWidth")
        assert not clipped, header.text_content()
        assert box["x"] >= 0, header.text_content()
        assert box["x"] + box["width"] <= 390, header.text_content()
        assert box["x"] + box["width"] <= table_box["x"] + table_box["width"] + 0.5, header.text_content()
    assert table_box["x"] + table_box["width"] <= 390
    rows = _text_tops(page)
    assert len(rows) == len(MEMBERS)
    for place, name in rows:
        assert abs(place - name) < 1, rows
    context.close()


# The words of each name in the table that the browser broke over two lines (a name wraps only between its words:
# at a space or a hyphen).
BROKEN_WORDS = """(table) => Array.from(table.tBodies[0].rows).flatMap((row) => {
    const text = row.cells[1].querySelector("a").firstChild;
    const words = [];
    for (const word of text.textContent.matchAll(/[^\\s-]+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (new Set(Array.from(range.getClientRects()).map((box) => Math.round(box.top))).size > 1) words.push(word[0]);
    }
    return words;
})"""


# A long surname leaves the figures their room, the whole table in sight; a single word longer than the figures leave
# room for (24 letters) may make the table scroll in its box, never the page.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("longest", "in_sight"), [("Schwarzenberger", True), ("Maximilianeborgstedtmann", False)])
def test_a_season_table_on_a_phone_breaks_a_name_only_between_its_words(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str, longest: str, in_sight: bool
) -> None:
    address = _season_with_a_night(
        ("Hannelore", "Klaus-Dieter", f"Renate {longest}", "Mateo", longest, "Gisela", "Ute")
    )
    page = signed_in(new_context(locale={"en": "en-GB", "de": "de-DE"}[language]), live_server.url, User.objects.get())
    page.goto(f"{live_server.url}{address}")
    table = page.get_by_role("table", name={"en": "Season table", "de": "Saisontabelle"}[language])
    expect(table.get_by_role("link", name=longest, exact=True)).to_be_visible()
    assert table.evaluate(BROKEN_WORDS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = table.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= 390 or not in_sight


def test_the_not_found_page_is_a_page_of_the_site_in_the_visitors_language(browser: Browser, live_server: Any) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        locale="de",
        extra_http_headers={"Accept-Language": "de"},
    )
    page = context.new_page()
    response = page.goto(f"{live_server.url}/keine-solche-seite/")
    assert response is not None
    assert response.status == 404
    main = page.get_by_role("main")
    expect(main.get_by_role("heading", level=1)).to_have_text("Seite nicht gefunden")
    expect(main.get_by_role("link", name="Zurück zu den Partien")).to_be_visible()
    expect(page.get_by_role("navigation", name="Hauptnavigation")).to_be_visible()
    expect(page.get_by_role("contentinfo").get_by_role("link", name="Sprache und Karten")).to_be_visible()
    context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_ranking_list_on_a_phone_shows_every_column_without_scrolling(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str
) -> None:
    _season_with_a_night()
    owner = User.objects.get()
    night = Night.objects.get()
    clubs.night_close(night=night, user=owner, unfinished=True)
    ranking = ranking_save(
        owner=owner, form=RankingForm(name="Monatsrangliste", events=[str(night.season.public_id)], period="month")
    )
    page = signed_in(new_context(locale={"en": "en-GB", "de": "de-DE"}[language]), live_server.url, owner)
    page.goto(f"{live_server.url}/rankings/{ranking.public_id}/")
    table = page.get_by_role("table")
    expect(table.get_by_role("columnheader")).to_have_count(6)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The whole table in sight: it does not scroll in its box either.
    assert table.evaluate("(table) => table.parentElement.scrollWidth <= table.parentElement.clientWidth + 1")
