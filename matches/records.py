"""A person's record across every kind of event, read from the closed lists the core keeps (``ClosedList``) and
never from the apps' own tables: the figures over any set of lists, the same figures by kind of event and by year,
the average month by month for the chart, and whom the person sat with most. Each is one query summed by the
database (the people sat with: one more for each), however many series. How each figure is worked out is in
``docs/rules.md`` ("A player's record")."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Max, QuerySet, Sum
from django.db.models.functions import ExtractYear, TruncMonth

from .charts import Chart, values_chart
from .engine import Scheme
from .labels import rounded
from .models import ClosedList, Person, Shown
from .permissions import Action, Visitor
from .registry import lists_shared_with

# A series at a table of four has 48 games (ISkO 4.2.1, the Seeger-Fabian lists): the average per series is also
# given per 48 games where series of other lengths mix.
GAMES_PER_SERIES = 48
# The people one sat with most, as the record lists them.
PARTNERS = 5
# What a closed list says beyond its match and player: where it was played, and its figures.
LIST_FIELDS = (
    "kind",
    "scheme",
    "event",
    "event_name",
    "within",
    "date",
    "series",
    "table_size",
    "games",
    "won",
    "lost",
    "others_lost",
    "game_points",
    "total",
)


@dataclass(frozen=True)
class Figures:
    """The figures over some closed lists: how many series and games, the games won and lost as declarer, the sum of
    their totals and the best one; ``lengths``: how many lengths of series (games per series) they mix."""

    series: int
    games: int
    won: int
    lost: int
    total: int
    best: int | None
    lengths: int

    @property
    def average(self) -> Fraction | None:
        """The average total per series."""
        return Fraction(self.total, self.series) if self.series else None

    @property
    def per_48(self) -> Fraction | None:
        """The average total per 48 games, where series of different lengths mix (None where they do not: the
        average per series says it all)."""
        if self.lengths < 2 or not self.games:
            return None
        return Fraction(self.total * GAMES_PER_SERIES, self.games)

    @property
    def lost_percent(self) -> Fraction | None:
        """The share of the games played as declarer that were lost, in per cent."""
        played = self.won + self.lost
        return Fraction(100 * self.lost, played) if played else None


# Named apart from the fields they sum, which a query could not tell from them.
SUMS: dict[str, Any] = {
    "series": Count("id"),
    "all_games": Sum("games"),
    "all_won": Sum("won"),
    "all_lost": Sum("lost"),
    "points": Sum("total"),
    "best": Max("total"),
    "lengths": Count("games", distinct=True),
}


def _figures(row: dict[str, Any]) -> Figures:
    return Figures(
        series=row["series"],
        games=row["all_games"] or 0,
        won=row["all_won"] or 0,
        lost=row["all_lost"] or 0,
        total=row["points"] or 0,
        best=row["best"],
        lengths=row["lengths"],
    )


def person_lists(person: Person | None) -> QuerySet[ClosedList]:
    """Every closed list of the players joined to ``person`` (none for nobody), whoever's event it was: the players
    are read first, so that the lists are read by their player's index."""
    if person is None:
        return ClosedList.objects.none()
    return ClosedList.objects.filter(player_id__in=list(person.players.values_list("pk", flat=True)))


def own_lists(user: User) -> QuerySet[ClosedList]:
    """Every closed list of the person of ``user``'s account."""
    return person_lists(Person.objects.filter(account=user).first())


def lists_seen(person: Person, account: User | None) -> QuerySet[ClosedList] | None:
    """What ``account`` (None: a visitor) sees of ``person``'s lists: all of them for the person and where the person
    shows their record to everybody; the lists of the events it shares with the person's events as one of their own
    people (a club's members: the club's nights); None where it sees none."""
    if (account is not None and person.account_id == account.pk) or person.shown != Shown.PRIVATE:
        return person_lists(person)
    if account is None:
        return None
    shared = lists_shared_with(account)
    lists = person_lists(person).filter(within__in=shared) if shared else None
    return lists if lists is not None and lists.exists() else None


def shown_name(person: Person, account: User | None) -> str:
    """The person's name as ``account`` sees it: the first name only where the person asks for that."""
    if person.shown == Shown.FIRST and (account is None or person.account_id != account.pk):
        return person.name.split()[0] if person.name.split() else person.name
    return person.name


def summed_lists(lists: QuerySet[ClosedList]) -> QuerySet[ClosedList]:
    """Of ``lists``, those a record sums: the Seeger-Fabian lists (every tournament's and league's, and a club's
    where its season scores so). Points of another scheme never add up with them."""
    return lists.filter(scheme=Scheme.SEEGER_FABIAN)


def list_sequence(date: datetime.date, series: int) -> int:
    """A closed list's place in time, as one number to list and page by: its day, then its series."""
    return date.toordinal() * 1000 + series


def record_figures(lists: QuerySet[ClosedList]) -> Figures:
    """The figures over ``lists``, in one query."""
    return _figures(lists.aggregate(**SUMS))


def record_by_kind(lists: QuerySet[ClosedList]) -> list[tuple[str, Figures]]:
    """The figures of each kind of event (its registered name), the kind with the most series first."""
    rows = lists.order_by().values("kind").annotate(**SUMS).order_by("-series", "kind")
    return [(row["kind"], _figures(row)) for row in rows]


def record_by_year(lists: QuerySet[ClosedList]) -> list[tuple[int, Figures]]:
    """The figures of each year, the latest first."""
    rows = lists.order_by().annotate(year=ExtractYear("date")).values("year").annotate(**SUMS).order_by("-year")
    return [(row["year"], _figures(row)) for row in rows]


def record_months(lists: QuerySet[ClosedList]) -> list[tuple[datetime.date, Fraction]]:
    """The average per series of each month with a list, in the order of time."""
    rows = (
        lists.order_by()
        .annotate(month=TruncMonth("date"))
        .values("month")
        .annotate(series=Count("id"), points=Sum("total"))
        .order_by("month")
    )
    return [(row["month"], Fraction(row["points"], row["series"])) for row in rows]


def record_chart(months: Sequence[tuple[datetime.date, Fraction]]) -> Chart | None:
    """The average per series month by month as a line; None with fewer than two months."""
    if len(months) < 2:
        return None
    return values_chart([int(rounded(average, 0)) for _, average in months])


@dataclass(frozen=True)
class Partner:
    """Somebody the person sat with: their name as the event's book has it, at how many tables, and the person's own
    figures at those tables."""

    name: str
    figures: Figures


def record_partners(lists: QuerySet[ClosedList], most: int = PARTNERS) -> list[Partner]:
    """The ``most`` players the person sat with at the most tables (by the event's player: joined people of other
    books count apart), each with the person's own figures at those tables."""
    mine = lists.values("match_id")
    others = (
        ClosedList.objects.filter(match_id__in=mine)
        .exclude(player_id__in=lists.values("player_id"))
        .values("player_id", "player__name")
        .annotate(tables=Count("match_id"))
        .order_by("-tables", "player__name")[:most]
    )
    partners = []
    for row in others:
        shared = ClosedList.objects.filter(player_id=row["player_id"]).values("match_id")
        at_their_tables = lists.filter(match_id__in=shared)
        partners.append(Partner(row["player__name"], record_figures(at_their_tables)))
    return partners


def person_allows(visitor: Visitor, action: Action, person: Person) -> bool:
    """A person's record is seen as the person shows it (``lists_seen``); nobody does more to it here."""
    return action is Action.VIEW and lists_seen(person, visitor.account) is not None
