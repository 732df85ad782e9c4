"""A tournament's prize list as a picture to post, laid out and drawn as a match's results are: the places of the
total standings that won a prize, each with its winner (marked where they withdrew, as the prize list marks them) and
money, for organisers who post their results as a photo."""

from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from matches.engine.tournaments import PrizeKind
from matches.exports.picture import Picture, Row, layout
from matches.labels import euros

from .exports import finished, withdrawn_label
from .selectors import TournamentResults


def prize_picture(results: TournamentResults) -> Picture:
    """The prizes of the places (the main ranking), best first: a place nobody won is left out, and so are the
    other rankings' prizes (the printed prize list has them all). A winner who withdrew is marked in the live page's
    words, as on the prize list and its printed page."""
    tournament = results.tournament
    rows = []
    for prize in results.prizes:
        if prize.kind is not PrizeKind.PLACE or prize.winner is None:
            continue
        entry = results.entry(prize.winner)
        withdrawn = entry.withdrawn_after if entry is not None else None
        mark = withdrawn_label(withdrawn) if withdrawn is not None else ""
        rows.append(Row(prize.place, prize.winner, euros(prize.amount), mark=mark))
    when = " · ".join(part for part in (date_format(tournament.date), tournament.venue) if part)
    what = _("Prize list") if finished(results) else _("Prize list as it stands")
    lines = [when, what]
    return layout(tournament.name, lines, rows, None, f"{tournament.name} {tournament.date.isoformat()}")
