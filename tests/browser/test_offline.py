"""A cellar without signal: games saved offline wait on the phone, survive a reload, and are sent in order when the
connection returns; a deal another phone entered meanwhile is shown as a conflict, with the choice of what to keep."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .flow import (
    Entry,
    expect_totals,
    fill_game,
    save_game,
    sheet_rows,
    sign_up,
    start_match,
    track_requests,
    under_the_service_worker,
)

SKAT_ISKO = "Skat, ISkO"
SKAT = ("Anna", "Ben", "Cleo")
# Anna deals game 1. Ben ♣ with 1 won: 24; Cleo ♠ without 2 lost: −66; Anna ♥ with 1 won: 20.
GAMES = (
    Entry("♣ Clubs", "Ben", matadors=1, outcome="won"),
    Entry("♠ Spades", "Cleo", matadors=-2, outcome="lost"),
    Entry("♥ Hearts", "Anna", matadors=1, outcome="won"),
)


def _ready_offline(page: Page) -> None:
    """Wait until the service worker looks after the page and keeps a copy of it."""
    under_the_service_worker(page)
    track_requests(page)


def _one_phone(browser: Browser, live_server: Any, players: tuple[str, ...] = SKAT, preset: str = SKAT_ISKO) -> Page:
    """A phone of its own that signs up and starts a match."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    sign_up(page, live_server.url, "anna")
    start_match(page, preset, players)
    return page


def _two_phones(browser: Browser, live_server: Any) -> tuple[Page, Page]:
    """Two phones of one scorer on one new match: the first signs up and starts it, the second logs in alike."""
    first = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = first.new_page()
    sign_up(phone, live_server.url, "anna")
    start_match(phone, SKAT_ISKO, SKAT)
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    other.context.add_cookies(
        [{"name": c["name"], "value": c["value"], "url": live_server.url} for c in first.cookies()]
    )
    other.goto(phone.url)
    return phone, other


def _save_offline(page: Page, game: Entry) -> None:
    fill_game(page, game)
    page.get_by_role("button", name="Save game", exact=True).click()


# A phone in a cellar keeps its network but has no signal: when the server can be reached again, no `online` event
# comes. The page is kept from hearing the event (the first listener stops it), so only the way tested can send.
NO_ONLINE_EVENT = 'window.addEventListener("online", (event) => event.stopImmediatePropagation(), true);'
# A phone's screen going dark and lighting up again. Headless Chromium keeps its pages visible: the page is told.
SHOWN_AGAIN = """() => {
    for (const state of ["hidden", "visible"]) {
        Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
        Object.defineProperty(document, "hidden", {configurable: true, get: () => state === "hidden"});
        document.dispatchEvent(new Event("visibilitychange"));
    }
}"""
# The page's posts sent and still on their way (htmx and the outbox both send with fetch).
COUNT_POSTS = """{
    const fetch = window.fetch;
    const posts = window.__posts = {sent: 0, open: 0};
    window.fetch = (resource, options) => {
        if (!options || options.method !== "POST") return fetch(resource, options);
        posts.sent += 1;
        posts.open += 1;
        return fetch(resource, options).finally(() => { posts.open -= 1; });
    };
}"""


def _stop_the_clock(page: Page) -> None:
    """From now on no timer of the page fires (nor of a page loaded after it) unless the test moves the clock."""
    page.clock.install()
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1)


@pytest.mark.django_db(transaction=True)
def test_games_saved_offline_survive_a_reload_and_arrive_in_order(browser: Browser, live_server: Any) -> None:
    page = _one_phone(browser, live_server)
    context = page.context
    _ready_offline(page)

    context.set_offline(True)
    waiting = page.get_by_role("region", name="Not sent yet", exact=True).get_by_role("listitem")
    for count, game in enumerate(GAMES, start=1):
        _save_offline(page, game)
        expect(waiting).to_have_count(count)
    expect(waiting.first).to_contain_text("Game 1: ♣ Clubs · Ben · with 1 · won")
    page.reload()
    expect(waiting).to_have_count(3)
    assert sheet_rows(page).count() == 0
    # Meanwhile the CSRF cookie went (as when it expires): the first sending is refused and retried with a new one.
    context.clear_cookies(name="csrftoken")

    # Chromium tells the page it is online again, as a phone does.
    context.set_offline(False)
    expect(sheet_rows(page)).to_have_count(3)
    expect(sheet_rows(page).nth(0)).to_contain_text("Ben · ♣ Clubs")
    expect(sheet_rows(page).nth(1)).to_contain_text("Cleo · ♠ Spades")
    expect(sheet_rows(page).nth(2)).to_contain_text("Anna · ♥ Hearts")
    expect_totals(page, {"Anna": 20, "Ben": 24, "Cleo": -66})
    expect(page.get_by_role("region", name="Not sent yet", exact=True)).to_be_hidden()
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_deal_entered_on_two_phones_one_offline_is_a_conflict(browser: Browser, live_server: Any) -> None:
    phone, other = _two_phones(browser, live_server)
    first, second = phone.context, other.context
    _ready_offline(phone)

    first.set_offline(True)
    _save_offline(phone, GAMES[0])
    waiting = phone.get_by_role("region", name="Not sent yet", exact=True).get_by_role("listitem")
    expect(waiting).to_have_count(1)

    fill_game(other, GAMES[1])
    other.get_by_role("button", name="Save game", exact=True).click()
    expect(other.get_by_text("Game 1 saved:", exact=False)).to_be_visible()

    first.set_offline(False)
    conflict = phone.get_by_role("region", name="Not sent yet", exact=True)
    expect(conflict).to_contain_text("Another phone entered game 1 meanwhile")
    expect(conflict).to_contain_text("♣ Clubs · Ben · with 1 · won")
    expect(sheet_rows(phone)).to_have_count(1)
    expect(sheet_rows(phone).first).to_contain_text("Cleo · ♠ Spades")

    conflict.get_by_role("button", name="Add mine as the next game", exact=True).click()
    expect(sheet_rows(phone)).to_have_count(2)
    expect(sheet_rows(phone).nth(1)).to_contain_text("Ben · ♣ Clubs")
    expect(phone.get_by_role("region", name="Not sent yet", exact=True)).to_be_hidden()
    first.close()
    second.close()


@pytest.mark.django_db(transaction=True)
def test_every_scorers_phone_follows_the_other_phones(browser: Browser, live_server: Any) -> None:
    phone, other = _two_phones(browser, live_server)
    first, second = phone.context, other.context
    fill_game(other, GAMES[0])
    other.get_by_role("button", name="Save game", exact=True).click()
    expect(sheet_rows(phone)).to_have_count(1, timeout=12_000)
    expect_totals(phone, {"Anna": 0, "Ben": 24, "Cleo": 0})
    # The first phone's form was made for game 1, which the other phone entered: saving it is explained.
    fill_game(phone, GAMES[1])
    phone.get_by_role("button", name="Save game", exact=True).click()
    expect(phone.get_by_text("Game 1 was just entered from another phone", exact=False)).to_be_visible()
    first.close()
    second.close()


def _scripts(page: Page) -> list[str]:
    names: list[str] = page.evaluate("() => performance.getEntriesByType('resource').map((entry) => entry.name)")
    return names


@pytest.mark.django_db(transaction=True)
def test_games_left_waiting_are_sent_when_the_match_is_opened_again(browser: Browser, live_server: Any) -> None:
    page = _one_phone(browser, live_server)
    context = page.context
    # Nothing waits on a phone online: the outbox's script is not loaded.
    assert not [name for name in _scripts(page) if "outbox" in name]
    _ready_offline(page)
    address = page.url

    context.set_offline(True)
    _save_offline(page, GAMES[0])
    expect(page.get_by_role("region", name="Not sent yet", exact=True).get_by_role("listitem")).to_have_count(1)
    page.close()

    context.set_offline(False)
    again = context.new_page()
    again.goto(address)
    expect(sheet_rows(again)).to_have_count(1)
    expect(sheet_rows(again).first).to_contain_text("Ben · ♣ Clubs")
    expect(again.get_by_role("region", name="Not sent yet", exact=True)).to_be_hidden()
    # Once nothing waits, a later visit does without the outbox again.
    later = context.new_page()
    later.goto(address)
    expect(sheet_rows(later)).to_have_count(1)
    assert not [name for name in _scripts(later) if "outbox" in name]
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_game_saved_offline_says_so_at_the_top_and_the_form_moves_on_to_the_next_deal(
    browser: Browser, live_server: Any
) -> None:
    page = _one_phone(browser, live_server, ("Anna", "Ben", "Cleo", "Dora"))
    _ready_offline(page)
    # At four the dealer sits out: Anna deals game 1, Ben game 2, Cleo game 3; forehand is the seat after the dealer.
    save_game(page, GAMES[0])
    expect(page.get_by_text("Game 2: Ben deals, Cleo leads. Ben sits out.", exact=True)).to_be_in_viewport()
    expect(page.get_by_role("button", name="Undo game 1", exact=True)).to_be_in_viewport()

    page.context.set_offline(True)
    _save_offline(page, GAMES[1])
    waits = page.get_by_text("Game 2 waits on this phone and will be sent when the connection is back.", exact=True)
    expect(waits).to_be_in_viewport(ratio=1)
    expect(page.get_by_text("Game 3: Cleo deals, Dora leads. Cleo sits out.", exact=True)).to_be_in_viewport(ratio=1)
    expect(page.get_by_role("button", name="Undo game 1", exact=True)).to_have_count(0)
    # The form is the next game's: the contract kept from the last one, the rest cleared, Ben back and Cleo out.
    expect(page.get_by_role("radio", name="♠ Spades", exact=True)).to_be_checked()
    declarer = page.get_by_role("group", name="Declarer", exact=True)
    expect(declarer.get_by_role("radio", checked=True)).to_have_count(0)
    expect(declarer.get_by_role("radio")).to_have_count(3)
    for name in ("Anna", "Ben", "Dora"):
        expect(declarer.get_by_role("radio", name=name, exact=True)).to_have_count(1)

    _save_offline(page, Entry("♥ Hearts", "Ben", matadors=1, outcome="won"))
    expect(page.get_by_text("Game 4: Dora deals, Anna leads. Dora sits out.", exact=True)).to_be_in_viewport()
    page.context.set_offline(False)
    expect(sheet_rows(page)).to_have_count(3)
    expect(sheet_rows(page).nth(2)).to_contain_text("Ben · ♥ Hearts")
    expect(page.get_by_text("Game 4: Dora deals, Anna leads. Dora sits out.", exact=True)).to_be_visible()
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_games_waiting_after_a_reload_offline_are_sent_once_the_server_answers_again(
    browser: Browser, live_server: Any
) -> None:
    page = _one_phone(browser, live_server)
    context = page.context
    context.add_init_script(NO_ONLINE_EVENT)
    _ready_offline(page)
    context.set_offline(True)
    _save_offline(page, GAMES[0])
    waiting = page.get_by_role("region", name="Not sent yet", exact=True).get_by_role("listitem")
    expect(waiting).to_have_count(1)
    page.reload()
    expect(waiting).to_have_count(1)

    # The server can be reached again, and no event tells the page so: the game goes all the same, without a reload.
    context.set_offline(False)
    expect(sheet_rows(page)).to_have_count(1, timeout=10_000)
    expect(sheet_rows(page).first).to_contain_text("Ben · ♣ Clubs")
    expect(page.get_by_role("region", name="Not sent yet", exact=True)).to_be_hidden()
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_game_waiting_for_a_match_first_opened_offline_is_sent_when_the_connection_returns(
    browser: Browser, live_server: Any
) -> None:
    page = _one_phone(browser, live_server)
    context = page.context
    # No copy of the match's page is kept, as when it was opened before the service worker looked after the page.
    under_the_service_worker(page)
    page.evaluate("() => caches.delete('pages')")
    context.set_offline(True)
    _save_offline(page, GAMES[0])
    expect(page.get_by_role("region", name="Not sent yet", exact=True).get_by_role("listitem")).to_have_count(1)
    page.reload()
    expect(page.get_by_text("This page has not been opened on this phone before", exact=False)).to_be_visible()

    context.set_offline(False)
    expect(sheet_rows(page)).to_have_count(1)
    expect(sheet_rows(page).first).to_contain_text("Ben · ♣ Clubs")
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_game_waiting_is_sent_when_the_page_is_shown_again(browser: Browser, live_server: Any) -> None:
    page = _one_phone(browser, live_server)
    context = page.context
    context.add_init_script(NO_ONLINE_EVENT)
    context.add_init_script(COUNT_POSTS)
    _ready_offline(page)
    context.set_offline(True)
    _save_offline(page, GAMES[0])
    waiting = page.get_by_role("region", name="Not sent yet", exact=True).get_by_role("listitem")
    expect(waiting).to_have_count(1)
    # Opened again offline, the page tries to send the game once, at once; its retry timer never fires, as the
    # page's clock stands still.
    _stop_the_clock(page)
    page.reload()
    expect(waiting).to_have_count(1)
    page.wait_for_function("() => window.__posts.sent === 1 && window.__posts.open === 0")

    # The server can be reached again, and the phone is put away and taken out: the game goes.
    context.set_offline(False)
    page.evaluate(SHOWN_AGAIN)
    expect(sheet_rows(page)).to_have_count(1)
    expect(sheet_rows(page).first).to_contain_text("Ben · ♣ Clubs")
    expect(page.get_by_role("region", name="Not sent yet", exact=True)).to_be_hidden()
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_page_first_opened_offline_loads_itself_on_its_timer_once_the_server_answers(
    browser: Browser, live_server: Any
) -> None:
    page = _one_phone(browser, live_server)
    context = page.context
    context.add_init_script(NO_ONLINE_EVENT)
    under_the_service_worker(page)
    page.evaluate("() => caches.delete('pages')")
    context.set_offline(True)
    _save_offline(page, GAMES[0])
    expect(page.get_by_role("region", name="Not sent yet", exact=True).get_by_role("listitem")).to_have_count(1)
    _stop_the_clock(page)
    page.reload()
    expect(page.get_by_text("This page has not been opened on this phone before", exact=False)).to_be_visible()

    # The server can be reached again, and no event tells the page so: it loads itself when its first try is due.
    context.set_offline(False)
    page.clock.run_for(2000)
    expect(sheet_rows(page)).to_have_count(1)
    expect(sheet_rows(page).first).to_contain_text("Ben · ♣ Clubs")
    context.close()
