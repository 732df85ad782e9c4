"""What leaves the app of an open tournament: the standings, each series' ranking, the prize list and the cashier's
list in every format the core writes and as PDF, the prize list as a picture to post, and for a drawn series its table
cards (with each table's QR code to score on a phone) and the wall list of who sits where; each read back and
compared with what the selectors say, and who may download which."""

from __future__ import annotations

import csv
import datetime
import io
import json
from typing import Any

import pytest
import segno
import tablib
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader

from matches.engine.league import Place
from matches.engine.tournaments import PrizeKind
from matches.labels import euros
from matches.models import FileJob
from matches.tasks import FILES_KEPT, forget_old_run
from matches.tournaments import downloads
from matches.tournaments import services as tournaments
from matches.tournaments.exports import cashier_sheet, prize_sheet, series_sheet, standings_sheet
from matches.tournaments.models import Series, Table, Tournament
from matches.tournaments.pictures import prize_picture
from matches.tournaments.prints import DrawnTable, qr_runs, sheet_pdf, wall_list_pdf
from matches.tournaments.selectors import TournamentResults, tournament_results

from .downloads import german_figure
from .factories import add, make_user, run_tasks
from .tournaments_setup import announce, enter_field, play_series, seated

pytestmark = pytest.mark.django_db

FORMATS = ("csv", "csv-semicolon", "xlsx", "ods", "json")
MINUS = "\N{MINUS SIGN}"
RANKING_HEADERS = ["Place", "Player", "Club", "Points", "Game points", "Won", "Lost", "Withdrew after series"]
PRIZE_HEADERS = ["Prize", "Place", "Winner", "Club", "Amount", "Withdrew after series"]
CASHIER_HEADERS = [
    "Player",
    "Entry",
    "Lists",
    "Lost",
    "Sides",
    "Due",
    "Paid",
    "Won",
    "Balance",
    "Withdrew after series",
]


def played(organiser: User, *, players: int = 14, close: int = 1, **changes: Any) -> Tournament:
    """A tournament of ``players`` entrants whose first ``close`` series are played (table 1 by phone, the others on
    paper) and closed; the next one drawn."""
    tournament = announce(organiser, **changes)
    enter_field(tournament, players, online=2)
    for number in range(1, close + 2):
        if number > tournament.series:
            break
        tournaments.series_draw(tournament=tournament, number=number, user=organiser)
        if number <= close:
            series = Series.objects.get(tournament=tournament, number=number)
            play_series(series, phones=(1,), salt=number)
            tournaments.series_close(series=series, user=organiser)
    return tournament


@pytest.fixture
def organiser() -> User:
    return make_user("olga")


def rows_of(content: bytes, fmt: str) -> list[list[Any]]:
    """The file's rows, the header first, as a program reads each format."""
    if fmt in ("csv", "csv-semicolon"):
        text = content.decode("utf-8")
        assert text.startswith("\ufeff")
        rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";" if fmt == "csv-semicolon" else ","))
        return [[german_figure(cell) for cell in row] for row in rows] if fmt == "csv-semicolon" else rows
    if fmt == "json":
        items = json.loads(content)
        return [list(items[0])] + [list(item.values()) for item in items]
    data = tablib.Dataset().load(content, format=fmt)
    return [list(data.headers), *[[whole(cell) for cell in row] for row in data]]


def whole(cell: Any) -> Any:
    # An ODS file keeps every number as a float: 5 reads back as 5.0.
    return int(cell) if isinstance(cell, float) and cell.is_integer() else cell


def as_text(rows: list[list[Any]]) -> list[list[str]]:
    """Every cell as a CSV file writes it, so that each format compares alike."""
    return [[str(whole(cell)) if cell is not None else "" for cell in row] for row in rows]


def body(answer: Any) -> bytes:
    assert answer.status_code == 200
    return b"".join(answer.streaming_content) if answer.streaming else bytes(answer.content)


def pdf_pages(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def printed(client: Client, name: str, *args: Any) -> list[str]:
    answer = client.get(reverse(name, args=args))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/pdf"
    return pdf_pages(answer.content)


def ranking_rows(results: TournamentResults, places: tuple[Place, ...]) -> list[list[str]]:
    rows = []
    for place in places:
        row = place.standing
        entry = results.entry(row.player)
        assert entry is not None
        figures = [row.score, row.game_points, row.won, row.lost]
        rows.append([str(place.place), row.player, entry.club, *(str(figure) for figure in figures), ""])
    return rows


def cents(amount: int) -> str:
    """An amount as a program reads the file: euros, to the cent where there are cents."""
    return str(whole(round(amount / 100, 2)))


# --- The downloads --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_standings_download_in_every_format_with_the_results_figures(
    client: Client, organiser: User, fmt: str
) -> None:
    tournament = played(organiser)
    results = tournament_results(tournament)
    answer = client.get(reverse("download-tournament-standings", args=[tournament.public_id, fmt]))
    rows = as_text(rows_of(body(answer), fmt))
    assert rows[0] == RANKING_HEADERS
    assert rows[1:] == ranking_rows(results, results.standings)
    assert len(rows) == 15


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_drawn_series_downloads_its_own_ranking(client: Client, organiser: User, fmt: str) -> None:
    tournament = played(organiser, close=2)
    results = tournament_results(tournament)
    for number in (1, 2):
        answer = client.get(reverse("download-tournament-series", args=[tournament.public_id, number, fmt]))
        rows = as_text(rows_of(body(answer), fmt))
        assert rows[1:] == ranking_rows(results, results.rankings.series[number - 1])
    assert results.rankings.series[0] != results.rankings.series[1]


def test_a_series_not_drawn_yet_has_nothing_to_download(client: Client, organiser: User) -> None:
    tournament = played(organiser)
    for name, args in (
        ("download-tournament-series", [tournament.public_id, 3, "csv"]),
        ("download-tournament-series", [tournament.public_id, 3, "pdf"]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 404
    client.force_login(organiser)
    for name in ("tournament_table_cards", "tournament_wall_list"):
        assert client.get(reverse(name, args=[tournament.public_id, 3])).status_code == 404


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_prize_list_downloads_every_prize_with_its_winner_and_money(
    client: Client, organiser: User, fmt: str
) -> None:
    tournament = played(organiser)
    results = tournament_results(tournament)
    rows = as_text(
        rows_of(body(client.get(reverse("download-tournament-prizes", args=[tournament.public_id, fmt]))), fmt)
    )
    assert rows[0] == PRIZE_HEADERS
    kinds = {PrizeKind.PLACE: "Overall", PrizeKind.BEST_SERIES: "Best series"}
    expected = []
    for prize in results.prizes:
        entry = results.entry(prize.winner)
        label = prize.category or kinds[prize.kind]
        club = entry.club if entry else ""
        expected.append([label, str(prize.place), prize.winner or "", club, cents(prize.amount), ""])
    assert rows[1:] == expected
    assert [row[0] for row in rows[1:]].count("Overall") == 8
    assert {"Damen", "Senioren", "Best series"} <= {row[0] for row in rows}


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_cashiers_list_downloads_every_players_fees_payments_and_prizes(
    client: Client, organiser: User, fmt: str
) -> None:
    tournament = played(organiser)
    cashier = tournament_results(tournament).cashier
    client.force_login(organiser)
    rows = as_text(
        rows_of(body(client.get(reverse("download-tournament-cashier", args=[tournament.public_id, fmt]))), fmt)
    )
    assert rows[0] == CASHIER_HEADERS
    expected = [
        [
            line.player,
            *(
                cents(amount)
                for amount in (
                    line.dues.entry,
                    line.dues.lists,
                    line.dues.lost_games,
                    line.dues.tandem + line.dues.team,
                    line.dues.total,
                    line.paid,
                    line.won,
                    line.balance,
                )
            ),
            "",
        ]
        for line in cashier.lines
    ]
    # A program sums the rows itself: the file holds no line of totals.
    assert rows[1:] == expected


def test_an_unknown_format_is_not_there(client: Client, organiser: User) -> None:
    tournament = played(organiser)
    assert client.get(reverse("download-tournament-standings", args=[tournament.public_id, "docx"])).status_code == 404


def test_an_entrant_who_withdrew_keeps_their_plain_name_in_the_files_with_the_series_in_a_column_of_its_own(
    client: Client, organiser: User
) -> None:
    """A file of the standings, of each series' ranking, of the prize list and of the cashier's list names a withdrawn
    entrant as the book names them and gives the series played before they withdrew as a number in a column of its
    own (empty for everybody still in), in every format and either language, so that a program reads the name and
    the withdrawal apart; the printed page marks the name beside it in the live page's words instead, and has no
    such column."""
    tournament = announce(organiser)
    enter_field(tournament, 12)
    tournaments.series_draw(tournament=tournament, number=1, user=organiser)
    first = Series.objects.get(tournament=tournament, number=1)
    play_series(first)
    tournaments.series_close(series=first, user=organiser)
    results = tournament_results(tournament)
    best = next(prize for prize in results.prizes if prize.kind is PrizeKind.PLACE and prize.place == 1)
    winner = results.entry(best.winner)
    assert winner is not None
    gone = tournaments.entry_withdraw(entry=winner)
    tournaments.series_draw(tournament=tournament, number=2, user=organiser)
    client.force_login(organiser)
    for fmt in FORMATS:
        for name, args, headers in (
            ("download-tournament-standings", [tournament.public_id, fmt], RANKING_HEADERS),
            ("download-tournament-series", [tournament.public_id, 1, fmt], RANKING_HEADERS),
            ("download-tournament-prizes", [tournament.public_id, fmt], PRIZE_HEADERS),
            ("download-tournament-cashier", [tournament.public_id, fmt], CASHIER_HEADERS),
        ):
            rows = as_text(rows_of(body(client.get(reverse(name, args=args))), fmt))
            assert rows[0] == headers
            # The player's column of a ranking and the cashier's list, the winner's of the prize list: the name, and
            # nothing else.
            names = headers.index("Winner" if headers is PRIZE_HEADERS else "Player")
            assert [row[-1] for row in rows[1:] if row[names] == gone.name] == ["1"]
            assert {row[-1] for row in rows[1:] if row[names] != gone.name} == {""}
            assert not any("withdrew" in cell for row in rows for cell in row)
    # A whole number for a program, null for everybody still in.
    standings = json.loads(
        body(client.get(reverse("download-tournament-standings", args=[tournament.public_id, "json"])))
    )
    assert [row["Withdrew after series"] for row in standings if row["Player"] == gone.name] == [1]
    assert {row["Withdrew after series"] for row in standings if row["Player"] != gone.name} == {None}
    marked = f"{gone.name} (withdrew after series 1)"
    for name in ("download-tournament-standings", "download-tournament-prizes", "download-tournament-cashier"):
        text = "\n".join(printed(client, name, tournament.public_id, "pdf"))
        assert marked in text
        assert "Withdrew after series" not in text
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    german = rows_of(
        body(client.get(reverse("download-tournament-standings", args=[tournament.public_id, "csv"]))), "csv"
    )
    assert german[0][-1] == "Zurückgetreten nach Serie"
    assert [row[-1] for row in german[1:] if row[1] == gone.name] == ["1"]
    text = "\n".join(printed(client, "download-tournament-standings", tournament.public_id, "pdf"))
    assert f"{gone.name} (nach Serie 1 zurückgetreten)" in text


def test_a_player_named_like_a_formula_stays_a_name_in_a_spreadsheet(client: Client, organiser: User) -> None:
    tournament = announce(organiser)
    tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("=Anna", club="+SC"))
    enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1, user=organiser)
    play_series(Series.objects.get(tournament=tournament, number=1))
    rows = rows_of(
        body(client.get(reverse("download-tournament-standings", args=[tournament.public_id, "csv"]))), "csv"
    )
    assert ["'=Anna", "'+SC"] in [row[1:3] for row in rows]


# --- The printed pages ----------------------------------------------------------------------------------------------


def test_the_printed_standings_and_series_show_every_players_place_and_points(client: Client, organiser: User) -> None:
    tournament = played(organiser)
    results = tournament_results(tournament)
    for name, args, places in (
        ("download-tournament-standings", [tournament.public_id, "pdf"], results.standings),
        ("download-tournament-series", [tournament.public_id, 1, "pdf"], results.rankings.series[0]),
    ):
        text = "\n".join(printed(client, name, *args))
        assert tournament.name in text
        assert f"{tournament.name} · 12/05/2026 · {tournament.venue} · as it stands" in text
        for place in places:
            assert place.standing.player in text
        leader = places[0].standing
        assert f"{leader.player} SC" in text
        assert str(leader.score) in text


def test_the_printed_standings_of_a_finished_tournament_are_not_said_to_stand_as_they_are(
    client: Client, organiser: User
) -> None:
    tournament = played(organiser, close=2, series=2)
    text = "\n".join(printed(client, "download-tournament-standings", tournament.public_id, "pdf"))
    assert "as it stands" not in text
    assert "Standings" in text


def test_the_printed_prize_list_names_each_winner_with_their_money(client: Client, organiser: User) -> None:
    tournament = played(organiser)
    results = tournament_results(tournament)
    text = "\n".join(printed(client, "download-tournament-prizes", tournament.public_id, "pdf"))
    assert "Prize list" in text
    for prize in results.prizes:
        # A category's prize is not awarded where its players all won a better prize.
        winner = prize.winner if prize.winner is not None else "not awarded"
        assert f"{winner} " in text
        assert euros(prize.amount) in text


def test_prizes_beyond_the_pot_leave_the_prize_list_empty_and_say_why(client: Client, organiser: User) -> None:
    tournament = played(organiser, places=tournaments.Schedule((50000,), kind="amounts", payout="as-announced"))
    text = "\n".join(printed(client, "download-tournament-prizes", tournament.public_id, "pdf"))
    assert "No results yet." in text
    assert "The prizes by place pay out 500.00 €" in text


def test_the_printed_cashiers_list_sums_every_column_and_says_what_the_organiser_keeps(
    client: Client, organiser: User
) -> None:
    tournament = played(organiser)
    cashier = tournament_results(tournament).cashier
    client.force_login(organiser)
    text = "\n".join(printed(client, "download-tournament-cashier", tournament.public_id, "pdf"))
    total_due = sum(line.dues.total for line in cashier.lines)
    total_paid = sum(line.paid for line in cashier.lines)
    assert f"Total {euros(cashier.lines[0].dues.entry * 14)}" in text
    assert f"{euros(total_due)} {euros(total_paid)} {euros(cashier.paid_out)}" in text
    assert f"Fees in all: {euros(cashier.pot.total)}" in text
    assert f"Kept by the organiser: {euros(cashier.organiser)}" in text


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            (
                "Fees in all: {total}",
                "The prize pot: {pot} (the share and the prizes come from it)",
                "Prize money: {prize_money}",
                "Paid out in prizes: {paid_out}",
                "Kept by the organiser: {organiser} (fees kept {kept}, share {share}, not paid out {left})",
            ),
        ),
        (
            "de",
            (
                "Gebühren insgesamt: {total}",
                "Der Preistopf: {pot} (Anteil und Preise kommen daraus)",
                "Preisgeld: {prize_money}",
                "Als Preise ausgezahlt: {paid_out}",
                "Beim Veranstalter: {organiser} (einbehaltene Gelder {kept}, Anteil {share}, nicht ausgezahlt {left})",
            ),
        ),
    ],
)
def test_the_printed_cashiers_list_gives_every_total_the_cashier_settles_up_from_whole(
    language: str, words: tuple[str, ...], organiser: User
) -> None:
    """The totals under the list are printed whole, however long the language says them: the organiser's share,
    the prize money not paid out and the prizes paid are there as much as the fees in all."""
    tournament = played(organiser, share_value=1000)
    results = tournament_results(tournament)
    cashier = results.cashier
    assert cashier.pot.share > 0
    with translation.override(language):
        text = "\n".join(pdf_pages(sheet_pdf(cashier_sheet(results), tournament)))
        amounts = {
            "total": euros(cashier.pot.total),
            "pot": euros(cashier.pot.main),
            "prize_money": euros(cashier.pot.prize_money),
            "paid_out": euros(cashier.paid_out),
            "organiser": euros(cashier.organiser),
            "kept": euros(cashier.pot.kept),
            "share": euros(cashier.pot.share),
            "left": euros(cashier.not_paid_out),
        }
    # A total too long for a line goes on over the next one.
    printed = " ".join(text.split())
    assert "…" not in text
    for line in words:
        assert line.format(**amounts) in printed


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_cashiers_column_titles_and_a_big_rooms_totals_are_printed_whole(language: str, organiser: User) -> None:
    tournament = played(organiser, players=8)
    results = tournament_results(tournament)
    big = results.cashier.lines[0]
    # A room of 300: every total in the thousands of euros.
    lines = tuple(big for _ in range(300))
    many = TournamentResults(
        tournament,
        results.entries,
        results.series,
        results.rankings,
        results.prizes,
        type(results.cashier)(lines, results.cashier.pot, results.cashier.paid_out),
    )
    with translation.override(language):
        few = pdf_pages(sheet_pdf(cashier_sheet(results), tournament))
        pages = pdf_pages(sheet_pdf(cashier_sheet(many), tournament))
        total = euros(big.dues.total * 300)
    # The titles at the size a small field is printed in, the totals at the size a big room's rows take.
    assert "…" not in few[0].splitlines()[2]
    assert total in pages[-1]


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_rankings_and_prize_lists_column_titles_are_printed_whole(language: str, organiser: User) -> None:
    tournament = played(organiser, players=8)
    results = tournament_results(tournament)
    with translation.override(language):
        for sheet in (standings_sheet(results), series_sheet(results, 1), prize_sheet(results)):
            assert "…" not in pdf_pages(sheet_pdf(sheet, tournament))[0].splitlines()[2]


# --- The share picture ----------------------------------------------------------------------------------------------


def test_the_prize_picture_shows_the_places_that_won_with_their_money(client: Client, organiser: User) -> None:
    tournament = played(organiser)
    results = tournament_results(tournament)
    picture = prize_picture(results)
    places = [prize for prize in results.prizes if prize.kind is PrizeKind.PLACE and prize.winner is not None]
    assert len(places) == 8
    assert [(row.place, row.name, row.points) for row in picture.rows] == [
        (prize.place, prize.winner, euros(prize.amount)) for prize in places
    ]
    assert picture.title == tournament.name
    assert picture.lines[1] == "Prize list as it stands"
    answer = client.get(reverse("tournament_prizes_picture", args=[tournament.public_id]))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/png"
    assert answer.content.startswith(b"\x89PNG")


def test_the_prize_picture_marks_a_winner_who_withdrew_in_the_live_pages_words_as_the_prize_list_does(
    organiser: User,
) -> None:
    tournament = announce(organiser)
    enter_field(tournament, 12)
    tournaments.series_draw(tournament=tournament, number=1, user=organiser)
    first = Series.objects.get(tournament=tournament, number=1)
    play_series(first)
    tournaments.series_close(series=first, user=organiser)
    results = tournament_results(tournament)
    best = next(prize for prize in results.prizes if prize.kind is PrizeKind.PLACE and prize.place == 1)
    winner = results.entry(best.winner)
    assert winner is not None
    gone = tournaments.entry_withdraw(entry=winner)
    picture = prize_picture(tournament_results(tournament))
    assert [(row.name, row.mark) for row in picture.rows if row.mark] == [(gone.name, "withdrew after series 1")]
    assert picture.rows[0].name == gone.name
    with translation.override("de"):
        german = prize_picture(tournament_results(tournament))
    assert [(row.name, row.mark) for row in german.rows if row.mark] == [(gone.name, "nach Serie 1 zurückgetreten")]


def test_the_prize_picture_of_a_finished_tournament_is_the_prize_list(organiser: User) -> None:
    tournament = played(organiser, close=2, series=2)
    assert prize_picture(tournament_results(tournament)).lines[1] == "Prize list"


# --- A table's printed list -----------------------------------------------------------------------------------------


def bold_totals(content: bytes, players: int) -> dict[int, list[int]]:
    """The seats whose running total each game's row of a printed list sets in bold, by the row's number."""
    lines: dict[float, list[tuple[float, str, bool]]] = {}

    def visit(text: str, cm: list[float], tm: list[float], font: Any, *_: Any) -> None:
        if text.strip():
            bold = "Bold" in str((font or {}).get("/BaseFont", ""))
            lines.setdefault(round(tm[5], 1), []).append((tm[4], text.strip(), bold))

    PdfReader(io.BytesIO(content)).pages[0].extract_text(visitor_text=visit)
    rows = {}
    for cells in lines.values():
        cells.sort()
        if cells[0][1].isdigit():
            rows[int(cells[0][1])] = [seat for seat, (_x, _text, bold) in enumerate(cells[-players:]) if bold]
    return rows


def test_a_tables_printed_list_marks_whom_the_page_names_for_a_ramsch_as_it_marks_a_declarer(
    client: Client, organiser: User
) -> None:
    """Nobody declares a Ramsch: the table's page names who lost it (the most card points) or whose Durchmarsch it
    was (named, or entered as every other player's Jungfrau), and its printed list sets that player's running total
    in bold, as it does a declarer's."""
    tournament = announce(organiser, rules={"ramsch": True})
    enter_field(tournament, 4)
    tournaments.series_draw(tournament=tournament, number=1, user=organiser)
    table = Table.objects.get(series__tournament=tournament, series__number=1)
    names = [entry.player.name for entry in seated(table)]
    match = table.match
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70)
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [30, 0, 72, 18]})  # seat 1 deals, sits out
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [0, 0, 0, 120], "durchmarsch": 3})
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [60, 60, 0, 0]})  # seat 3 sits out; a tie
    # Seat 0 sits out; a Durchmarsch entered as the two others' Jungfrau alone.
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [0, 120, 0, 0], "jungfrau": [2, 3]})
    client.force_login(organiser)
    page = client.get(reverse("match_detail", args=[match.public_id])).content.decode()
    assert f"card points 30/–/72/18 · {names[2]} lost" in page
    assert f"card points 0/0/–/120 · Durchmarsch: {names[3]}" in page
    assert f"card points 60/60/0/– · {names[0]}, {names[1]} lost" in page
    assert f"card points –/120/0/0 · Durchmarsch: {names[1]}" in page
    answer = client.get(reverse("match_print", args=[match.public_id]))
    assert answer.status_code == 200
    assert bold_totals(answer.content, 4) == {1: [1], 2: [2], 3: [3], 4: [0, 1], 5: [1]}


# --- The table cards and the wall list ------------------------------------------------------------------------------


def test_the_table_cards_give_each_table_its_series_number_players_and_code(client: Client, organiser: User) -> None:
    tournament = played(organiser, players=27)
    tables = list(Table.objects.filter(series__tournament=tournament, series__number=2).order_by("number"))
    client.force_login(organiser)
    pages = printed(client, "tournament_table_cards", tournament.public_id, 2)
    assert len(tables) == 7
    assert len(pages) == 2
    cards = [card for page in pages for card in page.split(tournament.name)[1:]]
    assert len(cards) == 7
    for table, card in zip(tables, cards, strict=True):
        names = [seat.entry.player.name for seat in table.seats.select_related("entry__player").order_by("position")]
        assert f"Series 2\nTable\n{table.number}\n" in card
        assert [f"{seat}. {name}" for seat, name in enumerate(names, start=1)] == card.strip().splitlines()[
            -len(names) :
        ]
        assert "Scan to score on a phone" in card


def test_a_table_on_paper_gets_a_card_without_a_code(client: Client, organiser: User) -> None:
    tournament = played(organiser, players=8)
    client.force_login(organiser)
    pages = printed(client, "tournament_table_cards", tournament.public_id, 1)
    assert "Table\n1\n" in pages[0]
    # Table 1 was scored by phone, table 2 on paper; the series is closed and its links are off.
    assert "Scan to score on a phone" not in pages[0]


def test_a_cards_code_is_the_tables_link_module_for_module() -> None:
    link = "https://skat.example/join/abcdefghijklmnopqrstuvwxyz012345/"
    size, runs = qr_runs(link)
    drawn = [[0] * size for _ in range(size)]
    for row, start, length in runs:
        for column in range(start, start + length):
            drawn[row][column] = 1
    assert drawn == [list(row) for row in segno.make(link, error="m").matrix]


def test_the_wall_list_puts_300_entrants_on_two_pages_alphabetically_with_their_tables() -> None:
    names = [f"Spieler {number:03d}" for number in range(300, 0, -1)]
    tables = [DrawnTable(number + 1, tuple(names[number * 4 : number * 4 + 4]), "") for number in range(75)]
    tournament = Tournament(name="Großer Preisskat", date=datetime.date(2026, 12, 5), venue="Stadthalle")
    pdf = wall_list_pdf(tournament, Series(number=1), tables)
    pages = pdf_pages(pdf)
    alphabetical = "\n".join(pages[:2])
    table_of = {name: table.number for table in tables for name in table.names}
    found = [line.rsplit(" ", 1) for line in alphabetical.splitlines() if line.startswith("Spieler ")]
    assert [name for name, _ in found] == sorted(names)
    assert all(table_of[name] == int(number) for name, number in found)
    assert "Series 1: who sits where" in pages[0]
    assert "By table" in pages[2]
    assert "75 1. Spieler 004 2. Spieler 003 3. Spieler 002 4. Spieler 001" in pages[-1]


def test_the_wall_list_orders_names_as_a_reader_looks_them_up() -> None:
    tables = [DrawnTable(1, ("Zoe", "Ärmel", "anton", "Bert"), "")]
    tournament = Tournament(name="Preisskat", date=datetime.date(2026, 12, 5))
    text = pdf_pages(wall_list_pdf(tournament, Series(number=1), tables))[0]
    listed = [line for line in text.splitlines() if line.endswith(" 1")]
    assert listed == ["anton 1", "Ärmel 1", "Bert 1", "Zoe 1"]


# --- What a download costs ----------------------------------------------------------------------------------------


def queries(client: Client, address: str) -> int:
    """The queries one more download of ``address`` costs, its whole body read (the first fills the caches)."""
    body(client.get(address))
    with CaptureQueriesContext(connection) as captured:
        body(client.get(address))
    return len(captured)


@pytest.mark.parametrize(
    "name",
    ["tournament_table_cards", "tournament_wall_list", "download-tournament-series", "download-tournament-cashier"],
)
def test_a_download_costs_as_many_queries_for_a_big_field_as_for_a_small_one(client: Client, name: str) -> None:
    counts = []
    for players in (8, 27):
        organiser = make_user(f"organiser-{players}")
        tournament = played(organiser, players=players)
        client.force_login(organiser)
        args: list[Any] = [tournament.public_id, 2]
        if name == "download-tournament-series":
            args.append("csv")
        elif name == "download-tournament-cashier":
            args = [tournament.public_id, "pdf"]
        counts.append(queries(client, reverse(name, args=args)))
    assert counts[0] == counts[1]


# --- Who may download what ------------------------------------------------------------------------------------------


def test_results_and_prizes_are_public_and_the_organisers_papers_are_not(client: Client, organiser: User) -> None:
    tournament = played(organiser)
    key = tournament.public_id
    public = [
        reverse("download-tournament-standings", args=[key, "csv"]),
        reverse("download-tournament-standings", args=[key, "pdf"]),
        reverse("download-tournament-series", args=[key, 1, "csv"]),
        reverse("download-tournament-series", args=[key, 1, "pdf"]),
        reverse("download-tournament-prizes", args=[key, "csv"]),
        reverse("download-tournament-prizes", args=[key, "pdf"]),
        reverse("tournament_prizes_picture", args=[key]),
    ]
    managed = [
        reverse("download-tournament-cashier", args=[key, "csv"]),
        reverse("download-tournament-cashier", args=[key, "pdf"]),
        reverse("tournament_table_cards", args=[key, 2]),
        reverse("tournament_wall_list", args=[key, 2]),
        reverse("tournament_backup", args=[key]),
    ]
    for address in public:
        assert client.get(address).status_code == 200, address
    for address in managed:
        assert client.get(address).status_code in (302, 403, 404), address
    client.force_login(make_user("mal"))
    for address in managed:
        assert client.get(address).status_code in (403, 404), address
    client.force_login(organiser)
    for address in managed:
        assert client.get(address).status_code == 200, address


def test_a_tandems_prize_in_the_file_names_no_club_even_where_an_entrant_has_the_tandems_name() -> None:
    tournament = announce(tandem_fee=500, tandem_prizes=tournaments.Schedule((1000,)))
    entries = enter_field(tournament, 8)
    tournaments.side_enter(tournament=tournament, kind="tandem", name=entries[0].name, entries=entries[1:3])
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    sheet = prize_sheet(tournament_results(tournament))
    tandem = next(line for line in sheet.lines if line.texts[0] == "Tandem")
    assert tandem.cells[2] == entries[0].name  # the tandem, named as the entrant is
    assert entries[0].club
    assert tandem.cells[3] == ""


# --- A large room's prints, made in the background --------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", ["tournament_table_cards", "tournament_wall_list"])
def test_a_large_rooms_prints_are_made_by_the_worker_with_a_page_that_says_how_far(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(downloads, "BACKGROUND_TABLES", 2)
    organiser = make_user("organiser")
    tournament = played(organiser, players=14)
    client = Client()
    client.force_login(organiser)
    asked = client.get(reverse(name, args=[tournament.public_id, 2]))
    assert asked.status_code == 302
    job = FileJob.objects.get()
    assert asked["Location"] == reverse("file_job", args=[job.public_id])
    waiting = client.get(asked["Location"]).content.decode()
    assert "it is made in the background. Waiting to start." in waiting
    assert 'hx-trigger="every 1000ms"' in waiting
    run_tasks()
    ready = client.get(asked["Location"]).content.decode()
    assert "The file is ready." in ready
    assert "hx-trigger" not in ready
    download = client.get(reverse("file_job_download", args=[job.public_id]))
    assert download["Content-Type"] == "application/pdf"
    job.refresh_from_db()
    assert job.done == job.total == Table.objects.filter(series__tournament=tournament, series__number=2).count()
    # The same file, under the same name, as the page makes at once for a smaller room.
    monkeypatch.setattr(downloads, "BACKGROUND_TABLES", 100)
    at_once = client.get(reverse(name, args=[tournament.public_id, 2]))
    assert pdf_pages(download.content) == pdf_pages(at_once.content)
    assert download["Content-Disposition"] == at_once["Content-Disposition"]
    # Nobody else sees it or downloads it.
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(asked["Location"]).status_code == 404
    assert stranger.get(reverse("file_job_download", args=[job.public_id])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_print_whose_tournament_is_gone_says_it_could_not_be_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(downloads, "BACKGROUND_TABLES", 1)
    organiser = make_user("organiser")
    tournament = played(organiser, players=14)
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("tournament_table_cards", args=[tournament.public_id, 2]))["Location"]
    Series.objects.filter(tournament=tournament, number=2).update(number=9)
    run_tasks()
    assert FileJob.objects.get().state == FileJob.State.FAILED
    assert "The file could not be made" in client.get(page).content.decode()
    assert client.get(reverse("file_job_download", args=[FileJob.objects.get().public_id])).status_code == 404


def test_a_file_made_is_kept_a_day() -> None:
    owner = make_user("organiser")
    kept, old = (
        FileJob.objects.create(user=owner, kind="tournament-cards", title="Karten", language="de") for _ in range(2)
    )
    FileJob.objects.filter(pk=old.pk).update(created_at=timezone.now() - FILES_KEPT - datetime.timedelta(minutes=1))
    forget_old_run.call()
    assert list(FileJob.objects.values_list("pk", flat=True)) == [kept.pk]
