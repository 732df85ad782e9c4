"""Every player's closed list of a series, kept once in the core for every kind of event (``ClosedList``): a kind
reports its tables when their lists close or reopen (``closed_lists_report``), a restore when it brought them, and
``manage.py rescore`` sums them afresh (``closed_lists_rescore``). With them are kept the months a record reads
(``RecordMonth``) and the places of the rankings that count them. Where each table was played is what its kind's
registered reader says (``matches.registry.closed_list_places``); the figures are the match's own: its live games,
or the lines of its paper list."""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.db.models import Count, Max, Sum

from ..engine import Scheme
from ..engine.league import SeriesLine
from ..models import ClosedList, Match, RecordMonth
from ..papers import paper_sums
from ..records import LIST_FIELDS, list_sequence
from ..registry import ListPlace, closed_list_places
from ..sums import list_sums
from .rankings import rankings_follow

# Matches read at a time, so that no query names more of them than a database takes.
CHUNK = 1000


def _chunks(match_ids: Iterable[int]) -> Iterable[list[int]]:
    ids = sorted(set(match_ids))
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


def _fresh(match_ids: Sequence[int]) -> dict[tuple[int, int], ClosedList]:
    """The rows the matches ``match_ids`` should have: one per seated player with a list, for those at a table whose
    event closed its lists; none for the others."""
    places = closed_list_places(match_ids)
    if not places:
        return {}
    matches = {
        pk: (scheme, deals, planned or 0)
        for pk, scheme, deals, planned in Match.objects.filter(pk__in=list(places)).values_list(
            "pk", "scheme", "deals", "planned_games"
        )
    }
    rows: dict[tuple[int, int], ClosedList] = {}
    for sums in list_sums(list(places)):
        scheme, deals, _ = matches[sums.match]
        game_points = sums.game_points(seeger_fabian=scheme == Scheme.SEEGER_FABIAN)
        line = SeriesLine(str(sums.player), sums.players, game_points, sums.won, sums.lost, sums.others_lost)
        rows[sums.match, sums.player] = _row(sums.match, places[sums.match], line, deals, scheme)
    for (match, player), line in paper_sums(list(places)).items():
        scheme, _, planned = matches[match]
        rows[match, player] = _row(match, places[match], line, planned, scheme)
    return rows


def _row(match: int, place: ListPlace, line: SeriesLine, games: int, scheme: str) -> ClosedList:
    return ClosedList(
        match_id=match,
        player_id=int(line.player),
        kind=place.kind,
        event=place.event,
        event_name=place.event_name[:200],
        within=place.within,
        date=place.date,
        series=place.series,
        sequence=list_sequence(place.date, place.series),
        scheme=scheme,
        table_size=line.table_size,
        games=games,
        won=line.won,
        lost=line.lost,
        others_lost=line.others_lost,
        game_points=line.game_points,
        total=line.total if scheme == Scheme.SEEGER_FABIAN else line.game_points,
    )


def _key(row: ClosedList) -> tuple[object, ...]:
    return tuple(str(getattr(row, name)) for name in (*LIST_FIELDS, "sequence"))


def closed_lists_report(*, match_ids: Iterable[int]) -> int:
    """Keep the closed lists of the matches ``match_ids`` as they stand now: a row for each player at a table whose
    event closed its lists, none for a table whose event is open (reopened). Called by a kind of event when it closes
    or reopens tables, and by a restore for the matches it brought. Returns how many rows are kept for them."""
    kept = 0
    months: set[tuple[int, datetime.date]] = set()
    events: set[tuple[uuid.UUID, datetime.date]] = set()
    with transaction.atomic():
        for chunk in _chunks(match_ids):
            fresh = _fresh(chunk)
            gone = ClosedList.objects.filter(match_id__in=chunk)
            for player, within, day in gone.values_list("player_id", "within", "date"):
                months.add((player, day.replace(day=1)))
                events.add((within, day))
            gone.delete()
            ClosedList.objects.bulk_create(fresh.values())
            for row in fresh.values():
                months.add((row.player_id, row.date.replace(day=1)))
                events.add((row.within, row.date))
            kept += len(fresh)
        record_months_keep(months)
        rankings_follow(events)
    return kept


def _next_month(month: datetime.date) -> datetime.date:
    return (month + datetime.timedelta(days=31)).replace(day=1)


def _months_summed(players: Sequence[int], month: datetime.date) -> list[RecordMonth]:
    """The month's closed lists of ``players`` summed as a record reads them."""
    rows = (
        ClosedList.objects.filter(player_id__in=players, date__gte=month, date__lt=_next_month(month))
        .order_by()
        .values("player_id", "kind", "scheme", "games")
        .annotate(count=Count("id"), all_won=Sum("won"), all_lost=Sum("lost"), points=Sum("total"), top=Max("total"))
    )
    return [
        RecordMonth(
            player_id=row["player_id"],
            month=month,
            kind=row["kind"],
            scheme=row["scheme"],
            games=row["games"],
            series=row["count"],
            won=row["all_won"],
            lost=row["all_lost"],
            total=row["points"],
            best=row["top"],
        )
        for row in rows
    ]


def _by_month(months: Iterable[tuple[int, datetime.date]]) -> Iterable[tuple[datetime.date, list[int]]]:
    players: defaultdict[datetime.date, set[int]] = defaultdict(set)
    for player, month in months:
        players[month].add(player)
    for month in sorted(players):
        ids = sorted(players[month])
        for start in range(0, len(ids), CHUNK):
            yield month, ids[start : start + CHUNK]


def record_months_keep(months: Iterable[tuple[int, datetime.date]]) -> None:
    """Sum the closed lists of each (player, month) of ``months`` afresh into the player's ``RecordMonth`` rows: a
    query a month of the event's players, whatever their record holds before and after."""
    for month, players in _by_month(months):
        RecordMonth.objects.filter(player_id__in=players, month=month).delete()
        RecordMonth.objects.bulk_create(_months_summed(players, month))


def _month_key(row: RecordMonth) -> tuple[object, ...]:
    return (
        row.player_id,
        row.month,
        row.kind,
        row.scheme,
        row.games,
        row.series,
        row.won,
        row.lost,
        row.total,
        row.best,
    )


def record_months_rescore(*, check: bool) -> int:
    """Every player's months summed afresh from their closed lists and compared with those kept: how many
    (player, month) differ; without ``check`` those are kept anew."""
    listed = ClosedList.objects.order_by().values_list("player_id", "date__year", "date__month").distinct()
    months = {(player, datetime.date(year, month, 1)) for player, year, month in listed}
    months |= set(RecordMonth.objects.values_list("player_id", "month"))
    differing: set[tuple[int, datetime.date]] = set()
    for month, players in _by_month(months):
        fresh: defaultdict[int, set[tuple[object, ...]]] = defaultdict(set)
        kept: defaultdict[int, set[tuple[object, ...]]] = defaultdict(set)
        for row in _months_summed(players, month):
            fresh[row.player_id].add(_month_key(row))
        for row in RecordMonth.objects.filter(player_id__in=players, month=month):
            kept[row.player_id].add(_month_key(row))
        differing |= {(player, month) for player in players if fresh[player] != kept[player]}
    if differing and not check:
        with transaction.atomic():
            record_months_keep(differing)
    return len(differing)


def closed_lists_rescore(match_ids: Iterable[int], *, check: bool) -> dict[int, int]:
    """The closed lists of the matches ``match_ids`` summed afresh and compared with those kept: for each match
    whose rows differ, how many (a row only one side has differs too). With ``check`` nothing is written; otherwise
    the matches whose rows differ are kept anew."""
    differing: dict[int, int] = {}
    for chunk in _chunks(match_ids):
        fresh = {key: _key(row) for key, row in _fresh(chunk).items()}
        kept = {(row.match_id, row.player_id): _key(row) for row in ClosedList.objects.filter(match_id__in=chunk)}
        for key in fresh.keys() | kept.keys():
            if fresh.get(key) != kept.get(key):
                differing[key[0]] = differing.get(key[0], 0) + 1
    if differing and not check:
        closed_lists_report(match_ids=differing)
    return differing
