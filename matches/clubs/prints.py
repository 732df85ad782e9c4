"""A club's prints, on the core's PDF lists: a night's blank lists with each table's players filled in, the table of
a night or a season, and the head of a list played at a club night's table."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from matches.engine import Scheme
from matches.exports.pdf import BlankList, ListHeader, TableColumn, list_form, rules_label, standings_pdf
from matches.models import Match
from matches.registry import TablePlace

from .labels import ranking_label
from .models import Night, Season
from .selectors import TableView, table_of
from .standings import Column, Kind, StandingRow, columns_of


def _club_season(season: Season) -> str:
    return f"{season.club.name} · {season.name}"


def table_place_of(match: Match) -> TablePlace | None:
    """The club night's table ``match`` was played at: its club, season, night, series and number."""
    table = table_of(match)
    if table is None:
        return None
    night = table.night
    return TablePlace(_club_season(night.season), night.date, table.series, table.number)


def blank_lists(night: Night, tables: Sequence[TableView]) -> list[BlankList]:
    """An empty list for every table of the night, as long as the season's series at its size, with the columns its
    match's rules double by."""
    season = night.season
    date = date_format(night.date, "SHORT_DATE_FORMAT")
    rules = rules_label(season.variant, season.scheme)
    lists = []
    for view in tables:
        names = [seat.player.name for seat in view.seats]
        header = ListHeader(_club_season(season), date, rules, names, view.table.series, view.table.number)
        form = list_form(view.table.match.setup(), seeger_fabian=season.scheme == Scheme.SEEGER_FABIAN)
        lists.append(BlankList(header, season.series_games(len(names)), form))
    return lists


def _printed(row: StandingRow, column: Column) -> str:
    """A cell of the printed table: as the page shows it, a place decided by lot marked "*"."""
    text = row.text(column)
    return f"{text}*" if column.kind is Kind.PLACE and row.by_lot else text


def _standings_pdf(title: str, subtitle: str, rows: Sequence[StandingRow], *, average: bool = False) -> bytes:
    shown = columns_of(average=average)
    columns = [
        TableColumn(str(column.label), column.width, text=column.kind is Kind.NAME, bold=column.kind is Kind.SCORE)
        for column in shown
    ]
    cells = [[_printed(row, column) for column in shown] for row in rows]
    notes = (_("* tied: decided by lot"),) if any(row.by_lot for row in rows) else ()
    return standings_pdf(title, subtitle, columns, cells, notes)


def season_table_pdf(season: Season, rows: Sequence[StandingRow]) -> bytes:
    subtitle = f"{_club_season(season)} · {ranking_label(season)}"
    return _standings_pdf(_("Season table"), subtitle, rows, average=season.ranks_by_average)


def night_table_pdf(night: Night, rows: Sequence[StandingRow]) -> bytes:
    subtitle = f"{_club_season(night.season)} · {date_format(night.date, 'SHORT_DATE_FORMAT')}"
    return _standings_pdf(_("The night's table"), subtitle, rows)
