"""A table of an event's results as it leaves the app, for every kind of event: one list of columns and one list of
rows that the downloads (CSV, XLSX, ODS, JSON) and the printed page both show, each in its own way: a cell as a
program takes it (a number stays a number, money in euros to the cent) or as a reader sees it (a real minus sign,
"12,50 €", league points as "5:1"), so that neither can show a column or a figure the other does not."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.utils.functional import Promise

from .base import Cell, Exporter
from .pdf import TableColumn, standings_pdf


@dataclass(frozen=True)
class Column:
    """A column of an exported table: its header, its width on the printed page (mm), and whether it is written
    from the left (a name) where figures are written from the right. ``printed``: the printed page shows it (a
    spreadsheet's plus and minus are one "5:1" there)."""

    label: str | Promise
    width: float
    text: bool = False
    printed: bool = True


@dataclass(frozen=True)
class Line:
    """One row: its cells for a program and for a reader, in the columns' order."""

    cells: tuple[Cell, ...]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Sheet:
    """A table to export: the download's name, what its sheet is called, its columns and rows, and for the printed
    page its notes (what a mark means, why no prize is paid, the sums of money: each a line of its own, printed
    whole), a last line that sums the rows (a spreadsheet sums its own), and whether it is as it stands while the
    event is played."""

    name: str
    title: str
    columns: tuple[Column, ...]
    lines: tuple[Line, ...]
    notes: tuple[str, ...] = ()
    total: Line | None = None
    provisional: bool = False

    def printed_columns(self) -> list[Column]:
        return [column for column in self.columns if column.printed]

    def printed_rows(self) -> list[list[str]]:
        """The rows as the printed page writes them, the summing line last."""
        keep = [column.printed for column in self.columns]
        lines = (*self.lines, *([self.total] if self.total else []))
        return [[text for text, shown in zip(line.texts, keep, strict=True) if shown] for line in lines]


class SheetExport(Exporter):
    """A ``Sheet`` as the core's writers take it, in every format they write."""

    def __init__(self, sheet: Sheet) -> None:
        self.table = sheet

    @property
    def filename(self) -> str:
        return self.table.name

    @property
    def sheet(self) -> str:
        return self.table.title

    def headers(self) -> list[str]:
        return [str(column.label) for column in self.table.columns]

    def rows(self) -> Iterator[Sequence[Cell]]:
        return (line.cells for line in self.table.lines)


def sheet_pdf(sheet: Sheet, title: str, subtitle: str) -> bytes:
    """The sheet on its printed page, in the columns and rows its downloads give, under ``title`` and ``subtitle``."""
    columns = [TableColumn(str(column.label), column.width, text=column.text) for column in sheet.printed_columns()]
    return standings_pdf(title, subtitle, columns, sheet.printed_rows(), sheet.notes)
