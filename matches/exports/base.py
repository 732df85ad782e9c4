"""Exports: each thing exported is a small class with a file name, headers and an iterator of rows; one writer per
format turns any of them into a download.

CSV (UTF-8 with a byte order mark, comma-separated, or semicolon-separated as German spreadsheet programs expect) and
JSON are written row by row as the response goes out, so a list of any length costs the same memory; XLSX and ODS
are made by tablib. In the spreadsheet formats (CSV, XLSX, ODS) a text cell that a spreadsheet would read as a
formula (it begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written with a leading apostrophe,
so that a player named "=HYPERLINK(…)" stays a name; JSON is for programs and carries every value as it is.
"""

from __future__ import annotations

import csv
import io
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from enum import StrEnum

import tablib
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.http import content_disposition_header

Cell = str | int | float | bool | None

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"
ROWS_PER_CHUNK = 500
# XLSX allows a sheet name of at most 31 characters, none of []:*?/\ and no apostrophe at either end (Excel's
# "Rename sheet" rules; ODS refuses the same characters): one name within both sets of limits serves both formats.
SHEET_NAME_LENGTH = 31
SHEET_NAME_REFUSED = re.compile(r"[\[\]:*?/\\]")


class Format(StrEnum):
    CSV = "csv"
    CSV_SEMICOLON = "csv-semicolon"
    XLSX = "xlsx"
    ODS = "ods"
    JSON = "json"


CONTENT_TYPES = {
    Format.CSV: "text/csv; charset=utf-8",
    Format.CSV_SEMICOLON: "text/csv; charset=utf-8",
    Format.XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    Format.ODS: "application/vnd.oasis.opendocument.spreadsheet",
    Format.JSON: "application/json",
}
# The end of each download's name: the two CSV files differ in their names too, so that both can be kept side by side.
ENDINGS = {
    Format.CSV: ".csv",
    Format.CSV_SEMICOLON: "-semicolon.csv",
    Format.XLSX: ".xlsx",
    Format.ODS: ".ods",
    Format.JSON: ".json",
}


class Exporter(ABC):
    """A table to export: its headers and its rows, each a list of cells in the headers' order."""

    @property
    @abstractmethod
    def filename(self) -> str:
        """The download's name, without the extension."""

    @property
    def sheet(self) -> str:
        """What the spreadsheet's sheet is called: what the table holds (the download's name, unless it says more)."""
        return self.filename

    @abstractmethod
    def headers(self) -> list[str]: ...

    @abstractmethod
    def rows(self) -> Iterator[Sequence[Cell]]: ...


def safe(cell: Cell) -> Cell:
    """A text cell that a spreadsheet would take for a formula, defused; numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_START):
        return "'" + cell
    return cell


def _safe_row(row: Sequence[Cell]) -> list[Cell]:
    return [safe(cell) for cell in row]


def _decimal_comma(cell: Cell) -> Cell:
    """A figure with decimals as a German spreadsheet reads it: ``131,5``."""
    return str(cell).replace(".", ",") if isinstance(cell, float) else cell


def csv_chunks(exporter: Exporter, delimiter: str = ",") -> Iterator[str]:
    """The CSV text, a few hundred rows at a time, starting with the byte order mark. Separated by semicolons (as the
    spreadsheet programs of a German computer expect), its figures have decimal commas too."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    buffer.write(BOM)
    writer.writerow(_safe_row(exporter.headers()))
    for count, row in enumerate(exporter.rows(), start=1):
        cells = _safe_row(row)
        writer.writerow([_decimal_comma(cell) for cell in cells] if delimiter == ";" else cells)
        if count % ROWS_PER_CHUNK == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def json_chunks(exporter: Exporter) -> Iterator[str]:
    """A JSON list of objects keyed by the headers, written row by row."""
    headers = exporter.headers()
    yield "["
    for index, row in enumerate(exporter.rows()):
        item = json.dumps(dict(zip(headers, row, strict=True)), ensure_ascii=False)
        yield item if index == 0 else "," + item
    yield "]"


def sheet_name(title: str) -> str:
    """``title`` as a spreadsheet accepts it for a sheet's name: refused characters become dashes, cut to length."""
    name = SHEET_NAME_REFUSED.sub("-", title).strip("' ")[:SHEET_NAME_LENGTH].rstrip("' ")
    return name or "Scorekeeper"


def dataset(exporter: Exporter) -> tablib.Dataset:
    data = tablib.Dataset(
        headers=[str(safe(header)) for header in exporter.headers()], title=sheet_name(exporter.sheet)
    )
    for row in exporter.rows():
        data.append(_safe_row(row))
    return data


def export_response(exporter: Exporter, fmt: Format) -> HttpResponseBase:
    """The download of ``exporter`` in ``fmt``: streamed for CSV and JSON, made whole for the spreadsheets."""
    response: HttpResponseBase
    if fmt in (Format.CSV, Format.CSV_SEMICOLON):
        delimiter = ";" if fmt is Format.CSV_SEMICOLON else ","
        response = StreamingHttpResponse(
            (chunk.encode() for chunk in csv_chunks(exporter, delimiter)), content_type=CONTENT_TYPES[fmt]
        )
    elif fmt is Format.JSON:
        response = StreamingHttpResponse(
            (chunk.encode() for chunk in json_chunks(exporter)), content_type=CONTENT_TYPES[fmt]
        )
    else:
        response = HttpResponse(dataset(exporter).export(fmt.value), content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = content_disposition_header(True, f"{exporter.filename}{ENDINGS[fmt]}") or ""
    return response


def format_of(name: str) -> Format:
    """The format an address names; any other is not there (404)."""
    if name not in {choice.value for choice in Format}:
        raise Http404
    return Format(name)


def backup_response(data: dict[str, object], name: str) -> HttpResponse:
    """A backup (``matches.backup``) as a JSON download named after ``name`` and today's date."""
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = content_disposition_header(True, f"{name}-{timezone.localdate()}.json") or ""
    return response
