"""A tournament's files to download: the standings, each series' ranking and the prize list (public, as the results
are posted in the room) in every format the core writes (CSV, CSV with semicolons, XLSX, ODS, JSON), as PDF, and the
prize list as a picture to post; and for those who manage the tournament the cashier's list (as a file and as PDF),
the table cards and the wall list of a drawn series, and the tournament's backup."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urljoin

from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_safe

from matches.downloads import Download, Printed
from matches.exports.base import backup_response
from matches.exports.pdf import pdf_response
from matches.exports.picture import picture_response
from matches.exports.sheets import Sheet, SheetExport
from matches.permissions import Action, on_subject, signed_in_account
from matches.registry import FileMaker, MadeFile, Progress
from matches.tasks import file_queue

from .backup import tournament_backup
from .exports import cashier_sheet, prize_sheet, series_sheet, standings_sheet
from .models import Series, Table, Tournament
from .pictures import prize_picture
from .prints import DrawnTable, drawn_tables, sheet_pdf, table_cards_pdf, wall_list_pdf
from .selectors import tournament_results


def _drawn(tournament: Tournament, number: int) -> Series:
    """The tournament's series of that number, once drawn (404 before)."""
    series = Series.objects.filter(tournament=tournament, number=number).first()
    if series is None:
        raise Http404
    return series


def _printed(sheet: Sheet, tournament: Tournament) -> Printed:
    return Printed(sheet_pdf(sheet, tournament), sheet.name)


def _series_sheet(tournament: Tournament, number: int | None) -> Sheet:
    if number is None:
        raise Http404
    _drawn(tournament, number)
    return series_sheet(tournament_results(tournament), number)


def standings_file(tournament: Tournament, part: int | None) -> SheetExport:
    """The total standings as a file."""
    return SheetExport(standings_sheet(tournament_results(tournament)))


def standings_printed(tournament: Tournament, part: int | None) -> Printed:
    """The total standings to print."""
    return _printed(standings_sheet(tournament_results(tournament)), tournament)


def series_file(tournament: Tournament, part: int | None) -> SheetExport:
    """A drawn series' ranking as a file."""
    return SheetExport(_series_sheet(tournament, part))


def series_printed(tournament: Tournament, part: int | None) -> Printed:
    """A drawn series' ranking to print."""
    return _printed(_series_sheet(tournament, part), tournament)


def prizes_file(tournament: Tournament, part: int | None) -> SheetExport:
    """The prize list as a file."""
    return SheetExport(prize_sheet(tournament_results(tournament)))


def prizes_printed(tournament: Tournament, part: int | None) -> Printed:
    """The prize list to print."""
    return _printed(prize_sheet(tournament_results(tournament)), tournament)


def cashier_file(tournament: Tournament, part: int | None) -> SheetExport:
    """The cashier's list as a file (those who manage the tournament only)."""
    return SheetExport(cashier_sheet(tournament_results(tournament)))


def cashier_printed(tournament: Tournament, part: int | None) -> Printed:
    """The cashier's list to print (those who manage the tournament only)."""
    return _printed(cashier_sheet(tournament_results(tournament)), tournament)


TOURNAMENT_DOWNLOADS = (
    Download("tournament", "standings", standings_file, standings_printed),
    Download("tournament", "series", series_file, series_printed, parted=True),
    Download("tournament", "prizes", prizes_file, prizes_printed),
    Download("tournament", "cashier", cashier_file, cashier_printed, action=Action.MANAGE),
)


@on_subject(Action.VIEW, "tournament")
@require_safe
def prizes_picture(request: HttpRequest, tournament: Tournament) -> HttpResponseBase:
    """The prize list's places as a picture to post."""
    return picture_response(request, prize_picture(tournament_results(tournament)))


def _title(number: int) -> str:
    return _("Series %(number)s") % {"number": number}


# A series of more tables than this has its table cards and wall list made in the background (a minute's work and
# more at hundreds of tables), with a page that says how far they have come.
BACKGROUND_TABLES = 60
PRINTS: dict[str, tuple[Callable[..., bytes], Promise]] = {
    "tournament-cards": (table_cards_pdf, pgettext_lazy("tournament file", "table cards")),
    "tournament-wall": (wall_list_pdf, pgettext_lazy("tournament file", "wall list")),
}


def _print_name(tournament: Tournament, number: int, kind: str) -> str:
    return f"{tournament.name} {_title(number)} {PRINTS[kind][1]}"


def _made(request: HttpRequest, tournament: Tournament, number: int, kind: str) -> HttpResponse:
    """A drawn series' print: at once, or (a large room) queued for the task worker and its page opened."""
    drawn = _drawn(tournament, number)
    tables = Table.objects.filter(series=drawn).count()
    base = request.build_absolute_uri("/")
    if tables > BACKGROUND_TABLES:
        arguments = {"tournament": str(tournament.public_id), "series": number, "base": base}
        title = _print_name(tournament, number, kind)
        job = file_queue(user=signed_in_account(request), kind=kind, title=title, arguments=arguments, total=tables)
        return redirect("file_job", job.public_id)
    make, _what = PRINTS[kind]
    return pdf_response(make(tournament, drawn, _tables(base, drawn)), _print_name(tournament, number, kind))


def _tables(base: str, series: Series) -> list[DrawnTable]:
    return drawn_tables(series, lambda token: urljoin(base, reverse("match_join", args=[token])))


def make_print(kind: str) -> FileMaker:
    """The task worker's maker of a print of ``kind`` queued by ``_made`` (None: the series is gone)."""

    def make(arguments: Mapping[str, Any], progress: Progress) -> MadeFile | None:
        number = int(arguments["series"])
        drawn = (
            Series.objects.filter(tournament__public_id=arguments["tournament"], number=number)
            .select_related("tournament")
            .first()
        )
        if drawn is None:
            return None
        content = PRINTS[kind][0](drawn.tournament, drawn, _tables(str(arguments["base"]), drawn), progress)
        return MadeFile(content, f"{_print_name(drawn.tournament, number, kind)}.pdf", "application/pdf")

    return make


@on_subject(Action.MANAGE, "tournament")
@require_safe
def table_cards(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """A drawn series' table cards to print and cut, each with its table's QR code to score on a phone."""
    return _made(request, tournament, series, "tournament-cards")


@on_subject(Action.MANAGE, "tournament")
@require_safe
def wall_list(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """A drawn series' wall list of who sits where, to hang up in the room."""
    return _made(request, tournament, series, "tournament-wall")


@on_subject(Action.MANAGE, "tournament")
@require_safe
def backup_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Everything of the tournament in one file (those who manage it): restored elsewhere, it becomes a tournament
    there, organised by whoever restores it."""
    return backup_response(tournament_backup(tournament), f"scorekeeper-{tournament.name}")


download_urlpatterns = [
    path("tournaments/<uuid:tournament_id>/prizes.png", prizes_picture, name="tournament_prizes_picture"),
    path("tournaments/<uuid:tournament_id>/series/<int:series>/cards.pdf", table_cards, name="tournament_table_cards"),
    path("tournaments/<uuid:tournament_id>/series/<int:series>/wall.pdf", wall_list, name="tournament_wall_list"),
    path("tournaments/<uuid:tournament_id>/backup/", backup_download, name="tournament_backup"),
]
