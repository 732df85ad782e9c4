"""The club's lists as files and printed, at the core's addresses of downloads (``matches.downloads``): a season's
table and a night's, for the club's members."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from matches.downloads import Download, Printed
from matches.exports.tables import StandingsExport, season_sheet

from .models import Night, Season
from .prints import night_table_pdf, season_table_pdf
from .selectors import night_results, season_table
from .standings import StandingRow, full_names, standing_headers, standing_rows


def _standings_export(name: str, rows: Sequence[StandingRow], *, sheet: str, average: bool = False) -> StandingsExport:
    return StandingsExport(name, standing_headers(average=average), [row.cells() for row in rows], sheet=sheet)


def _season_rows(season: Season) -> list[StandingRow]:
    table = season_table(season)
    return standing_rows(table.places, full_names(table.players))


def _night_rows(night: Night) -> list[StandingRow]:
    results = night_results(night)
    return standing_rows(results.night_places, full_names(results.players))


def _season_name(season: Season) -> str:
    return f"{season.club.name} {season.name}"


def _night_name(night: Night) -> str:
    return f"{night.season.club.name} {night.date.isoformat()}"


def season_file(season: Season, part: int | None) -> StandingsExport:
    """The season's table as a file."""
    rows, sheet = _season_rows(season), season_sheet(season.name)
    return _standings_export(_season_name(season), rows, sheet=sheet, average=season.ranks_by_average)


def season_printed(season: Season, part: int | None) -> Printed:
    """The season's table to print, on one page."""
    return Printed(season_table_pdf(season, _season_rows(season)), _season_name(season))


def night_file(night: Night, part: int | None) -> StandingsExport:
    """The night's table as a file."""
    sheet = _("Club night of %(date)s") % {"date": date_format(night.date, "SHORT_DATE_FORMAT")}
    return _standings_export(_night_name(night), _night_rows(night), sheet=sheet)


def night_printed(night: Night, part: int | None) -> Printed:
    """The night's table to print, on one page."""
    return Printed(night_table_pdf(night, _night_rows(night)), _night_name(night))


CLUB_DOWNLOADS = (
    Download("season", "table", season_file, season_printed),
    Download("night", "table", night_file, night_printed),
)
