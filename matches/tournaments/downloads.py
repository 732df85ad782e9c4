"""A tournament's files to download: the standings, each series' ranking and the prize list (public, as the results
are posted in the room) in every format the core writes (CSV, CSV with semicolons, XLSX, ODS, JSON), as PDF, and the
prize list as a picture to post; and for those who manage the tournament the cashier's list (as a file and as PDF),
the table cards and the wall list of a drawn series, and the tournament's backup."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from matches.exports.base import backup_response, export_response, format_of
from matches.exports.pdf import pdf_response
from matches.exports.picture import picture_response
from matches.permissions import Action, on_subject

from .backup import tournament_backup
from .exports import Sheet, SheetExport, cashier_sheet, prize_sheet, series_sheet, standings_sheet
from .models import Series, Tournament
from .pictures import prize_picture
from .prints import DrawnTable, drawn_tables, sheet_pdf, table_cards_pdf, wall_list_pdf
from .selectors import tournament_results


def _drawn(tournament: Tournament, number: int) -> Series:
    """The tournament's series of that number, once drawn (404 before)."""
    series = Series.objects.filter(tournament=tournament, number=number).first()
    if series is None:
        raise Http404
    return series


def _series_sheet(tournament: Tournament, number: int) -> Sheet:
    _drawn(tournament, number)
    return series_sheet(tournament_results(tournament), number)


@on_subject(Action.VIEW, "tournament")
@require_safe
def standings_export(request: HttpRequest, tournament: Tournament, fmt: str) -> HttpResponseBase:
    """The total standings as a file."""
    return export_response(SheetExport(standings_sheet(tournament_results(tournament))), format_of(fmt))


@on_subject(Action.VIEW, "tournament")
@require_safe
def standings_print(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The total standings to print (PDF)."""
    sheet = standings_sheet(tournament_results(tournament))
    return pdf_response(sheet_pdf(sheet, tournament), sheet.name)


@on_subject(Action.VIEW, "tournament")
@require_safe
def series_export(request: HttpRequest, tournament: Tournament, series: int, fmt: str) -> HttpResponseBase:
    """A drawn series' ranking as a file."""
    return export_response(SheetExport(_series_sheet(tournament, series)), format_of(fmt))


@on_subject(Action.VIEW, "tournament")
@require_safe
def series_print(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """A drawn series' ranking to print (PDF)."""
    sheet = _series_sheet(tournament, series)
    return pdf_response(sheet_pdf(sheet, tournament), sheet.name)


@on_subject(Action.VIEW, "tournament")
@require_safe
def prizes_export(request: HttpRequest, tournament: Tournament, fmt: str) -> HttpResponseBase:
    """The prize list as a file."""
    return export_response(SheetExport(prize_sheet(tournament_results(tournament))), format_of(fmt))


@on_subject(Action.VIEW, "tournament")
@require_safe
def prizes_print(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The prize list to print (PDF)."""
    sheet = prize_sheet(tournament_results(tournament))
    return pdf_response(sheet_pdf(sheet, tournament), sheet.name)


@on_subject(Action.VIEW, "tournament")
@require_safe
def prizes_picture(request: HttpRequest, tournament: Tournament) -> HttpResponseBase:
    """The prize list's places as a picture to post."""
    return picture_response(request, prize_picture(tournament_results(tournament)))


@on_subject(Action.MANAGE, "tournament")
@require_safe
def cashier_export(request: HttpRequest, tournament: Tournament, fmt: str) -> HttpResponseBase:
    """The cashier's list as a file (those who manage the tournament only)."""
    return export_response(SheetExport(cashier_sheet(tournament_results(tournament))), format_of(fmt))


@on_subject(Action.MANAGE, "tournament")
@require_safe
def cashier_print(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The cashier's list to print (PDF; those who manage the tournament only)."""
    sheet = cashier_sheet(tournament_results(tournament))
    return pdf_response(sheet_pdf(sheet, tournament), sheet.name)


def _title(number: int) -> str:
    return _("Series %(number)s") % {"number": number}


def _tables(request: HttpRequest, series: Series) -> list[DrawnTable]:
    return drawn_tables(series, lambda token: request.build_absolute_uri(reverse("match_join", args=[token])))


@on_subject(Action.MANAGE, "tournament")
@require_safe
def table_cards(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """A drawn series' table cards to print and cut, each with its table's QR code to score on a phone."""
    drawn = _drawn(tournament, series)
    pdf = table_cards_pdf(tournament, drawn, _tables(request, drawn))
    return pdf_response(pdf, f"{tournament.name} {_title(series)} {pgettext('tournament file', 'table cards')}")


@on_subject(Action.MANAGE, "tournament")
@require_safe
def wall_list(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """A drawn series' wall list of who sits where, to hang up in the room."""
    drawn = _drawn(tournament, series)
    pdf = wall_list_pdf(tournament, drawn, _tables(request, drawn))
    return pdf_response(pdf, f"{tournament.name} {_title(series)} {pgettext('tournament file', 'wall list')}")


@on_subject(Action.MANAGE, "tournament")
@require_safe
def backup_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Everything of the tournament in one file (those who manage it): restored elsewhere, it becomes a tournament
    there, organised by whoever restores it."""
    return backup_response(tournament_backup(tournament), f"scorekeeper-{tournament.name}")


download_urlpatterns = [
    path(
        "tournaments/<uuid:tournament_id>/standings/export/<str:fmt>/",
        standings_export,
        name="tournament_standings_export",
    ),
    path("tournaments/<uuid:tournament_id>/standings.pdf", standings_print, name="tournament_standings_print"),
    path(
        "tournaments/<uuid:tournament_id>/series/<int:series>/export/<str:fmt>/",
        series_export,
        name="tournament_series_export",
    ),
    path(
        "tournaments/<uuid:tournament_id>/series/<int:series>/results.pdf", series_print, name="tournament_series_print"
    ),
    path("tournaments/<uuid:tournament_id>/prizes/export/<str:fmt>/", prizes_export, name="tournament_prizes_export"),
    path("tournaments/<uuid:tournament_id>/prizes.pdf", prizes_print, name="tournament_prizes_print"),
    path("tournaments/<uuid:tournament_id>/prizes.png", prizes_picture, name="tournament_prizes_picture"),
    path(
        "tournaments/<uuid:tournament_id>/cashier/export/<str:fmt>/", cashier_export, name="tournament_cashier_export"
    ),
    path("tournaments/<uuid:tournament_id>/cashier.pdf", cashier_print, name="tournament_cashier_print"),
    path("tournaments/<uuid:tournament_id>/series/<int:series>/cards.pdf", table_cards, name="tournament_table_cards"),
    path("tournaments/<uuid:tournament_id>/series/<int:series>/wall.pdf", wall_list, name="tournament_wall_list"),
    path("tournaments/<uuid:tournament_id>/backup/", backup_download, name="tournament_backup"),
]
