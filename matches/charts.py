"""The running totals of a match as an SVG line chart, computed on the server (no script, no CDN)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320
HEIGHT = 160
PAD = 8


@dataclass(frozen=True)
class Line:
    seat: int
    name: str
    points: str
    last: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    zero_y: float
    lines: list[Line]
    low: int
    high: int


def totals_chart(names: Sequence[str], totals_by_game: Sequence[Sequence[int]]) -> Chart | None:
    """One polyline per player through the running totals after each game, starting at 0; None before game 1."""
    if not totals_by_game:
        return None
    series = [[0] + [totals[seat] for totals in totals_by_game] for seat in range(len(names))]
    low = min(0, *(value for line in series for value in line))
    high = max(0, *(value for line in series for value in line))
    span = (high - low) or 1
    steps = max(len(totals_by_game), 1)

    def x(index: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * index / steps

    def y(value: int) -> float:
        return PAD + (HEIGHT - 2 * PAD) * (high - value) / span

    lines = [
        Line(
            seat=seat,
            name=names[seat],
            points=" ".join(f"{x(index):.1f},{y(value):.1f}" for index, value in enumerate(values)),
            last=values[-1],
        )
        for seat, values in enumerate(series)
    ]
    return Chart(width=WIDTH, height=HEIGHT, zero_y=round(y(0), 1), lines=lines, low=low, high=high)
