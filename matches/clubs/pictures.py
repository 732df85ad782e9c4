"""A club night's table as a picture to send to a group chat, laid out and drawn as a match's is."""

from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from matches.exports.picture import Picture, Row, layout
from matches.labels import scheme_label

from .models import Night
from .selectors import night_results, public_names
from .standings import SCORE, standing_rows


def night_picture(night: Night) -> Picture:
    """A club night's table, with the names as the club shows them in public (first names only where asked)."""
    results = night_results(night)
    standings = standing_rows(results.night_places, public_names(results.players))
    rows = [Row(row.place, row.name, row.text(SCORE)) for row in standings]
    season = night.season
    title = _("Club night of %(date)s") % {"date": date_format(night.date)}
    lines = [season.club.name, f"{season.name} · {scheme_label(season.scheme)}"]
    return layout(title, lines, rows, None, f"{season.club.name} {night.date.isoformat()}")
