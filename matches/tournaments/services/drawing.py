"""Drawing a series: from the recorded seed, by the standings or by a fixed plan, each table a match of the
tournament's book started through the core."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine import FieldError, RuleError
from matches.engine.messages import gettext_noop, msg
from matches.engine.tournaments import Seating, seat_series, series_seed
from matches.errors import Conflict, Invalid
from matches.services.events import one_of
from matches.services.tables import moved_on, table_match, table_title

from ..models import Entry, EntryStanding, Series, Table, TableSeat, Tournament
from ..selectors import drawn_series, entry_key, seatings, tournament_rules
from .common import lock_tournament


def _check_version(tournament: Tournament, version: int | None) -> None:
    if version is not None and version != tournament.version:
        raise Conflict.on(
            "version", gettext_noop("The tournament changed since this page was loaded; nothing was changed.")
        )


def _next_series(tournament: Tournament, number: int, series: Sequence[Series]) -> None:
    """Refuse a series drawn already, one not next, and one drawn while the one before is being played."""
    if any(one.number == number for one in series):
        raise Conflict.on("series", gettext_noop("Series {number} is drawn already."), number=number)
    if not 1 <= number <= tournament.series:
        raise Invalid.on(
            "series", gettext_noop("The tournament has {count} series, not more."), count=tournament.series
        )
    if number != len(series) + 1:
        raise Invalid.on("series", gettext_noop("Series {number} is drawn next."), number=len(series) + 1)
    if series and series[-1].closed_at is None:
        raise Conflict.on(
            "series",
            gettext_noop("Series {number} is being played: it is closed before the next is drawn."),
            number=series[-1].number,
        )


def series_draw(
    *,
    tournament: Tournament,
    number: int,
    seating: str = Seating.DRAW.value,
    plan: Sequence[Sequence[Entry]] = (),
    version: int | None = None,
    user: User | None = None,
) -> list[Table]:
    """Draw series ``number`` for the entrants still in: the first from the tournament's recorded seed (or by a
    fixed plan); a later one drawn again avoiding the pairings of every series before, seated by the standings
    (the leaders at table 1), or by a fixed plan; tables of four first, the rest of three. Each table is a match of
    the tournament's book, started through the core with the tournament's rules and length. Refused for a series
    drawn already (two at once: the second waits for the first and is refused), one not next, one while the series
    before is being played, a stale ``version``, the first seated by standings there are not yet, and a plan that
    seats a player twice, leaves one out or seats one not in the series."""
    mode = Seating(one_of(seating, Seating, "seating"))
    with transaction.atomic():
        locked = lock_tournament(tournament)
        _check_version(locked, version)
        series = drawn_series(locked)
        _next_series(locked, number, series)
        if number == 1 and mode is Seating.STANDINGS:
            raise Invalid.on("seating", gettext_noop("Series 1 has no standings to seat by: it is drawn or planned."))
        entries = {
            entry_key(entry): entry
            for entry in Entry.objects.filter(tournament=locked, withdrawn_after__isnull=True).select_related("player")
        }
        _refuse_strangers(locked, plan)
        rules = tournament_rules(locked, [])
        # Every series drawn is closed by now (``_next_series``): the kept standings are the standings.
        standings = (
            list(
                EntryStanding.objects.filter(tournament=locked)
                .order_by("place")
                .values_list("entry__player__name", flat=True)
            )
            if mode is Seating.STANDINGS
            else []
        )
        try:
            tables = seat_series(
                list(entries),
                number=number,
                rules=rules,
                seating=mode,
                before=seatings(series),
                standings=standings,
                plan=tuple(tuple(entry_key(entry) for entry in table) for table in plan),
            )
        except RuleError as error:
            raise Invalid.from_rules(error) from error
        drawn = Series.objects.create(
            tournament=locked,
            number=number,
            seating=mode,
            seed=series_seed(locked.seed, number) if mode is Seating.DRAW else "",
            drawn_by=user,
        )
        started = [_start_table(locked, drawn, index, table, entries, user) for index, table in enumerate(tables, 1)]
        moved_on(locked)
        return started


def _refuse_strangers(tournament: Tournament, plan: Sequence[Sequence[Entry]]) -> None:
    """Refuse a plan seating an entrant of another tournament (the engine knows entrants by name only)."""
    strangers = [
        FieldError(
            f"tables.{index}", msg(gettext_noop("{player} does not play this series."), player=entry.player.name)
        )
        for index, table in enumerate(plan)
        for entry in table
        if entry.tournament_id != tournament.pk
    ]
    if strangers:
        raise Invalid(strangers)


def _start_table(
    tournament: Tournament,
    series: Series,
    number: int,
    seats: Sequence[str],
    entries: dict[str, Entry],
    user: User | None,
) -> Table:
    players = [entries[key] for key in seats]
    title = table_title(number, series.number, tournament.name)
    match = table_match(
        keeper=tournament.keeper,
        rules=tournament,
        players=[entry.player.name for entry in players],
        title=title,
        user=user,
    )
    table = Table.objects.create(series=series, number=number, match=match)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, series=series, entry=entry, position=position) for position, entry in enumerate(players)
    )
    return table
