"""A person's record across every kind of event, read from the closed lists the core keeps (``ClosedList``) and
never from the apps' own tables: the figures over any set of lists, the same figures by kind of event and by year,
the average month by month for the chart, and whom the person sat with most. Each is one query summed by the
database (the people sat with: one more for each), however many series. How each figure is worked out is in
``docs/rules.md`` ("A player's record")."""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Max, QuerySet, Sum

from .charts import Chart, values_chart
from .engine import Scheme
from .labels import rounded
from .models import ClosedList, Person, Player, Shown
from .permissions import Action, Visitor
from .registry import lists_shared_with

# A series at a table of four has 48 games (ISkO 4.2.1, the Seeger-Fabian lists): the average per series is also
# given per 48 games where series of other lengths mix.
GAMES_PER_SERIES = 48
# The people one sat with most, as the record lists them, over one's latest lists.
PARTNERS = 5
PARTNER_LISTS = 1000
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


def record_links(player_ids: Iterable[int]) -> dict[int, uuid.UUID]:
    """Of the players ``player_ids`` (an event's results), those whose person shows their record to everybody, with
    the public id of that record: an event's page links their names to it. One query however many."""
    shown = Player.objects.filter(pk__in=list(player_ids), person__shown__in=[Shown.FULL, Shown.FIRST])
    return dict(shown.values_list("pk", "person__public_id"))


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


@dataclass
class _Sums:
    series: int = 0
    games: int = 0
    won: int = 0
    lost: int = 0
    total: int = 0
    best: int | None = None
    lengths: set[int] = field(default_factory=set)

    def add(self, row: dict[str, Any]) -> None:
        self.series += row["series"]
        self.games += row["games"] * row["series"]
        self.won += row["all_won"] or 0
        self.lost += row["all_lost"] or 0
        self.total += row["points"] or 0
        self.best = row["best"] if self.best is None else max(self.best, row["best"])
        self.lengths.add(row["games"])

    def figures(self) -> Figures:
        return Figures(self.series, self.games, self.won, self.lost, self.total, self.best, len(self.lengths))


@dataclass(frozen=True)
class Overview:
    """A record's figures: over every list, by kind of event (the kind with the most series first), by year (the
    latest first) and the average of each month (in the order of time)."""

    figures: Figures
    by_kind: list[tuple[str, Figures]]
    by_year: list[tuple[int, Figures]]
    months: list[tuple[datetime.date, Fraction]]


def record_overview(lists: QuerySet[ClosedList]) -> Overview:
    """The figures of ``lists`` in one query, summed by the database to a row per day, kind and length of series (a
    few thousand rows for a lifetime of series) and added up here: the same few reads at 10,000 series as at 100."""
    rows = (
        lists.order_by()
        .values("date", "kind", "games")
        .annotate(series=Count("id"), all_won=Sum("won"), all_lost=Sum("lost"), points=Sum("total"), best=Max("total"))
    )
    whole = _Sums()
    kinds: defaultdict[str, _Sums] = defaultdict(_Sums)
    years: defaultdict[int, _Sums] = defaultdict(_Sums)
    months: defaultdict[datetime.date, _Sums] = defaultdict(_Sums)
    for row in rows.iterator():
        day: datetime.date = row["date"]
        for sums in (whole, kinds[row["kind"]], years[day.year], months[day.replace(day=1)]):
            sums.add(row)
    return Overview(
        whole.figures(),
        sorted(((kind, sums.figures()) for kind, sums in kinds.items()), key=lambda one: (-one[1].series, one[0])),
        sorted(((year, sums.figures()) for year, sums in years.items()), reverse=True),
        [(month, Fraction(sums.total, sums.series)) for month, sums in sorted(months.items())],
    )


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
    """The ``most`` players the person sat with at the most of their latest ``PARTNER_LISTS`` tables (by the event's
    player: joined people of other books count apart), each with the person's own figures at those tables."""
    mine = lists.order_by("-sequence").values("match_id")[:PARTNER_LISTS]
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
        at_their_tables = lists.filter(match_id__in=shared).filter(match_id__in=mine)
        partners.append(Partner(row["player__name"], record_figures(at_their_tables)))
    return partners


def person_allows(visitor: Visitor, action: Action, person: Person) -> bool:
    """A person's record is seen as the person shows it (``lists_seen``); nobody does more to it here."""
    return action is Action.VIEW and lists_seen(person, visitor.account) is not None
