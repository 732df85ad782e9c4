"""Standings the apps on the core keep: sums written when an event closes (a club night, a venue of a league's match
day, a tournament's series), so that their tables read one row per player or team instead of every game. They are
derived, as a match's scores are, and ``manage.py rescore`` sums them afresh. The core knows nothing of them but
what an app registers when it is ready (``register_kept_standings``): the kind of event that keeps them, and how to
sum one event's afresh.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from django.db.models import QuerySet


class Rescore(Protocol):
    """Sums one event's kept standings afresh and compares them with those it kept: how many of its rows differ.
    With ``check`` nothing is written; otherwise the rows that differ are written anew, and the version of the event
    that shows them moves on, so that the pages following it show them."""

    def __call__(self, event: Any, /, *, check: bool = ...) -> int: ...


@dataclass(frozen=True)
class KeptStandings:
    """A kind of standings an app keeps. ``name``: the kind of event that keeps them, as a report names it (``"club
    night"``); ``rows``: what it keeps, as a report counts the rows that differ (``"players' kept sums"``);
    ``events``: the events of that kind that may keep some (read afresh on every rescore; a report names each by its
    ``public_id`` and what it reads as); ``rescore``: sums one event's afresh, through the app's services.

    Standings summed from another kind's (a club's season from its nights') are registered after that kind, so
    that a rescore sums them from rows written anew."""

    name: str
    rows: str
    events: QuerySet[Any]
    rescore: Rescore


_kinds: list[KeptStandings] = []


def register_kept_standings(kind: KeptStandings) -> None:
    """A kind of standings an app keeps, summed afresh by a rescore after those registered before it (the app
    registers it when it is ready)."""
    if all(known.name != kind.name or known.rows != kind.rows for known in _kinds):
        _kinds.append(kind)


def kept_standings() -> tuple[KeptStandings, ...]:
    """Every kind of standings the apps keep, in the order they registered."""
    return tuple(_kinds)


_MISSING = object()
K = TypeVar("K")


def rows_differ(fresh: Mapping[K, object], kept: Mapping[K, object]) -> int:
    """How many rows differ between standings summed afresh and those kept, each by its key (a player, a team): a
    row only one of them has differs too."""
    return sum(1 for key in fresh.keys() | kept.keys() if fresh.get(key, _MISSING) != kept.get(key, _MISSING))
