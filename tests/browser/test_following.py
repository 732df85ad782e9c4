"""Pages that follow by themselves: the night's page takes a table's save into its results without a reload, and a
scorer's page asks as often as ``matches.following`` says (often in use, seldom left alone, never hidden), with
nothing but what the server reads."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from matches.clubs import services as clubs
from matches.following import asks_within

from .flow import Entry, save_game, sign_up, start_match

# Counts the page's asks as entry.js makes them (each a "follow" event on a polling element), whatever htmx then
# does with an ask that meets one still on its way.
COUNT_ASKS = """() => {
    window.asks = 0;
    document.addEventListener("follow", () => { window.asks += 1; }, true);
}"""
HIDE = """(hidden) => {
    if (hidden) {
        Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
    } else {
        delete document.hidden;
    }
    document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.mark.django_db(transaction=True)
def test_the_nights_page_shows_a_tables_save_by_itself(phone: Page, browser: Browser, live_server: Any) -> None:
    base = live_server.url
    secretary = phone
    sign_up(secretary, base, "sven")
    owner = User.objects.get(username="sven")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Ida", "Jan", "Kai"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    secretary.goto(f"{base}/nights/{night.public_id}/")
    results = secretary.get_by_role("region", name="Results", exact=True)
    expect(results.get_by_text("No results yet.", exact=True).first).to_be_visible()
    link = secretary.get_by_label("Scoring link (no account needed)").input_value()

    # The table's phone, of its own (closed at the end, so that it asks nothing while later tests run).
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    try:
        table = context.new_page()
        table.goto(link)
        table.get_by_role("button", name="Score on this phone", exact=True).click()
        declarer = table.get_by_role("list", name="Totals", exact=True).get_by_role("listitem").first.inner_text()
        name = declarer.split()[0]
        # ♣ with 1, 70 card points: 24 game points and 50 for the game won.
        save_game(table, Entry("♣ Clubs", name, matadors=1, points=70))
        expect(table.get_by_text("Game 1 saved", exact=False)).to_be_visible()
    finally:
        context.close()

    night_table = results.get_by_role("table").first
    expect(night_table.get_by_role("row").filter(has_text=name)).to_contain_text("74", timeout=12_000)
    expect(results.get_by_text("No results yet.", exact=True)).to_have_count(0)


@pytest.mark.django_db(transaction=True)
def test_a_scorers_page_asks_often_in_use_seldom_left_alone_and_never_hidden(phone: Page, live_server: Any) -> None:
    phone.clock.install()
    sign_up(phone, live_server.url, "anna")
    start_match(phone, "Skat, ISkO", ("Anna", "Ben", "Cleo"))
    phone.clock.pause_at(phone.evaluate("Date.now()") + 1000)
    phone.reload()
    phone.evaluate(COUNT_ASKS)

    def asks_after(seconds: int) -> int:
        phone.clock.run_for(seconds * 1000)
        asks: int = phone.evaluate("window.asks")
        return asks

    # Left alone: every 5 s for a minute, then every 10, 20 and 30 s, as the bench counts them.
    assert asks_after(300) == len(asks_within(300)) == 26
    assert asks_after(25) == 26  # the next one comes at 330 s
    # Picked up: it asks at once, then every 5 s again.
    phone.get_by_role("list", name="Totals", exact=True).dispatch_event("pointerdown")
    assert asks_after(0) == 27
    assert asks_after(5) == 28
    # Hidden, it asks nothing however long; shown again, it asks at once.
    phone.evaluate(HIDE, True)
    assert asks_after(600) == 28
    with phone.expect_request(lambda request: "/follow/" in request.url) as asked:
        phone.evaluate(HIDE, False)
        assert asks_after(0) == 29
    # Only what the server reads: no other htmx header, no Referer, no CSRF token (a poll changes nothing).
    headers = asked.value.all_headers()
    assert headers["hx-request"] == "true"
    assert not {"referer", "hx-current-url", "hx-source", "hx-target", "hx-request-type", "x-csrftoken"} & set(headers)
