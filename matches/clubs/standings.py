"""A table of standings (a club night's, a series' or a season's) as one list of rows with one list of columns.

The page, the exports (CSV, XLSX, ODS, JSON), the printed table and the API all show these rows in these columns,
each in its own way (a link on the name, a mark for a place decided by lot, a cell a spreadsheet takes as a number,
the API's field names), so that none of them can show a column or a figure the others do not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

from matches.engine.league import Place
from matches.labels import figure_cell, standing_label, total_label
from matches.models import Player

Value = int | str | Fraction
Cell = int | float | str


class Kind(StrEnum):
    """What a column holds, for laying it out: the place, the name, or a figure (written right-aligned)."""

    PLACE = "place"
    NAME = "name"
    SCORE = "score"  # what the table ranks by: set off in the printed table
    FIGURE = "figure"


@dataclass(frozen=True)
class Column:
    """One column of a table of standings: the row's field it shows (the API's name for it), its header in the
    exports and the printed table, the header the page gives it where a phone's width is tight (``short``), what it
    holds, and its width on the printed page (mm)."""

    key: str
    label: str | Promise
    kind: Kind
    width: float
    short: str | Promise | None = None

    @property
    def heading(self) -> str:
        """The header on the page."""
        return str(self.short if self.short is not None else self.label)

    @property
    def figure(self) -> bool:
        return self.kind in (Kind.SCORE, Kind.FIGURE)


PLACE = Column("place", gettext_lazy("Place"), Kind.PLACE, 14)
NAME = Column("name", gettext_lazy("Player"), Kind.NAME, 62)
SCORE = Column("score", gettext_lazy("Points"), Kind.SCORE, 24)
COLUMNS: tuple[Column, ...] = (
    PLACE,
    NAME,
    SCORE,
    # Headed on the page as it breaks where the language does (Spiel-punkte), to leave a phone's names room.
    Column(
        "game_points",
        gettext_lazy("Game points"),
        Kind.FIGURE,
        30,
        short=pgettext_lazy("column heading", "Game points"),
    ),
    # Wide enough for the longest title of either language in bold ("Gewonnen", "Verloren").
    Column("won", gettext_lazy("Won"), Kind.FIGURE, 21, short=pgettext_lazy("statistics column", "Won")),
    Column("lost", gettext_lazy("Lost"), Kind.FIGURE, 21, short=pgettext_lazy("statistics column", "Lost")),
    Column("lists", gettext_lazy("Lists"), Kind.FIGURE, 18),
)
# The score of a season ranked by the average per list: headed as what it is.
AVERAGE = Column(
    "score", gettext_lazy("Average per list"), Kind.SCORE, 24, short=pgettext_lazy("column heading", "Average")
)


def columns_of(*, average: bool) -> tuple[Column, ...]:
    """The columns of a table of standings; ``average``: its score is an average per list (a season ranked so)."""
    return tuple(AVERAGE if column is SCORE and average else column for column in COLUMNS)


@dataclass(frozen=True)
class StandingRow:
    """One player's row in a table of standings: the place (``by_lot``: the tie-breaks could not separate this
    player from a neighbour), the player (by public id) and the name shown, and the figures of ``COLUMNS``."""

    place: int
    player: str
    name: str
    score: Fraction
    game_points: int
    won: int
    lost: int
    lists: int
    by_lot: bool = False

    def value(self, column: Column) -> Value:
        value: Value = getattr(self, column.key)
        return value

    def text(self, column: Column) -> str:
        """The cell as a reader sees it (on the page and printed): an average with one decimal in the reader's
        language, a real minus sign."""
        value = self.value(column)
        if isinstance(value, Fraction):
            return standing_label(value)
        if isinstance(value, int):
            return total_label(value)
        return value

    def cell(self, column: Column) -> Cell:
        """The cell as a program takes it (the exports and the API): a number stays a number, an average to two
        places."""
        value = self.value(column)
        if isinstance(value, Fraction):
            return figure_cell(value)
        return value

    def cells(self) -> list[Cell]:
        return [self.cell(column) for column in COLUMNS]

    def api(self) -> dict[str, Any]:
        """The row as the API gives it: every column under its key, the player's public id, and ``by_lot``."""
        return {column.key: self.cell(column) for column in COLUMNS} | {"player": self.player, "by_lot": self.by_lot}


def standing_rows(places: Sequence[Place], names: Mapping[str, str]) -> list[StandingRow]:
    """The rows of a ranking, best first, each player under the name ``names`` gives (by public id; "?" for one it
    does not know)."""
    return [
        StandingRow(
            place=place.place,
            player=place.standing.player,
            name=names.get(place.standing.player, "?"),
            score=place.standing.score,
            game_points=place.standing.game_points,
            won=place.standing.won,
            lost=place.standing.lost,
            lists=place.standing.lists,
            by_lot=place.by_lot,
        )
        for place in places
    ]


def full_names(players: Mapping[str, Player]) -> dict[str, str]:
    """Each player's name as the club's own pages show it (by public id)."""
    return {key: player.name for key, player in players.items()}


def standing_headers(*, average: bool) -> list[str]:
    """The columns' headers in the exports, in the reader's language (``average``: as ``columns_of``)."""
    return [str(column.label) for column in columns_of(average=average)]
