"""A tournament's prints, on the core's PDF pages: the results (in total and per series), the prize list and the
cashier's list in the rows their downloads give; the table cards of a drawn series (one card a table, six to an A4
page with cut lines: the series and the table large, the players by seat, and the QR code of the table's link to
score on a phone, drawn here from the link, never fetched); and the wall list of who sits where (every entrant
alphabetically with their table, three columns to a page, then the tables with their players).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from matches.exports.pdf import FONT, MARGIN, PAGE_WIDTH, Document
from matches.exports.sheets import Sheet
from matches.exports.sheets import sheet_pdf as printed_sheet
from matches.qr import qr_code
from matches.registry import Progress

from .models import Series, TableSeat, Tournament


def _subtitle(tournament: Tournament, *more: str) -> str:
    parts = [tournament.name, date_format(tournament.date, "SHORT_DATE_FORMAT"), tournament.venue, *more]
    return " · ".join(part for part in parts if part)


def sheet_pdf(sheet: Sheet, tournament: Tournament) -> bytes:
    """The standings, a series' ranking, the prize list or the cashier's list on its page, in the columns and rows
    its downloads give; while the tournament is played, its head says the page is as it stands."""
    state = pgettext("tournament file", "as it stands") if sheet.provisional else ""
    return printed_sheet(sheet, sheet.title, _subtitle(tournament, state))


# --- The tables of a drawn series ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawnTable:
    """A table of a drawn series: its number, its players' names by seat, and the link its phone scores through
    (empty where it keeps its list on paper or its series is closed)."""

    number: int
    names: tuple[str, ...]
    link: str


def drawn_tables(series: Series, link_of: Callable[[str], str]) -> list[DrawnTable]:
    """Each table of the series in order, with its players' names (as the tournament's book knows them) by seat and
    its link made by ``link_of`` from its match's join token, in one read."""
    seats = (
        TableSeat.objects.filter(series=series)
        .select_related("table__match", "entry__player")
        .order_by("table__number", "position")
    )
    names: dict[int, list[str]] = {}
    links: dict[int, str] = {}
    for seat in seats:
        table = seat.table
        names.setdefault(table.number, []).append(seat.entry.player.name)
        token = table.match.invite_token
        links[table.number] = link_of(token) if token and not table.paper else ""
    return [DrawnTable(number, tuple(seated), links[number]) for number, seated in names.items()]


CARD_WIDTH = 105  # mm: half an A4 page across
CARD_HEIGHT = 99  # mm: a third of it down
CARDS_ACROSS = 2
CARDS_DOWN = 3
CARD_PADDING = 8
QR_SIZE = 38  # mm: read by a phone held above the table
QUIET_ZONE = 2  # modules of white around the code, as the club night's page draws it
CUT_DASH = 2  # mm


def table_cards_pdf(
    tournament: Tournament, series: Series, tables: Sequence[DrawnTable], progress: Progress | None = None
) -> bytes:
    """A card for every table of the series, six to a page, with dashed lines to cut along; ``progress`` is told
    each table done."""
    doc = Document(_("Table cards"))
    per_page = CARDS_ACROSS * CARDS_DOWN
    for index, table in enumerate(tables):
        if index % per_page == 0:
            doc.add_page()
            _cut_lines(doc)
        slot = index % per_page
        _card(doc, tournament, series, table, (slot % CARDS_ACROSS) * CARD_WIDTH, (slot // CARDS_ACROSS) * CARD_HEIGHT)
        if progress is not None:
            progress(index + 1, len(tables))
    if not tables:
        doc.add_page()
    return doc.output()


def _cut_lines(doc: Document) -> None:
    pdf = doc.pdf
    with pdf.local_context():
        pdf.set_draw_color(150)
        pdf.set_dash_pattern(dash=CUT_DASH, gap=CUT_DASH)
        for column in range(1, CARDS_ACROSS):
            pdf.line(column * CARD_WIDTH, 0, column * CARD_WIDTH, pdf.h)
        for row in range(1, CARDS_DOWN):
            pdf.line(0, row * CARD_HEIGHT, pdf.w, row * CARD_HEIGHT)


def _card(doc: Document, tournament: Tournament, series: Series, table: DrawnTable, left: float, top: float) -> None:
    x, y = left + CARD_PADDING, top + CARD_PADDING
    inner = CARD_WIDTH - 2 * CARD_PADDING
    beside = inner - QR_SIZE - 3
    doc.pdf.set_xy(x, y)
    doc.cell(beside, tournament.name, height=4.5, size=8, align="L", border=0)
    doc.pdf.set_xy(x, y + 4.5)
    doc.cell(beside, date_format(tournament.date, "SHORT_DATE_FORMAT"), height=4.5, size=8, align="L", border=0)
    doc.pdf.set_xy(x, y + 11)
    doc.cell(
        beside, _("Series %(number)s") % {"number": series.number}, height=7, size=14, bold=True, align="L", border=0
    )
    doc.pdf.set_xy(x, y + 19)
    doc.cell(beside, _("Table"), height=6, size=12, align="L", border=0)
    doc.pdf.set_xy(x, y + 25)
    doc.cell(beside, str(table.number), height=16, size=44, bold=True, align="L", border=0)
    if table.link:
        _qr(doc, table.link, x + inner - QR_SIZE, y)
        doc.pdf.set_xy(x + inner - QR_SIZE, y + QR_SIZE)
        # Wrapped under the code, so that a longer language is not cut.
        doc.pdf.set_font(FONT, "", 6.5)
        doc.pdf.multi_cell(QR_SIZE, 3, _("Scan to score on a phone"), align="C", max_line_height=3)
    top_of_names = y + 46
    for seat, name in enumerate(table.names, start=1):
        doc.pdf.set_xy(x, top_of_names + (seat - 1) * 7)
        doc.cell(inner, f"{seat}. {name}", height=7, size=11, align="L", border=0)


def qr_runs(link: str) -> tuple[int, list[tuple[int, int, int]]]:
    """The QR code of ``link`` (the same the club night's page shows) as its size in modules and its dark runs, each
    a row, the column it starts at and its length: drawn as one rectangle a run, a code stays a few hundred
    shapes."""
    matrix = qr_code(link).matrix
    runs = []
    for row_index, row in enumerate(matrix):
        start: int | None = None
        for column, dark in enumerate([*row, 0]):
            if dark and start is None:
                start = column
            elif not dark and start is not None:
                runs.append((row_index, start, column - start))
                start = None
    return len(matrix), runs


def _qr(doc: Document, link: str, left: float, top: float) -> None:
    size, runs = qr_runs(link)
    module = QR_SIZE / (size + 2 * QUIET_ZONE)
    pdf = doc.pdf
    with pdf.local_context():
        pdf.set_fill_color(0)
        for row, start, length in runs:
            x, y = left + (start + QUIET_ZONE) * module, top + (row + QUIET_ZONE) * module
            pdf.rect(x, y, length * module, module, style="F")


# --- The wall list ---------------------------------------------------------------------------------------------------

WALL_COLUMNS = 3
WALL_ROW = 5.0  # mm: 51 rows a column, 153 entrants a page, 300 on two pages, read from a step away
WALL_SIZE = 9.5  # pt
WALL_TABLE = 14  # mm: the table's number beside a name
TABLE_ROW = 6.0
TABLE_NUMBER = 16


def alphabetical(name: str) -> tuple[str, str]:
    """How the wall list orders a name: as a reader looks it up, Ä beside A and case ignored."""
    plain = "".join(char for char in unicodedata.normalize("NFKD", name) if not unicodedata.combining(char))
    return plain.casefold(), name


def wall_list_pdf(
    tournament: Tournament, series: Series, tables: Sequence[DrawnTable], progress: Progress | None = None
) -> bytes:
    """Every entrant of the series alphabetically with their table, in columns down then across, and then the
    tables in order with their players by seat; ``progress`` is told each table listed."""
    title = pgettext("wall list", "Series %(number)s: who sits where") % {"number": series.number}
    doc = Document(title)
    seated = sorted(
        ((name, table.number) for table in tables for name in table.names), key=lambda one: alphabetical(one[0])
    )
    _wall_page(doc, title, tournament)
    width = PAGE_WIDTH / WALL_COLUMNS
    rows = int((doc.pdf.h - MARGIN - doc.pdf.get_y() - WALL_ROW) // WALL_ROW)
    top = doc.pdf.get_y()
    for index, (name, number) in enumerate(seated):
        if index and index % (rows * WALL_COLUMNS) == 0:
            _wall_page(doc, title, tournament)
        slot = index % (rows * WALL_COLUMNS)
        column, row = divmod(slot, rows)
        if row == 0:
            doc.pdf.set_xy(MARGIN + column * width, top)
            doc.cell(
                width - WALL_TABLE - 2, _("Player"), height=WALL_ROW, size=WALL_SIZE, bold=True, align="L", shade=True
            )
            doc.cell(WALL_TABLE, _("Table"), height=WALL_ROW, size=WALL_SIZE, bold=True, shade=True)
        doc.pdf.set_xy(MARGIN + column * width, top + (row + 1) * WALL_ROW)
        doc.cell(width - WALL_TABLE - 2, name, height=WALL_ROW, size=WALL_SIZE, align="L")
        doc.cell(WALL_TABLE, str(number), height=WALL_ROW, size=WALL_SIZE + 1, bold=True)
    _by_table(doc, title, tournament, tables, progress)
    return doc.output()


def _wall_page(doc: Document, title: str, tournament: Tournament) -> None:
    doc.add_page()
    doc.cell(PAGE_WIDTH, title, height=8, bold=True, size=14, align="L", border=0)
    doc.newline(8)
    doc.cell(PAGE_WIDTH, _subtitle(tournament), height=6, size=10, align="L", border=0)
    doc.newline(8)


def _by_table(
    doc: Document, title: str, tournament: Tournament, tables: Sequence[DrawnTable], progress: Progress | None
) -> None:
    _wall_page(doc, title, tournament)
    doc.cell(PAGE_WIDTH, pgettext("wall list", "By table"), height=7, bold=True, size=12, align="L", border=0)
    doc.newline(8)
    seats = max((len(table.names) for table in tables), default=4)
    width = (PAGE_WIDTH - TABLE_NUMBER) / seats
    for table in tables:
        if not doc.room_for(TABLE_ROW):
            _wall_page(doc, title, tournament)
        doc.cell(TABLE_NUMBER, str(table.number), height=TABLE_ROW, size=WALL_SIZE + 1, bold=True, shade=True)
        for seat in range(seats):
            name = table.names[seat] if seat < len(table.names) else ""
            doc.cell(width, f"{seat + 1}. {name}" if name else "", height=TABLE_ROW, size=WALL_SIZE, align="L")
        doc.newline(TABLE_ROW)
        if progress is not None:
            progress(table.number, len(tables))
