"""Seating and the tables: a series seated from its teams' line-ups (each table a match started through the core),
its seating dropped before play, and a table's paper list."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine import RuleError
from matches.engine.match_days import LineUp, seat_series
from matches.engine.messages import gettext_noop
from matches.errors import Conflict, Invalid
from matches.models import Game, Player
from matches.services import TableVersion, match_discard
from matches.services import table_paper_enter as core_table_paper_enter
from matches.services.tables import moved_on, table_match, table_title

from ..models import CheckIn, League, Venue, VenueTable, VenueTeam
from ..selectors import venue_seatings
from .common import checked_series, open_venue


def series_seat(*, venue: Venue, series: int, user: User | None) -> list[VenueTable]:
    """Seat a series from its teams' line-ups, so that no two players of one team sit together and no two who sat
    together in a series before at the venue sit together again where that can be (the engine's ``seat_series``,
    from the match day's seed: the same line-ups and series before seat the same way again). Each table is a match
    of the league's book, started through the core, with the league's rules and length. A series seated already
    keeps its tables: seating it twice (two phones at once) seats it once."""
    with transaction.atomic():
        locked = open_venue(venue)
        checked_series(locked, series)
        seated = list(VenueTable.objects.filter(venue=locked, series=series).order_by("number"))
        if seated:
            return seated
        if series > 1 and not VenueTable.objects.filter(venue=locked, series=series - 1).exists():
            raise Conflict.on(
                "series",
                gettext_noop("Series {before} is not seated yet: the series are seated in order, {before} first."),
                before=series - 1,
            )
        line_ups = _line_ups(locked, series)
        before = [
            [[str(player.public_id) for player in table] for table in tables]
            for tables in venue_seatings(locked, through=series - 1)
        ]
        try:
            plan = seat_series(line_ups, number=series, before=before, seed=locked.seed)
        except RuleError as error:
            raise Invalid.from_rules(error) from error
        players = {
            str(one.league_player.public_id): one.league_player
            for one in CheckIn.objects.filter(venue=locked, series=series).select_related("league_player")
        }
        league = locked.match_day.group.division.league
        moved_on(locked)
        return [
            _start_table(locked, series, number, [players[seat.player] for seat in table], league, user)
            for number, table in enumerate(plan, start=1)
        ]


def _line_ups(venue: Venue, series: int) -> list[LineUp]:
    """The line-ups checked in for the series, in the venue's order of teams; a team that checked in nobody is
    absent from it."""
    check_ins = CheckIn.objects.filter(venue=venue, series=series).select_related("team", "league_player")
    by_team: dict[int, list[CheckIn]] = {}
    for one in check_ins.order_by("position", "id"):
        by_team.setdefault(one.team_id, []).append(one)
    order = VenueTeam.objects.filter(venue=venue).order_by("order", "id").values_list("team_id", flat=True)
    return [
        LineUp(by_team[team][0].team.name, tuple(str(one.league_player.public_id) for one in by_team[team]))
        for team in order
        if team in by_team
    ]


def _start_table(
    venue: Venue, series: int, number: int, players: Sequence[Player], league: League, user: User | None
) -> VenueTable:
    title = table_title(number, series, venue.match_day.group.name, venue.match_day.date)
    match = table_match(
        keeper=league.keeper, rules=league, players=[player.name for player in players], title=title, user=user
    )
    return VenueTable.objects.create(venue=venue, series=series, number=number, match=match)


def _entered(tables: Sequence[VenueTable]) -> VenueTable | None:
    """The first of ``tables`` that entered something: a paper list, or a game (one deleted or undone since counts
    too: it was saved, and its history stays with its list)."""
    with_games = set(
        Game.objects.filter(match_id__in=[table.match_id for table in tables]).values_list("match_id", flat=True)
    )
    return next((table for table in tables if table.paper or table.match_id in with_games), None)


def series_unseat(*, venue: Venue, series: int) -> Venue:
    """Drop a series' seating before play (its matches discarded through the core), so that its line-ups can change
    and it can be seated again. Refused once a table of the series entered something."""
    with transaction.atomic():
        locked = open_venue(venue)
        checked_series(locked, series)
        tables = list(VenueTable.objects.filter(venue=locked, series=series).select_related("match"))
        if not tables:
            raise Invalid.on("series", gettext_noop("Series {series} has no tables drawn."), series=series)
        played = _entered(tables)
        if played is not None:
            raise Conflict.on(
                "series",
                gettext_noop("Table {number} of series {series} has entered its list: the series stays as drawn."),
                number=played.number,
                series=series,
            )
        VenueTable.objects.filter(pk__in=[table.pk for table in tables]).delete()
        for table in tables:
            match_discard(match=table.match)
        moved_on(locked)
        return locked


def table_paper_enter(
    *,
    table: VenueTable,
    lines: Sequence[tuple[Player, int, int, int]],
    user: User | None,
    version: TableVersion | None = None,
) -> None:
    """Enter a table's paper list through the core's ``table_paper_enter``, while its venue is open, checked against
    the league's series."""
    with transaction.atomic():
        venue = open_venue(table.venue)
        games = venue.match_day.group.division.league.series_games(len(lines))
        core_table_paper_enter(
            table=table, event=venue, lines=lines, games=games, skat_values=True, user=user, version=version
        )
