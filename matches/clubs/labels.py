"""How the club pages and prints name a club's rules."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from matches.engine.league import RankingRule

from .models import Season


def ranking_label(season: Season) -> str:
    """How a season ranks its players, as its pages say it."""
    rule = RankingRule(season.ranking)
    if rule is RankingRule.AVERAGE:
        if season.minimum_lists:
            return ngettext(
                "ranked by the average per list (at least %(count)s list counts)",
                "ranked by the average per list (at least %(count)s lists count)",
                season.minimum_lists,
            ) % {"count": season.minimum_lists}
        return gettext("ranked by the average per list")
    if rule is RankingRule.BEST_NIGHTS:
        return ngettext("ranked by the best night", "ranked by the best %(count)s nights", season.best_nights) % {
            "count": season.best_nights
        }
    return gettext("ranked by the total of all lists")
