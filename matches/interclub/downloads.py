"""The league's files to download: the group's table, the league's players' ranking and a venue's match report,
in every format the core writes (CSV, CSV with semicolons, XLSX, ODS, JSON) and as PDF. All are public, as the
league's pages are; a venue's report only once the venue closed (until its acceptance it says it is provisional).
And the league's backup, for its owner."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import path
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from matches.exports.base import backup_response, export_response, format_of
from matches.exports.pdf import pdf_response
from matches.exports.sheets import SheetExport, sheet_pdf
from matches.permissions import Action, on_subject

from .backup import league_backup
from .exports import group_table_sheet, players_ranking_sheet, report_name, report_sheet
from .models import Group, League, Venue
from .prints import venue_report_pdf
from .selectors import group_table, players_ranking, venue_report


@on_subject(Action.VIEW, "group")
@require_safe
def group_table_export(request: HttpRequest, group: Group, fmt: str) -> HttpResponseBase:
    """The group's table as a file."""
    return export_response(SheetExport(group_table_sheet(group_table(group))), format_of(fmt))


@on_subject(Action.VIEW, "group")
@require_safe
def group_table_print(request: HttpRequest, group: Group) -> HttpResponse:
    """The group's table to print (PDF)."""
    sheet = group_table_sheet(group_table(group))
    subtitle = f"{group.division.league.name} · {group.division.name} · {group.name}"
    return pdf_response(sheet_pdf(sheet, pgettext("league file", "League table"), subtitle), sheet.name)


@on_subject(Action.VIEW, "league")
@require_safe
def players_ranking_export(request: HttpRequest, league: League, fmt: str) -> HttpResponseBase:
    """The league's players' ranking as a file."""
    return export_response(SheetExport(players_ranking_sheet(league, players_ranking(league))), format_of(fmt))


@on_subject(Action.VIEW, "league")
@require_safe
def players_ranking_print(request: HttpRequest, league: League) -> HttpResponse:
    """The league's players' ranking to print (PDF)."""
    sheet = players_ranking_sheet(league, players_ranking(league))
    return pdf_response(sheet_pdf(sheet, pgettext("league file", "Players' ranking"), league.name), sheet.name)


@on_subject(Action.VIEW, "venue")
@require_safe
def venue_report_export(request: HttpRequest, venue: Venue, fmt: str) -> HttpResponseBase:
    """The venue's match report as a file: provisional while the venue plays and until the league accepts it."""
    return export_response(SheetExport(report_sheet(venue_report(venue))), format_of(fmt))


@on_subject(Action.VIEW, "venue")
@require_safe
def venue_report_print(request: HttpRequest, venue: Venue) -> HttpResponse:
    """The venue's match report to print (PDF), saying whether it is still playing, provisional or accepted."""
    report = venue_report(venue)
    return pdf_response(venue_report_pdf(report), report_name(report))


@on_subject(Action.BACKUP, "league")
@require_safe
def league_backup_download(request: HttpRequest, league: League) -> HttpResponse:
    """Everything of the league in one file (its owner only): restored elsewhere after its clubs, it becomes a
    league there."""
    return backup_response(league_backup(league), f"scorekeeper-{league.name}")


download_urlpatterns = [
    path("leagues/groups/<uuid:group_id>/table/export/<str:fmt>/", group_table_export, name="league_table_export"),
    path("leagues/groups/<uuid:group_id>/table.pdf", group_table_print, name="league_table_print"),
    path("leagues/<uuid:league_id>/players/export/<str:fmt>/", players_ranking_export, name="league_players_export"),
    path("leagues/<uuid:league_id>/players.pdf", players_ranking_print, name="league_players_print"),
    path("leagues/venues/<uuid:venue_id>/report/export/<str:fmt>/", venue_report_export, name="venue_report_export"),
    path("leagues/venues/<uuid:venue_id>/report.pdf", venue_report_print, name="venue_report_print"),
    path("leagues/<uuid:league_id>/backup/", league_backup_download, name="league_backup"),
]
