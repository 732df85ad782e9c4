"""Entering a game on a phone is faster than writing it down: the taps of each kind of deal are counted at three
screen sizes (390×520 is a 390×844 phone with its keyboard open), the live result and Save stay in sight, and after
a save the form is ready at the top with a notice naming the game.

A tap is a touch on a chip, a button or a field; the number typed into a field counts as one more.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from .flow import CARD_POINTS, QUIET, sign_up, start_match, track_requests

SKAT_PUB = "Skat, pub rules (Kontra/Re, Ramsch, Bock)"
SKAT_ISKO = "Skat, ISkO"
SKAT = ("Anna", "Ben", "Cleo")
VIEWPORTS = [(390, 844), (360, 740), (390, 520)]
# Below this height the whole form cannot be on one screen with the keyboard open; the bar still is.
ONE_SCREEN = 700


class Taps:
    """Counts the taps of one entry and checks, on a phone tall enough, that each lands without scrolling."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0
        viewport = page.viewport_size
        assert viewport is not None
        self.height = viewport["height"]

    def _in_sight(self, target: Locator) -> None:
        # What a tap aims at may come a moment after the tap before it (the value's picks as the keys are typed).
        expect(target).to_be_visible()
        _above_the_bar(target, slack=1)

    def tap(self, target: Locator) -> None:
        if self.height >= ONE_SCREEN and target.get_attribute("type") != "submit":
            self._in_sight(target)
        target.click()
        self.count += 1

    def type(self, field: Locator, number: int) -> None:
        self.tap(field)
        self.page.keyboard.type(str(number))
        self.count += 1


def _bar_in_sight(page: Page) -> None:
    """The live result and Save are inside the viewport, whatever was scrolled."""
    viewport = page.viewport_size
    assert viewport is not None
    for part in (page.locator("#preview"), page.get_by_role("button", name="Save game", exact=True)):
        box = part.bounding_box()
        assert box is not None
        assert box["y"] >= 0
        assert box["y"] + box["height"] <= viewport["height"]


def _saved(page: Page, taps: Taps, text: str) -> None:
    """Save, then: the notice names the game, and the form is ready at the top of the screen."""
    page.wait_for_function("() => window.__requests.open === 0")
    _bar_in_sight(page)
    taps.tap(page.get_by_role("button", name="Save game", exact=True))
    notice = page.get_by_text(text, exact=True)
    expect(notice).to_be_visible()
    expect(notice).to_be_in_viewport()
    expect(page.get_by_role("group", name="Game", exact=True)).to_be_in_viewport()
    expect(page.get_by_role("group", name="Game", exact=True).get_by_role("radio", checked=True)).to_have_count(1)


def _phone(browser: Browser, width: int, height: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=2, is_mobile=True)
    return context.new_page()


def _chip(page: Page, group: str, name: str) -> Locator:
    return page.get_by_role("group", name=group, exact=True).get_by_role("radio", name=name, exact=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_a_suit_game_takes_five_taps_a_null_four_and_a_ramsch_six(
    browser: Browser, live_server: Any, width: int, height: int
) -> None:
    page = _phone(browser, width, height)
    sign_up(page, live_server.url, f"anna{width}x{height}")
    start_match(page, SKAT_PUB, SKAT, untick=["Bock rounds"])
    track_requests(page)

    # "Clubs, Ben declares, with 2, won": 12 × 3 = 36.
    taps = Taps(page)
    taps.tap(_chip(page, "Game", "♣ Clubs"))
    taps.tap(_chip(page, "Declarer", "Ben"))
    taps.tap(_chip(page, "Matadors", "with 2"))
    taps.tap(_chip(page, "Outcome", "won"))
    expect(page.locator("#preview")).to_contain_text("Ben +36")
    _saved(page, taps, "Game 1 saved: Ben +36")
    assert taps.count <= 5

    # A null game of Cleo's, won: 23.
    taps = Taps(page)
    taps.tap(_chip(page, "Game", "Null"))
    taps.tap(_chip(page, "Declarer", "Cleo"))
    taps.tap(_chip(page, "Null result", "won"))
    expect(page.locator("#preview")).to_contain_text("Cleo +23")
    _saved(page, taps, "Game 2 saved: Cleo +23")
    assert taps.count <= 4

    # All passed, so a Ramsch: Anna 30 and Ben 72 typed, Cleo's 18 filled in; Ben has the most and loses 72.
    taps = Taps(page)
    taps.tap(_chip(page, "Game", "Ramsch"))
    points = page.get_by_role("group", name="Ramsch: card points per player", exact=True)
    taps.type(points.get_by_role("spinbutton", name="Anna", exact=True), 30)
    taps.type(points.get_by_role("spinbutton", name="Ben", exact=True), 72)
    expect(points.get_by_role("spinbutton", name="Cleo", exact=True)).to_have_value("18")
    expect(page.locator("#preview")).to_contain_text(f"Ben {chr(0x2212)}72")
    _saved(page, taps, f"Game 3 saved: Ben {chr(0x2212)}72")
    assert taps.count <= 6
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_opponents_card_points_show_as_the_declarers_are_typed(phone: Page, live_server: Any) -> None:
    """The script reckons them from the deal's card points, as the form says them."""
    sign_up(phone, live_server.url, "dora")
    start_match(phone, SKAT_ISKO, SKAT)
    _chip(phone, "Game", "♣ Clubs").click()
    phone.get_by_role("spinbutton", name=CARD_POINTS).fill("70")
    expect(phone.get_by_text("Opponents: 50", exact=True)).to_be_visible()
    phone.get_by_role("spinbutton", name=CARD_POINTS).fill("121")
    expect(phone.get_by_text("Opponents: –", exact=True)).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_a_passed_deal_takes_one_tap(phone: Page, live_server: Any) -> None:
    sign_up(phone, live_server.url, "ben")
    start_match(phone, SKAT_ISKO, SKAT)
    track_requests(phone)
    taps = Taps(phone)
    taps.tap(phone.get_by_role("button", name="All passed", exact=True))
    expect(phone.get_by_text("Game 1 saved: all passed.", exact=True)).to_be_in_viewport()
    assert taps.count == 1


@pytest.mark.django_db(transaction=True)
def test_a_save_asks_for_no_second_preview(phone: Page, live_server: Any) -> None:
    sign_up(phone, live_server.url, "cleo")
    start_match(phone, SKAT_ISKO, SKAT)
    track_requests(phone)
    for name, chip in (("Game", "♠ Spades"), ("Declarer", "Anna"), ("Matadors", "without 1"), ("Outcome", "lost")):
        _chip(phone, name, chip).click()
    expect(phone.locator("#preview")).to_contain_text(f"Anna {chr(0x2212)}44")
    phone.wait_for_function("() => window.__requests.open === 0")
    posts: list[str] = []
    phone.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    phone.get_by_role("button", name="Save game", exact=True).click()
    expect(phone.get_by_text(f"Game 1 saved: Anna {chr(0x2212)}44", exact=True)).to_be_visible()
    phone.wait_for_timeout(600)
    assert [url.rsplit("/", 2)[-2] for url in posts] == ["games"]


def _saved_by_value(page: Page, taps: Taps, text: str) -> None:
    """Save a game entered by its value: the notice names it, and the value entry is ready again at the top."""
    page.wait_for_function("() => window.__requests.open === 0")
    _bar_in_sight(page)
    taps.tap(page.get_by_role("button", name="Save game", exact=True))
    expect(page.get_by_text(text, exact=True)).to_be_in_viewport()
    expect(page.get_by_role("link", name="Enter in full", exact=True)).to_be_attached()
    expect(page.get_by_role("spinbutton", name="Game value", exact=True)).to_have_value("")
    expect(page.get_by_role("group", name="Declarer", exact=True)).to_be_in_viewport()


@pytest.mark.django_db(transaction=True)
def test_a_game_by_value_takes_three_taps_and_its_keys_and_the_full_entry_stays_one_tap_away(
    browser: Browser, live_server: Any
) -> None:
    page = _phone(browser, 390, 844)
    sign_up(page, live_server.url, "value")
    start_match(page, SKAT_PUB, SKAT, untick=["Bock rounds"])
    track_requests(page)
    page.get_by_role("link", name="Enter by value", exact=True).click()
    value = page.get_by_role("spinbutton", name="Game value", exact=True)
    expect(value).to_be_visible()
    # The value entry takes the full entry's place and the page scrolls to its top.
    expect(page.get_by_role("group", name="Declarer", exact=True)).to_be_in_viewport(ratio=1)

    # "Ben, 48, won": the declarer's chip puts the thumb on the value, the keys type it, one chip says won.
    taps = Taps(page)
    taps.tap(_chip(page, "Declarer", "Ben"))
    expect(value).to_be_focused()
    page.keyboard.type("48")
    expect(page.get_by_role("button", name="48 ♣ ×4 · Grand ×2", exact=True)).to_be_visible()
    taps.tap(_chip(page, "Won or lost", "won"))
    expect(page.locator("#preview")).to_contain_text("Ben +48")
    _saved_by_value(page, taps, "Game 1 saved: Ben +48")
    assert taps.count <= 3

    # The next game starts by value. A value is picked from the legal ones near what is typed: "2" offers 20 to 24.
    taps = Taps(page)
    taps.tap(_chip(page, "Declarer", "Cleo"))
    page.keyboard.type("2")
    taps.tap(page.get_by_role("button", name="24 ♣ ×2", exact=True))
    expect(value).to_have_value("24")
    taps.tap(_chip(page, "Won or lost", "lost"))
    expect(page.locator("#preview")).to_contain_text(f"Cleo {chr(0x2212)}48")
    _saved_by_value(page, taps, f"Game 2 saved: Cleo {chr(0x2212)}48")
    assert taps.count <= 4

    # A value no game has is refused next to the field, naming the nearest values.
    page.get_by_role("group", name="Declarer", exact=True).get_by_role("radio", name="Anna", exact=True).click()
    page.keyboard.type("25")
    _chip(page, "Won or lost", "won").click()
    page.wait_for_function(QUIET)
    page.get_by_role("button", name="Save game", exact=True).click()
    expect(page.get_by_text("No game is worth 25; the nearest values are 24 and 27.", exact=True).first).to_be_visible()

    # The full entry is one tap away, and a suit game there still takes five taps.
    page.reload()
    track_requests(page)
    page.get_by_role("link", name="Enter in full", exact=True).click()
    expect(value).to_have_count(0)
    expect(page.get_by_role("group", name="Game", exact=True)).to_be_in_viewport(ratio=1)
    taps = Taps(page)
    taps.tap(_chip(page, "Game", "♣ Clubs"))
    taps.tap(_chip(page, "Declarer", "Anna"))
    taps.tap(_chip(page, "Matadors", "with 2"))
    taps.tap(_chip(page, "Outcome", "won"))
    expect(page.locator("#preview")).to_contain_text("Anna +36")
    _saved(page, taps, "Game 3 saved: Anna +36")
    assert taps.count <= 5
    page.context.close()


def _above_the_bar(target: Locator, slack: float = 0) -> None:
    """``target`` is on the screen and wholly above the save bar's top edge (``slack`` pixels of rounding allowed).

    Both edges are read in one step in the page, so a list drawn again in between cannot lose the target."""
    top, bottom, bar = target.evaluate(
        "e => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom,"
        " document.querySelector('.save-bar').getBoundingClientRect().top]"
    )
    assert top >= 0
    assert bottom <= bar + slack, f"{target} reaches to {bottom}, under the save bar at {bar}"


def _toggles(page: Page) -> list[Locator]:
    return [page.get_by_role("checkbox", name=name, exact=True) for name in ("Hand", "Kontra", "Re")]


@pytest.mark.django_db(transaction=True)
def test_after_a_save_the_hand_kontra_re_row_is_above_the_save_bar(phone: Page, live_server: Any) -> None:
    sign_up(phone, live_server.url, "dora")
    start_match(phone, SKAT_PUB, SKAT)
    track_requests(phone)
    # Ben ♣ with 1, won: 24; then Cleo's grand hand, won: a Bock round starts, and the line above the form says so.
    for number, (contract, declarer) in enumerate((("♣ Clubs", "Ben"), ("Grand", "Cleo")), start=1):
        _chip(phone, "Game", contract).click()
        _chip(phone, "Declarer", declarer).click()
        _chip(phone, "Matadors", "with 1").click()
        _chip(phone, "Outcome", "won").click()
        if contract == "Grand":
            phone.get_by_role("checkbox", name="Hand", exact=True).check()
        phone.wait_for_function("() => window.__requests.open === 0")
        phone.get_by_role("button", name="Save game", exact=True).click()
        expect(phone.get_by_text(f"Game {number} saved:", exact=False)).to_be_in_viewport()
        for toggle in _toggles(phone):
            _above_the_bar(toggle)
    expect(phone.get_by_text("Bock ×2 on this game.", exact=True)).to_be_in_viewport()


@pytest.mark.django_db(transaction=True)
def test_with_the_keyboard_up_the_field_typed_in_stays_above_the_save_bar(phone: Page, live_server: Any) -> None:
    sign_up(phone, live_server.url, "emil")
    start_match(phone, SKAT_PUB, SKAT)
    track_requests(phone)
    _chip(phone, "Game", "♣ Clubs").click()
    _chip(phone, "Declarer", "Ben").click()
    _chip(phone, "Matadors", "with 1").click()
    points = phone.get_by_role("spinbutton", name="Card points (optional)", exact=True)
    points.click()
    # The keyboard comes up: the 390 × 844 phone keeps 390 × 500 of its screen for the page.
    phone.set_viewport_size({"width": 390, "height": 500})
    expect(points).to_be_focused()
    _above_the_bar(points)
    phone.keyboard.type("70")
    # On to the toggles with the keyboard's "next": each stays above the bar as it gets the focus.
    for name in ("Hand", "Ouvert", "Kontra", "Re"):
        toggle = phone.get_by_role("checkbox", name=name, exact=True)
        phone.keyboard.press("Tab")
        expect(toggle).to_be_focused()
        _above_the_bar(toggle)


@pytest.mark.django_db(transaction=True)
def test_after_a_save_with_the_keyboard_up_the_field_and_the_hand_kontra_re_row_are_above_the_save_bar(
    phone: Page, live_server: Any
) -> None:
    sign_up(phone, live_server.url, "gerd")
    start_match(phone, SKAT_PUB, SKAT)
    track_requests(phone)
    _chip(phone, "Game", "♣ Clubs").click()
    _chip(phone, "Declarer", "Ben").click()
    _chip(phone, "Matadors", "with 1").click()
    _chip(phone, "Outcome", "won").click()
    phone.wait_for_function("() => window.__requests.open === 0")
    phone.get_by_role("button", name="Save game", exact=True).click()
    expect(phone.get_by_text("Game 1 saved:", exact=False)).to_be_in_viewport()
    # The next game: Cleo's, typed by its card points; the keyboard comes up and keeps 390 × 500 for the page.
    _chip(phone, "Declarer", "Cleo").click()
    _chip(phone, "Matadors", "with 1").click()
    points = phone.get_by_role("spinbutton", name="Card points (optional)", exact=True)
    points.click()
    phone.set_viewport_size({"width": 390, "height": 500})
    expect(points).to_be_focused()
    phone.keyboard.type("70")
    expect(phone.get_by_text("Game 1 saved:", exact=False)).to_be_attached()
    _above_the_bar(points)
    for toggle in _toggles(phone):
        _above_the_bar(toggle)


@pytest.mark.django_db(transaction=True)
def test_the_live_result_answers_the_last_choice_when_an_earlier_answer_is_slow(phone: Page, live_server: Any) -> None:
    sign_up(phone, live_server.url, "fritz")
    start_match(phone, SKAT_ISKO, SKAT)
    track_requests(phone)
    _chip(phone, "Game", "♣ Clubs").click()
    _chip(phone, "Declarer", "Ben").click()
    _chip(phone, "Matadors", "with 1").click()
    phone.wait_for_function(QUIET)
    # A bad connection holds the answer to "won" back; meanwhile the scorer taps "lost", then "won" again.
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    phone.route("**/preview/", hold_the_first)
    _chip(phone, "Outcome", "won").click()
    phone.wait_for_function("() => window.__requests.open > 0")
    _chip(phone, "Outcome", "lost").click()
    _chip(phone, "Outcome", "won").click()
    with contextlib.suppress(PlaywrightError):
        held[0].continue_()
    phone.wait_for_function(QUIET)
    expect(phone.locator("#preview")).to_contain_text("Ben +24")


@pytest.mark.django_db(transaction=True)
def test_after_a_save_the_notice_keeps_the_page_within_the_phones_width(phone: Page, live_server: Any) -> None:
    sign_up(phone, live_server.url, "gerd")
    start_match(phone, SKAT_PUB, SKAT)
    track_requests(phone)
    # A game with a long description: the Undo line cuts it short rather than widen the page.
    _chip(phone, "Game", "Grand").click()
    _chip(phone, "Declarer", "Cleo").click()
    _chip(phone, "Matadors", "with 1").click()
    _chip(phone, "Outcome", "won Schneider").click()
    for toggle in ("Hand", "Kontra", "Re"):
        phone.get_by_role("checkbox", name=toggle, exact=True).check()
    phone.wait_for_function(QUIET)
    phone.get_by_role("button", name="Save game", exact=True).click()
    expect(phone.get_by_role("button", name="Undo game 1", exact=True)).to_be_visible()
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390


@pytest.mark.django_db(transaction=True)
def test_the_tools_loaded_below_after_a_switch_to_the_entry_by_value_leave_the_form_on_the_screen(
    phone: Page, live_server: Any
) -> None:
    sign_up(phone, live_server.url, "tools")
    # The tools below the list load when they are scrolled to; here their answer comes late, after the switch.
    # The route is in place before the match page opens, so the request is held whenever it leaves.
    held: list[Route] = []
    phone.route("**/share/", lambda route: held.append(route))
    start_match(phone, SKAT_PUB, SKAT, untick=["Bock rounds"])
    phone.get_by_role("contentinfo").scroll_into_view_if_needed()
    for _ in range(100):
        if held:
            break
        phone.wait_for_timeout(100)
    assert len(held) == 1
    phone.get_by_role("link", name="Enter by value", exact=True).click()
    declarer = phone.get_by_role("group", name="Declarer", exact=True)
    expect(declarer).to_be_in_viewport(ratio=1)
    held[0].continue_()
    expect(phone.get_by_text("Rules:", exact=False).first).to_be_attached()
    expect(declarer).to_be_in_viewport(ratio=1)


def _uncovered(page: Page, target: Locator) -> None:
    """``target`` comes on the screen with nothing standing over it (the totals kept in sight at the top, the save
    bar): what the point at its middle shows is its own. Asked afresh each time, since the form may be drawn again
    meanwhile (the page's own follow-up)."""
    expect(target).to_be_in_viewport()
    for _ in range(50):
        if target.evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }"
        ):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{target} stays covered")


@pytest.mark.django_db(transaction=True)
def test_a_save_refused_for_a_missing_declarer_shows_why_below_the_totals_kept_in_sight(
    phone: Page, live_server: Any
) -> None:
    sign_up(phone, live_server.url, "erna")
    start_match(phone, SKAT_PUB, SKAT, untick=["Bock rounds"])
    track_requests(phone)
    _chip(phone, "Game", "♠ Spades").click()
    _chip(phone, "Matadors", "with 2").click()
    _chip(phone, "Outcome", "won").click()
    phone.wait_for_function("() => window.__requests.open === 0")
    phone.get_by_role("button", name="Save game", exact=True).click()
    # The refusal is in, and the page has put the focus on the field that needs attention.
    phone.wait_for_function("() => document.activeElement && document.activeElement.name === 'declarer'")
    _uncovered(phone, phone.get_by_text("Choose the declarer.", exact=True))
    _uncovered(phone, _chip(phone, "Declarer", "Ben"))
    # The thumb picks the declarer and saves again.
    _chip(phone, "Declarer", "Ben").click()
    phone.wait_for_function("() => window.__requests.open === 0")
    phone.get_by_role("button", name="Save game", exact=True).click()
    expect(phone.get_by_text("Game 1 saved:", exact=False)).to_be_in_viewport()
