"""The league's files to download: the group's table, the league's players' ranking and a venue's match report,
in every format the core writes (CSV, CSV with semicolons, XLSX, ODS, JSON) and as PDF. All are public, as the
league's pages are; a venue's report only once the venue closed (until its acceptance it says it is provisional).
And the league's backup, for its owner."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from matches.downloads import Download, Printed
from matches.exports.base import backup_response
from matches.exports.sheets import SheetExport, sheet_pdf
from matches.permissions import Action, on_subject

from .backup import league_backup
from .exports import group_table_sheet, players_ranking_sheet, report_name, report_sheet
from .models import Group, League, Venue
from .prints import venue_report_pdf
from .selectors import group_table, players_ranking, venue_report


def group_table_file(group: Group, part: int | None) -> SheetExport:
    """The group's table as a file."""
    return SheetExport(group_table_sheet(group_table(group)))


def group_table_printed(group: Group, part: int | None) -> Printed:
    """The group's table to print."""
    sheet = group_table_sheet(group_table(group))
    subtitle = f"{group.division.league.name} · {group.division.name} · {group.name}"
    return Printed(sheet_pdf(sheet, pgettext("league file", "League table"), subtitle), sheet.name)


def players_ranking_file(league: League, part: int | None) -> SheetExport:
    """The league's players' ranking as a file."""
    return SheetExport(players_ranking_sheet(league, players_ranking(league)))


def players_ranking_printed(league: League, part: int | None) -> Printed:
    """The league's players' ranking to print."""
    sheet = players_ranking_sheet(league, players_ranking(league))
    return Printed(sheet_pdf(sheet, pgettext("league file", "Players' ranking"), league.name), sheet.name)


def venue_report_file(venue: Venue, part: int | None) -> SheetExport:
    """The venue's match report as a file: provisional while the venue plays and until the league accepts it."""
    return SheetExport(report_sheet(venue_report(venue)))


def venue_report_printed(venue: Venue, part: int | None) -> Printed:
    """The venue's match report to print, saying whether it is still playing, provisional or accepted."""
    report = venue_report(venue)
    return Printed(venue_report_pdf(report), report_name(report))


LEAGUE_DOWNLOADS = (
    Download("group", "table", group_table_file, group_table_printed),
    Download("league", "players", players_ranking_file, players_ranking_printed),
    Download("venue", "report", venue_report_file, venue_report_printed),
)


@on_subject(Action.BACKUP, "league")
@require_safe
def league_backup_download(request: HttpRequest, league: League) -> HttpResponse:
    """Everything of the league in one file (its owner only): restored elsewhere after its clubs, it becomes a
    league there."""
    return backup_response(league_backup(league), f"scorekeeper-{league.name}")


download_urlpatterns = [
    path("leagues/<uuid:league_id>/backup/", league_backup_download, name="league_backup"),
]
