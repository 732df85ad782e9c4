"""Ranking lists over the closed lists the core keeps (``ClosedList``), for any kinds of event at once: the lists a
ranking counts, over a period, of the people it counts, ranked by its method (``docs/rules.md``, "Ranking lists"):

- the average per series with a minimum number of series, ties by more series played (the clubs' ranking lists);
- the sum of the best N results, a result being one's lists of one event (a night, a venue, a tournament) summed;
- placement points: each event's places by the results there, each worth the points of a published table scaled
  by the size of the field (the world-ranking lists' way of adding placements across tournaments).

A person (``Person``) counts once with every player of theirs; a player joined to nobody counts alone. The lists are
read in one query, with their players' people, however many events they span; the ranking is worked out here."""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Max, Q, QuerySet
from django.db.models.functions import TruncMonth, TruncYear
from django.utils import timezone

from .engine import Scheme
from .models import (
    RULES_KEPT,
    ClosedList,
    Counted,
    Method,
    Period,
    Person,
    Player,
    RankingEdition,
    RankingList,
    RankingPlace,
    Shown,
)
from .paging import PLACE_ERRORS, BadPlace, Page, page_of, place_of, place_token
from .permissions import Action, Visitor
from .registry import lists_circles, lists_countable_by

# How many events a form offers to count, the latest first, and how far back (a list keeps those it counts).
COUNTABLE = 300
OFFERED = datetime.timedelta(days=3 * 366)


@dataclass(frozen=True)
class Countable:
    """What a ranking list can count: a season, a group or a tournament (the lists' ``within``), of a kind, by the
    name its lists give it, with the day of its latest list."""

    within: uuid.UUID
    kind: str
    name: str
    last: datetime.date


def countable_events(account: User, *, keep: Iterable[str] = ()) -> list[Countable]:
    """The events ``account`` may count in a ranking list (those whose lists it sees: published results, and its own
    club's seasons), the latest first; ``keep``: those counted already, offered whatever their age."""
    public, shared = lists_countable_by(account)
    kept = []
    for one in keep:
        try:
            kept.append(uuid.UUID(str(one)))
        except ValueError:
            continue
    seen = (Q(kind__in=public) | Q(within__in=shared)) & Q(date__gte=timezone.localdate() - OFFERED)
    rows = (
        ClosedList.objects.filter(seen)
        .values("within", "kind")
        .annotate(name=Max("event_name"), last=Max("date"))
        .order_by("-last", "within")
    )
    found = {row["within"]: row for row in rows[:COUNTABLE]}
    if kept:
        again = ClosedList.objects.filter(Q(kind__in=public) | Q(within__in=shared), within__in=kept)
        found |= {
            row["within"]: row
            for row in again.values("within", "kind").annotate(name=Max("event_name"), last=Max("date"))
        }
    return [
        Countable(row["within"], row["kind"], row["name"], row["last"])
        for row in sorted(found.values(), key=lambda row: (row["last"], str(row["within"])), reverse=True)
    ]


@dataclass(frozen=True)
class Ranked:
    """A place of a ranking list: who (the name as they show it; ``person``: the public id of their record where
    they show it), their series, events and points, and the method's figure (``score``)."""

    place: int
    name: str
    person: uuid.UUID | None
    series: int
    events: int
    total: int
    score: Fraction


def period_of(ranking: RankingList, day: datetime.date) -> str:
    """The period a day falls in for the ranking: "2026-11", "2026" or "" (the whole time)."""
    if ranking.period == Period.MONTH:
        return f"{day.year:04d}-{day.month:02d}"
    if ranking.period == Period.YEAR:
        return f"{day.year:04d}"
    return ""


def counted_lists(ranking: RankingList, period: str | None = None) -> QuerySet[ClosedList]:
    """The closed lists the ranking counts (of ``period`` where given): of its events, in its dates, by
    Seeger-Fabian (points of another scheme never add up with these)."""
    lists = ClosedList.objects.filter(within__in=ranking.events, scheme=Scheme.SEEGER_FABIAN)
    if ranking.date_from is not None:
        lists = lists.filter(date__gte=ranking.date_from)
    if ranking.date_to is not None:
        lists = lists.filter(date__lte=ranking.date_to)
    if period:
        year, _, month = period.partition("-")
        lists = lists.filter(date__year=int(year))
        if month:
            lists = lists.filter(date__month=int(month))
    return lists


def ranking_periods(ranking: RankingList) -> list[str]:
    """The periods the ranking has lists in, the latest first: as kept with its places, else worked out now."""
    return ranking.periods if ranking.kept_at is not None else counted_periods(ranking)


def counted_periods(ranking: RankingList) -> list[str]:
    """The periods the ranking has lists in, the latest first, worked out from the lists it counts."""
    lists = counted_lists(ranking)
    if ranking.period == Period.WHOLE:
        return [""] if lists.exists() else []
    trunc = TruncMonth("date") if ranking.period == Period.MONTH else TruncYear("date")
    days = lists.annotate(start=trunc).values_list("start", flat=True).distinct().order_by("-start")
    return [period_of(ranking, day) for day in days]


@dataclass(frozen=True)
class Standing:
    """A place of a ranking list as worked out, by who holds it (``person``, else ``player`` alone), as
    ``RankingPlace`` keeps it."""

    place: int
    player: int
    person: int | None
    series: int
    events: int
    total: int
    score: Fraction


@dataclass
class _Who:
    player: int
    name: str
    person: int | None
    numbered: bool
    series: int = 0
    total: int = 0


def person_key(player: int, person: int | None) -> int:
    """One person counts once with every player of theirs; a player joined to nobody is somebody alone."""
    return person if person is not None else -player


def ranking_standing(ranking: RankingList, period: str = "") -> list[Standing]:
    """The ranking list of ``period`` worked out from the lists it counts, as it stands: one query over them."""
    fields = ("player_id", "player__name", "player__person_id", "player__person__federation_number", "event", "total")
    people: dict[int, _Who] = {}
    results: dict[uuid.UUID, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for player, name, person, number, event, total in counted_lists(ranking, period).values_list(*fields).iterator():
        key = person_key(player, person)
        who = people.get(key)
        if who is None:
            who = people[key] = _Who(player, name, person, bool(number))
        elif player < who.player:
            # A person of several players is named by the first of them, whatever order the lists come in.
            who.player, who.name = player, name
        who.series += 1
        who.total += total
        results[event][key] += total
    counted = _counted(ranking, people)
    scores: dict[int, tuple[Fraction, int]] = {}
    events: dict[int, int] = defaultdict(int)
    for at_event in results.values():
        for key in at_event:
            events[key] += 1
    if ranking.method == Method.AVERAGE:
        for key in counted:
            who = people[key]
            if who.series >= ranking.minimum:
                scores[key] = (Fraction(who.total, who.series), who.series)
    elif ranking.method == Method.BEST:
        best: dict[int, list[int]] = defaultdict(list)
        for at_event in results.values():
            for key, total in at_event.items():
                best[key].append(total)
        for key in counted:
            scores[key] = (Fraction(sum(sorted(best[key], reverse=True)[: ranking.best])), 0)
    else:
        points: dict[int, Fraction] = defaultdict(Fraction)
        for at_event in results.values():
            for key, place in _places(at_event).items():
                worth = ranking.places[place - 1] if place <= len(ranking.places) else 0
                points[key] += Fraction(worth * len(at_event), ranking.field)
        for key in counted:
            scores[key] = (points[key], 0)
    order = sorted(scores, key=lambda key: (-scores[key][0], -scores[key][1], people[key].name, key))
    rows: list[Standing] = []
    for index, key in enumerate(order):
        tied = index and scores[order[index - 1]] == scores[key]
        who = people[key]
        place = rows[-1].place if tied else index + 1
        rows.append(Standing(place, who.player, who.person, who.series, events[key], who.total, scores[key][0]))
    return rows


def shown_as(player_name: str, person: Person | None) -> tuple[str, uuid.UUID | None]:
    """A ranked person's name as they show it (the event's book's name for the player where they keep their record
    to themselves), and the public id of their record where they show it."""
    if person is None or person.shown == Shown.PRIVATE:
        return player_name, None
    name = person.name or player_name
    if person.shown == Shown.FIRST:
        name = name.split()[0] if name.split() else name
    return name, person.public_id


def ranking_rows(ranking: RankingList, period: str = "") -> list[Ranked]:
    """The ranking list of ``period`` as it stands, worked out now, with the names as they are shown."""
    standing = ranking_standing(ranking, period)
    players = Player.objects.select_related("person").in_bulk([row.player for row in standing])
    rows = []
    for row in standing:
        player = players[row.player]
        name, record = shown_as(player.name, player.person)
        rows.append(Ranked(row.place, name, record, row.series, row.events, row.total, row.score))
    return rows


def _counted(ranking: RankingList, people: dict[int, _Who]) -> list[int]:
    """Of the people with lists, those the ranking counts."""
    if ranking.counted == Counted.NUMBERED:
        return [key for key, who in people.items() if who.numbered]
    if ranking.counted == Counted.BOOK:
        book = {
            person_key(pk, person)
            for pk, person in Player.objects.filter(keeper=ranking.book_id).values_list("pk", "person_id")
        }
        return [key for key in people if key in book]
    return list(people)


def _places(totals: dict[int, int]) -> dict[int, int]:
    """The places at one event by the results there: equal results share the better place (1, 2, 2, 4)."""
    ordered = sorted(totals.values(), reverse=True)
    first: dict[int, int] = {}
    for index, total in enumerate(ordered):
        first.setdefault(total, index + 1)
    return {key: first[total] for key, total in totals.items()}


def ranking_allows(visitor: Visitor, action: Action, ranking: RankingList) -> bool:
    """A ranking list is seen as ``ranking_seen`` says, and changed by its owner only."""
    if action is Action.VIEW:
        return ranking_seen(ranking, visitor.account)
    return action is Action.MANAGE and visitor.account is not None and ranking.owner_id == visitor.account.pk


def ranking_seen(ranking: RankingList, account: User | None) -> bool:
    """Whether ``account`` (None: a visitor) sees the ranking: everybody a public one, else its owner and, for one
    of a club's players, the club's members."""
    if ranking.public:
        return True
    if account is None:
        return False
    if ranking.owner_id == account.pk:
        return True
    return ranking.book_id is not None and any(book == ranking.book_id for _, book, _ in lists_circles(account))


def edition_rows(edition: RankingEdition) -> list[Ranked]:
    """A published list's places, as they were kept."""
    return [
        Ranked(
            row["place"],
            row["name"],
            uuid.UUID(row["person"]) if row["person"] else None,
            row["series"],
            row["events"],
            row["total"],
            Fraction(row["score"]),
        )
        for row in edition.rows
    ]


def _kept(places: Iterable[RankingPlace]) -> list[Ranked]:
    return [
        Ranked(
            place.place,
            *shown_as(place.player.name, place.person),
            place.series,
            place.events,
            place.total,
            Fraction(place.score),
        )
        for place in places
    ]


def _kept_places(ranking: RankingList, period: str) -> QuerySet[RankingPlace]:
    return RankingPlace.objects.filter(ranking=ranking, period=period).select_related("player", "person")


@dataclass(frozen=True)
class Rules:
    """How a list's rows are ranked: its method and options (``RULES_KEPT``)."""

    method: str
    minimum: int
    best: int
    counted: str
    places: list[int]
    field: int

    @property
    def method_label(self) -> str:
        return str(Method(self.method).label)

    @property
    def counted_label(self) -> str:
        return str(Counted(self.counted).label)


def rules_of(ranking: RankingList) -> dict[str, Any]:
    """The ranking list's method and options as they are now, as a published list keeps them."""
    return {name: getattr(ranking, name) for name in RULES_KEPT}


def ranked_by(ranking: RankingList, edition: RankingEdition | None) -> Rules:
    """How the rows shown were ranked: by the rules a published list was ranked by, else by the list's own."""
    return Rules(**(rules_of(ranking) | (edition.rules if edition is not None else {})))


# What ``?edition=`` names besides an edition's number: the period's list as it stands, published or not.
STANDING = "standing"


class NoSuchEdition(ValueError):
    """An edition asked for that the period's list has not (a 404 on a page, a 400 in the API)."""


def current_edition(ranking: RankingList, period: str) -> RankingEdition | None:
    """The period's published list: its edition not replaced, if it was published."""
    return RankingEdition.objects.filter(ranking=ranking, period=period, replaced_at__isnull=True).first()


def edition_asked(ranking: RankingList, period: str, asked: str | None = None) -> RankingEdition | None:
    """The edition of the period's list ``asked`` names: one by its number, none (the list as it stands) for
    ``STANDING``, and the period's published list where nothing is asked (None where it was never published).
    Raises ``NoSuchEdition`` for anything else."""
    if asked is None:
        return current_edition(ranking, period)
    if asked == STANDING:
        return None
    if not (asked.isascii() and asked.isdigit() and len(asked) <= 9):
        raise NoSuchEdition(asked)
    edition = RankingEdition.objects.filter(ranking=ranking, period=period, number=int(asked)).first()
    if edition is None:
        raise NoSuchEdition(asked)
    return edition


def period_editions(ranking: RankingList, period: str) -> list[RankingEdition]:
    """Every edition of the period's list, the latest first (the published list, then those it replaced), without
    their rows."""
    editions = RankingEdition.objects.filter(ranking=ranking, period=period).defer("rows", "rules")
    return list(editions.order_by("-number"))


def ranking_shown(
    ranking: RankingList, period: str, asked: str | None = None
) -> tuple[list[Ranked], RankingEdition | None]:
    """The period's whole list as published (with its edition; another edition, or the list as it stands, where
    ``asked`` names it: ``edition_asked``), else as it stands (with None): as its places are kept, or worked out now
    for a list whose places were never kept."""
    edition = edition_asked(ranking, period, asked)
    if edition is not None:
        return edition_rows(edition), edition
    if ranking.kept_at is None:
        return ranking_rows(ranking, period), None
    return _kept(_kept_places(ranking, period).order_by("place", "pk")), None


def period_known(ranking: RankingList, period: str) -> bool:
    """Whether the ranking has a list of ``period``: one with lists, the whole time of a list over the whole time,
    or a period published (whose lists may have reopened since)."""
    return (
        period in ranking_periods(ranking)
        or (period == "" and ranking.period == Period.WHOLE)
        or RankingEdition.objects.filter(ranking=ranking, period=period).exists()
    )


# A page's place in a ranking list names its period and how the list is read (its kept places by their place, a
# list never kept read whole by its rows' order, an edition read whole by its number), so that it never continues
# another list: a place of another period, or of the same period read another way since (published meanwhile, or
# published anew), is a page not made here.
KEPT, WHOLE, EDITION = "kept", "whole", "edition-"


def cursor_period(after: str | None) -> str | None:
    """The period whose list a page's place (``after``) continues; None without one. Raises ``BadPlace`` (a 404) for
    a place not made here."""
    return _continued(after)[0] if after else None


def _continued(after: str) -> tuple[str, str, str]:
    try:
        (period, read, inner), zero = place_of(after)
        if not all(isinstance(part, str) for part in (period, read, inner)) or zero != 0:
            raise ValueError(after)
    except PLACE_ERRORS as error:
        raise BadPlace(after) from error
    return period, read, inner


def _inner(after: str | None, period: str, read: str) -> str | None:
    if not after:
        return None
    continued = _continued(after)
    if continued[:2] != (period, read):
        raise BadPlace(after)
    return continued[2]


def _outer(inner: str | None, period: str, read: str) -> str | None:
    return place_token([period, read, inner], 0) if inner is not None else None


def ranking_page(
    ranking: RankingList, period: str, *, asked: str | None = None, after: str | None, size: int
) -> tuple[Page, RankingEdition | None]:
    """A page of the period's list as ``ranking_shown`` gives it whole: the kept places a page at a time, at the same
    cost however long the list; a published list, or one never kept, read whole and shown a page at a time. Raises
    ``BadPlace`` (a 404) for a place not made here, or made for another period or reading of the list (each edition
    is read as itself), and ``NoSuchEdition`` as ``edition_asked`` does."""
    edition = edition_asked(ranking, period, asked)
    if edition is not None or ranking.kept_at is None:
        rows = edition_rows(edition) if edition is not None else ranking_rows(ranking, period)
        read = f"{EDITION}{edition.number}" if edition is not None else WHOLE
        page = _rows_page(rows, after=_inner(after, period, read), size=size)
        return Page(page.items, _outer(page.after, period, read), page.paged), edition
    page = page_of(_kept_places(ranking, period), by="place", after=_inner(after, period, KEPT), size=size)
    return Page(_kept(page.items), _outer(page.after, period, KEPT), page.paged), None


def _rows_page(rows: list[Ranked], *, after: str | None, size: int) -> Page:
    """A page of a whole list, after the place ``after`` (the place and the index of the last row of the page
    before, as ``page_of`` makes its places)."""
    start = 0
    if after:
        try:
            place, index = place_of(after)
            if type(index) is not int or not 0 <= index < len(rows) or rows[index].place != place:
                raise ValueError(index)
        except PLACE_ERRORS as error:
            raise BadPlace(after) from error
        start = index + 1
    end = start + size
    following = place_token(rows[end - 1].place, end - 1) if end < len(rows) else None
    return Page(rows[start:end], following, paged=bool(after))
