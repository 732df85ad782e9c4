"""Every player's closed list of a series, kept once in the core for every kind of event (``ClosedList``): a kind
reports its tables when their lists close or reopen (``closed_lists_report``), a restore when it brought them, and
``manage.py rescore`` sums them afresh (``closed_lists_rescore``). Where each table was played is what its kind's
registered reader says (``matches.registry.closed_list_places``); the figures are the match's own: its live games,
or the lines of its paper list."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import transaction

from ..engine import Scheme
from ..engine.league import SeriesLine
from ..models import ClosedList, Match
from ..papers import paper_sums
from ..records import LIST_FIELDS, list_sequence
from ..registry import ListPlace, closed_list_places
from ..sums import list_sums

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
    with transaction.atomic():
        for chunk in _chunks(match_ids):
            fresh = _fresh(chunk)
            ClosedList.objects.filter(match_id__in=chunk).delete()
            ClosedList.objects.bulk_create(fresh.values())
            kept += len(fresh)
    return kept


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
