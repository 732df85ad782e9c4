"""Steps of a table's evening in the browser: sign up, start a match, enter games, read the status and the totals.

Everything goes through the accessibility tree (roles and names), the way a screen reader user would find it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import BrowserContext, Locator, Page, expect

from matches.engine.cards import Contract
from matches.engine.entry import DealEntry, GameEntry

PASSWORD = "a-long-enough-password-1"
CHIPS = 4  # matadors up to this many are a chip each; more are counted in "How many"
# Where an outcome can stand in for the card points, their field says it is optional.
CARD_POINTS = re.compile(r"^(Card points \(optional\)|Declarer's card points)$")
MINUS = "\N{MINUS SIGN}"


def score(value: int) -> str:
    """A total as the sheet writes it: 48, −96 (a real minus sign)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def sign_up(page: Page, base_url: str, username: str) -> None:
    """Sign up through the form; it logs in and lands on the list of presets."""
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign up", exact=True).click()
    expect(page).to_have_url(f"{base_url}/matches/new/")


def signed_in(context: BrowserContext, base: str, user: User) -> Page:
    """A page of ``context`` logged in as ``user`` (the session made on the server, its cookie given to the page)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def start_match(
    page: Page,
    preset: str,
    players: Sequence[str],
    *,
    first_dealer: int = 1,
    scheme: str | None = None,
    untick: Sequence[str] = (),
    title: str | None = None,
) -> str:
    """From the list of presets: pick one, seat the players, choose the first dealer (a seat number from 1), the
    scheme (by its label), untick rule checkboxes (by label) and give a title. Returns the match's public id."""
    page.get_by_role("link", name=preset, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(preset)
    if title is not None:
        page.get_by_role("textbox", name="Title (optional)", exact=True).fill(title)
    for seat, name in enumerate(players, start=1):
        page.get_by_role("combobox", name=f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("group", name="First dealer", exact=True).get_by_role(
        "radio", name=f"Seat {first_dealer}", exact=True
    ).check()
    if scheme is not None:
        page.get_by_role("combobox", name="Scoring", exact=True).select_option(label=scheme)
    if untick:
        page.get_by_text("Rules (the preset's values are set)", exact=True).click()
        for label in untick:
            box = page.get_by_role("checkbox", name=label, exact=True)
            expect(box).to_be_checked()
            box.uncheck()
    page.get_by_role("button", name="Start the match", exact=True).click()
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f-]{36}/$"))
    match = re.search(r"/matches/([0-9a-f-]{36})/$", page.url)
    assert match is not None
    return match.group(1)


def expect_status(page: Page, number: int, dealer: str, forehand: str, timeout: float | None = None) -> None:
    """The line above the form says who deals the next game and who leads it."""
    line = f"Game {number}: {dealer} deals, {forehand} leads."
    expect(page.get_by_text(line, exact=True)).to_be_visible(timeout=timeout)


def totals(page: Page) -> Locator:
    return page.get_by_role("list", name="Totals", exact=True).get_by_role("listitem")


def expect_totals(page: Page, expected: dict[str, int], timeout: float | None = None) -> None:
    """Every player's total, in seating order, with the sheet's minus sign."""
    texts = [f"{name} {score(total)}" for name, total in expected.items()]
    expect(totals(page)).to_have_text(texts, timeout=timeout)


def sheet_rows(page: Page) -> Locator:
    """The game rows of the score sheet (the header and the total row left out)."""
    sheet = page.get_by_role("region", name="Score sheet", exact=True)
    rows = sheet.get_by_role("row").filter(has=page.get_by_role("cell"))
    return rows.filter(has_not=page.get_by_role("rowheader", name="Total", exact=True))


@dataclass(frozen=True)
class Entry:
    """One game as a scorer types it. ``matadors`` is signed: 2 is "with 2", -2 "without 2"."""

    contract: str
    declarer: str | None = None
    matadors: int | None = None
    points: int | None = None
    outcome: str | None = None
    hand: bool = False
    kontra: bool = False
    re: bool = False
    announced: str | None = None
    bid: int | None = None
    won: bool | None = None
    ramsch: dict[str, int] = field(default_factory=dict)
    jungfrau: tuple[str, ...] = ()


# The contracts' labels on the entry form's buttons.
CONTRACT_LABELS = {
    Contract.CLUBS: "♣ Clubs",
    Contract.SPADES: "♠ Spades",
    Contract.HEARTS: "♥ Hearts",
    Contract.GRAND: "Grand",
}


@dataclass(frozen=True)
class TableGame:
    """A game a table's phone enters, as an event's tests write it: who declares it (the seat, from 0, in the
    table's order), the contract, the matadors and how it ended; as the form takes it and as the engine scores it."""

    seat: int
    contract: Contract
    matadors: int
    outcome: str

    def entry(self, seated: Sequence[str]) -> Entry:
        return Entry(CONTRACT_LABELS[self.contract], seated[self.seat], matadors=self.matadors, outcome=self.outcome)

    def deal(self) -> DealEntry:
        return DealEntry(GameEntry(self.contract.value, matadors=self.matadors, outcome=self.outcome), self.seat)


def fill_game(form: Page | Locator, game: Entry) -> None:
    """Fill the entry form (or the fix form) with one game; nothing is saved. ``form``: the page, or a part of it
    holding one game form (a form has no accessible name to find it by)."""
    form.get_by_role("group", name="Game", exact=True).get_by_role("radio", name=game.contract, exact=True).check()
    if game.declarer is not None:
        group = form.get_by_role("group", name="Declarer", exact=True)
        group.get_by_role("radio", name=game.declarer, exact=True).check()
    if game.matadors is not None:
        kind = "with" if game.matadors > 0 else "without"
        count = abs(game.matadors)
        chips = form.get_by_role("group", name="Matadors", exact=True)
        chips.get_by_role("radio", name=f"{kind} {count if count <= CHIPS else 'more'}", exact=True).check()
        if count > CHIPS:
            form.get_by_role("spinbutton", name="How many", exact=True).fill(str(count))
    if game.outcome is not None:
        group = form.get_by_role("group", name="Outcome", exact=True)
        group.get_by_role("radio", name=game.outcome, exact=True).check()
    if game.points is not None:
        form.get_by_role("spinbutton", name=CARD_POINTS).fill(str(game.points))
    for label, wanted in (("Hand", game.hand), ("Kontra", game.kontra), ("Re", game.re)):
        if wanted:
            form.get_by_role("checkbox", name=label, exact=True).check()
    if game.won is not None:
        result = "won" if game.won else "lost"
        form.get_by_role("group", name="Null result", exact=True).get_by_role("radio", name=result, exact=True).check()
    if game.announced is not None or game.bid is not None:
        _open_more_fields(form)
    if game.announced is not None:
        group = form.get_by_role("group", name="Announced", exact=True)
        group.get_by_role("radio", name=game.announced, exact=True).check()
    if game.bid is not None:
        form.get_by_role("spinbutton", name="Bid (optional)", exact=True).fill(str(game.bid))
    if game.ramsch:
        points = form.get_by_role("group", name="Ramsch: card points per player", exact=True)
        for name, value in game.ramsch.items():
            points.get_by_role("spinbutton", name=name, exact=True).fill(str(value))
        for name in game.jungfrau:
            group = form.get_by_role("group", name="Jungfrau (took no trick)", exact=True)
            group.get_by_role("checkbox", name=name, exact=True).check()


def _open_more_fields(form: Page | Locator) -> None:
    """Open "Announcements, bid" unless it is open already (a click on an open summary closes it)."""
    summary = form.get_by_text("Announcements, bid", exact=True)
    bid = form.get_by_role("spinbutton", name="Bid (optional)", exact=True)
    if not bid.is_visible():
        summary.click()
    expect(bid).to_be_visible()


# A phone user closes the keyboard and glances at the preview before tapping Save: the helpers do the same, so that
# the last change has reached the preview and each step is checked against a page at rest.
TRACKER = """() => {
    if (window.__requests) return;
    const requests = window.__requests = {open: 0, lastInput: 0};
    document.addEventListener("input", () => { requests.lastInput = performance.now(); }, true);
    document.addEventListener("htmx:before:request", () => { requests.open += 1; });
    document.addEventListener("htmx:finally:request", () => { requests.open -= 1; });
}"""
# The preview follows typing 400 ms late (hx-trigger "input … delay:400ms"); quiet means nothing open and none due.
QUIET = "() => window.__requests.open === 0 && performance.now() - window.__requests.lastInput > 500"


def open_share_tools(page: Page) -> None:
    """Scroll to the foot of the match page, as a user does: its rules, links, downloads and share buttons come, and
    the share buttons' script with them (until it has run, the picture downloads)."""
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    expect(page.get_by_role("link", name="History of changes", exact=True)).to_be_attached()
    page.wait_for_function("() => window.scorekeeperShare !== undefined")


def under_the_service_worker(page: Page) -> None:
    """Wait until the site's service worker is active, then load the page once more: from then on the worker looks
    after it (its static files come from the worker's cache when there is no connection) and keeps a copy of it. A
    page that was loading while the worker installed may stay outside it for good, however long one waits."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def track_requests(page: Page) -> None:
    """Count the page's htmx requests (idempotent; a new page load needs it again)."""
    page.evaluate(TRACKER)


def settle(page: Page) -> None:
    """Tap outside the fields, as a phone user does to close the keyboard (the last change goes to the preview), and
    wait until the preview has answered and none is due. Needs ``track_requests`` before the typing."""
    page.get_by_role("list", name="Totals", exact=True).click()
    page.wait_for_function(QUIET)


def save_game(page: Page, game: Entry) -> None:
    """Enter one game and save it (htmx swaps the list in place; callers wait for the next status line)."""
    track_requests(page)
    fill_game(page, game)
    settle(page)
    page.get_by_role("button", name="Save game", exact=True).click()
