"""A match's results (and, laid out by the club app, a club night's) as a picture to send to a group chat: a PNG
drawn with Pillow in the app's colours, with the DejaVu fonts kept in ``matches/fonts``, so that every name prints
as entered (ä, ł, ş, Cyrillic) on any server.

Two steps: ``layout`` decides what is drawn (the title and its lines, the places with each name cut to its column
with an ellipsis, how many places are left out, the height of a row) and is tested against the data; ``draw`` only
paints what it decided.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.formats import date_format
from django.utils.http import content_disposition_header, quote_etag
from django.utils.translation import get_language, ngettext
from PIL import Image, ImageDraw, ImageFont

from matches.charts import Chart
from matches.labels import match_label, places, scheme_label, total_label, variant_label
from matches.models import Match
from matches.selectors import match_chart, seats_of

FONTS = Path(__file__).resolve().parent.parent / "fonts"

WIDTH = 1080
MARGIN = 64
HEADER = 250  # the coloured band with the title and two lines under it
GAP = 24  # between the band and the first row
FOOTER = 96
SQUARE = 1080  # the rows share what a square leaves them, within ROW_MIN and ROW_MAX
ROW_MIN = 64
ROW_MAX = 120
MAX_ROWS = 24  # at ROW_MIN the picture stops at about 1080 × 1900 (9:16), a phone's screen upright
CHART_WIDTH = WIDTH - 2 * MARGIN
CHART_HEIGHT = 300
CHART_GAP = 40

# The app's light colours (static/css/app.css): a picture in a chat has no dark mode.
BACKGROUND = "#fafaf7"
FOREGROUND = "#1d1d1b"
MUTED = "#5b5b57"
LINE = "#d8d8d0"
CARD = "#ffffff"
ACCENT = "#1d6b3a"
ACCENT_FOREGROUND = "#ffffff"
ACCENT_SOFT = "#cfe6d6"
WARN = "#8a5a00"
SEATS = ("#1f6fb2", "#c0392b", "#1f7a48", "#8e44ad")

ELLIPSIS = "…"
NOT_IN_A_FILE_NAME = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


@dataclass(frozen=True)
class Row:
    """One place in the ranking: the place (equal scores share it), the name, the points as written, the seat
    whose colour marks the name and its line in the chart (a match's; None at a club night), and a mark the page
    gives the name as a badge (a prize winner who withdrew: "withdrew after series 2"), drawn as one under it."""

    place: int
    name: str
    points: str
    seat: int | None = None
    mark: str = ""


@dataclass(frozen=True)
class Picture:
    """What the picture shows, decided: ``rows`` with their names already cut to fit, ``more`` places left out."""

    title: str
    title_size: int
    lines: tuple[str, ...]
    rows: tuple[Row, ...]
    more: int
    row_height: int
    chart: Chart | None
    name: str

    @property
    def more_text(self) -> str:
        return ngettext("… and %(count)s more", "… and %(count)s more", self.more) % {"count": self.more}

    @property
    def rows_top(self) -> int:
        return HEADER + GAP

    @property
    def rows_bottom(self) -> int:
        return self.rows_top + (len(self.rows) + (1 if self.more else 0)) * self.row_height

    @property
    def chart_top(self) -> int:
        return self.rows_bottom + CHART_GAP

    @property
    def height(self) -> int:
        return (self.chart_top + CHART_HEIGHT if self.chart else self.rows_bottom) + FOOTER


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


@dataclass(frozen=True)
class Fonts:
    """The faces of one picture's rows, sized by the row's height."""

    place: ImageFont.FreeTypeFont
    name: ImageFont.FreeTypeFont
    points: ImageFont.FreeTypeFont
    mark: ImageFont.FreeTypeFont


def row_fonts(row_height: int) -> Fonts:
    size = round(row_height * 0.42)
    return Fonts(
        place=font(size, bold=True), name=font(size), points=font(size, bold=True), mark=font(round(row_height * 0.22))
    )


TITLE_SIZES = (60, 52, 44, 40)  # a long title takes a smaller size before it is cut
SUBTITLE = font(34)
BRAND = font(28)


def fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` as it is if it fits in ``width`` pixels, else cut with an ellipsis to fit."""
    if face.getlength(text) <= width:
        return text
    cut = text
    while cut and face.getlength(cut.rstrip() + ELLIPSIS) > width:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS


def title_fit(title: str, width: float) -> tuple[str, int]:
    """The title and its size: the largest that fits it whole, or the smallest with the title cut to fit."""
    for size in TITLE_SIZES:
        if font(size, bold=True).getlength(title) <= width:
            return title, size
    return fit(title, font(TITLE_SIZES[-1], bold=True), width), TITLE_SIZES[-1]


def row_height(count: int, charted: bool) -> int:
    """Few rows are large, many are small: together they fill what a square leaves them, within the bounds."""
    room = SQUARE - HEADER - GAP - FOOTER - (CHART_HEIGHT + CHART_GAP if charted else 0)
    return max(ROW_MIN, min(ROW_MAX, room // max(count, 1)))


def mark_padding(row_height: int) -> int:
    """The room between a mark and its badge's outline, each side."""
    return round(row_height * 0.1)


def columns(row_height: int, points: Sequence[str]) -> tuple[int, int, int]:
    """Where a row's name starts and ends and where its points end (right-aligned), for these points."""
    faces = row_fonts(row_height)
    name_left = MARGIN + round(faces.place.getlength("00.")) + round(row_height * 0.55)
    widest = max((faces.points.getlength(text) for text in points), default=0)
    points_right = WIDTH - MARGIN
    return name_left, points_right - round(widest) - round(row_height * 0.4), points_right


def layout(title: str, lines: Sequence[str], rows: Sequence[Row], chart: Chart | None, name: str) -> Picture:
    """What to draw: the first ``MAX_ROWS`` places (or one fewer and a line for the rest), every text cut to fit."""
    shown = list(rows) if len(rows) <= MAX_ROWS else list(rows[: MAX_ROWS - 1])
    size = row_height(len(shown) + (len(shown) < len(rows)), chart is not None)
    name_left, name_right, _ = columns(size, [row.points for row in shown])
    faces = row_fonts(size)
    room = name_right - name_left
    pad = mark_padding(size)
    # A mark has a line of its own under the name, so that neither is cut for the other.
    shown = [
        replace(row, name=fit(row.name, faces.name, room), mark=row.mark and fit(row.mark, faces.mark, room - 2 * pad))
        for row in shown
    ]
    width = WIDTH - 2 * MARGIN
    title, title_size = title_fit(title, width)
    return Picture(
        title=title,
        title_size=title_size,
        lines=tuple(fit(line, SUBTITLE, width) for line in lines),
        rows=tuple(shown),
        more=len(rows) - len(shown),
        row_height=size,
        chart=chart,
        name=NOT_IN_A_FILE_NAME.sub("-", name).strip(" -.") or "results",
    )


def match_picture(match: Match) -> Picture:
    """A match's totals, best first, with its running totals as a chart (two reads however long the match)."""
    seats = seats_of(match)
    totals = list(match.totals) or [0] * len(seats)
    rows = [Row(place, seats[seat].player.name, total_label(totals[seat]), seat) for place, seat in places(totals)]
    played = date_format(timezone.localtime(match.created_at).date())
    games = ngettext("%(count)s game", "%(count)s games", match.deals) % {"count": match.deals}
    rules = [variant_label(match.variant)] if match.title else []
    lines = [" · ".join([*rules, scheme_label(match.scheme)]), f"{played} · {games}"]
    chart = match_chart(match, seats, CHART_WIDTH, CHART_HEIGHT)
    return layout(match.title or variant_label(match.variant), lines, rows, chart, match_label(match))


def draw(picture: Picture) -> Image.Image:
    image = Image.new("RGB", (WIDTH, picture.height), BACKGROUND)
    canvas = ImageDraw.Draw(image)
    _draw_header(canvas, picture)
    _draw_rows(canvas, picture)
    if picture.chart is not None:
        _draw_chart(canvas, picture.chart, picture.chart_top)
    canvas.text((MARGIN, picture.height - FOOTER // 2), "Scorekeeper", fill=MUTED, font=BRAND, anchor="lm")
    return image


def _draw_header(canvas: ImageDraw.ImageDraw, picture: Picture) -> None:
    canvas.rectangle((0, 0, WIDTH, HEADER), fill=ACCENT)
    canvas.text(
        (MARGIN, 112), picture.title, fill=ACCENT_FOREGROUND, font=font(picture.title_size, bold=True), anchor="ls"
    )
    for index, line in enumerate(picture.lines):
        colour = ACCENT_FOREGROUND if index == 0 else ACCENT_SOFT
        canvas.text((MARGIN, 170 + index * 48), line, fill=colour, font=SUBTITLE, anchor="ls")


def _draw_rows(canvas: ImageDraw.ImageDraw, picture: Picture) -> None:
    height = picture.row_height
    faces = row_fonts(height)
    name_left, _, points_right = columns(height, [row.points for row in picture.rows])
    for index, row in enumerate(picture.rows):
        top = picture.rows_top + index * height
        # A marked row's line moves up to leave the lower part of the row to its badge.
        middle = top + height // 2 - (round(height * 0.18) if row.mark else 0)
        if index:
            canvas.line((MARGIN, top, WIDTH - MARGIN, top), fill=LINE, width=2)
        place_colour = ACCENT if row.place == 1 else MUTED
        canvas.text((MARGIN, middle), f"{row.place}.", fill=place_colour, font=faces.place, anchor="lm")
        if row.seat is not None:
            radius = round(height * 0.11)
            centre = name_left - round(height * 0.25)
            canvas.ellipse(
                (centre - radius, middle - radius, centre + radius, middle + radius), fill=SEATS[row.seat % 4]
            )
        canvas.text((name_left, middle), row.name, fill=FOREGROUND, font=faces.name, anchor="lm")
        canvas.text((points_right, middle), row.points, fill=FOREGROUND, font=faces.points, anchor="rm")
        if row.mark:
            _draw_mark(canvas, row.mark, faces.mark, name_left, top + height // 2 + round(height * 0.26), height)
    if picture.more:
        middle = picture.rows_top + len(picture.rows) * height + height // 2
        canvas.text((name_left, middle), picture.more_text, fill=MUTED, font=faces.name, anchor="lm")


def _draw_mark(
    canvas: ImageDraw.ImageDraw, mark: str, face: ImageFont.FreeTypeFont, left: int, middle: int, height: int
) -> None:
    """A mark as the page's badge: its words in the warning colour inside a rounded outline of it."""
    pad = mark_padding(height)
    half = round(face.size * 0.8)
    right = left + round(face.getlength(mark)) + 2 * pad
    canvas.rounded_rectangle((left, middle - half, right, middle + half), radius=half // 2, outline=WARN, width=2)
    canvas.text((left + pad, middle), mark, fill=WARN, font=face, anchor="lm")


def _draw_chart(canvas: ImageDraw.ImageDraw, chart: Chart, top: int) -> None:
    canvas.rounded_rectangle(
        (MARGIN, top, MARGIN + chart.width, top + chart.height), radius=16, fill=CARD, outline=LINE, width=2
    )
    zero = top + chart.zero_y
    canvas.line((MARGIN, zero, MARGIN + chart.width, zero), fill=LINE, width=2)
    for line in chart.lines:
        points = [(MARGIN + x, top + y) for x, y in line.xy]
        canvas.line(points, fill=SEATS[line.seat % 4], width=6, joint="curve")


def png(picture: Picture) -> bytes:
    buffer = io.BytesIO()
    draw(picture).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def picture_response(request: HttpRequest, picture: Picture) -> HttpResponseBase:
    """The picture as a PNG for this browser alone, asked again each time with its ETag: a digest of what it shows and
    in which language, so that a match or night unchanged since (no game, no renamed player) answers 304 undrawn. (A
    match's version alone would miss a renamed player.)"""
    etag = quote_etag(hashlib.sha256(repr((get_language(), picture)).encode()).hexdigest()[:32])
    response = get_conditional_response(request, etag=etag) or HttpResponse(png(picture), content_type="image/png")
    response["ETag"] = etag
    response["Content-Disposition"] = content_disposition_header(False, f"{picture.name}.png") or ""
    patch_cache_control(response, private=True, no_cache=True)
    return response
