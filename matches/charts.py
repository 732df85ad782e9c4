"""The running totals of a match, or a player's average month by month, as an SVG line chart, computed on the server
(no script, no CDN)."""

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
    xy: tuple[tuple[float, float], ...]
    last: int

    @property
    def points(self) -> str:
        """The line as an SVG polyline's points."""
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.xy)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    zero_y: float
    lines: list[Line]
    low: int
    high: int


def totals_chart(
    names: Sequence[str], totals_by_game: Sequence[Sequence[int]], width: int = WIDTH, height: int = HEIGHT
) -> Chart | None:
    """One polyline per player through the running totals after each game, starting at 0, in a ``width`` ×
    ``height`` box (the page's chart, or the picture of the results); None before game 1."""
    if not totals_by_game:
        return None
    series = [[0] + [totals[seat] for totals in totals_by_game] for seat in range(len(names))]
    return _chart(names, series, width, height)


def values_chart(values: Sequence[int], width: int = WIDTH, height: int = HEIGHT) -> Chart | None:
    """One polyline through ``values`` (an average month by month), in a ``width`` × ``height`` box, with the line
    of zero where it falls inside; None with fewer than two values."""
    if len(values) < 2:
        return None
    return _chart([""], [list(values)], width, height)


def _chart(names: Sequence[str], series: Sequence[Sequence[int]], width: int, height: int) -> Chart:
    low = min(0, *(value for line in series for value in line))
    high = max(0, *(value for line in series for value in line))
    span = (high - low) or 1
    steps = max(len(series[0]) - 1, 1)

    def x(index: int) -> float:
        return PAD + (width - 2 * PAD) * index / steps

    def y(value: int) -> float:
        return PAD + (height - 2 * PAD) * (high - value) / span

    lines = [
        Line(
            seat=seat,
            name=names[seat],
            xy=tuple((x(index), y(value)) for index, value in enumerate(values)),
            last=values[-1],
        )
        for seat, values in enumerate(series)
    ]
    return Chart(width=width, height=height, zero_y=round(y(0), 1), lines=lines, low=low, high=high)
