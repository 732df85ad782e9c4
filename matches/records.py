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
from django.db.models import Count, DateField, F, Func, Max, QuerySet, Sum, Value

from .charts import Chart, values_chart
from .engine import Scheme
from .labels import rounded
from .models import ClosedList, Person, Player, RecordMonth, Shown
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


@dataclass(frozen=True)
class Lists:
    """The closed lists a record reads: every list of the players ``players`` (a person's, of every book), or with
    ``within`` those of these events alone (what a clubmate sees of a private record)."""

    players: tuple[int, ...]
    within: tuple[uuid.UUID, ...] | None = None

    @property
    def every(self) -> QuerySet[ClosedList]:
        """The lists, of every scheme."""
        lists = ClosedList.objects.filter(player_id__in=self.players)
        return lists if self.within is None else lists.filter(within__in=self.within)

    @property
    def summed(self) -> QuerySet[ClosedList]:
        """Of the lists, those a record sums: the Seeger-Fabian lists (every tournament's and league's, and a club's
        where its season scores so). Points of another scheme never add up with them."""
        return self.every.filter(scheme=Scheme.SEEGER_FABIAN)


def person_lists(person: Person | None) -> Lists:
    """Every closed list of the players joined to ``person`` (none for nobody), whoever's event it was."""
    if person is None:
        return Lists(())
    return Lists(tuple(person.players.values_list("pk", flat=True)))


def own_lists(user: User) -> Lists:
    """Every closed list of the person of ``user``'s account."""
    return person_lists(Person.objects.filter(account=user).first())


def lists_seen(person: Person, account: User | None) -> Lists | None:
    """What ``account`` (None: a visitor) sees of ``person``'s lists: all of them for the person and where the person
    shows their record to everybody; the lists of the events it shares with the person's events as one of their own
    people (a club's members: the club's nights); None where it sees none."""
    if (account is not None and person.account_id == account.pk) or person.shown != Shown.PRIVATE:
        return person_lists(person)
    if account is None:
        return None
    shared = lists_shared_with(account)
    if not shared:
        return None
    lists = Lists(person_lists(person).players, tuple(shared))
    return lists if lists.every.exists() else None


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


def list_sequence(date: datetime.date, series: int) -> int:
    """A closed list's place in time, as one number to list and page by: its day, then its series."""
    return date.toordinal() * 1000 + series


@dataclass
class _Sums:
    series: int = 0
    games: int = 0
    won: int = 0
    lost: int = 0
    total: int = 0
    best: int | None = None
    lengths: set[int] = field(default_factory=set)

    def add(self, other: _Sums) -> None:
        self.series += other.series
        self.games += other.games
        self.won += other.won
        self.lost += other.lost
        self.total += other.total
        if other.best is not None:
            self.best = other.best if self.best is None else max(self.best, other.best)
        self.lengths |= other.lengths

    def figures(self) -> Figures:
        return Figures(self.series, self.games, self.won, self.lost, self.total, self.best, len(self.lengths))


@dataclass(frozen=True)
class Overview:
    """A record's figures: over every list it sums, by kind of event (the kind with the most series first), by year
    (the latest first) and the average of each month (in the order of time); ``others``: how many lists of another
    scheme it does not sum."""

    figures: Figures
    by_kind: list[tuple[str, Figures]]
    by_year: list[tuple[int, Figures]]
    months: list[tuple[datetime.date, Fraction]]
    others: int


class YearMonth(Func):
    """A date's first day of its month, by the database's own date functions, so that grouping by the month calls no
    function of Python's for every row (as Django's ``TruncMonth`` does on SQLite)."""

    output_field = DateField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return Func(Value("%Y-%m-01"), *self.get_source_expressions(), function="strftime").as_sql(compiler, connection)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="CAST(DATE_TRUNC('month', %(expressions)s) AS date)")


def _month_rows(lists: Lists) -> QuerySet[Any, Any]:
    """The lists summed by month, kind, scheme and length of series: for every list of some players, the months kept
    beside them (``RecordMonth``: some rows a month, however long the record); for some events' lists, summed by the
    database from the lists themselves."""
    if lists.within is None:
        return RecordMonth.objects.filter(player_id__in=lists.players).values(
            "month",
            "kind",
            "scheme",
            "games",
            "series",
            all_won=F("won"),
            all_lost=F("lost"),
            points=F("total"),
            top=F("best"),
        )
    return (
        lists.every.order_by()
        .annotate(month=YearMonth("date"))
        .values("month", "kind", "scheme", "games")
        .annotate(series=Count("id"), all_won=Sum("won"), all_lost=Sum("lost"), points=Sum("total"), top=Max("total"))
        .values("month", "kind", "scheme", "games", "series", "all_won", "all_lost", "points", "top")
    )


def record_overview(lists: Lists) -> Overview:
    """The figures of ``lists`` in one query of some rows a month, added up here."""
    whole = _Sums()
    kinds: defaultdict[str, _Sums] = defaultdict(_Sums)
    years: defaultdict[int, _Sums] = defaultdict(_Sums)
    months: defaultdict[datetime.date, _Sums] = defaultdict(_Sums)
    others = 0
    for row in _month_rows(lists):
        if row["scheme"] != Scheme.SEEGER_FABIAN:
            others += row["series"]
            continue
        month = row["month"]
        sums = _Sums(
            row["series"], row["games"] * row["series"], row["all_won"], row["all_lost"], row["points"], row["top"]
        )
        sums.lengths.add(row["games"])
        for into in (whole, kinds[row["kind"]], years[month.year], months[month]):
            into.add(sums)
    return Overview(
        whole.figures(),
        sorted(((kind, sums.figures()) for kind, sums in kinds.items()), key=lambda one: (-one[1].series, one[0])),
        sorted(((year, sums.figures()) for year, sums in years.items()), reverse=True),
        [(month, Fraction(sums.total, sums.series)) for month, sums in sorted(months.items())],
        others,
    )


# A record's chart draws its months up to three years of them, its years beyond: a line a reader can follow.
CHART_MONTHS = 36


def chart_points(overview: Overview) -> tuple[bool, list[tuple[datetime.date, Fraction]]]:
    """What the record's chart draws: whether by year, and each month's (or year's) first day with its average."""
    if len(overview.months) <= CHART_MONTHS:
        return False, overview.months
    years = sorted(overview.by_year)
    return True, [(datetime.date(year, 1, 1), Fraction(figures.total, figures.series)) for year, figures in years]


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


def record_partners(lists: Lists, most: int = PARTNERS) -> list[Partner]:
    """The ``most`` players the person sat with at the most of their latest ``PARTNER_LISTS`` tables (by the event's
    player: joined people of other books count apart), each with the person's own figures at those tables: summed
    by the database, a row for each of them, however long the record."""
    summed = lists.summed
    last = summed.order_by("-sequence").values_list("sequence", flat=True)[PARTNER_LISTS - 1 : PARTNER_LISTS]
    latest = summed.filter(sequence__gte=last[0]) if last else summed
    rows = (
        latest.order_by()
        .values(partner=F("match__closed_lists__player"), name=F("match__closed_lists__player__name"))
        .annotate(
            series=Count("id"),
            all_games=Sum("games"),
            all_won=Sum("won"),
            all_lost=Sum("lost"),
            points=Sum("total"),
            top=Max("total"),
            lengths=Count("games", distinct=True),
        )
        .order_by("-series", "name", "partner")[: most + len(lists.players)]
    )
    own = set(lists.players)
    return [
        Partner(
            row["name"],
            Figures(
                row["series"],
                row["all_games"],
                row["all_won"],
                row["all_lost"],
                row["points"],
                row["top"],
                row["lengths"],
            ),
        )
        for row in rows
        if row["partner"] not in own
    ][:most]


def person_allows(visitor: Visitor, action: Action, person: Person) -> bool:
    """A person's record is seen as the person shows it (``lists_seen``); nobody does more to it here."""
    return action is Action.VIEW and lists_seen(person, visitor.account) is not None
