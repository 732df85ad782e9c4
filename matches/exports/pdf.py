"""Lists to print, as PDF (made with fpdf2): a match's list as a Skat table keeps it on paper, blank lists with each
table's players filled in, and a table of results (the club app prints a night's and a season's with them).

Every page is A4 portrait in DejaVu Sans (vendored in ``matches/fonts``), so that a name prints as it was entered
whatever its alphabet. A table of results fits its columns to what they hold (a long club name takes the room the
figures do not need); a name too long for the page is cut with an ellipsis, never written over the next column.
The documents are drawn from what the selectors read: nothing here asks the database.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from django.http import HttpResponse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from fpdf import FPDF
from fpdf.enums import XPos, YPos

from matches.engine import MatchSetup, Message
from matches.engine.bock import bock_multiplier
from matches.engine.league import SeriesLine
from matches.engine.skat import ListMarks, Mark
from matches.engine.values import paper_columns
from matches.engine.variants import Family
from matches.game_lists import GameList, ListRow
from matches.labels import contract_label, footer_rows, match_label, render_step, scheme_label, variant_label
from matches.models import Match
from matches.registry import table_place

FONTS = Path(__file__).resolve().parent.parent / "fonts"
FONT = "DejaVu"
PAGE_WIDTH = 190  # mm: A4 portrait less the margins
MARGIN = 10
ROW = 3.9  # mm: one game of a list; 48 games, the head and the footer fit one page
HEAD = 16  # mm: the list's column titles, written upwards in the narrow columns
TEXT = 7.5  # pt
SMALLEST_TEXT = 5.5  # pt: the least a text spanning a row's marks is made to fit them
FIT_SPARE = 0.5  # mm a fitted column keeps beyond what it holds
ELLIPSIS = "…"
CURRENCY = "€"
MINUS = "\N{MINUS SIGN}"
SHADE = 225  # the grey of a seat that sits out the deal
BOCK_WIDTH = 8  # mm: "×16", the most a deal at four can be doubled for Bock (one round from each deal before it)


def number(value: int) -> str:
    """36, −96, 0: with a real minus sign."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


class Document:
    """An A4 document in the vendored font, with the few ways of writing that the lists share."""

    def __init__(self, title: str) -> None:
        self.pdf = FPDF(orientation="portrait", unit="mm", format="A4")
        self.pdf.add_font(FONT, "", str(FONTS / "DejaVuSans.ttf"))
        self.pdf.add_font(FONT, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self.pdf.set_margins(MARGIN, MARGIN, MARGIN)
        self.pdf.set_auto_page_break(auto=False)
        self.pdf.set_title(title)
        self.pdf.set_creator("Scorekeeper")
        self.pdf.set_draw_color(90)
        self.pdf.set_line_width(0.2)

    def fit(self, text: str, width: float) -> str:
        """``text`` as much of it fits ``width`` (mm) inside a cell's padding, cut with an ellipsis."""
        room = width - 2 * self.pdf.c_margin
        if self.pdf.get_string_width(text) <= room:
            return text
        while text and self.pdf.get_string_width(text + ELLIPSIS) > room:
            text = text[:-1]
        return text + ELLIPSIS

    def wrap(self, text: str, width: float, *, size: float = TEXT) -> list[str]:
        """``text`` in lines that each fit ``width`` (mm) in a cell of type ``size``, broken between words, never
        between an amount and its € (a word longer than a line is cut as ``fit`` cuts it)."""
        self.pdf.set_font(FONT, "", size)
        room = width - 2 * self.pdf.c_margin
        words: list[str] = []
        for word in text.split():
            if word.startswith(CURRENCY) and words:
                words[-1] = f"{words[-1]} {word}"
            else:
                words.append(word)
        lines: list[str] = []
        for word in words:
            if lines and self.pdf.get_string_width(f"{lines[-1]} {word}") <= room:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(self.fit(word, width))
        return lines

    def fitting_size(self, text: str, width: float, *, size: float = TEXT) -> float:
        """The type size, from ``size`` down by half a point to ``SMALLEST_TEXT``, at which ``text`` fits ``width``
        (mm) inside a cell's padding (the smallest where none does: ``fit`` cuts it then)."""
        room = width - 2 * self.pdf.c_margin
        while size > SMALLEST_TEXT:
            self.pdf.set_font(FONT, "", size)
            if self.pdf.get_string_width(text) <= room:
                break
            size -= 0.5
        return size

    def cell(
        self,
        width: float,
        text: str = "",
        *,
        height: float = ROW,
        bold: bool = False,
        size: float = TEXT,
        align: str = "C",
        border: Literal[0, 1] | str = 1,
        shade: bool = False,
    ) -> None:
        self.pdf.set_font(FONT, "B" if bold else "", size)
        if shade:
            self.pdf.set_fill_color(SHADE)
        self.pdf.cell(
            width,
            height,
            self.fit(text, width),
            border=border,
            align=align,
            fill=shade,
            new_x=XPos.RIGHT,
            new_y=YPos.TOP,
        )

    def upward(self, width: float, text: str) -> None:
        """A column title written upwards in a narrow column of the list's head."""
        x, y = self.pdf.get_x(), self.pdf.get_y()
        self.pdf.rect(x, y, width, HEAD)
        self.pdf.set_font(FONT, "", TEXT - 1)
        text = self.fit(text, HEAD)
        with self.pdf.rotation(90, x, y + HEAD):
            self.pdf.text(x + self.pdf.c_margin, y + HEAD + width / 2 + 1, text)
        self.pdf.set_xy(x + width, y)

    def newline(self, height: float = ROW) -> None:
        self.pdf.ln(height)

    def room_for(self, height: float) -> bool:
        return self.pdf.get_y() + height <= self.pdf.h - MARGIN

    def add_page(self) -> None:
        self.pdf.add_page()

    def output(self) -> bytes:
        return bytes(self.pdf.output())


# --- The paper list ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListHeader:
    """The head of a paper list: the event (a club and its season, or the match's title), the date, the series and
    the table of a club night, the rules, and the players by seat."""

    event: str
    date: str
    rules: str
    names: Sequence[str]
    series: int | None = None
    table: int | None = None


@dataclass(frozen=True)
class ListForm:
    """The columns of a list: the game and its declarer written out where no mark names the game (``named``: every
    family but Skat's), then a narrow column for each mark of what a game's value counts (``columns``: Skat's base
    value, with or without and the levels; the Officers' family's as its scheme counts; Schneider and Schwarz in
    Lieutenant Skat and Officers' Schafkopf, and the Laufende where Schafkopf counts them). After the game, what doubled
    its value, where the rules play it: Kontra (headed in the variant's word for it, ``kontra``) and Re ticked
    (``kontra_re``), the factor of the Bock rounds in force (``bock``). ``seeger_fabian``: the footer sums up by
    Seeger-Fabian."""

    players: int
    named: bool
    columns: tuple[Mark, ...]
    seeger_fabian: bool
    kontra_re: bool
    bock: bool
    kontra: Message

    @property
    def game(self) -> list[tuple[str, float]]:
        """The columns that name the game and its declarer, their titles written across."""
        return [(_("Game"), 28), (_("Declarer"), 28)] if self.named else []

    @property
    def marks(self) -> list[tuple[str, float]]:
        """The columns of the marks, narrow, their titles written upwards."""
        titles: dict[Mark, list[tuple[str, float]]] = {
            Mark.BASE: [(_("Base value"), 9)],
            Mark.MATADORS: [(_("with"), 7), (_("without"), 7)],
            Mark.HAND: [(_("Hand"), 5.5)],
            Mark.SCHNEIDER: [(_("Schneider"), 5.5)],
            Mark.SCHNEIDER_ANNOUNCED: [(_("announced"), 5.5)],
            Mark.SCHWARZ: [(_("Schwarz"), 5.5)],
            Mark.SCHWARZ_ANNOUNCED: [(_("announced"), 5.5)],
            Mark.OUVERT: [(_("Ouvert"), 5.5)],
            Mark.LAUFENDE: [(_("Laufende"), 7)],
        }
        return [column for mark in Mark if mark in self.columns for column in titles[mark]]

    @property
    def doublings(self) -> list[tuple[str, float]]:
        """The columns of what doubled a game: narrow, their titles written upwards in every family's list."""
        columns = [(render_step(self.kontra), 5.5), (_("Re"), 5.5)] if self.kontra_re else []
        if self.bock:
            columns.append((_("Bock"), BOCK_WIDTH))
        return columns

    @property
    def marks_width(self) -> float:
        """The game's columns and its marks': what a passed deal's or a Ramsch's text spans."""
        return sum(width for _title, width in [*self.game, *self.marks])

    number_width = 8
    result_width = 11

    @property
    def fixed_width(self) -> float:
        return (
            self.number_width
            + self.marks_width
            + sum(width for _title, width in self.doublings)
            + 2 * self.result_width
        )

    @property
    def player_width(self) -> float:
        return (PAGE_WIDTH - self.fixed_width) / self.players


def _header(doc: Document, header: ListHeader) -> None:
    doc.cell(PAGE_WIDTH, header.event, height=7, bold=True, size=12, align="L", border=0)
    doc.newline(7)
    facts = [_("Date: %(date)s") % {"date": header.date}]
    if header.series is not None:
        facts.append(_("Series: %(series)s") % {"series": header.series})
    if header.table is not None:
        facts.append(_("Table: %(table)s") % {"table": header.table})
    facts.append(header.rules)
    doc.cell(PAGE_WIDTH, "   ".join(facts), height=5, size=9, align="L", border=0)
    doc.newline(5)
    # Two players to a line, so that a long name is seen in full here even where its column cuts it.
    for seat, name in enumerate(header.names, start=1):
        doc.cell(PAGE_WIDTH / 2, f"{seat}. {name}", height=5, size=9, bold=True, align="L", border=0)
        if seat % 2 == 0 or seat == len(header.names):
            doc.newline(5)
    doc.newline(2)


def list_form(setup: MatchSetup, *, seeger_fabian: bool) -> ListForm:
    """The columns of a list kept under ``setup``: the marks of what its scheme counts (``values.paper_columns``),
    Kontra, Re and Bock where its rules play them."""
    spec, rules = setup.spec, setup.rules
    columns = paper_columns(spec, setup.scheme, rules)
    named = spec.family is not Family.SKAT
    return ListForm(setup.players, named, columns, seeger_fabian, rules.kontra_re, rules.bock, spec.kontra)


def _column_titles(doc: Document, form: ListForm, names: Sequence[str]) -> None:
    doc.upward(form.number_width, _("No."))
    for title, width in form.game:
        doc.cell(width, title, height=HEAD, bold=True)
    for title, width in form.marks:
        doc.upward(width, title)
    for title, width in form.doublings:
        doc.upward(width, title)
    doc.upward(form.result_width, _("Won"))
    doc.upward(form.result_width, _("Lost"))
    for name in names:
        doc.cell(form.player_width, name, height=HEAD, bold=True)
    doc.newline(HEAD)


def _tick(flag: bool) -> str:
    return "×" if flag else ""


def _game(row: ListRow, deck: str) -> str:
    """The game as a list names it: its contract, and a Ramsch its card points by seat and what doubled it ("Ramsch ·
    card points 72/48/0 · Jungfrau · pushed 1×")."""
    words = [*([row.card_points] if row.card_points is not None else []), *row.ramsch_doublings]
    return " · ".join([contract_label(row.contract, deck), *(render_step(word, deck) for word in words)])


def _marks(row: ListRow, form: ListForm, names: Sequence[str], deck: str) -> list[str]:
    """The cells of a game's name and declarer (where the list names them) and of its marks; none when one text
    spans them (a passed deal, a Ramsch, a game entered by a value that does not say its base value)."""
    marks = row.marks or ListMarks()
    if form.named:
        if row.declarer is None:
            return []
        named = [contract_label(row.contract, deck), names[row.declarer]]
    elif marks.base is None:
        return []
    else:
        named = []
    matadors = marks.matadors or 0
    cells = {
        Mark.BASE: [str(marks.base) if marks.base is not None else ""],
        Mark.MATADORS: [str(matadors) if matadors > 0 else "", str(-matadors) if matadors < 0 else ""],
        Mark.HAND: [_tick(marks.hand)],
        Mark.SCHNEIDER: [_tick(marks.schneider)],
        Mark.SCHNEIDER_ANNOUNCED: [_tick(marks.schneider_announced)],
        Mark.SCHWARZ: [_tick(marks.schwarz)],
        Mark.SCHWARZ_ANNOUNCED: [_tick(marks.schwarz_announced)],
        Mark.OUVERT: [_tick(marks.ouvert)],
        Mark.LAUFENDE: [str(marks.laufende) if marks.laufende else ""],
    }
    return named + [cell for mark in Mark if mark in form.columns for cell in cells[mark]]


def _doublings(row: ListRow, form: ListForm) -> list[str]:
    """The cells of what doubled a game: Kontra and Re ticked, the Bock rounds' factor ("×2", "×4" for a
    Doppelbock) on every deal they cover, a passed one too, as the match's page marks it."""
    cells = [_tick(row.kontra), _tick(row.re)] if form.kontra_re else []
    if form.bock:
        cells.append(f"×{bock_multiplier(row.bock)}" if row.bock else "")
    return cells


def _game_row(doc: Document, form: ListForm, row: ListRow, names: Sequence[str], deck: str) -> None:
    doc.cell(form.number_width, str(row.number))
    cells = _marks(row, form, names, deck)
    if cells:
        for (_title, width), text in zip([*form.game, *form.marks], cells, strict=True):
            doc.cell(width, text)
    else:
        # A Ramsch's card points and what doubled it may take more room than the marks have: smaller type, not cut.
        text = pgettext("paper list", "passed") if row.passed else _game(row, deck)
        doc.cell(form.marks_width, text, size=doc.fitting_size(text, form.marks_width))
    for (_title, width), text in zip(form.doublings, _doublings(row, form), strict=True):
        doc.cell(width, text)
    doc.cell(form.result_width, number(row.won_value) if row.won_value is not None else "")
    doc.cell(form.result_width, number(row.lost_value) if row.lost_value is not None else "")
    for seat, total in enumerate(row.totals):
        doc.cell(form.player_width, number(total), bold=seat in row.named, shade=seat == row.sitting_out)
    doc.newline()


def _blank_row(doc: Document, form: ListForm, count: int) -> None:
    doc.cell(form.number_width, str(count))
    for _title, width in [*form.game, *form.marks, *form.doublings]:
        doc.cell(width)
    doc.cell(form.result_width)
    doc.cell(form.result_width)
    for _seat in range(form.players):
        doc.cell(form.player_width)
    doc.newline()


def _footer(doc: Document, form: ListForm, lines: Sequence[SeriesLine] | None) -> None:
    """The sums per player (``lines``; None: an empty footer to fill in by hand)."""
    rows = footer_rows(lines or [], seeger_fabian=form.seeger_fabian, players=form.players)
    if not doc.room_for(ROW * (len(rows) + 1) + 16):
        doc.add_page()
    doc.newline(1)
    for row in rows:
        doc.cell(form.fixed_width, row.title, bold=row.total, align="R")
        for seat in range(form.players):
            doc.cell(form.player_width, number(row.values[seat]) if row.values else "", bold=row.total)
        doc.newline()
    _signatures(doc, form)


def _signatures(doc: Document, form: ListForm) -> None:
    doc.newline(9)
    doc.cell(form.fixed_width, _("Signatures"), align="R", border=0)
    doc.pdf.set_x(MARGIN + form.fixed_width)
    for _seat in range(form.players):
        doc.cell(form.player_width - 2, border="B")
        doc.pdf.set_x(doc.pdf.get_x() + 2)
    doc.newline()


def _rows_page(doc: Document, form: ListForm, header: ListHeader, rows: Iterator[ListRow | int], deck: str) -> None:
    """The list's games (or the numbers of empty rows), on as many pages as they take, each with the head."""
    doc.add_page()
    _header(doc, header)
    _column_titles(doc, form, header.names)
    for row in rows:
        if not doc.room_for(ROW):
            doc.add_page()
            _column_titles(doc, form, header.names)
        if isinstance(row, int):
            _blank_row(doc, form, row)
        else:
            _game_row(doc, form, row, header.names, deck)


def game_list_pdf(game_list: GameList, header: ListHeader, deck: str) -> bytes:
    """A match's list as the table would have written it: every game, each player's running total, the footer and
    the signatures."""
    doc = Document(header.event)
    form = list_form(game_list.match.setup(), seeger_fabian=game_list.seeger_fabian)
    _rows_page(doc, form, header, iter(game_list.rows), deck)
    if game_list.paper:
        doc.cell(PAGE_WIDTH, _("The list was kept on paper: the totals are as they were entered from it."), align="L")
        doc.newline()
    _footer(doc, form, game_list.footers)
    return doc.output()


@dataclass(frozen=True)
class BlankList:
    """An empty list for one table of a club night: its head filled in, ``games`` empty rows."""

    header: ListHeader
    games: int
    form: ListForm


def blank_lists_pdf(title: str, lists: Sequence[BlankList]) -> bytes:
    """One page per table (more where a series is longer than a page holds), ready to be filled in by hand."""
    doc = Document(title)
    for blank in lists:
        _rows_page(doc, blank.form, blank.header, iter(range(1, blank.games + 1)), "")
        _footer(doc, blank.form, None)
    if not lists:
        doc.add_page()
        doc.cell(PAGE_WIDTH, title, height=7, bold=True, size=12, align="L", border=0)
    return doc.output()


# --- A table of results ----------------------------------------------------------------------------------------------

STANDINGS_ROW = 5.5
STANDINGS_SMALLEST_ROW = 3.6


@dataclass(frozen=True)
class TableColumn:
    """A column of a printed table of results: its title and width (mm); ``text``: written from the left (a name),
    where figures are written from the right; ``bold``: the column the table ranks by."""

    title: str
    width: float
    text: bool = False
    bold: bool = False


def standings_pdf(
    title: str,
    subtitle: str,
    columns: Sequence[TableColumn],
    rows: Sequence[Sequence[str]],
    notes: Sequence[str] = (),
) -> bytes:
    """A night's or a season's table on one page, in the columns and rows given (``notes``: lines under the table,
    each on a line of its own and wrapped over more where it is longer than the page is wide, never cut): the rows
    are made smaller (down to a readable size) to fit it; a longer table goes on, its column titles repeated."""
    doc = Document(title)
    doc.add_page()
    doc.cell(PAGE_WIDTH, title, height=8, bold=True, size=14, align="L", border=0)
    doc.newline(8)
    doc.cell(PAGE_WIDTH, subtitle, height=6, size=10, align="L", border=0)
    doc.newline(8)
    room = doc.pdf.h - MARGIN - doc.pdf.get_y()
    height = max(STANDINGS_SMALLEST_ROW, min(STANDINGS_ROW, room / (len(rows) + 1)))
    size = 9 if height >= STANDINGS_ROW else 7
    columns = _fitted(doc, columns, rows, size)
    _standings_titles(doc, columns, height, size)
    for cells in rows:
        if not doc.room_for(height):
            doc.add_page()
            _standings_titles(doc, columns, height, size)
        for column, text in zip(columns, cells, strict=True):
            doc.cell(column.width, text, height=height, size=size, align="L" if column.text else "R", bold=column.bold)
        doc.newline(height)
    if not rows:
        doc.cell(PAGE_WIDTH, _("No results yet."), height=height, size=size, align="L")
        doc.newline(height)
    if notes:
        doc.newline(2)
    for note in notes:
        for line in doc.wrap(note, PAGE_WIDTH, size=size - 1):
            if not doc.room_for(height):
                doc.add_page()
            doc.cell(PAGE_WIDTH, line, height=height, size=size - 1, align="L", border=0)
            doc.newline(height)
    return doc.output()


def _fitted(
    doc: Document, columns: Sequence[TableColumn], rows: Sequence[Sequence[str]], size: float
) -> list[TableColumn]:
    """The columns with their widths fitted to what they hold: a column whose title or longest cell would be cut
    (a club's long name) takes the room the page has left and then the room other columns do not need, so that a
    text is cut only where the page has no room for it."""
    need = []
    for index, column in enumerate(columns):
        doc.pdf.set_font(FONT, "B", size)
        widest = doc.pdf.get_string_width(column.title)
        doc.pdf.set_font(FONT, "B" if column.bold else "", size)
        for cells in rows:
            widest = max(widest, doc.pdf.get_string_width(cells[index]))
        need.append(widest + 2 * doc.pdf.c_margin + FIT_SPARE)
    widths = [column.width for column in columns]
    spare = PAGE_WIDTH - sum(widths) + sum(max(0.0, width - wanted) for width, wanted in zip(widths, need, strict=True))
    for index in sorted(range(len(columns)), key=lambda one: widths[one] - need[one]):
        short = need[index] - widths[index]
        if short <= 0 or spare <= 0:
            break
        taken = min(short, spare)
        widths[index] += taken
        spare -= taken
    # What the cut columns took comes from the page's room first, then from the columns with room to spare.
    over = sum(widths) - PAGE_WIDTH
    for index in range(len(columns)):
        if over <= 0:
            break
        give = min(over, max(0.0, widths[index] - need[index]))
        widths[index] -= give
        over -= give
    return [replace(column, width=width) for column, width in zip(columns, widths, strict=True)]


def _standings_titles(doc: Document, columns: Sequence[TableColumn], height: float, size: float) -> None:
    for column in columns:
        align = "L" if column.text else "R"
        doc.cell(column.width, column.title, height=height, size=size, bold=True, align=align, shade=True)
    doc.newline(height)


def rules_label(variant: str, scheme: str) -> str:
    """The rules a list is kept under, as its head says them."""
    return f"{variant_label(variant)} · {scheme_label(scheme)}"


def match_header(match: Match, names: Sequence[str]) -> ListHeader:
    """The head of a match's list: a match played at an event's table (a club night's) names the event, its day,
    the series and the table."""
    rules = rules_label(match.variant, match.scheme)
    place = table_place(match)
    if place is None:
        date = date_format(timezone.localtime(match.created_at), "SHORT_DATE_FORMAT")
        return ListHeader(match_label(match), date, rules, names)
    date = date_format(place.date, "SHORT_DATE_FORMAT")
    return ListHeader(place.event, date, rules, names, place.series, place.table)


def pdf_response(content: bytes, name: str) -> HttpResponse:
    """A PDF shown in the browser (to print) under the file name ``name``.pdf."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(False, f"{name}.pdf") or ""
    return response
