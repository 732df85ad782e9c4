"""A knockout's results as a file, in every format the core writes and as PDF, for everybody (as its page is)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from matches.downloads import Download, Printed
from matches.exports.sheets import Column, Line, Sheet, SheetExport, sheet_pdf

from .models import Knockout, KnockoutStanding


def results_sheet(knockout: Knockout) -> Sheet:
    """Each player's game points over the paper lists, the most first."""
    standings = KnockoutStanding.objects.filter(knockout=knockout).select_related("player")
    lines = tuple(
        Line((place, one.player.name, one.game_points), (str(place), one.player.name, str(one.game_points)))
        for place, one in enumerate(standings.order_by("-game_points", "player__name"), start=1)
    )
    columns = (Column(_("Place"), 15), Column(_("Player"), 80, text=True), Column(_("Game points"), 30))
    return Sheet(f"knockout-{knockout.public_id}", str(_("Results")), columns, lines)


def results_file(knockout: Knockout, part: int | None) -> SheetExport:
    return SheetExport(results_sheet(knockout))


def results_printed(knockout: Knockout, part: int | None) -> Printed:
    sheet = results_sheet(knockout)
    return Printed(sheet_pdf(sheet, str(_("Results")), knockout.name), sheet.name)


KNOCKOUT_DOWNLOADS = (Download("knockout", "results", results_file, results_printed),)
