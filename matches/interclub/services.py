"""Every write of a league: the league, its divisions, groups and teams, rosters, match days and venues, the
check-ins of a series, its seating, paper lists, closing a venue, and its report confirmed, accepted and corrected.

Each table of a venue is started through the core's ``table_match`` in the league's book and locked, unlocked and
discarded through the core's services, so a league's match is checked like any other; games at the tables are
entered through the core's game services, which refuse every change to a locked list. Every refusal is a
``ServiceError`` naming the field that is wrong, raised before anything is written, so nothing is stored halfway.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format

from matches.clubs.models import Club
from matches.engine import FieldError, RuleError, Scheme, setup_match
from matches.engine.match_days import (
    MAX_TEAMS,
    SHORT_TEAM_SIZE,
    TEAM_SIZE,
    LineUp,
    ShortVenue,
    TableTie,
    TieRule,
    seat_match_day,
)
from matches.engine.messages import gettext_noop, msg
from matches.errors import Conflict, Invalid
from matches.models import Game, Keeper, Match, Player
from matches.names import BadName, name_key, normalize_name
from matches.services import match_discard, match_lock, match_unlock, paper_enter, player_named
from matches.services.events import bracketed_name, one_line_name
from matches.services.events import federation_number as checked_federation_number
from matches.services.tables import moved_on, table_match, table_title
from matches.standings import rows_differ

from .models import (
    CheckIn,
    Correction,
    Division,
    Group,
    League,
    LeagueManager,
    LeagueRole,
    MatchDay,
    PlayerSeries,
    PlayerStanding,
    ReportConfirmation,
    RosterEntry,
    SeriesScore,
    Team,
    TeamStanding,
    Venue,
    VenueTable,
    VenueTeam,
)
from .selectors import SeriesResult, kept_day, venue_report

MAX_NAME_LENGTH = 100
# A match day has two to four series (clubs digest: 4 in the 1. Bundesliga, 3 down to the Oberliga, 2 below).
MIN_SERIES, MAX_SERIES = 2, 4
MAX_SERIES_GAMES = 96
# The variant and scheme of every league: Skat by Seeger-Fabian, the only league scoring the engine offers.
LEAGUE_VARIANT, LEAGUE_SCHEME = "skat", Scheme.SEEGER_FABIAN.value


def _lock_league(league: League) -> League:
    """The league's row, locked: changes that must see every roster of the league (who may play for whom) wait
    for each other here."""
    return League.objects.select_for_update().get(pk=league.pk)


# --- The league, its divisions, groups and managers -------------------------------------------------------------------


@dataclass(frozen=True)
class LeagueSettings:
    """What a league plays and how it ranks, as a form or the API sends it (docs/rules.md, "League match days
    between clubs", names each option)."""

    name: str
    rules: dict[str, Any] | None = None
    series_per_day: int = 3
    games_at_four: int = 48
    games_at_three: int = 36
    series_tie: str = TieRule.SHARED.value
    short_venue: str = ShortVenue.PRESENT.value
    per_team_beaten: int = 1
    minus_counts: bool = False
    table_tie: str = TableTie.SHARED.value
    minimum_series: int = 0


def _choice(value: str, choices: type[StrEnum], field: str) -> str:
    if value not in {choice.value for choice in choices}:
        raise Invalid.on(field, gettext_noop("Must be one of: {choices}."), choices=", ".join(choices))
    return value


def _league_values(settings: LeagueSettings) -> dict[str, Any]:
    """The league's fields from ``settings``, checked: the rules as a match of the league would check them."""
    try:
        setup = setup_match(LEAGUE_VARIANT, scheme=LEAGUE_SCHEME, rules=dict(settings.rules or {}), players=4)
    except RuleError as error:
        raise Invalid.from_rules(error) from error
    if not MIN_SERIES <= settings.series_per_day <= MAX_SERIES:
        raise Invalid.on("series_per_day", gettext_noop("Between {low} and {high}."), low=MIN_SERIES, high=MAX_SERIES)
    for field in ("games_at_four", "games_at_three"):
        if not 1 <= getattr(settings, field) <= MAX_SERIES_GAMES:
            raise Invalid.on(field, gettext_noop("Between 1 and {most}."), most=MAX_SERIES_GAMES)
    if settings.per_team_beaten not in (1, 2):
        raise Invalid.on("per_team_beaten", gettext_noop("Must be one of: {choices}."), choices="1, 2")
    if settings.minimum_series < 0:
        raise Invalid.on("minimum_series", gettext_noop("Amounts and counts cannot be negative."))
    return {
        "name": one_line_name(settings.name),
        "variant": LEAGUE_VARIANT,
        "scheme": LEAGUE_SCHEME,
        "rules": setup.stored_rules(),
        "series_per_day": settings.series_per_day,
        "games_at_four": settings.games_at_four,
        "games_at_three": settings.games_at_three,
        "series_tie": _choice(settings.series_tie, TieRule, "series_tie"),
        "short_venue": _choice(settings.short_venue, ShortVenue, "short_venue"),
        "per_team_beaten": settings.per_team_beaten,
        "minus_counts": settings.minus_counts,
        "table_tie": _choice(settings.table_tie, TableTie, "table_tie"),
        "minimum_series": settings.minimum_series,
    }


def league_create(*, owner: User, settings: LeagueSettings) -> League:
    """A new league with a book of its own, run by ``owner``; its rules are checked and stored complete."""
    values = _league_values(settings)
    with transaction.atomic():
        league = League.objects.create(keeper=Keeper.objects.create(), **values)
        LeagueManager.objects.create(league=league, user=owner, role=LeagueRole.OWNER)
    return league


def league_manager_set(*, league: League, user: User, role: str = LeagueRole.MANAGER) -> LeagueManager:
    """Give ``user`` a role at the league (a manager manages everything of it; an owner also gives roles). The
    league keeps an owner: its last one is not made a manager."""
    if role not in LeagueRole.values:
        raise Invalid.on("role", gettext_noop("Must be one of: {choices}."), choices=", ".join(LeagueRole.values))
    with transaction.atomic():
        _lock_league(league)
        owners = LeagueManager.objects.filter(league=league, role=LeagueRole.OWNER)
        if role != LeagueRole.OWNER and owners.filter(user=user).exists() and not owners.exclude(user=user).exists():
            raise Conflict.on("role", gettext_noop("A league needs an owner: make somebody else owner first."))
        manager, _ = LeagueManager.objects.update_or_create(league=league, user=user, defaults={"role": role})
    return manager


def league_managers_leave(*, user: User) -> None:
    """End every role ``user`` holds at a league (their account is deleted)."""
    LeagueManager.objects.filter(user=user).delete()


def division_create(*, league: League, name: str, level: int = 1) -> Division:
    name = one_line_name(name)
    with transaction.atomic():
        _lock_league(league)
        if Division.objects.filter(league=league, name=name).exists():
            raise Invalid.on("name", gettext_noop("The league has a division of that name already."))
        return Division.objects.create(league=league, name=name, level=level)


def group_create(*, division: Division, name: str, promoted: int = 0, relegated: int = 0) -> Group:
    """A group ("Staffel") of the division, with its places up and down."""
    name = one_line_name(name)
    if promoted < 0 or relegated < 0:
        raise Invalid.on("promoted", gettext_noop("The places up and down cannot be negative."))
    with transaction.atomic():
        _lock_league(division.league)
        if Group.objects.filter(division=division, name=name).exists():
            raise Invalid.on("name", gettext_noop("The division has a group of that name already."))
        return Group.objects.create(division=division, name=name, promoted=promoted, relegated=relegated)


# --- Teams and rosters ------------------------------------------------------------------------------------------------


def league_of_group(group: Group) -> League:
    return group.division.league


def team_enter(*, group: Group, club: Club, name: str, captain: User | None = None) -> Team:
    """A club's team in a group ("Team I"), with its captain."""
    name = one_line_name(name)
    with transaction.atomic():
        _lock_league(league_of_group(group))
        if Team.objects.filter(group=group, name=name).exists():
            raise Invalid.on("name", gettext_noop("The group has a team of that name already."))
        return Team.objects.create(group=group, club=club, name=name, captain=captain)


def team_captain_set(*, team: Team, captain: User | None) -> Team:
    Team.objects.filter(pk=team.pk).update(captain=captain)
    team.captain = captain
    return team


def _entered_elsewhere(league: League, club_id: int, player: Player, federation_number: str) -> RosterEntry | None:
    """The roster entry of another club's team in the league that stands for the same person (the same federation
    number, or a club-book player linked to the same account), if any."""
    if not federation_number and player.account_id is None:
        return None
    same = Q(pk__in=[])
    if federation_number:
        same |= Q(federation_number=federation_number)
    if player.account_id is not None:
        same |= Q(player__account_id=player.account_id)
    return (
        RosterEntry.objects.filter(same, team__group__division__league=league)
        .exclude(team__club_id=club_id)
        .select_related("team__club")
        .first()
    )


def _refuse_other_club(player_name: str, other: RosterEntry, field: str) -> Invalid:
    # The engine's words for it (matches.engine.match_days.refused_check_ins), so that the two say the same.
    return Invalid.on(
        field,
        gettext_noop("{player} is on the roster of {other} ({club}): a player plays for one club in a league."),
        player=player_name,
        other=other.team.name,
        club=other.team.club.name,
    )


def _league_player(league: League, club: Club, player: Player) -> Player:
    """Who ``player`` of ``club`` is in the league's book: the one their club's other teams have, or a new one,
    named so that nobody else in the book has the name (the club's name added in brackets where two of one name
    meet), since the core seats a table's players by name."""
    known = RosterEntry.objects.filter(team__group__division__league=league, player=player).first()
    if known is not None:
        return known.league_player
    taken = set(Player.objects.filter(keeper=league.keeper).values_list("name_key", flat=True))
    name = player.name
    if name_key(name) in taken:
        name = bracketed_name(player.name, club.name)
    number = 2
    while name_key(name) in taken:
        name = bracketed_name(player.name, f"{club.name} {number}")
        number += 1
    try:
        name = normalize_name(name)
    except BadName as bad:
        raise Invalid([FieldError("player", bad.message)]) from None
    return player_named(league.keeper, name)


def roster_add(*, team: Team, player: Player, federation_number: str = "", substitute: bool = False) -> RosterEntry:
    """Put a player of the team's club on its roster (or its substitution list); a player on it already stays as
    entered. Refused for somebody on the roster of another club's team in the league (known by the federation
    number or a linked account): a player plays for one club in a league."""
    if player.keeper_id != team.club.keeper_id:
        raise Invalid.on("player", gettext_noop("Not a player of this club."))
    number = checked_federation_number(federation_number)
    league = league_of_group(team.group)
    with transaction.atomic():
        _lock_league(league)
        entered = RosterEntry.objects.filter(team=team, player=player).first()
        if entered is not None:
            return entered
        other = _entered_elsewhere(league, team.club_id, player, number)
        if other is not None:
            raise _refuse_other_club(player.name, other, "player")
        return RosterEntry.objects.create(
            team=team,
            player=player,
            league_player=_league_player(league, team.club, player),
            federation_number=number,
            substitute=substitute,
        )


def roster_remove(*, entry: RosterEntry) -> None:
    """Take a player off a team's roster, unless they have been checked in for it: what was played stays with
    who played it."""
    with transaction.atomic():
        _lock_league(league_of_group(entry.team.group))
        if CheckIn.objects.filter(entry=entry).exists():
            raise Conflict.on(
                "entry",
                gettext_noop("{player} has played for {team}: the roster keeps them."),
                player=entry.player.name,
                team=entry.team.name,
            )
        entry.delete()


# --- Match days and venues --------------------------------------------------------------------------------------------


def match_day_create(*, group: Group, number: int, date: datetime.date) -> MatchDay:
    if number < 1:
        raise Invalid.on("number", gettext_noop("Between 1 and {most}."), most=99)
    with transaction.atomic():
        _lock_league(league_of_group(group))
        if MatchDay.objects.filter(group=group, number=number).exists():
            raise Invalid.on("number", gettext_noop("The group has a match day {number} already."), number=number)
        return MatchDay.objects.create(group=group, number=number, date=date)


def venue_create(
    *,
    match_day: MatchDay,
    teams: Sequence[Team],
    host_team: Team | None = None,
    host_club: Club | None = None,
    place: str = "",
    series: int | None = None,
) -> Venue:
    """A venue of the match day with its teams (two to four, each of the group and at no other venue that day),
    hosted by ``host_club`` (the host team's club when not given), playing ``series`` series (the league's number
    when not given)."""
    league = league_of_group(match_day.group)
    count = league.series_per_day if series is None else series
    if not MIN_SERIES <= count <= MAX_SERIES:
        raise Invalid.on("series", gettext_noop("Between {low} and {high}."), low=MIN_SERIES, high=MAX_SERIES)
    place = " ".join(place.split())
    if len(place) > MAX_NAME_LENGTH:
        raise Invalid.on("place", gettext_noop("At most {count} characters."), count=MAX_NAME_LENGTH)
    if host_team is not None and host_team not in teams:
        raise Invalid.on("host_team", gettext_noop("The host plays at its own venue: add its team."))
    with transaction.atomic():
        _lock_league(league)
        venue = Venue.objects.create(
            match_day=match_day,
            host_team=host_team,
            host_club=host_club or (host_team.club if host_team is not None else None),
            place=place,
            series=count,
        )
        _teams_add(venue, teams)
        return venue


def venue_team_add(*, venue: Venue, team: Team) -> Venue:
    """Add a team to a venue that has not started: refused as a fifth team, a team of another group, or one
    playing at another venue that day."""
    with transaction.atomic():
        locked = _lock_venue(venue)
        if VenueTable.objects.filter(venue=locked).exists():
            raise Conflict.on("teams", gettext_noop("This venue is seated already: its teams stay."))
        _teams_add(locked, [team])
        moved_on(locked)
        return locked


def _teams_add(venue: Venue, teams: Sequence[Team]) -> None:
    """Add ``teams`` to the (locked) venue, after every check."""
    match_day = venue.match_day
    present = list(VenueTeam.objects.filter(venue=venue).select_related("team"))
    if len(present) + len(teams) > MAX_TEAMS:
        raise Invalid.on(
            "teams",
            gettext_noop("A venue seats {low} to {high} teams, not {count}."),
            low=2,
            high=MAX_TEAMS,
            count=len(present) + len(teams),
        )
    seen = {one.team_id for one in present}
    problems = []
    for index, team in enumerate(teams):
        field = f"teams.{index}"
        if team.pk in seen:
            problems.append(FieldError(field, msg(gettext_noop("{team} is listed twice."), team=team.name)))
        elif team.group_id != match_day.group_id:
            problems.append(FieldError(field, msg(gettext_noop("{team} is not a team of this group."), team=team.name)))
        else:
            elsewhere = VenueTeam.objects.filter(match_day=match_day, team=team).select_related("venue").first()
            if elsewhere is not None:
                problems.append(
                    FieldError(
                        field,
                        msg(
                            gettext_noop("{team} plays at {venue} on this match day."),
                            team=team.name,
                            venue=elsewhere.venue.place or str(elsewhere.venue.pk),
                        ),
                    )
                )
        seen.add(team.pk)
    if problems:
        raise Invalid(problems)
    VenueTeam.objects.bulk_create(
        VenueTeam(venue=venue, match_day=match_day, team=team, order=len(present) + index)
        for index, team in enumerate(teams)
    )


def _lock_venue(venue: Venue) -> Venue:
    """The venue's row, locked for this change: two check-ins, seatings or closings of one venue wait for each
    other, so that a series seated twice at once is seated once."""
    return (
        Venue.objects.select_for_update(of=("self",))
        .select_related("match_day__group__division__league")
        .get(pk=venue.pk)
    )


def _open_venue(venue: Venue) -> Venue:
    """The venue, locked; a closed venue refuses every change to its line-ups, tables and lists."""
    locked = _lock_venue(venue)
    if locked.closed_at is not None:
        raise Conflict.on("venue", gettext_noop("This venue's lists are closed; nothing was changed."))
    return locked


def _series(venue: Venue, series: int) -> int:
    if not 1 <= series <= venue.series:
        raise Invalid.on("series", gettext_noop("This venue plays {count} series."), count=venue.series)
    return series


# --- Check-in ---------------------------------------------------------------------------------------------------------


def series_check_in(*, venue: Venue, series: int, team: Team, entries: Sequence[RosterEntry]) -> list[CheckIn]:
    """Check in ``team``'s line-up for a series (in seat order), replacing one checked in before while the series
    is not seated: three or four players of the team's roster or substitution list, none twice, none who plays for
    another team that day, none on the roster of another club in the league. Each refusal names the player and
    why; nothing is stored unless the whole line-up stands."""
    with transaction.atomic():
        locked = _open_venue(venue)
        _series(locked, series)
        if not VenueTeam.objects.filter(venue=locked, team=team).exists():
            raise Invalid.on("team", gettext_noop("{team} does not play at this venue."), team=team.name)
        if VenueTable.objects.filter(venue=locked, series=series).exists():
            raise Conflict.on("series", gettext_noop("Series {series} is seated: its line-ups stay."), series=series)
        _check_line_up(locked, series, team, entries)
        CheckIn.objects.filter(venue=locked, series=series, team=team).delete()
        moved_on(locked)
        return CheckIn.objects.bulk_create(
            CheckIn(
                venue=locked,
                match_day=locked.match_day,
                series=series,
                team=team,
                entry=entry,
                league_player_id=entry.league_player_id,
                position=position,
            )
            for position, entry in enumerate(entries)
        )


def _check_line_up(venue: Venue, series: int, team: Team, entries: Sequence[RosterEntry]) -> None:
    """Refuse (``Invalid``, each problem at ``entries.<index>``) a line-up that cannot stand."""
    if not SHORT_TEAM_SIZE <= len(entries) <= TEAM_SIZE:
        raise Invalid.on(
            "entries",
            gettext_noop("{team} brings {count} players: a team plays with {low} or {high}."),
            team=team.name,
            count=len(entries),
            low=SHORT_TEAM_SIZE,
            high=TEAM_SIZE,
        )
    league = venue.match_day.group.division.league
    playing_elsewhere = dict(
        CheckIn.objects.filter(match_day=venue.match_day, league_player_id__in=[e.league_player_id for e in entries])
        .exclude(team=team)
        .values_list("league_player_id", "team__name")
    )
    problems = []
    seen: set[int] = set()
    for index, entry in enumerate(entries):
        field = f"entries.{index}"
        name = entry.player.name
        if entry.team_id != team.pk:
            problems.append(
                FieldError(
                    field,
                    msg(
                        gettext_noop("{player} is neither in the line-up nor on the substitution list of {team}."),
                        player=name,
                        team=team.name,
                    ),
                )
            )
        elif entry.league_player_id in seen:
            problems.append(
                FieldError(
                    field, msg(gettext_noop("{player} is checked in for {team} twice."), player=name, team=team.name)
                )
            )
        elif entry.league_player_id in playing_elsewhere:
            problems.append(
                FieldError(
                    field,
                    msg(
                        gettext_noop("{player} plays for {other} today: a player plays for one team a match day."),
                        player=name,
                        other=playing_elsewhere[entry.league_player_id],
                    ),
                )
            )
        else:
            other = _entered_elsewhere(league, team.club_id, entry.player, entry.federation_number)
            if other is not None:
                problems.extend(_refuse_other_club(name, other, field).errors)
        seen.add(entry.league_player_id)
    if problems:
        raise Invalid(problems)


# --- Seating and the tables -------------------------------------------------------------------------------------------


def series_seat(*, venue: Venue, series: int, user: User | None) -> list[VenueTable]:
    """Seat a series from its teams' line-ups, so that no two players of one team sit together (the engine's
    ``seat_match_day``, from the match day's seed: the same line-ups seat the same way again). Each table is a match
    of the league's book, started through the core, with the league's rules and length. A series seated already
    keeps its tables: seating it twice (two phones at once) seats it once."""
    with transaction.atomic():
        locked = _open_venue(venue)
        _series(locked, series)
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
        try:
            plan = seat_match_day(line_ups, series=series, seed=locked.seed)[series - 1]
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
        locked = _open_venue(venue)
        _series(locked, series)
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
    *, table: VenueTable, lines: Sequence[tuple[Player, int, int, int]], user: User | None
) -> VenueTable:
    """Enter a table's paper list as each player's totals (game points, won, lost), checked for what a series can
    produce; replaces totals entered before. A table with games entered keeps its games; a table entered from paper
    takes no games afterwards (its list is locked through the core)."""
    with transaction.atomic():
        venue = _open_venue(table.venue)
        locked = VenueTable.objects.select_for_update().select_related("match").get(pk=table.pk)
        games = venue.match_day.group.division.league.series_games(len(lines))
        # The table's list is its paper totals now: no game is entered on top of them (the phones learn at once).
        paper_enter(match=locked.match, lines=lines, games=games, skat_values=True, user=user)
        locked.paper = True
        locked.save(update_fields=["paper"])
        moved_on(venue)
        return locked


# --- Closing a venue and its report -----------------------------------------------------------------------------------


def venue_close(*, venue: Venue, user: User | None) -> Venue:
    """Close a venue whose every series is seated and every table's list complete (kept on paper, or all its
    planned games entered): each list is locked and its scoring link turned off through the core, and the teams'
    series scores and the players' totals are kept for the group's table and the players' ranking. Its report is
    ready from then on. Closing a closed venue leaves it as it is."""
    with transaction.atomic():
        locked = _lock_venue(venue)
        if locked.closed_at is not None:
            return locked
        # Every list locked first, and the report read under the locks: a game taken back (an undo, a deletion) or
        # saved while the venue closes is counted or keeps it open; a refusal rolls the locks back.
        for table in VenueTable.objects.filter(venue=locked).select_related("match").order_by("series", "number"):
            match_lock(match=table.match, user=user, end_scoring=True)
        report = venue_report(locked)
        problems = []
        for series in report.series:
            if not series.seated:
                problems.append(
                    FieldError("series", msg(gettext_noop("Series {series} is not seated yet."), series=series.number))
                )
            for result in series.tables:
                if not result.complete:
                    problems.append(
                        FieldError(
                            "tables",
                            msg(
                                gettext_noop("Table {number} of series {series} has {count} of {games} games."),
                                number=result.table.number,
                                series=series.number,
                                count=result.games,
                                games=result.table.match.planned_games or 0,
                            ),
                        )
                    )
        if problems:
            raise Conflict(problems)
        _keep_results(locked, report.series)
        locked.closed_at = timezone.now()
        locked.save(update_fields=["closed_at"])
        _standings_move(locked, 1)
        Correction.objects.filter(venue=locked, closed_at__isnull=True).update(
            after=_scores_of(locked), closed_at=locked.closed_at
        )
        moved_on(locked)
        return locked


def _keep_results(venue: Venue, series: Sequence[SeriesResult]) -> None:
    """Write the closing venue's derived rows: each team's series scores and each player's series totals."""
    scores, totals = _results(venue, series)
    SeriesScore.objects.bulk_create(scores)
    PlayerSeries.objects.bulk_create(totals)


def _results(venue: Venue, series: Sequence[SeriesResult]) -> tuple[list[SeriesScore], list[PlayerSeries]]:
    """The venue's derived rows as its report's ``series`` give them, not yet written: each team's series scores and
    each player's series totals."""
    teams = {team.name: team for team in Team.objects.filter(venues__venue=venue)}
    scores = [
        SeriesScore(venue=venue, series=one.number, team=teams[place.team], score=place.score)
        for one in series
        for place in one.places
    ]
    totals = [
        PlayerSeries(venue=venue, series=one.number, team=line.team, league_player=line.player, total=line.total)
        for one in series
        for table in one.tables
        for line in table.lines
        if line.team is not None
    ]
    return scores, totals


# What a closed venue adds to each of its teams' standings and to each of its players'.
TEAM_SUMS = ("plus_halves", "minus_halves", "game_points", "match_days", "open_days")
PLAYER_SUMS = ("total", "series", "open_series")


def _standings_of(venue: Venue) -> tuple[dict[int, dict[str, int]], dict[int, dict[str, int]]]:
    """What the closed venue's kept results add to its teams' standings (by team id) and to its players' (by league
    player id): the day's league and game points and one match day, each player's series totals; as provisional
    while the venue is not accepted."""
    day = kept_day(venue)
    provisional = int(venue.accepted_at is None)
    teams: dict[int, dict[str, int]] = {}
    if day is not None:
        ids = dict(Team.objects.filter(venues__venue=venue).values_list("name", "pk"))
        for row in day.rows:
            teams[ids[row.team]] = {
                "plus_halves": int(row.points.plus * 2),
                "minus_halves": int(row.points.minus * 2),
                "game_points": row.game_points,
                "match_days": 1,
                "open_days": provisional,
            }
    players: dict[int, dict[str, int]] = {}
    for player, total in PlayerSeries.objects.filter(venue=venue).values_list("league_player_id", "total"):
        sums = players.setdefault(player, dict.fromkeys(PLAYER_SUMS, 0))
        sums["total"] += total
        sums["series"] += 1
        sums["open_series"] += provisional
    return teams, players


def _standings_move(venue: Venue, sign: int) -> None:
    """Add (``sign`` 1) the locked venue's kept results to its teams' and players' standings, or take them away
    (-1), as provisional while the venue is not accepted. A standing that counts nothing any more goes, as it was
    before its first match day."""
    teams, players = _standings_of(venue)
    for team, sums in teams.items():
        standing, _ = TeamStanding.objects.select_for_update().get_or_create(team_id=team)
        _add_sums(standing, sums, sign)
        _kept_or_gone(standing, standing.match_days)
    group_id = venue.match_day.group_id
    for player, sums in players.items():
        held, _ = PlayerStanding.objects.select_for_update().get_or_create(group_id=group_id, league_player_id=player)
        _add_sums(held, sums, sign)
        _kept_or_gone(held, held.series)


def _add_sums(standing: TeamStanding | PlayerStanding, sums: dict[str, int], sign: int) -> None:
    for name, value in sums.items():
        setattr(standing, name, getattr(standing, name) + sign * value)


def _kept_or_gone(standing: TeamStanding | PlayerStanding, counted: int) -> None:
    if counted:
        standing.save()
    else:
        standing.delete()


def _scores_of(venue: Venue) -> dict[str, dict[str, int]]:
    """The venue's kept series scores, by series and team, as a correction records them."""
    scores: dict[str, dict[str, int]] = {}
    for series, team, score in SeriesScore.objects.filter(venue=venue).values_list("series", "team__name", "score"):
        scores.setdefault(str(series), {})[team] = score
    return scores


def venue_reopen(*, venue: Venue, user: User, reason: str = "") -> Venue:
    """Reopen a closed venue so that its lists can be corrected (its game tables take changes again through the
    core; a paper table can be entered anew). Before the report is accepted the captains' confirmations go (they
    confirmed other results); after, a reason is required and the correction is recorded with who, why and the
    series scores as accepted, completed with the scores as closed again."""
    reason = " ".join(reason.split())
    with transaction.atomic():
        locked = _lock_venue(venue)
        if locked.closed_at is None:
            return locked
        if locked.accepted_at is not None:
            if not reason:
                raise Invalid.on("reason", gettext_noop("Say why the accepted results are corrected."))
            Correction.objects.create(venue=locked, user=user, reason=reason, before=_scores_of(locked))
        else:
            ReportConfirmation.objects.filter(venue=locked).delete()
        for match in Match.objects.filter(venue_table__venue=locked, venue_table__paper=False).order_by("pk"):
            match_unlock(match=match, user=user)
        _standings_move(locked, -1)
        SeriesScore.objects.filter(venue=locked).delete()
        PlayerSeries.objects.filter(venue=locked).delete()
        locked.closed_at = None
        locked.save(update_fields=["closed_at"])
        moved_on(locked)
        return locked


def report_confirm(*, venue: Venue, team: Team, user: User) -> ReportConfirmation:
    """A team's captain confirms the venue's report for their team; confirming again is confirming once. Refused
    before the report is ready and for anybody who is not the team's captain."""
    with transaction.atomic():
        locked = _lock_venue(venue)
        if not VenueTeam.objects.filter(venue=locked, team=team).exists():
            raise Invalid.on("team", gettext_noop("{team} does not play at this venue."), team=team.name)
        if team.captain_id != user.pk:
            raise Invalid.on(
                "team",
                gettext_noop("{user} is not the captain of {team}: a team's captain confirms its report."),
                user=user.get_username(),
                team=team.name,
            )
        if locked.closed_at is None:
            raise Conflict.on("venue", gettext_noop("The report is not ready: this venue's tables are still open."))
        confirmation, created = ReportConfirmation.objects.get_or_create(
            venue=locked, team=team, defaults={"captain": user}
        )
        if created:
            moved_on(locked)
        return confirmation


def report_accept(*, venue: Venue, user: User) -> Venue:
    """The league's manager accepts a venue's report: its results are no longer provisional. Refused for anybody
    who does not manage the league, before the report is ready, and for a report accepted already (a correction is
    made by reopening it, with a reason)."""
    with transaction.atomic():
        locked = _lock_venue(venue)
        league = locked.match_day.group.division.league
        if not LeagueManager.objects.filter(league=league, user=user).exists():
            raise Invalid.on("user", gettext_noop("Only the league's managers accept a report."))
        if locked.closed_at is None:
            raise Conflict.on("venue", gettext_noop("The report is not ready: this venue's tables are still open."))
        if locked.accepted_at is not None:
            raise Conflict.on(
                "venue",
                gettext_noop("This report was accepted on {date}: a correction reopens it with a reason."),
                date=date_format(timezone.localtime(locked.accepted_at), "SHORT_DATETIME_FORMAT"),
            )
        # Its day leaves the standings as provisional and comes back as accepted.
        _standings_move(locked, -1)
        locked.accepted_at, locked.accepted_by = timezone.now(), user
        locked.save(update_fields=["accepted_at", "accepted_by"])
        _standings_move(locked, 1)
        moved_on(locked)
        return locked


def venue_results_rescore(*, venue: Venue) -> None:
    """Write a closed venue's derived rows afresh from its lists (a restore writes its lists and sums them here, as
    closing it did); an open venue keeps none."""
    with transaction.atomic():
        locked = _lock_venue(venue)
        _standings_move(locked, -1)
        SeriesScore.objects.filter(venue=locked).delete()
        PlayerSeries.objects.filter(venue=locked).delete()
        if locked.closed_at is not None:
            _keep_results(locked, venue_report(locked).series)
            _standings_move(locked, 1)


def venue_kept_results_rescore(venue: Venue, *, check: bool = False) -> int:
    """Sum a closed venue's lists afresh, as closing it did, and compare with the series scores and players' series
    totals it kept: the number of rows that differ; unless ``check``, its kept results are written anew
    (``venue_results_rescore``; the group's standings follow with ``group_standings_rescore``). Done under the
    venue's lock, so that a venue reopening meanwhile is left alone."""
    with transaction.atomic():
        locked = _lock_venue(venue)
        if locked.closed_at is None:
            return 0
        scores, totals = _results(locked, venue_report(locked).series)
        kept_scores = SeriesScore.objects.filter(venue=locked).values_list("series", "team_id", "score")
        kept_totals = PlayerSeries.objects.filter(venue=locked).values_list(
            "series", "league_player_id", "team_id", "total"
        )
        differ = rows_differ(
            {(row.series, row.team_id): row.score for row in scores},
            {(series, team): score for series, team, score in kept_scores},
        ) + rows_differ(
            {(row.series, row.league_player_id): (row.team_id, row.total) for row in totals},
            {(series, player): (team, total) for series, player, team, total in kept_totals},
        )
        if differ and not check:
            venue_results_rescore(venue=locked)
        return differ


def group_standings_rescore(group: Group, *, check: bool = False) -> int:
    """Sum a group's teams' and players' standings afresh from the results its closed venues kept, as closing each
    added them, and compare with the standings kept: the number of teams and players whose sums differ; unless
    ``check``, the group's standings are written anew. Every venue of the group is locked first, so that a venue
    closing, reopening or being accepted meanwhile waits."""
    with transaction.atomic():
        venues = (
            Venue.objects.select_for_update(of=("self",))
            .filter(match_day__group=group)
            .select_related("match_day__group__division__league")
            .order_by("pk")
        )
        teams: dict[int, dict[str, int]] = {}
        players: dict[int, dict[str, int]] = {}
        for venue in list(venues):
            if venue.closed_at is None:
                continue
            for summed, adds in zip((teams, players), _standings_of(venue), strict=True):
                for key, sums in adds.items():
                    held = summed.setdefault(key, dict.fromkeys(sums, 0))
                    for name, value in sums.items():
                        held[name] += value
        kept_teams = TeamStanding.objects.filter(team__group=group).values_list("team_id", *TEAM_SUMS)
        kept_players = PlayerStanding.objects.filter(group=group).values_list("league_player_id", *PLAYER_SUMS)
        differ = rows_differ(
            {team: tuple(sums[name] for name in TEAM_SUMS) for team, sums in teams.items()},
            {row[0]: row[1:] for row in kept_teams},
        ) + rows_differ(
            {player: tuple(sums[name] for name in PLAYER_SUMS) for player, sums in players.items()},
            {row[0]: row[1:] for row in kept_players},
        )
        if differ and not check:
            TeamStanding.objects.filter(team__group=group).delete()
            TeamStanding.objects.bulk_create(TeamStanding(team_id=team, **sums) for team, sums in teams.items())
            PlayerStanding.objects.filter(group=group).delete()
            PlayerStanding.objects.bulk_create(
                PlayerStanding(group=group, league_player_id=player, **sums) for player, sums in players.items()
            )
        return differ
