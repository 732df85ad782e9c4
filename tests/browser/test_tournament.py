"""An open tournament of 27 players in the browser: three enter online on their phones and show their codes at the
door, where the organiser takes their fees and enters the other 24 in seconds each; three series are played, the
first drawn, the second drawn again without a pairing of the first, the third seated by the standings; at each
series the first and the last table score on phones from their QR links and the others are entered from their paper
lists; a player withdraws after the first series. The results, the prize list and the cashier's list follow.

The tournament is announced through the services; everything the people in the room do goes through the pages, each
in a browser of their own, at a phone's size. The numbers expected are worked out by the engine from the games and
paper lines the test enters; the prizes are checked against the standings the pages show and against the pot."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Page, expect

from matches.engine.cards import Contract
from matches.engine.league import PaperLine, lines_from_paper
from matches.engine.match import score_match, setup_match
from matches.tournaments.models import Tournament

from ..factories import make_user
from ..tournaments_setup import announce
from .flow import TableGame, expect_totals, save_game, score, sheet_rows, signed_in

# Three games a series at every table, so that a phone's list is complete after a few taps (48 and 36 at a real
# tournament).
GAMES = 3
SERIES = 3
ONLINE = (("Anna Online", "SC Nord", "Damen"), ("Bernd Online", "SC Süd", ""), ("Carl Online", "", "Senioren"))
DOOR = tuple(
    (f"Spieler {number:02d}", f"SC {number % 4}", "Damen" if number % 7 == 0 else "") for number in range(1, 25)
)
WITHDRAWS = "Spieler 05"
PHONE_GAMES = {
    4: (
        TableGame(1, Contract.CLUBS, 1, "won"),
        TableGame(2, Contract.HEARTS, 2, "lost"),
        TableGame(3, Contract.SPADES, 1, "won"),
    ),
    3: (
        TableGame(0, Contract.SPADES, 1, "won"),
        TableGame(1, Contract.CLUBS, 2, "won"),
        TableGame(2, Contract.HEARTS, 1, "lost"),
    ),
}
# A paper list's footer in seat order: game points, won, lost (three games a table at most).
PAPER_LISTS = (
    ((24, 1, 0), (0, 0, 0), (-40, 0, 1), (72, 1, 0)),
    ((0, 0, 0), (96, 1, 0), (0, 0, 0), (-48, 0, 1)),
    ((36, 1, 0), (-72, 0, 1), (48, 1, 0), (0, 0, 0)),
)


@dataclass
class Room:
    """The tournament as the test follows it: each series' tables (the players by seat, as the desk lists them)
    and each player's total of each series, as the engine works it out from what the test entered."""

    tournament: Tournament
    base: str
    tables: dict[int, list[list[str]]] = field(default_factory=dict)
    totals: dict[int, dict[str, int]] = field(default_factory=dict)

    def url(self, name: str) -> str:
        return f"{self.base}/tournaments/{self.tournament.public_id}/{name}"

    def total(self, player: str) -> int:
        return sum(series.get(player, 0) for series in self.totals.values())


# --- At the door ------------------------------------------------------------------------------------------------------


def _enter_online(room: Room, new_context: Callable[..., BrowserContext], name: str, club: str, category: str) -> str:
    """A player enters on their phone from the tournament's page and gets the code to show at the door."""
    page = new_context().new_page()
    page.goto(room.url(""))
    page.get_by_role("link", name="Enter online", exact=True).click()
    page.get_by_label("Your name", exact=True).fill(name)
    page.get_by_label("Club", exact=True).fill(club)
    if category:
        page.get_by_label("Category", exact=True).select_option(label=category)
    page.get_by_role("button", name="Enter", exact=True).click()
    confirmation = page.get_by_role("region", name="Confirmation code", exact=True)
    expect(confirmation.get_by_text(name, exact=True)).to_be_visible()
    expect(confirmation.get_by_text("To pay: 15.00 €", exact=True)).to_be_visible()
    code = confirmation.get_by_role("paragraph").first.inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{6}", code), code
    return code


def _take_payment(desk: Page, code: str, name: str, category: str) -> None:
    """The organiser types the code the player shows; the desk reads back who paid what."""
    part = desk.get_by_role("region", name="Entered online: take the payment", exact=True)
    part.get_by_label("Confirmation code", exact=True).fill(code)
    part.get_by_role("button", name="Take the payment", exact=True).click()
    who = f"{name} ({category})" if category else name
    expect(desk.get_by_text(f"{who} paid 15.00 €.", exact=True)).to_be_visible()


def _enter_at_door(desk: Page, name: str, club: str, category: str) -> None:
    """An entry at the door, its fee taken at once and its confirmation code said; the name field is ready for the
    next player."""
    door = desk.get_by_role("region", name="Entry at the door", exact=True)
    door.get_by_label("Name", exact=True).fill(name)
    if club:
        door.get_by_label("Club", exact=True).fill(club)
    if category:
        door.get_by_label("Category", exact=True).select_option(label=category)
    door.get_by_role("button", name="Enter", exact=True).click()
    entered = re.compile(rf"^{re.escape(name)} is entered, with the confirmation code [A-Z2-9]{{6}}\.$")
    expect(desk.get_by_text(entered)).to_be_visible()
    expect(door.get_by_label("Name", exact=True)).to_be_focused()


# --- A series ---------------------------------------------------------------------------------------------------------


def _draw(desk: Page, room: Room, series: int, seating: str | None = None) -> None:
    """The organiser draws the series (seated as told) and the desk lists its tables, each with its players."""
    part = desk.get_by_role("region", name=f"Draw series {series}", exact=True)
    if seating is not None:
        part.get_by_role("radio", name=seating, exact=True).check()
    part.get_by_role("button", name=f"Draw series {series}", exact=True).click()
    expect(desk.get_by_text(f"Series {series} is drawn.", exact=True)).to_be_visible()
    tables = (
        desk.get_by_role("region", name=f"Series {series}", exact=True)
        .get_by_role("listitem")
        .filter(has=desk.get_by_role("heading", name=re.compile(r"^Table \d+")))
    )
    room.tables[series] = [
        table.get_by_role("list").first.get_by_role("listitem").all_inner_texts() for table in tables.all()
    ]
    room.totals[series] = {}


def _table(desk: Page, series: int, number: int) -> Locator:
    heading = desk.get_by_role("heading", name=re.compile(rf"^Table {number}( |$)"))
    return desk.get_by_role("region", name=f"Series {series}", exact=True).get_by_role("listitem").filter(has=heading)


def _score_by_phone(
    desk: Page, room: Room, series: int, number: int, new_context: Callable[..., BrowserContext]
) -> None:
    """A phone opens the table's list from the link its QR code carries, without an account, and enters every game;
    the totals it shows then are the engine's."""
    table = _table(desk, series, number)
    expect(table.get_by_role("img", name=f"QR code to score table {number}", exact=True)).to_be_visible()
    link = table.get_by_label("Scoring link (no account needed)", exact=True).input_value()
    phone = new_context().new_page()
    phone.goto(link)
    phone.get_by_role("button", name="Score on this phone", exact=True).click()
    expect(phone.get_by_role("heading", level=1)).to_contain_text(f"Table {number}, series {series}")
    seated = room.tables[series][number - 1]
    games = PHONE_GAMES[len(seated)]
    for entered, game in enumerate(games, 1):
        save_game(phone, game.entry(seated))
        expect(sheet_rows(phone)).to_have_count(entered)
    rules = room.tournament.rules
    setup = setup_match("skat", scheme="seeger-fabian", rules=rules, players=len(seated), planned_games=GAMES)
    totals = dict(zip(seated, score_match(setup, [game.deal() for game in games]).totals, strict=True))
    expect_totals(phone, totals)
    room.totals[series] |= totals
    phone.context.close()


def _enter_paper_list(desk: Page, room: Room, series: int, number: int) -> None:
    """The organiser enters the footer of a table's paper list from the desk."""
    seated = room.tables[series][number - 1]
    lines = PAPER_LISTS[(series + number) % len(PAPER_LISTS)][: len(seated)]
    _table(desk, series, number).get_by_role("link", name="Enter a paper list", exact=True).click()
    for name, (points, won, lost) in zip(seated, lines, strict=True):
        group = desk.get_by_role("group", name=name, exact=True)
        group.get_by_role("spinbutton", name=f"Game points of {name}", exact=True).fill(str(points))
        group.get_by_role("spinbutton", name="won", exact=True).fill(str(won))
        group.get_by_role("spinbutton", name="lost", exact=True).fill(str(lost))
    desk.get_by_role("button", name="Enter the list", exact=True).click()
    expect(desk.get_by_text(f"The list of table {number} is entered.", exact=True)).to_be_visible()
    paper = lines_from_paper([PaperLine(name, *line) for name, line in zip(seated, lines, strict=True)])
    room.totals[series] |= {line.player: line.total for line in paper}


def _play_series(desk: Page, room: Room, series: int, new_context: Callable[..., BrowserContext]) -> None:
    """The first and the last table score on phones, the others from paper; the organiser closes the series."""
    count = len(room.tables[series])
    for number in range(1, count + 1):
        if number in (1, count):
            _score_by_phone(desk, room, series, number, new_context)
        else:
            _enter_paper_list(desk, room, series, number)
    desk.reload()
    desk.get_by_role("button", name=f"Close series {series}", exact=True).click()
    expect(desk.get_by_text(f"Series {series} is closed: its lists are locked.", exact=True)).to_be_visible()


def _pairs(tables: Sequence[Sequence[str]]) -> set[frozenset[str]]:
    return {frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)}


# --- What the results say ---------------------------------------------------------------------------------------------


def _name(cell: str) -> str:
    """The player's name of a cell that names them, without their club or the mark of a withdrawal after it."""
    return re.sub(r"\s+SC .*$|\s+withdrew after series \d+$", "", cell).strip()


def _ranking(page: Page, caption: str) -> list[tuple[str, str]]:
    """A ranking's rows as (player, points), in order."""
    table = page.get_by_role("table", name=caption, exact=True)
    rows = table.get_by_role("row").filter(has=page.get_by_role("cell"))
    found = []
    for row in rows.all():
        cells = row.get_by_role("cell").all_inner_texts()
        found.append((_name(cells[1]), cells[2]))
    return found


def _expect_ranking(page: Page, caption: str, totals: dict[str, int]) -> list[str]:
    """The ranking lists every player with the engine's total, best first; returns the players in its order."""
    rows = _ranking(page, caption)
    names = [name for name, _ in rows]
    assert sorted(names) == sorted(totals), caption
    assert rows == [(name, score(totals[name])) for name in names], caption
    assert [totals[name] for name in names] == sorted(totals.values(), reverse=True), caption
    return names


def _euros(text: str) -> int:
    """Cents from an amount the pages write (``1,234.50 €``, ``−3.00``)."""
    return round(float(text.replace("€", "").replace(",", "").replace("\N{MINUS SIGN}", "-").strip()) * 100)


def _expect_results(page: Page, room: Room) -> list[str]:
    page.goto(room.url("results/"))
    for series in range(1, SERIES + 1):
        if room.totals.get(series):
            # A closed series is folded away under its name.
            caption = f"Series {series}"
            if not page.get_by_role("table", name=caption, exact=True).is_visible():
                page.get_by_text(caption, exact=True).first.click()
            _expect_ranking(page, caption, room.totals[series])
    players = {name for series in room.totals.values() for name in series}
    return _expect_ranking(page, "Total", {name: room.total(name) for name in players})


def test_an_open_tournament_of_27_players_is_entered_played_over_three_series_and_paid_out(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    base = live_server.url
    organiser = make_user("organiser")
    room = Room(announce(organiser, games_at_four=GAMES, games_at_three=GAMES, seats=40), base)
    desk = signed_in(new_context(), base, organiser)

    # Three enter online ahead; at the door each shows the code, and the organiser takes the fee by it.
    codes = [_enter_online(room, new_context, *entrant) for entrant in ONLINE]
    desk.goto(room.url("desk/"))
    for code, (name, _, category) in zip(codes, ONLINE, strict=True):
        _take_payment(desk, code, name, category)
    for entrant in DOOR:
        _enter_at_door(desk, *entrant)
    expect(desk.get_by_role("link", name="27 entries", exact=True)).to_be_visible()

    # Series 1, drawn from the tournament's seed: six tables of four and one of three.
    _draw(desk, room, 1)
    assert [len(table) for table in room.tables[1]] == [4, 4, 4, 4, 4, 4, 3]
    _play_series(desk, room, 1, new_context)
    _expect_results(desk, room)

    # A player withdraws between the series; series 2 is drawn again, with no two players of a table of series 1
    # at one table, for the 26 still in: five tables of four and two of three.
    desk.goto(room.url("desk/"))
    entry = desk.get_by_role("region", name="Entries", exact=True).get_by_role("listitem").filter(has_text=WITHDRAWS)
    entry.get_by_text("Withdraw", exact=True).click()
    entry.get_by_role("button", name=f"{WITHDRAWS} withdraws", exact=True).click()
    expect(
        desk.get_by_text(f"{WITHDRAWS} has withdrawn: the series still to be drawn go without them.")
    ).to_be_visible()
    _draw(desk, room, 2)
    assert [len(table) for table in room.tables[2]] == [4, 4, 4, 4, 4, 3, 3]
    assert WITHDRAWS not in {name for table in room.tables[2] for name in table}
    assert not _pairs(room.tables[1]) & _pairs(room.tables[2])
    _play_series(desk, room, 2, new_context)
    standings = _expect_results(desk, room)

    # Series 3, seated by the standings: the leaders at table 1.
    desk.goto(room.url("desk/"))
    _draw(desk, room, 3, seating="by the standings (the leaders at table 1)")
    still_in = [name for name in standings if name != WITHDRAWS]
    assert sorted(room.tables[3][0]) == sorted(still_in[:4])
    _play_series(desk, room, 3, new_context)
    standings = _expect_results(desk, room)

    # The prize list pays the places from the top of the standings, and no player twice; the cashier's list
    # balances: what was paid in is the pot, which goes to the prizes and the organiser.
    desk.goto(room.url("prizes/"))
    prizes = (
        desk.get_by_role("table", name="Prizes", exact=True).get_by_role("row").filter(has=desk.get_by_role("cell"))
    )
    paid_out = 0
    winners: list[str] = []
    for row in prizes.all():
        _, amount, winner = row.get_by_role("cell").all_inner_texts()
        # A prize nobody is placed for (a category's winner took a better prize) stays in the pot.
        if winner != "—":
            paid_out += _euros(amount)
            winners.append(_name(winner))
    assert len(winners) == len(set(winners))
    assert set(winners) <= set(standings)
    assert standings[0] in winners
    desk.goto(room.url("cashier/"))
    facts = dict(
        zip(
            desk.get_by_role("term").all_inner_texts(),
            (_euros(text.split("(")[0]) for text in desk.get_by_role("definition").all_inner_texts()),
            strict=True,
        )
    )
    assert facts["Paid out in prizes"] == paid_out
    assert facts["Paid in"] + facts["Still owed"] == facts["Fees in all"]
    assert facts["Paid out in prizes"] + facts["Kept by the organiser"] == facts["Fees in all"]
    rows = desk.get_by_role("table", name="Per player, in euros", exact=True).get_by_role("row")
    lines = [row.get_by_role("cell").all_inner_texts() for row in rows.filter(has=desk.get_by_role("cell")).all()]
    assert len(lines) == 27
    for name, due, paid, owed, won, _ in lines:
        assert _euros(due) - _euros(paid) == _euros(owed), name
        assert (_euros(won) > 0) == (_name(name) in winners), name
    assert sum(_euros(line[4]) for line in lines) == paid_out
