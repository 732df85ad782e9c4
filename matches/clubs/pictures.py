"""A club night's table as a picture to send to a group chat, laid out and drawn as a match's is."""

from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from matches.exports.picture import Picture, Row, layout
from matches.labels import scheme_label, standing_label

from .models import Night
from .selectors import night_results, public_names


def night_picture(night: Night) -> Picture:
    """A club night's table, with the names as the club shows them in public (first names only where asked)."""
    results = night_results(night)
    names = public_names(results.players)
    rows = [
        Row(place.place, names.get(place.standing.player, "?"), standing_label(place.standing.score))
        for place in results.night_places
    ]
    season = night.season
    title = _("Club night of %(date)s") % {"date": date_format(night.date)}
    lines = [season.club.name, f"{season.name} · {scheme_label(season.scheme)}"]
    return layout(title, lines, rows, None, f"{season.club.name} {night.date.isoformat()}")
