"""How the club pages write results: scores that may be averages, euros, places with names, the ranking rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django import template

from matches.labels import standings_text
from matches.models import Player

from ..labels import ranking_label
from ..models import Season
from ..selectors import ListResult, TableView
from ..standings import SCORE, Column, StandingRow, columns_of

register = template.Library()


@register.simple_tag
def standing_columns(season: Season | str = "") -> tuple[Column, ...]:
    """The columns of a table of standings: a season's (``season``; a night's table names none) headed by what it
    ranks by."""
    return columns_of(average=isinstance(season, Season) and season.ranks_by_average)


@register.simple_tag
def standing_text(row: StandingRow, column: Column) -> str:
    return row.text(column)


@register.simple_tag
def name_of(players: Mapping[str, Player], key: str) -> str:
    player = players.get(key)
    return player.name if player is not None else "?"


@register.simple_tag
def list_of(table: TableView, player: Player) -> ListResult | None:
    return table.lists.get(str(player.public_id))


@register.simple_tag
def ranking_rule(season: Season) -> str:
    return ranking_label(season)


@register.simple_tag
def standings_share_text(title: str, rows: Sequence[StandingRow]) -> str:
    """A table of standings as a short text for a group chat."""
    return standings_text(title, [(row.place, row.name, row.text(SCORE)) for row in rows])
