"""Paper lists and closing a series: a table's paper list, a series closed with every player's list kept, the places
kept from them, and the rescores."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from matches.engine import FieldError
from matches.engine.messages import gettext_noop, msg
from matches.errors import Conflict
from matches.models import Match
from matches.services import TableVersion, closed_lists_report, match_lock
from matches.services import table_paper_enter as core_table_paper_enter
from matches.services.tables import moved_on
from matches.standings import rows_differ

from ..models import Entry, EntryStanding, Series, SeriesList, Table, TableSeat, Tournament
from ..selectors import standings_over_closed_series, table_lines
from .common import lock_tournament


def table_paper_enter(
    *,
    table: Table,
    lines: Sequence[tuple[Entry, int, int, int]],
    user: User | None,
    version: TableVersion | None = None,
) -> None:
    """Enter a table's paper list, a line for each entrant, through the core's ``table_paper_enter``, checked against
    the tournament's series. Refused once its series is closed."""
    with transaction.atomic():
        tournament = lock_tournament(table.series.tournament)
        series = Series.objects.select_for_update().get(pk=table.series_id)
        if series.closed_at is not None:
            raise Conflict.on("table", gettext_noop("Series {number} is closed: its lists stay."), number=series.number)
        games = tournament.games_at_four if len(lines) == 4 else tournament.games_at_three
        players = [(entry.player, points, won, lost) for entry, points, won, lost in lines]
        core_table_paper_enter(
            table=table, event=tournament, lines=players, games=games, skat_values=True, user=user, version=version
        )


def series_close(*, series: Series, user: User | None) -> Series:
    """Close a series whose every table's list is complete (kept on paper, or all its planned games entered): each
    list is locked and its scoring link turned off through the core, and every player's list of the series is kept
    for the standings. Refused while a table is short of games; closing a closed series leaves it as it is."""
    with transaction.atomic():
        locked_tournament = lock_tournament(series.tournament)
        locked = Series.objects.select_for_update().get(pk=series.pk)
        if locked.closed_at is not None:
            return locked
        tables = list(Table.objects.filter(series=locked).select_related("match").order_by("number"))
        # Every list locked first, and how far each is read under its lock: a game taken back (an undo, a deletion)
        # while the series closes cannot leave a list short of its games; a refusal rolls the locks back.
        for table in tables:
            match_lock(match=table.match, user=user, end_scoring=True)
        deals = dict(Match.objects.filter(pk__in=[table.match_id for table in tables]).values_list("pk", "deals"))
        short = [
            FieldError(
                "tables",
                msg(
                    gettext_noop("Table {number} of series {series} has {count} of {games} games."),
                    number=table.number,
                    series=locked.number,
                    count=deals[table.match_id],
                    games=table.match.planned_games or 0,
                ),
            )
            for table in tables
            if not table.paper and deals[table.match_id] < (table.match.planned_games or 0)
        ]
        if short:
            raise Conflict(short)
        SeriesList.objects.bulk_create(series_lists_summed(locked, tables))
        locked.closed_at = timezone.now()
        locked.save(update_fields=["closed_at"])
        closed_lists_report(match_ids=[table.match_id for table in tables])
        standings_kept(locked_tournament, locked.number)
        moved_on(locked_tournament)
        return locked


def series_lists_summed(series: Series, tables: Sequence[Table]) -> list[SeriesList]:
    """Every player's list of the series, summed from its ``tables`` (their games or paper totals), as the series
    keeps them once closed; not yet written."""
    lines = table_lines(tables)
    entry_of = dict(TableSeat.objects.filter(series=series).values_list("entry__player__name", "entry_id"))
    return [
        SeriesList(
            series=series,
            entry_id=entry_of[line.player],
            table_size=line.table_size,
            game_points=line.game_points,
            won=line.won,
            lost=line.lost,
            others_lost=line.others_lost,
        )
        for table in tables
        for line in lines[table.pk]
    ]


def standings_kept(tournament: Tournament, closed: int) -> None:
    """Rank every entrant's lists over the ``closed`` series closed so far and keep the places, in place of those
    kept before (a closed series never changes: its lists are locked, so only closing the next one moves them; a
    restore keeps them again from the lists it summed)."""
    EntryStanding.objects.filter(tournament=tournament).delete()
    EntryStanding.objects.bulk_create(_standings(tournament, closed))


def _standings(tournament: Tournament, closed: int) -> list[EntryStanding]:
    """Every entrant's place over the ``closed`` series closed so far, ranked from the lists they kept; not yet
    written."""
    return [
        EntryStanding(
            tournament=tournament,
            entry_id=entry_id,
            series=closed,
            place=place.place,
            by_lot=place.by_lot,
            total=int(place.standing.score),
            game_points=place.standing.game_points,
            won=place.standing.won,
            lost=place.standing.lost,
            lists=place.standing.lists,
        )
        for entry_id, place in standings_over_closed_series(tournament)
    ]


# A series' list of a player, and an entrant's place, as they are compared with those kept.
LIST_FIELDS = ("table_size", "game_points", "won", "lost", "others_lost")
STANDING_FIELDS = ("series", "place", "by_lot", "total", "game_points", "won", "lost", "lists")


def series_lists_rescore(tournament: Tournament, *, check: bool = False) -> int:
    """Sum the lists of a tournament's closed series afresh from their tables, as closing each did, and compare with
    the lists they kept: the number of players' lists that differ; unless ``check``, a series whose lists differ
    keeps them anew (the places follow with ``tournament_standings_rescore``). Done under the tournament's lock."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        differ = 0
        for series in Series.objects.filter(tournament=locked, closed_at__isnull=False).order_by("number"):
            tables = list(Table.objects.filter(series=series).select_related("match").order_by("number"))
            fresh = series_lists_summed(series, tables)
            kept = SeriesList.objects.filter(series=series).values_list("entry_id", *LIST_FIELDS)
            changed = rows_differ(
                {row.entry_id: tuple(getattr(row, name) for name in LIST_FIELDS) for row in fresh},
                {row[0]: row[1:] for row in kept},
            )
            if changed and not check:
                SeriesList.objects.filter(series=series).delete()
                SeriesList.objects.bulk_create(fresh)
            differ += changed
        if differ and not check:
            # What the tournament shows changed: its pages, following its version, show it anew.
            moved_on(locked)
        return differ


def tournament_standings_rescore(tournament: Tournament, *, check: bool = False) -> int:
    """Rank the lists a tournament's closed series kept afresh, as closing the last of them did, and compare with
    the places kept: the number of entrants whose place or sums differ; unless ``check``, the places are kept anew,
    as ``standings_kept`` keeps them. Done under the tournament's lock."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        closed = Series.objects.filter(tournament=locked, closed_at__isnull=False).count()
        # Places are kept from the first series closed on.
        fresh = _standings(locked, closed) if closed else []
        kept = EntryStanding.objects.filter(tournament=locked).values_list("entry_id", *STANDING_FIELDS)
        differ = rows_differ(
            {row.entry_id: tuple(getattr(row, name) for name in STANDING_FIELDS) for row in fresh},
            {row[0]: row[1:] for row in kept},
        )
        if differ and not check:
            EntryStanding.objects.filter(tournament=locked).delete()
            EntryStanding.objects.bulk_create(fresh)
            moved_on(locked)
        return differ
