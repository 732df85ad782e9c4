"""How the club pages and prints name a club's rules, and the tables a night would close without."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.text import capfirst, get_text_list
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


def unplayed_tables(tables: Iterable[tuple[int, int]]) -> list[str]:
    """What closing a night says of its tables drawn without a game or a paper list, given by series and number in
    their order: one sentence a series, naming its tables."""
    by_series: dict[int, list[int]] = {}
    for series, number in tables:
        by_series.setdefault(series, []).append(number)
    sentences = []
    for series, numbers in by_series.items():
        named = get_text_list([gettext("table %(number)s") % {"number": number} for number in numbers], gettext("and"))
        sentence = ngettext(
            "%(tables)s (series %(series)s) has no games: its players get no list.",
            "%(tables)s (series %(series)s) have no games: their players get no list.",
            len(numbers),
        )
        sentences.append(sentence % {"tables": capfirst(named), "series": series})
    return sentences
