"""A club night: created on a date it may have, check-in and the pot, each series drawn or seated by ranking and its
seats swapped, a table's paper list, the night closed and reopened, and the sums it keeps (and adds to the
season's), summed afresh by the rescores."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Sum
from django.utils import timezone

from matches.engine import FieldError, RuleError, Scheme, find_variant
from matches.engine.draw import Guests, TablePlan, Tables, draw_tables, pairings_met, seat_by_ranking
from matches.engine.league import NightResult
from matches.engine.messages import Message, gettext_noop, msg, msg_count, ngettext_noop
from matches.engine.variants import Family
from matches.errors import Conflict, Invalid
from matches.models import Match, Player, Seat, new_link_token
from matches.services import (
    TableVersion,
    closed_lists_report,
    match_lock,
    match_reseat,
    match_unlock,
    table_paper_enter,
)
from matches.services.tables import moved_on, table_match, table_title

from ..models import Attendance, ClubTable, Night, NightLog, NightStanding, Season, SeasonStanding
from ..selectors import night_sums, night_unfinished, season_table, series_ranking
from .clubs import club_player_add
from .common import checked_night_date, open_night, remove_tables

MAX_SERIES = 6
# The schemes whose game points are the ISkO's game values: paper totals under them can be checked against those.
SKAT_VALUED = (Scheme.SEEGER_FABIAN, Scheme.STANDARD)


def night_create(*, season: Season, date: datetime.date, series: int = 1) -> Night:
    """A night of the season on ``date``; where the season has an open night that day, that one: a second tap on
    "Open the night" (or a tap again after going back) opens no second night beside the first."""
    if not 1 <= series <= MAX_SERIES:
        raise Invalid.on("series", gettext_noop("Between 1 and {most}."), most=MAX_SERIES)
    date = checked_night_date(date)
    with transaction.atomic():
        # One opening at a time per season: the second of two taps finds the night the first opened.
        Season.objects.select_for_update().get(pk=season.pk)
        opened = Night.objects.filter(season=season, date=date, closed_at__isnull=True).first()
        return opened or Night.objects.create(season=season, date=date, series=series)


def check_in(
    *, night: Night, player: Player | None = None, name: str = "", guest: bool = False, once: bool = False
) -> Attendance:
    """Check a player of the club in (or a walk-in guest by name, added to the club's players); checking in twice
    is checking in once, or with ``once`` refused, named by the field that named the player (``player``, ``name``):
    a name typed for a guest that is the name of a player checked in is that player, not a second one."""
    club = night.season.club
    if player is not None and player.keeper_id != club.keeper_id:
        raise Invalid.on("player", gettext_noop("Not a player of this club."))
    field = "name" if player is None else "player"
    with transaction.atomic():
        open_night(night)
        if player is None:
            player = club_player_add(club=club, name=name, guest=guest)
        try:
            with transaction.atomic():
                attendance = Attendance.objects.create(night=night, player=player)
        except IntegrityError:
            if once:
                raise Invalid.on(field, CHECKED_IN_ALREADY, name=player.name) from None
            return Attendance.objects.get(night=night, player=player)
        moved_on(night)
        return attendance


CHECKED_IN_ALREADY = gettext_noop("{name} is checked in already.")
BEING_PLAYED = gettext_noop("Series {series} is being played; its tables stay.")


def check_out(*, night: Night, player: Player) -> None:
    with transaction.atomic():
        open_night(night)
        if ClubTable.objects.filter(night=night, match__seats__player=player).exists():
            raise Conflict.on("player", gettext_noop("{name} sits at a table already."), name=player.name)
        removed, _ = Attendance.objects.filter(night=night, player=player).delete()
        if removed:
            moved_on(night)


def pot_set(*, night: Night, player: Player, in_pot: bool) -> None:
    with transaction.atomic():
        open_night(night)
        if Attendance.objects.filter(night=night, player=player).update(in_pot=in_pot):
            moved_on(night)


class Seating(StrEnum):
    """How a series is seated."""

    DRAW = "draw"
    RANKING = "ranking"  # by the season's table
    SERIES = "series"  # by the result of the series before


def night_draw(
    *,
    night: Night,
    series: int,
    user: User,
    seating: str = Seating.DRAW,
    again: bool = False,
    guests_from: int | None = None,
    unfinished: bool = False,
) -> Night:
    """Seat the night's attendees for ``series``: drawn from the night's seed (avoiding the season's recent
    pairings), by the season's ranking, or by the series before once that has a result (``_series_before``;
    ``unfinished`` takes its tables short of their games as they stand). A series whose tables have no games yet
    may be drawn again (``again``: from a new seed, recorded with the tables). ``guests_from``: the club's guests
    sit from that table on (recorded with the tables)."""
    season = night.season
    with transaction.atomic():
        locked = open_night(night)
        if not 1 <= series <= locked.series:
            raise Invalid.on("series", gettext_noop("This night has {count} series."), count=locked.series)
        tables = list(
            ClubTable.objects.filter(night=locked, series=series)
            .select_related("match")
            .select_for_update(of=("self", "match"))
        )
        if tables:
            if not again:
                return locked
            if any(table.paper or table.match.deals for table in tables):
                raise Conflict.on(
                    "series", gettext_noop("Series {series} is being played; its tables stay."), series=series
                )
            remove_tables(tables)
        if seating == Seating.SERIES:
            _series_before(locked, series, unfinished=unfinished)
        attendances = Attendance.objects.filter(night=locked).select_related("player__roster")
        attendees = {str(attendance.player.public_id): attendance.player for attendance in attendances}
        guests = _guests(attendees, guests_from)
        plan = TablePlan(season.plan)
        # The first draw of a series comes from the night's seed; a draw again from a new one. Either is recorded
        # with the tables it drew, so that every draw can be made again from its seed.
        seed = new_link_token() if tables else f"{locked.seed}/{series}"
        try:
            drawn = _seat(locked, series, list(attendees), plan, seating, seed, guests)
        except RuleError as error:
            raise Invalid.from_rules(error) from error
        for number, table in enumerate(drawn, start=1):
            players = [attendees[key] for key in table]
            recorded = seed if seating == Seating.DRAW else ""
            _start_table(locked, series, number, players, user, recorded, guests_from if guests else None)
        moved_on(locked)
        return locked


def _guests(attendees: Mapping[str, Player], guests_from: int | None) -> Guests | None:
    """The night's guests (as the club's roster has them), to sit from table ``guests_from`` on; None without it."""
    if guests_from is None:
        return None
    return Guests(frozenset(key for key, player in attendees.items() if _is_guest(player)), guests_from)


def _is_guest(player: Player) -> bool:
    roster = getattr(player, "roster", None)
    return roster is not None and roster.guest


def _seat(
    night: Night, series: int, attendees: list[str], plan: TablePlan, seating: str, seed: str, guests: Guests | None
) -> Tables:
    if seating == Seating.DRAW:
        return draw_tables(attendees, seed=seed, plan=plan, met=pairings_met(_recent(night)), guests=guests)
    ranked = _ranked_order(night, series, seating)
    order = sorted(attendees, key=lambda key: (ranked.get(key, len(ranked)), key))
    return seat_by_ranking(order, plan, guests)


NOT_DRAWN_BEFORE = gettext_noop(
    "Series {series} is not drawn yet: it has no result to seat by. Draw this series or seat it by the season's "
    "ranking."
)
UNFINISHED_BEFORE = ngettext_noop(
    "Series {series} has no result yet: table {tables} has not played all its games. Draw this series or seat it by "
    "the season's ranking, or wait until that table has finished.",
    "Series {series} has no result yet: tables {tables} have not played all their games. Draw this series or seat "
    "it by the season's ranking, or wait until those tables have finished.",
)


def _series_before(night: Night, series: int, *, unfinished: bool) -> None:
    """Refuse to seat ``series`` by the series before until that one has a result: drawn, and each of its tables
    with its list complete (every game of the series played, or a paper list's totals). Its ranking sums the lists
    as they stand: a table short of its games would seat its players by sums still changing, and a table that has
    entered nothing, like a series not drawn, would seat them last in no order at all. A table that stopped early
    (its players left) is taken as it stands once ``unfinished`` says so, as closing the night takes it: until
    then each such table is named under ``unfinished`` in the words of ``table_short``."""
    if series == 1:
        raise Invalid.on("seating", gettext_noop("The first series has no series before it."))
    before = series - 1
    if not ClubTable.objects.filter(night=night, series=before).exists():
        raise Conflict.on("seating", NOT_DRAWN_BEFORE, series=before)
    short = list(night_unfinished(night).filter(series=before))
    if short and not unfinished:
        numbers = ", ".join(str(table.number) for table in short)
        raise Conflict(
            [
                FieldError("seating", msg_count(UNFINISHED_BEFORE, len(short), series=before, tables=numbers)),
                *(FieldError("unfinished", table_short(table)) for table in short),
            ]
        )


def _ranked_order(night: Night, series: int, seating: str) -> dict[str, int]:
    if seating == Seating.SERIES:
        places = series_ranking(night, series - 1)
    elif seating == Seating.RANKING:
        places = season_table(night.season, before=night).places
    else:
        raise Invalid.on("seating", gettext_noop("Not a way of seating this club knows."))
    return {place.standing.player: index for index, place in enumerate(places)}


RECENT_NIGHTS = 6


def _recent(night: Night) -> list[Tables]:
    """Who sat together at the season's recent nights (and the earlier series of this one), oldest first."""
    earlier = list(
        Night.objects.filter(season=night.season, date__lte=night.date)
        .exclude(pk=night.pk)
        .order_by("-date", "-created_at")
        .values_list("pk", flat=True)[:RECENT_NIGHTS]
    )
    seats = (
        ClubTable.objects.filter(night_id__in=[*earlier, night.pk])
        .values_list("night_id", "series", "match_id", "match__seats__player__public_id")
        .order_by("night__date", "night__created_at", "series", "match_id")
    )
    tables: dict[tuple[int, int], dict[int, list[str]]] = {}
    for night_id, series, match_id, player in seats:
        tables.setdefault((night_id, series), {}).setdefault(match_id, []).append(str(player))
    return [tuple(tuple(players) for players in table.values()) for table in tables.values()]


def _start_table(
    night: Night,
    series: int,
    number: int,
    players: Sequence[Player],
    user: User,
    seed: str,
    guests_from: int | None = None,
) -> ClubTable:
    season = night.season
    title = table_title(number, series, season.club.name, night.date)
    match = table_match(
        keeper=season.club.keeper, rules=season, players=[player.name for player in players], title=title, user=user
    )
    return ClubTable.objects.create(
        night=night, series=series, number=number, match=match, seed=seed, guests_from=guests_from
    )


def seats_swap(*, night: Night, series: int, first: Player, second: Player, user: User | None) -> None:
    """Swap two players' seats in a series whose tables have no games yet (the secretary's last word on the
    draw)."""
    if first == second:
        raise Invalid.on("second", gettext_noop("Choose a player other than {name} to swap with."), name=first.name)
    with transaction.atomic():
        open_night(night)
        tables = list(ClubTable.objects.filter(night=night, series=series).select_related("match").select_for_update())
        if any(table.paper or table.match.deals for table in tables):
            raise Conflict.on(
                "series", gettext_noop("Series {series} is being played; its tables stay."), series=series
            )
        seats = {
            seat.player_id: seat
            for seat in Seat.objects.filter(match__club_table__in=tables, player__in=[first, second])
        }
        if len(seats) != 2:
            raise Invalid.on("player", gettext_noop("Both players must sit at a table of this series."))
        swapped = {first.pk: second, second.pk: first}
        for match in {seats[first.pk].match_id, seats[second.pk].match_id}:
            table = next(table for table in tables if table.match_id == match)
            seated = [seat.player for seat in table.match.seats.select_related("player").order_by("position")]
            match_reseat(match=table.match, players=[swapped.get(player.pk, player) for player in seated], user=user)
        moved_on(night)


def paper_enter(
    *,
    table: ClubTable,
    lines: Sequence[tuple[Player, int, int, int]],
    user: User | None = None,
    version: TableVersion | None = None,
) -> None:
    """Enter a table's paper list through the core's ``table_paper_enter``, while its night is open, checked against
    its season's ``paper_rules``."""
    night = table.night
    with transaction.atomic():
        open_night(night)
        table_paper_enter(
            table=table, event=night, lines=lines, user=user, version=version, **paper_rules(night.season, len(lines))
        )


def paper_rules(season: Season, players: int) -> dict[str, Any]:
    """What a paper list of ``players`` at a table of ``season`` is checked against: the games of its series, and
    whether its game points are the ISkO's game values (the paper-list form and a restored backup alike)."""
    spec = find_variant(season.variant)
    skat_values = spec is not None and spec.family is Family.SKAT and season.scheme in SKAT_VALUED
    return {"games": season.series_games(players), "skat_values": skat_values}


UNFINISHED = gettext_noop("Table {number} of series {series} has {deals} of its {games} games on the list.")
UNPLAYED = gettext_noop("Table {number} of series {series} has no games: its players get no list.")


def table_short(table: ClubTable) -> Message:
    """What closing a night says of ``table`` (with its match), on phones and short of its series' games: how many
    it has of them, or that it has none and its players get no list."""
    if not table.match.deals:
        return msg(UNPLAYED, number=table.number, series=table.series)
    games = table.match.planned_games or 0
    return msg(UNFINISHED, number=table.number, series=table.series, deals=table.match.deals, games=games)


def night_close(*, night: Night, user: User, unfinished: bool = False) -> Night:
    """Close the night: every table's list is locked and its scoring link stops working (the core keeps the link it
    turned off, the match's ended link: a phone that opens it later is told that the night is closed, with its
    results); each player's sums over the night are kept (and added to the season's), since nothing can change them
    any more. Each table's version moves on, so that the phones following it learn at once. A table on phones short
    of its series' games (``night_unfinished``, one without a game too) refuses the closing, each such table named
    under ``unfinished`` in the words of ``table_short``, unless ``unfinished`` confirms closing the night with the
    lists as they stand."""
    with transaction.atomic():
        locked = open_night(night)
        if not unfinished:
            short = [FieldError("unfinished", table_short(table)) for table in night_unfinished(locked)]
            if short:
                raise Invalid(short)
        # Whoever joined a table from its QR code with an account scored it as a co-scorer: that ends with the night
        # too (the club's own scorers score through their role).
        for match in Match.objects.filter(club_table__night=locked).order_by("pk"):
            match_lock(match=match, user=user, end_scoring=True)
        locked.closed_at = timezone.now()
        locked.save(update_fields=["closed_at"])
        closed_lists_report(match_ids=ClubTable.objects.filter(night=locked).values_list("match_id", flat=True))
        _keep_standings(locked)
        NightLog.objects.create(night=locked, action=NightLog.Action.CLOSE, user=user)
        moved_on(locked)
        return locked


def night_reopen(*, night: Night, user: User) -> Night:
    """Reopen a closed night (the club's owner only; recorded). The tables' lists can be changed again by the club's
    scorers, and the night is summed as it stands again; the scoring links stay off until renewed."""
    with transaction.atomic():
        locked = Night.objects.select_for_update().get(pk=night.pk)
        if locked.closed_at is None:
            return locked
        # A table entered from paper keeps its list locked: its results are the paper's totals.
        for match in Match.objects.filter(club_table__night=locked, club_table__paper=False).order_by("pk"):
            match_unlock(match=match, user=user)
        locked.closed_at = None
        locked.save(update_fields=["closed_at"])
        closed_lists_report(match_ids=ClubTable.objects.filter(night=locked).values_list("match_id", flat=True))
        _drop_standings(locked)
        NightLog.objects.create(night=locked, action=NightLog.Action.REOPEN, user=user)
        moved_on(locked)
        return locked


SUMS = ("score", "game_points", "won", "lost", "lists")


def _keep_standings(night: Night) -> None:
    """Keep the closing night's sums per player, and add them to the season's (under the season's lock, so that
    two nights closing at once add up)."""
    kept = NightStanding.objects.bulk_create(_night_rows(night, night_sums(night)))
    _add_to_season(night.season_id, kept, sign=1)


def _night_rows(night: Night, sums: Sequence[NightResult]) -> list[NightStanding]:
    players = dict(
        Player.objects.filter(seats__match__club_table__night=night).values_list("public_id", "pk").distinct()
    )
    return [
        NightStanding(
            night=night, player_id=players[uuid.UUID(result.player)], **{name: getattr(result, name) for name in SUMS}
        )
        for result in sums
    ]


def night_standings_rescore(night: Night, *, check: bool = False) -> int:
    """Sum a closed night afresh and compare with what it kept when it closed (after a rescore, say): the number of
    players whose sums differ; unless ``check``, the kept sums are rewritten (the season's follow with
    ``season_standings_rescore``). Done under the night's lock, so that a night reopening meanwhile is left alone."""
    with transaction.atomic():
        locked = Night.objects.select_for_update().get(pk=night.pk)
        if locked.closed_at is None:
            return 0
        fresh = {uuid.UUID(result.player): result for result in night_sums(locked)}
        kept = {
            row.player.public_id: row for row in NightStanding.objects.filter(night=locked).select_related("player")
        }
        differ = _differ(fresh, kept, SUMS)
        if differ and not check:
            NightStanding.objects.filter(night=locked).delete()
            NightStanding.objects.bulk_create(_night_rows(locked, night_sums(locked)))
            # What the night shows changed: the pages following its version show it anew.
            moved_on(locked)
        return differ


def season_standings_rescore(season: Season, *, check: bool = False) -> int:
    """Compare a season's kept sums with the sums of its closed nights: the number of players that differ; unless
    ``check``, the season's rows are written anew from the nights'."""
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).values_list("pk", flat=True).first()
        return _season_rescore(season, check)


def _season_rescore(season: Season, check: bool) -> int:
    nights = NightStanding.objects.filter(night__season=season, night__closed_at__isnull=False)
    summed = {
        row["player_id"]: row
        for row in nights.values("player_id")
        .annotate(**{name: Sum(name) for name in SUMS}, nights=Count("night"))
        .order_by()
    }
    kept = {row.player_id: vars(row) for row in SeasonStanding.objects.filter(season=season)}
    differ = _differ(summed, kept, (*SUMS, "nights"))
    if differ and not check:
        SeasonStanding.objects.filter(season=season).delete()
        SeasonStanding.objects.bulk_create(
            SeasonStanding(season=season, player_id=player, **{name: row[name] for name in (*SUMS, "nights")})
            for player, row in summed.items()
        )
        # The season's table changed: the room's screen, following its version, shows it anew.
        moved_on(season)
    return differ


def _differ(fresh: Mapping[Any, Any], kept: Mapping[Any, Any], names: Sequence[str]) -> int:
    def value(row: Any, name: str) -> Any:
        return row[name] if isinstance(row, dict) else getattr(row, name)

    return sum(
        1
        for key in fresh.keys() | kept.keys()
        if key not in fresh or key not in kept or any(value(fresh[key], n) != value(kept[key], n) for n in names)
    )


def _drop_standings(night: Night) -> None:
    kept = list(NightStanding.objects.filter(night=night))
    _add_to_season(night.season_id, kept, sign=-1)
    NightStanding.objects.filter(night=night).delete()


def _add_to_season(season_id: int, nights: Sequence[NightStanding], *, sign: int) -> None:
    """Add (or with ``sign`` −1 take away) a night's sums to the season's rows of its players, under the season's
    lock; the rows are derived, so they are written anew rather than updated one by one."""
    Season.objects.select_for_update().filter(pk=season_id).values_list("pk", flat=True).first()
    held = SeasonStanding.objects.filter(season_id=season_id, player_id__in=[night.player_id for night in nights])
    rows = {row.player_id: row for row in held}
    for night in nights:
        row = rows.setdefault(night.player_id, SeasonStanding(season_id=season_id, player_id=night.player_id))
        for name in SUMS:
            setattr(row, name, getattr(row, name) + sign * getattr(night, name))
        row.nights += sign
    held.delete()
    SeasonStanding.objects.bulk_create(
        SeasonStanding(
            season_id=season_id,
            player_id=row.player_id,
            nights=row.nights,
            **{name: getattr(row, name) for name in SUMS},
        )
        for row in rows.values()
        if row.nights
    )
