"""A league's part of a backup (the section ``"league"`` of the core's backup, beside the league's own book of players
and matches): its settings, divisions, groups, teams with their rosters, match days, and each venue with its teams,
check-ins, tables, paper lists, the captains' confirmations, its acceptance and its corrections (each reopening once
closed); and who each club's player taken off its rosters was in its book.

Accounts are not part of it (the league's managers, the teams' captains, who confirmed, accepted or corrected):
accounts belong to an instance. A team's players come from its club's book, so a league's file names each club and
club player by public id: the clubs' own backups are restored first, and a file whose club is not here is refused
with the club's name. What is derived (each team's series scores, each player's series totals) is summed afresh from
the restored lists. A league found here already (by its public id) is left as it is.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db.models import Model
from django.utils.dateparse import parse_date

from matches.backup import (
    ByName,
    PaperWhere,
    Refused,
    Restored,
    Section,
    Unfit,
    book_backup,
    flag,
    items,
    moment,
    named,
    paper_lines,
    paper_lines_read,
    paper_restored,
    when,
)
from matches.clubs.models import Club
from matches.engine.messages import gettext_noop, msg
from matches.errors import Invalid
from matches.models import Keeper, Player
from matches.services.people import joins_restored

from . import services as leagues
from .models import (
    CheckIn,
    Correction,
    Division,
    FormerPlayer,
    Group,
    League,
    LeagueManager,
    LeagueRole,
    MatchDay,
    ReportConfirmation,
    RosterEntry,
    Team,
    Venue,
    VenueTable,
    VenueTeam,
)

# What a league is played and ranked by, as its backup keeps it.
SETTINGS = (
    "name",
    "rules",
    "series_per_day",
    "games_at_four",
    "games_at_three",
    "series_tie",
    "short_venue",
    "per_team_beaten",
    "minus_counts",
    "table_tie",
    "minimum_series",
)


# --- Writing -------------------------------------------------------------------------------------------------------


def league_backup(league: League) -> dict[str, Any]:
    """Everything of a league: its book, settings, structure, teams, match days and venues (not its managers:
    accounts belong to an instance)."""
    data = book_backup(league.keeper)
    data["league"] = {
        "id": str(league.public_id),
        "variant": league.variant,
        "scheme": league.scheme,
        **{name: getattr(league, name) for name in SETTINGS},
        "created_at": when(league.created_at),
        "divisions": [_division(division) for division in league.divisions.order_by("level", "name", "pk")],
        "former_players": [
            {"player": str(one.player.public_id), "league_player": str(one.league_player.public_id)}
            for one in FormerPlayer.objects.filter(league=league)
            .select_related("player", "league_player")
            .order_by("league_player__created_at", "pk")
        ],
    }
    return data


def _division(division: Division) -> dict[str, Any]:
    return {
        "name": division.name,
        "level": division.level,
        "groups": [_group(group) for group in division.groups.order_by("name", "pk")],
    }


def _group(group: Group) -> dict[str, Any]:
    teams = group.teams.select_related("club").order_by("name", "pk")
    return {
        "id": str(group.public_id),
        "name": group.name,
        "promoted": group.promoted,
        "relegated": group.relegated,
        "seed": group.seed,
        "teams": [_team(team) for team in teams],
        "match_days": [_match_day(day) for day in group.match_days.order_by("number", "pk")],
    }


def _team(team: Team) -> dict[str, Any]:
    roster = team.roster.select_related("player", "league_player").order_by("created_at", "pk")
    return {
        "id": str(team.public_id),
        "club": {"id": str(team.club.public_id), "name": team.club.name},
        "name": team.name,
        "roster": [
            {
                "player": str(entry.player.public_id),
                "league_player": str(entry.league_player.public_id),
                "federation_number": entry.federation_number,
                "substitute": entry.substitute,
                "created_at": when(entry.created_at),
            }
            for entry in roster
        ],
    }


def _match_day(day: MatchDay) -> dict[str, Any]:
    return {
        "id": str(day.public_id),
        "number": day.number,
        "date": day.date.isoformat(),
        "seed": day.seed,
        "venues": [_venue(venue) for venue in day.venues.order_by("created_at", "pk")],
    }


def _public(row: Club | Team | None) -> str | None:
    return None if row is None else str(row.public_id)


def _venue(venue: Venue) -> dict[str, Any]:
    teams = VenueTeam.objects.filter(venue=venue).select_related("team").order_by("order", "pk")
    check_ins = (
        CheckIn.objects.filter(venue=venue)
        .select_related("team", "entry__player", "league_player")
        .order_by("series", "team__name", "position", "pk")
    )
    tables = VenueTable.objects.filter(venue=venue).select_related("match").order_by("series", "number")
    return {
        "id": str(venue.public_id),
        "host_club": _public(venue.host_club),
        "host_team": _public(venue.host_team),
        "place": venue.place,
        "series": venue.series,
        "closed_at": when(venue.closed_at),
        "accepted_at": when(venue.accepted_at),
        "created_at": when(venue.created_at),
        "teams": [{"team": str(one.team.public_id), "order": one.order} for one in teams],
        "check_ins": [
            {
                "series": one.series,
                "team": str(one.team.public_id),
                "player": str(one.entry.player.public_id),
                "league_player": str(one.league_player.public_id),
                "position": one.position,
                "created_at": when(one.created_at),
            }
            for one in check_ins
        ],
        "tables": [_table(table) for table in tables],
        "confirmations": [
            {"team": str(one.team.public_id), "created_at": when(one.created_at)}
            for one in ReportConfirmation.objects.filter(venue=venue)
            .select_related("team")
            .order_by("team__name", "created_at", "pk")
        ],
        "corrections": [
            {
                "reason": one.reason,
                "accepted": one.accepted,
                "before": one.before,
                "after": one.after,
                "created_at": when(one.created_at),
                "closed_at": when(one.closed_at),
            }
            for one in Correction.objects.filter(venue=venue).order_by("created_at", "pk")
        ],
    }


def _table(table: VenueTable) -> dict[str, Any]:
    return {
        "series": table.series,
        "number": table.number,
        "match": str(table.match.public_id),
        "paper": table.paper,
        "paper_lines": paper_lines(table.match),
    }


# --- Restoring -----------------------------------------------------------------------------------------------------


def league_book(data: Mapping[str, Any], user: User, version: int) -> Keeper | None:
    """The book of the league the backup is of, if it is here already (``Unfit`` unless ``user`` owns it)."""
    league = League.objects.filter(public_id=uuid.UUID(data["id"])).first()
    if league is None:
        return None
    if not LeagueManager.objects.filter(league=league, user=user, role=LeagueRole.OWNER).exists():
        raise Unfit(data["id"])
    return league.keeper


def league_made(data: Mapping[str, Any], user: User, version: int) -> Keeper:
    """The league the backup is of, made anew with ``user`` its owner, its settings checked as the pages check
    them: its book."""
    if data["variant"] != leagues.LEAGUE_VARIANT or data["scheme"] != leagues.LEAGUE_SCHEME:
        raise ValueError(data["variant"])
    settings = leagues.LeagueSettings(
        name=str(data["name"]),
        rules=dict(data["rules"]),
        series_per_day=int(data["series_per_day"]),
        games_at_four=int(data["games_at_four"]),
        games_at_three=int(data["games_at_three"]),
        series_tie=str(data["series_tie"]),
        short_venue=str(data["short_venue"]),
        per_team_beaten=int(data["per_team_beaten"]),
        minus_counts=flag(data["minus_counts"]),
        table_tie=str(data["table_tie"]),
        minimum_series=int(data["minimum_series"]),
    )
    try:
        league = leagues.league_create(owner=user, settings=settings)
    except Invalid as error:
        raise ValueError(str(error)) from error
    League.objects.filter(pk=league.pk).update(public_id=uuid.UUID(data["id"]), created_at=moment(data["created_at"]))
    return league.keeper


def restore_league(data: Mapping[str, Any], restored: Restored) -> dict[str, int]:
    """The league's structure, teams, match days and venues, into the league ``league_made`` made (one found here
    already is left as it is); the closed venues' series scores and totals summed afresh."""
    league = League.objects.get(keeper=restored.keeper)
    if league.divisions.exists():
        return {}
    for division_data in items(data, "divisions"):
        division = _made(Division(league=league, name=str(division_data["name"]), level=int(division_data["level"])))
        for group_data in items(division_data, "groups"):
            _restore_group(division, group_data, restored)
    _restore_former_players(league, data, restored)
    for venue in Venue.objects.filter(match_day__group__division__league=league, closed_at__isnull=False):
        leagues.venue_results_rescore(venue=venue)
    return {}


def _restore_former_players(league: League, data: Mapping[str, Any], restored: Restored) -> None:
    """Who each club's player taken off the league's rosters was in its book (a file made before the league kept it
    has none): one whose club's player is not here is left out, as nobody can be put on a roster again as them."""
    found = items(data, "former_players") if "former_players" in data else []
    wanted = [uuid.UUID(str(one["player"])) for one in found]
    club_players = {
        player.public_id: player for player in Player.objects.filter(public_id__in=wanted, keeper__club__isnull=False)
    }
    for one, public_id in zip(found, wanted, strict=True):
        player = club_players.get(public_id)
        if player is not None:
            FormerPlayer.objects.create(
                league=league, player=player, league_player=restored.players[one["league_player"]]
            )


M = TypeVar("M", bound=Model)


def _made(row: M, *, created: Any = None, exclude: tuple[str, ...] = ()) -> M:
    """``row`` checked as its model checks a field, saved, and given the moment the file says it was made."""
    row.full_clean(exclude=list(exclude), validate_unique=False, validate_constraints=False)
    row.save()
    if created is not None:
        type(row)._default_manager.filter(pk=row.pk).update(created_at=moment(created))
    return row


def _restore_group(division: Division, data: Mapping[str, Any], restored: Restored) -> None:
    group = _made(
        Group(
            public_id=uuid.UUID(data["id"]),
            division=division,
            name=str(data["name"]),
            promoted=int(data["promoted"]),
            relegated=int(data["relegated"]),
            seed=str(data["seed"]),
        ),
        exclude=("division",),
    )
    teams: dict[str, Team] = {}
    entries: dict[tuple[str, str], RosterEntry] = {}
    for team_data in items(data, "teams"):
        team = _restore_team(group, team_data, restored, entries)
        teams[str(team.public_id)] = team
    for day_data in items(data, "match_days"):
        date = parse_date(str(day_data["date"]))
        if date is None:
            raise ValueError(day_data["date"])
        day = _made(
            MatchDay(
                public_id=uuid.UUID(day_data["id"]),
                group=group,
                number=int(day_data["number"]),
                date=date,
                seed=str(day_data["seed"]),
            ),
            exclude=("group",),
        )
        for venue_data in items(day_data, "venues"):
            _restore_venue(day, venue_data, restored, teams, entries)


def _club_of(data: Mapping[str, Any], team: str) -> Club:
    """The team's club, here already: a league's teams come from clubs that are restored from their own files."""
    club = Club.objects.filter(public_id=uuid.UUID(data["id"])).first()
    if club is None:
        raise Refused(
            msg(
                gettext_noop(
                    "The team {team} plays for the club {club}, which is not here: restore the club's backup first. "
                    "Nothing was restored."
                ),
                team=team,
                club=str(data["name"]),
            )
        )
    return club


def _restore_team(
    group: Group, data: Mapping[str, Any], restored: Restored, entries: dict[tuple[str, str], RosterEntry]
) -> Team:
    name = str(data["name"])
    club = _club_of(data["club"], name)
    team = _made(Team(public_id=uuid.UUID(data["id"]), group=group, club=club, name=name), exclude=("group", "club"))
    club_players = {str(player.public_id): player for player in Player.objects.filter(keeper=club.keeper)}
    for entry_data in items(data, "roster"):
        player = club_players.get(str(entry_data["player"]))
        if player is None:
            raise Refused(
                msg(
                    gettext_noop(
                        "A player on the roster of {team} is not among the players of the club {club} here: restore "
                        "the club's backup first. Nothing was restored."
                    ),
                    team=name,
                    club=club.name,
                )
            )
        entry = RosterEntry(
            team=team,
            player=player,
            league_player=restored.players[entry_data["league_player"]],
            federation_number=str(entry_data["federation_number"]),
            substitute=flag(entry_data["substitute"]),
        )
        _made(entry, created=entry_data["created_at"], exclude=("team", "player", "league_player"))
        entries[(str(team.public_id), str(player.public_id))] = entry
    # A file says nothing of who a club's players are (a club's own people pair them, by putting them on the roster
    # again): the numbers it gives join as numbers do.
    rostered = [entry for key, entry in entries.items() if key[0] == str(team.public_id)]
    joins_restored(numbered=[(entry.league_player, entry.federation_number) for entry in rostered])
    return team


def _moment_or_none(value: Any) -> datetime.datetime | None:
    return None if value is None else moment(value)


def _restore_venue(
    day: MatchDay,
    data: Mapping[str, Any],
    restored: Restored,
    teams: Mapping[str, Team],
    entries: Mapping[tuple[str, str], RosterEntry],
) -> None:
    host_club = data["host_club"]
    host_team = data["host_team"]
    venue = Venue(
        public_id=uuid.UUID(data["id"]),
        match_day=day,
        host_club=None if host_club is None else Club.objects.get(public_id=uuid.UUID(host_club)),
        host_team=None if host_team is None else teams[host_team],
        place=str(data["place"]),
        series=_series_count(data["series"]),
        closed_at=_moment_or_none(data["closed_at"]),
        accepted_at=_moment_or_none(data["accepted_at"]),
    )
    _made(venue, created=data["created_at"], exclude=("match_day", "host_club", "host_team", "accepted_by"))
    for one in items(data, "teams"):
        _made(VenueTeam(venue=venue, match_day=day, team=teams[one["team"]], order=int(one["order"])), exclude=_LINKS)
    for one in items(data, "check_ins"):
        check_in = CheckIn(
            venue=venue,
            match_day=day,
            series=_series(venue, one["series"]),
            team=teams[one["team"]],
            entry=entries[(str(one["team"]), str(one["player"]))],
            league_player=restored.players[one["league_player"]],
            position=int(one["position"]),
        )
        _made(check_in, created=one["created_at"], exclude=_LINKS)
    for one in items(data, "tables"):
        _restore_table(venue, one, restored)
    for one in items(data, "confirmations"):
        _made(
            ReportConfirmation(venue=venue, team=teams[one["team"]]),
            created=one["created_at"],
            exclude=(*_LINKS, "captain"),
        )
    for one in items(data, "corrections"):
        correction = Correction(
            venue=venue,
            reason=str(one["reason"]),
            # A file written before reopenings ahead of acceptance were kept holds corrections of accepted results.
            accepted=flag(one.get("accepted", True)),
            before=_scores(one["before"]),
            after=None if one["after"] is None else _scores(one["after"]),
            closed_at=_moment_or_none(one["closed_at"]),
        )
        _made(correction, created=one["created_at"], exclude=(*_LINKS, "user"))


# The rows a restored row links to are the restore's own, found by public id: no field check needed for them.
_LINKS = ("venue", "match_day", "team", "entry", "league_player", "table", "player", "match")


def _series_count(value: Any) -> int:
    """A venue's number of series: as many as a match day may have."""
    count = int(value)
    if not leagues.MIN_SERIES <= count <= leagues.MAX_SERIES:
        raise ValueError(value)
    return count


def _series(venue: Venue, value: Any) -> int:
    series = int(value)
    if not 1 <= series <= venue.series:
        raise ValueError(value)
    return series


def _scores(value: Any) -> dict[str, dict[str, int]]:
    """The teams' series scores a correction recorded: by series, then team."""
    if not isinstance(value, Mapping):
        raise ValueError(value)
    scores: dict[str, dict[str, int]] = {}
    for series, teams in value.items():
        if not isinstance(teams, Mapping):
            raise ValueError(teams)
        scores[str(series)] = {str(team): _whole(score) for team, score in teams.items()}
    return scores


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(value)
    return value


def _restore_table(venue: Venue, data: Mapping[str, Any], restored: Restored) -> None:
    table = _made(
        VenueTable(
            venue=venue,
            series=_series(venue, data["series"]),
            number=int(data["number"]),
            match=restored.matches[data["match"]],
            paper=flag(data["paper"]),
        ),
        exclude=_LINKS,
    )
    lines = paper_lines_read(data, restored)
    games = venue.match_day.group.division.league.series_games(len(lines))
    event = f"{venue.match_day.date.isoformat()} {venue.place}".strip()
    paper_restored(table.match, lines, where=PaperWhere(table.number, table.series, event, games, skat_values=True))


LEAGUE_SECTION = Section(
    key="league",
    book=league_book,
    make_book=league_made,
    restore=restore_league,
    by_name=ByName(
        flag="league",
        help="the league (by name) whose groups, teams, match days and venues are backed up",
        find=named(League.objects.all(), "leagues"),
        backup=league_backup,
    ),
)
