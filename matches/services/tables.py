"""The table of an event, as every kind of event starts one: a match of the event's book under the event's rules,
named for the phone that scores it (its number, its series, the event and the day). The kinds keep their own table
rows, which say where the match sits (a night's, a venue's or a tournament series' table number); what a table is
and how it starts is here, once.

An event also carries a ``version`` that every change to it moves on (``moved_on``), so that a client that saw an
older one is refused instead of changing what it did not see."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any, Protocol

from django.contrib.auth.models import User
from django.db.models import F, Model
from django.utils.formats import date_format
from django.utils.translation import gettext

from ..models import Keeper, Match
from .matches import match_create

# The table's phone shows the title on one line, cut where the screen ends: what the table needs comes first.
MAX_TITLE = 100


class TableRules(Protocol):
    """What an event's tables are played by: its variant, scheme and rules, and how long a series is at a table of
    so many players."""

    variant: str
    scheme: str
    rules: Any

    def series_games(self, players: int) -> int: ...


def table_title(number: int, series: int, event: str, day: datetime.date | None = None) -> str:
    """The title of table ``number`` of ``series`` at ``event`` (a club, a group, a tournament), with its ``day``
    where the event has more than one."""
    values = {"number": number, "series": series, "event": event}
    if day is None:
        title = gettext("Table %(number)s, series %(series)s · %(event)s") % values
    else:
        title = gettext("Table %(number)s, series %(series)s · %(event)s, %(date)s") % {
            **values,
            "date": date_format(day, "SHORT_DATE_FORMAT"),
        }
    return title[:MAX_TITLE]


def table_match(*, keeper: Keeper, rules: TableRules, players: Sequence[str], title: str, user: User | None) -> Match:
    """Start a table's match through the core: the event's rules, the players by name in the event's book
    (``keeper``), and the series' length for so many players."""
    return match_create(
        owner=user,
        keeper=keeper,
        variant=rules.variant,
        scheme=rules.scheme,
        rules=rules.rules,
        player_names=list(players),
        title=title,
        planned_games=rules.series_games(len(players)),
    ).match


def moved_on(event: Model) -> None:
    """The event's version moves on with a change to it (in the change's transaction)."""
    type(event)._default_manager.filter(pk=event.pk).update(version=F("version") + 1)
