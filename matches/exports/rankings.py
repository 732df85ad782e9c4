"""A ranking list as a file in every format and on its printed page: the period's list as published where it was,
else as it stands."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from ..labels import figure_cell, standing_label, total_label
from ..models import Method, RankingEdition, RankingList
from ..rankings import Ranked, ranked_by
from .base import Cell
from .sheets import Column, Line, Sheet

FIGURES = {
    Method.AVERAGE: gettext_lazy("Average"),
    Method.BEST: gettext_lazy("Best results"),
    Method.PLACES: gettext_lazy("Placement points"),
}


def period_part(period: str) -> int:
    """A period as the part of a download's address: 202611, 2026, or 0 for the whole time."""
    return int(period.replace("-", "")) if period else 0


def part_period(part: int | None) -> str:
    """The period a download's part names: "2026-11", "2026" or "" (for 202611, 2026, 0)."""
    text = str(part or "")
    return f"{text[:4]}-{text[4:]}" if len(text) == 6 else text


def ranking_sheet(ranking: RankingList, period: str, rows: list[Ranked], published: RankingEdition | None) -> Sheet:
    """The period's rows (``published``: as that edition keeps them, with the method they were ranked by, named by
    its number where it was replaced since)."""
    columns = (
        Column(gettext_lazy("Place"), 12),
        Column(gettext_lazy("Name"), 60, text=True),
        Column(FIGURES[Method(ranked_by(ranking, published).method)], 22),
        Column(gettext_lazy("Series"), 14),
        Column(gettext_lazy("Points"), 18),
        Column(gettext_lazy("Events"), 14),
    )
    lines = []
    for row in rows:
        cells: tuple[Cell, ...] = (row.place, row.name, figure_cell(row.score), row.series, row.total, row.events)
        texts = (
            str(row.place),
            row.name,
            standing_label(row.score),
            str(row.series),
            total_label(row.total),
            str(row.events),
        )
        lines.append(Line(cells, texts))
    title = f"{ranking.name} {period}".strip()
    if published is not None and published.replaced_at is not None:
        # An edition replaced since is a file of its own beside the period's list.
        title = f"{title} ({gettext('edition %(number)s') % {'number': published.number}})"
    return Sheet(name=title, title=ranking.name, columns=columns, lines=tuple(lines), provisional=published is None)
