"""Every write of a club: members, players, seasons, nights, check-in, the draw, paper lists, closing and reopening.

Each table of a night is started through the core's ``table_match``, so a club's match is checked like any other;
games at the tables are entered through the core's game services, which refuse every change to a closed list.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.formats import date_format

from matches.engine import FieldError, RuleError, Scheme, find_variant, setup_match
from matches.engine.draw import Guests, TablePlan, Tables, draw_tables, pairings_met, seat_by_ranking
from matches.engine.league import NightResult, RankingRule
from matches.engine.messages import gettext_noop, msg
from matches.engine.presets import PRESETS
from matches.engine.variants import Family, VariantSpec
from matches.errors import Conflict, Invalid
from matches.models import Game, Keeper, Match, Player, Seat, new_link_token
from matches.names import BadName, normalize_name
from matches.services import (
    match_discard,
    match_lock,
    match_reseat,
    match_retitle,
    match_unlock,
    player_named,
)
from matches.services import paper_enter as core_paper_enter
from matches.services import paper_to_phones as core_paper_to_phones
from matches.services.events import one_line_name
from matches.services.tables import moved_on, table_match, table_title

from .models import (
    Attendance,
    Club,
    ClubRole,
    ClubTable,
    Membership,
    Night,
    NightLog,
    NightStanding,
    Roster,
    Season,
    SeasonLog,
    SeasonStanding,
)
from .selectors import night_sums, season_table, series_ranking

MAX_SERIES = 6
MAX_SERIES_GAMES = 96
# The schemes whose game points are the ISkO's game values: paper totals under them can be checked against those.
SKAT_VALUED = (Scheme.SEEGER_FABIAN, Scheme.STANDARD)


# --- Clubs and members ---------------------------------------------------------------------------------------------


def club_create(*, owner: User, name: str) -> Club:
    """A new club with a book of its own, owned by ``owner``."""
    with transaction.atomic():
        club = Club.objects.create(keeper=Keeper.objects.create(), name=one_line_name(name))
        Membership.objects.create(club=club, user=owner, role=ClubRole.OWNER)
    return club


def member_set(*, club: Club, username: str, role: str) -> Membership:
    """Give the account named ``username`` a role at the club (adding it as a member if new)."""
    try:
        chosen = ClubRole(role)
    except ValueError:
        raise Invalid.on("role", gettext_noop("Must be one of: {choices}."), choices=", ".join(ClubRole)) from None
    user = User.objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise Invalid.on("username", gettext_noop("There is no account of that name."))
    with transaction.atomic():
        membership, _ = Membership.objects.select_for_update().get_or_create(club=club, user=user)
        if membership.role == ClubRole.OWNER and chosen != ClubRole.OWNER:
            _keep_an_owner(club, membership)
        membership.role = chosen
        membership.save(update_fields=["role"])
    return membership


def member_remove(*, club: Club, user: User) -> None:
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
        if membership is None:
            return
        if membership.role == ClubRole.OWNER:
            _keep_an_owner(club, membership)
        membership.delete()


def _keep_an_owner(club: Club, leaving: Membership) -> None:
    owners = Membership.objects.select_for_update().filter(club=club, role=ClubRole.OWNER).exclude(pk=leaving.pk)
    if not owners.exists():
        raise Conflict.about_match(msg(gettext_noop("A club needs an owner: make somebody else owner first.")))


def club_screen_link(*, club: Club, revoke: bool = False) -> Club:
    """Give the club's public screen a new address, or turn it off: whoever has the old one sees nothing."""
    Club.objects.filter(pk=club.pk).update(screen_token=None if revoke else new_link_token())
    club.refresh_from_db(fields=["screen_token"])
    return club


def club_player_add(*, club: Club, name: str, guest: bool = False) -> Player:
    """A player of the club's book (found by name, or added), with their roster entry."""
    try:
        normal = normalize_name(name)
    except BadName as bad:
        raise Invalid([FieldError("name", bad.message)]) from None
    player = player_named(club.keeper, normal)
    Roster.objects.get_or_create(player=player, defaults={"guest": guest})
    return player


def roster_set(*, club: Club, player: Player, guest: bool, first_name_only: bool, categories: Sequence[str]) -> Roster:
    """What the club keeps of one of its players: guest or member, first name only in public, the categories."""
    if player.keeper_id != club.keeper_id:
        raise Invalid.on("player", gettext_noop("Not a player of this club."))
    names = sorted({one_line_name(category, "categories") for category in categories if category.strip()})
    roster, _ = Roster.objects.update_or_create(
        player=player, defaults={"guest": guest, "first_name_only": first_name_only, "categories": names}
    )
    return roster


# --- Seasons -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonSettings:
    """What a season is played and ranked by, as a form or the API sends it."""

    name: str
    variant: str = "skat"
    preset: str = ""  # a preset's variant, scheme and rules, instead of ``variant`` (``rules`` still override)
    scheme: str = ""
    rules: dict[str, Any] | None = None
    plan: str = ""
    games_at_four: int = 48
    games_at_three: int = 36
    games_at_two: int = 24
    ranking: str = RankingRule.TOTAL.value
    minimum_lists: int = 0
    best_nights: int = 0
    guests_ranked: bool = True
    categories: Sequence[str] = ()
    stake: int = 0
    list_fee: int = 0
    lost_fees: Sequence[tuple[int, int]] = ()


def _default_scheme(spec: VariantSpec) -> str:
    """Seeger-Fabian for Skat (the clubs' and the federation's scoring); the variant's own default otherwise."""
    if Scheme.SEEGER_FABIAN in spec.schemes:
        return Scheme.SEEGER_FABIAN.value
    return spec.default_scheme.value


def season_create(*, club: Club, settings: SeasonSettings, public_id: uuid.UUID | None = None) -> Season:
    """A season, checked as a match would be: the variant, scheme and rules, and the ranking and money.
    ``public_id``: the one it had before (a restored backup)."""
    return Season.objects.create(public_id=public_id or uuid.uuid4(), club=club, **_season_values(settings))


def _season_values(settings: SeasonSettings) -> dict[str, Any]:
    """The season's fields from ``settings``, checked as a match would be: the variant, scheme and rules, and the
    ranking and money."""
    variant, rules, scheme = settings.variant, dict(settings.rules or {}), settings.scheme
    if settings.preset:
        preset = PRESETS.get(settings.preset)
        if preset is None:
            raise Invalid.on("preset", gettext_noop("Not a rule set this app knows."))
        variant, rules, scheme = preset.variant.value, {**preset.rules, **rules}, scheme or preset.scheme.value
    spec = find_variant(variant)
    if spec is None:
        raise Invalid.on("variant", gettext_noop("Not a variant this app knows."))
    scheme = scheme or _default_scheme(spec)
    plan = settings.plan or (TablePlan.PAIRS if max(spec.players) == 2 else TablePlan.FOURS).value
    try:
        setup = setup_match(variant, scheme=scheme, rules=rules, players=spec.default_players)
    except RuleError as error:
        raise Invalid.from_rules(error) from error
    if plan not in {choice.value for choice in TablePlan}:
        raise Invalid.on("plan", gettext_noop("Not a way of seating this club knows."))
    if settings.ranking not in {choice.value for choice in RankingRule}:
        raise Invalid.on("ranking", gettext_noop("Not a ranking this club knows."))
    table_plan, ranking = TablePlan(plan), RankingRule(settings.ranking)
    if table_plan is TablePlan.PAIRS and 2 not in spec.players:
        raise Invalid.on("plan", gettext_noop("This variant is not played in pairs."))
    if table_plan is not TablePlan.PAIRS and not {3, 4} & set(spec.players):
        raise Invalid.on("plan", gettext_noop("This variant is played in pairs."))
    for field in ("games_at_four", "games_at_three", "games_at_two"):
        if not 1 <= getattr(settings, field) <= MAX_SERIES_GAMES:
            raise Invalid.on(field, gettext_noop("Between 1 and {most}."), most=MAX_SERIES_GAMES)
    if ranking is RankingRule.BEST_NIGHTS and settings.best_nights < 1:
        raise Invalid.on("best_nights", gettext_noop("Say how many nights count."))
    tiers = sorted((int(start), int(cents)) for start, cents in settings.lost_fees)
    if any(start < 1 or cents < 0 for start, cents in tiers):
        raise Invalid.on("lost_fees", gettext_noop("Each tier starts at a lost game (1 or later) and costs 0 or more."))
    if min(settings.stake, settings.list_fee, settings.minimum_lists, settings.best_nights) < 0:
        raise Invalid.on("stake", gettext_noop("Amounts and counts cannot be negative."))
    return {
        "name": one_line_name(settings.name),
        "variant": setup.spec.variant.value,
        "scheme": setup.scheme.value,
        "rules": setup.stored_rules(),
        "plan": table_plan.value,
        "games_at_four": settings.games_at_four,
        "games_at_three": settings.games_at_three,
        "games_at_two": settings.games_at_two,
        "ranking": ranking.value,
        "minimum_lists": settings.minimum_lists,
        "best_nights": settings.best_nights,
        "guests_ranked": settings.guests_ranked,
        "categories": [one_line_name(category, "categories") for category in settings.categories],
        "stake": settings.stake,
        "list_fee": settings.list_fee,
        "lost_fees": [list(tier) for tier in tiers],
    }


# What is played and paid: fixed from a season's first draw, since its tables start with them and its nights' lists,
# fees and prizes are counted by them. The rest (name, seating, ranking, categories) is read afresh on every page.
FIXED_ONCE_DRAWN = (
    "variant",
    "scheme",
    "rules",
    "games_at_four",
    "games_at_three",
    "games_at_two",
    "stake",
    "list_fee",
    "lost_fees",
)


def season_drawn(season: Season) -> bool:
    """Whether a table of the season was drawn: then what is played and paid stays as it is."""
    return ClubTable.objects.filter(night__season=season).exists()


def season_update(*, season: Season, settings: SeasonSettings, user: User) -> Season:
    """Change a season's settings, checked as a new season's are, and recorded with the values they had. What is
    played and paid (``FIXED_ONCE_DRAWN``) is refused once a table of the season was drawn: its nights keep the
    rules they were played by. The ranking, seating, categories and name may change at any time (the season table
    is ranked afresh by them)."""
    values = _season_values(settings)
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        changed = {name: getattr(locked, name) for name, value in values.items() if getattr(locked, name) != value}
        fixed = [name for name in FIXED_ONCE_DRAWN if name in changed]
        if fixed and season_drawn(locked):
            raise Invalid([FieldError(field, msg(DRAWN_ALREADY)) for field in _fields_of(fixed, locked, values)])
        if not changed:
            return locked
        for name in changed:
            setattr(locked, name, values[name])
        locked.save(update_fields=list(changed))
        SeasonLog.objects.create(season=locked, action=SeasonLog.Action.EDIT, user=user, details={"before": changed})
        return locked


DRAWN_ALREADY = gettext_noop("Tables of this season are drawn already: what is played and paid stays as it was.")


def _fields_of(names: Sequence[str], season: Season, values: Mapping[str, Any]) -> list[str]:
    """The fields a refusal names: each rule option that changed (``rules.<option>``) instead of the rules whole."""
    fields = [name for name in names if name != "rules"]
    if "rules" in names:
        before, after = season.rules, values["rules"]
        fields += [f"rules.{option}" for option in sorted(after) if before.get(option) != after[option]] or ["rules"]
    return fields


# --- Nights --------------------------------------------------------------------------------------------------------


# The dates a club night may have (docs/rules.md): lists of past seasons may be typed in from paper, but not from
# before 2000; a season's nights may be planned from its start, up to eleven months ahead. A date beyond is a slip
# of the date picker, or a year typed one too high.
EARLIEST_NIGHT = datetime.date(2000, 1, 1)
NIGHT_DAYS_AHEAD = 330


def night_dates(today: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The first and the last date a club night may have, seen from ``today``."""
    return EARLIEST_NIGHT, today + datetime.timedelta(days=NIGHT_DAYS_AHEAD)


def _night_date(date: datetime.date) -> datetime.date:
    earliest, latest = night_dates(timezone.localdate())
    if not earliest <= date <= latest:
        raise Invalid.on(
            "date",
            gettext_noop("Choose a date from {earliest} to {latest}."),
            earliest=date_format(earliest),
            latest=date_format(latest),
        )
    return date


def night_create(*, season: Season, date: datetime.date, series: int = 1) -> Night:
    if not 1 <= series <= MAX_SERIES:
        raise Invalid.on("series", gettext_noop("Between 1 and {most}."), most=MAX_SERIES)
    return Night.objects.create(season=season, date=_night_date(date), series=series)


def _open(night: Night) -> Night:
    """The night, locked for this change; a closed night refuses every change."""
    locked = Night.objects.select_for_update().get(pk=night.pk)
    if locked.closed_at is not None:
        raise Conflict.about_match(msg(gettext_noop("This night is closed; nothing was changed.")))
    return locked


def check_in(*, night: Night, player: Player | None = None, name: str = "", guest: bool = False) -> Attendance:
    """Check a player of the club in (or a walk-in guest by name, added to the club's players); checking in twice
    is checking in once."""
    club = night.season.club
    if player is not None and player.keeper_id != club.keeper_id:
        raise Invalid.on("player", gettext_noop("Not a player of this club."))
    with transaction.atomic():
        _open(night)
        if player is None:
            player = club_player_add(club=club, name=name, guest=guest)
        try:
            with transaction.atomic():
                attendance = Attendance.objects.create(night=night, player=player)
        except IntegrityError:
            return Attendance.objects.get(night=night, player=player)
        moved_on(night)
        return attendance


def check_out(*, night: Night, player: Player) -> None:
    with transaction.atomic():
        _open(night)
        if ClubTable.objects.filter(night=night, match__seats__player=player).exists():
            raise Conflict.about_match(msg(gettext_noop("{name} sits at a table already."), name=player.name))
        removed, _ = Attendance.objects.filter(night=night, player=player).delete()
        if removed:
            moved_on(night)


def pot_set(*, night: Night, player: Player, in_pot: bool) -> None:
    with transaction.atomic():
        _open(night)
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
) -> Night:
    """Seat the night's attendees for ``series``: drawn from the night's seed (avoiding the season's recent
    pairings), by the season's ranking, or by the series before. A series whose tables have no games yet may be
    drawn again (``again``: from a new seed, recorded with the tables). ``guests_from``: the club's guests sit from
    that table on (recorded with the tables)."""
    season = night.season
    with transaction.atomic():
        locked = _open(night)
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
                raise Conflict.about_match(
                    msg(gettext_noop("Series {series} is being played; its tables stay."), series=series)
                )
            _remove_tables(tables)
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


def _ranked_order(night: Night, series: int, seating: str) -> dict[str, int]:
    if seating == Seating.SERIES:
        if series == 1:
            raise Invalid.on("seating", gettext_noop("The first series has no series before it."))
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


def _remove_tables(tables: Sequence[ClubTable]) -> None:
    """Remove tables on which nothing was entered: their matches through the core, which refuses a list that had a
    game (the caller's transaction then keeps the tables too)."""
    ClubTable.objects.filter(pk__in=[table.pk for table in tables]).delete()
    for table in tables:
        match_discard(match=table.match)


def seats_swap(*, night: Night, series: int, first: Player, second: Player, user: User | None) -> None:
    """Swap two players' seats in a series whose tables have no games yet (the secretary's last word on the
    draw)."""
    with transaction.atomic():
        _open(night)
        tables = list(ClubTable.objects.filter(night=night, series=series).select_related("match").select_for_update())
        if any(table.paper or table.match.deals for table in tables):
            raise Conflict.about_match(
                msg(gettext_noop("Series {series} is being played; its tables stay."), series=series)
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


# --- A secretary's corrections: a series drawn before play, a night's date, a night opened by mistake -------------


def _played(tables: Sequence[ClubTable]) -> list[ClubTable]:
    """The tables that entered something: a paper list, or a game (one deleted or undone since counts too: it was
    saved, and its history stays with its list)."""
    with_games = set(
        Game.objects.filter(match_id__in=[table.match_id for table in tables]).values_list("match_id", flat=True)
    )
    return [table for table in tables if table.paper or table.match_id in with_games]


def _seating(tables: Sequence[ClubTable]) -> list[list[str]]:
    """Each table's players by name, in seat order, as the history keeps a dropped draw."""
    seats = Seat.objects.filter(match_id__in=[table.match_id for table in tables]).select_related("player")
    by_match: dict[int, list[str]] = {}
    for seat in seats.order_by("match_id", "position"):
        by_match.setdefault(seat.match_id, []).append(seat.player.name)
    return [by_match.get(table.match_id, []) for table in tables]


def series_drop(*, night: Night, series: int, user: User) -> Night:
    """Remove the tables of a series before play (their matches through the core), so that the series can be drawn
    again, with other attendees, say. Refused once a table of the series entered something. The night's history
    keeps who sat where."""
    with transaction.atomic():
        locked = _open(night)
        tables = list(ClubTable.objects.filter(night=locked, series=series).select_for_update().order_by("number"))
        if not tables:
            raise Invalid.on("series", gettext_noop("Series {series} has no tables drawn."), series=series)
        played = _played(tables)
        if played:
            raise Conflict.about_match(
                msg(
                    gettext_noop("Table {number} of series {series} has entered its list: the series stays as drawn."),
                    number=played[0].number,
                    series=series,
                )
            )
        details = {"series": series, "seed": tables[0].seed, "tables": _seating(tables)}
        _remove_tables(tables)
        NightLog.objects.create(night=locked, action=NightLog.Action.DROP, user=user, details=details)
        moved_on(locked)
        return locked


def night_redate(*, night: Night, date: datetime.date, user: User) -> Night:
    """Give an open night another date; its tables' lists are named by it (through the core, so that their phones
    learn). Recorded with the date it had."""
    with transaction.atomic():
        locked = _open(night)
        if locked.date == date:
            return locked
        before, locked.date = locked.date, _night_date(date)
        locked.save(update_fields=["date"])
        club = locked.season.club.name
        for table in ClubTable.objects.filter(night=locked).select_related("match"):
            match_retitle(match=table.match, title=table_title(table.number, table.series, club, locked.date))
        details = {"from": before.isoformat(), "to": date.isoformat()}
        NightLog.objects.create(night=locked, action=NightLog.Action.REDATE, user=user, details=details)
        moved_on(locked)
        return locked


def night_remove(*, night: Night, user: User) -> None:
    """Remove a night opened by mistake: its check-ins and the tables drawn (their matches through the core). Refused
    for a night whose tables entered something, and for a closed one. The season's history keeps its date."""
    with transaction.atomic():
        locked = _open(night)
        tables = list(ClubTable.objects.filter(night=locked).select_for_update().order_by("series", "number"))
        if _played(tables):
            raise Conflict.about_match(
                msg(
                    gettext_noop(
                        "Games or a paper list were entered at this night's tables: it stays, with its lists. "
                        "Give it another date if that was the mistake."
                    )
                )
            )
        attendees = list(locked.attendances.order_by("player__name").values_list("player__name", flat=True))
        details = {"date": locked.date.isoformat(), "series": locked.series, "attendees": attendees}
        _remove_tables(tables)
        SeasonLog.objects.create(
            season_id=locked.season_id, action=SeasonLog.Action.REMOVE_NIGHT, user=user, details=details
        )
        locked.delete()


def paper_to_phones(*, table: ClubTable, user: User) -> ClubTable:
    """Turn a table entered from paper back to game-by-game entry: its paper totals go to the night's history (with
    the players' names), its list takes games again, and its scoring link works (a new one if it was turned off)."""
    with transaction.atomic():
        _open(table.night)
        locked = ClubTable.objects.select_for_update().select_related("match").get(pk=table.pk)
        if not locked.paper:
            return locked
        kept = [
            {
                "player": str(line.player.public_id),
                "name": line.player.name,
                "game_points": line.game_points,
                "won": line.won,
                "lost": line.lost,
            }
            for line in core_paper_to_phones(match=locked.match, user=user)
        ]
        locked.paper = False
        locked.save(update_fields=["paper"])
        details = {"series": locked.series, "table": locked.number, "lines": kept}
        NightLog.objects.create(night=locked.night, action=NightLog.Action.PHONES, user=user, details=details)
        moved_on(locked.night)
        return locked


def paper_enter(
    *, table: ClubTable, lines: Sequence[tuple[Player, int, int, int]], user: User | None = None
) -> ClubTable:
    """Enter a table's paper list as each player's totals (game points, won, lost), checked for what a series can
    produce; replaces totals entered before. A table with games entered keeps its games; a table entered from paper
    takes no games afterwards (its list is locked)."""
    night = table.night
    season = night.season
    with transaction.atomic():
        _open(night)
        locked = ClubTable.objects.select_for_update().select_related("match").get(pk=table.pk)
        # The table's list is its paper totals now: no game is entered on top of them (the phones learn at once).
        core_paper_enter(match=locked.match, lines=lines, user=user, **paper_rules(season, len(lines)))
        locked.paper = True
        locked.save(update_fields=["paper"])
        moved_on(night)
        return locked


def paper_rules(season: Season, players: int) -> dict[str, Any]:
    """What a paper list of ``players`` at a table of ``season`` is checked against: the games of its series, and
    whether its game points are the ISkO's game values (the paper-list form and a restored backup alike)."""
    spec = find_variant(season.variant)
    skat_values = spec is not None and spec.family is Family.SKAT and season.scheme in SKAT_VALUED
    return {"games": season.series_games(players), "skat_values": skat_values}


def night_close(*, night: Night, user: User) -> Night:
    """Close the night: every table's list is locked and its scoring link stops working; each player's sums over
    the night are kept (and added to the season's), since nothing can change them any more. Each table's version
    moves on, so that the phones following it learn at once."""
    with transaction.atomic():
        locked = _open(night)
        _keep_closed_links(locked)
        # Whoever joined a table from its QR code with an account scored it as a co-scorer: that ends with the night
        # too (the club's own scorers score through their role).
        for match in Match.objects.filter(club_table__night=locked).order_by("pk"):
            match_lock(match=match, user=user, end_scoring=True)
        locked.closed_at = timezone.now()
        locked.save(update_fields=["closed_at"])
        _keep_standings(locked)
        NightLog.objects.create(night=locked, action=NightLog.Action.CLOSE, user=user)
        moved_on(locked)
        return locked


def _keep_closed_links(night: Night) -> None:
    """Remember each table's scoring link as the night closes and turns it off (a table whose link was off already
    keeps the one it closed with before)."""
    tables = list(ClubTable.objects.filter(night=night, match__invite_token__isnull=False).select_related("match"))
    for table in tables:
        table.closed_link = table.match.invite_token or ""
    ClubTable.objects.bulk_update(tables, ["closed_link"])


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
