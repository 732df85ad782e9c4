"""A league's results as domain data: a venue's report (live while it plays, ready once it closes), a group's
table, a team's match days and the league's players' ranking.

A venue's report sums its tables' lists in the database (one aggregate over their games, one read of the paper
lists), as a club night's does. The group's table and the players' ranking never read a game: a venue that closes
keeps its results (``SeriesScore``, one per team and series; ``PlayerSeries``, one per player and series) and adds
them to its teams' and players' standings (``TeamStanding``, ``PlayerStanding``), and takes them away when it
reopens. The table and the ranking read one standing per team and player, however many match days were played.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, QuerySet, Sum

from matches.engine.draw import met_again
from matches.engine.match_days import (
    LeaguePoints,
    PlayerAverage,
    SeriesPlace,
    SeriesRules,
    ShortVenue,
    TableRow,
    TableRules,
    TableTie,
    TeamDay,
    TeamTotals,
    TieRule,
    rank_series,
    ranking_of_sums,
    score_match_day,
    table_of_totals,
)
from matches.engine.match_days import (
    MatchDay as DayResult,
)
from matches.models import Match, Player, Seat
from matches.papers import paper_sums
from matches.registry import ListPlace
from matches.sums import list_sums

from .models import (
    CheckIn,
    Correction,
    Group,
    League,
    PlayerStanding,
    ReportConfirmation,
    SeriesScore,
    Team,
    TeamStanding,
    Venue,
    VenueTable,
    VenueTeam,
)


def series_rules(league: League) -> SeriesRules:
    """How a series at the league's venues gives league points, as the league stores it."""
    return SeriesRules(TieRule(league.series_tie), ShortVenue(league.short_venue), league.per_team_beaten)


def table_rules(league: League, group: Group) -> TableRules:
    """How the group's table is ordered and marked, as the league and the group store it."""
    return TableRules(league.minus_counts, TableTie(league.table_tie), group.promoted, group.relegated, group.seed)


# --- A venue's report -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLine:
    """A player's list at one table: the Seeger-Fabian total, the game points, games won and lost; ``team``: the
    team they played the series for (None for a player checked in for nobody, which a seating never makes)."""

    player: Player
    team: Team | None
    total: int
    game_points: int
    won: int
    lost: int


@dataclass(frozen=True)
class TableResult:
    """A table of a series: its match, its players' lists in seat order, and whether its list is complete (kept on
    paper, or every planned game entered)."""

    table: VenueTable
    lines: tuple[PlayerLine, ...]
    games: int
    complete: bool


@dataclass(frozen=True)
class LinedUp:
    """A player of a series' line-up as the match report names them: with the roster's federation number, whether
    they are on the substitution list, and whom they came in for: a player of the team's previous series who is not
    in this one (the first such for the first newcomer, in line-up order)."""

    player: Player
    federation_number: str
    substitute: bool
    came_in_for: Player | None = None


@dataclass(frozen=True)
class SeriesResult:
    """A series at the venue: who played for whom (``lined_up``: the same with the report's details), its tables,
    each team's series score, and their places."""

    number: int
    line_ups: tuple[tuple[Team, tuple[Player, ...]], ...]
    tables: tuple[TableResult, ...]
    places: tuple[SeriesPlace, ...]
    lined_up: tuple[tuple[Team, tuple[LinedUp, ...]], ...] = ()

    def player_details(self) -> dict[int, LinedUp]:
        """Each player of the series' line-ups by their id."""
        return {one.player.pk: one for _, players in self.lined_up for one in players}

    @property
    def seated(self) -> bool:
        return bool(self.tables)

    @property
    def complete(self) -> bool:
        return self.seated and all(table.complete for table in self.tables)


def account_name(user: User | None) -> str | None:
    """An account as a venue's report names it to everybody (who confirmed, reopened or corrected, accepted), on
    its page, printed and in the API, as the product shows an account to others: by its username, never the full
    name an account may hold; none once it was deleted."""
    return user.get_username() if user is not None else None


@dataclass(frozen=True)
class VenueReport:
    """A venue's match report ("Spielbericht"): its teams, every series (line-ups, tables, ranking) and the day's
    league and game points per team. ``ready`` once the venue closed (every list complete and locked);
    ``provisional`` until the league's manager accepted it; the captains who confirmed it as it stands (since its
    latest correction), those who confirmed an earlier result (each with the correction made after it), and the
    corrections (each reopening once closed, accepted or not)."""

    venue: Venue
    teams: tuple[Team, ...]
    series: tuple[SeriesResult, ...]
    day: DayResult | None
    confirmed: tuple[ReportConfirmation, ...]
    confirmed_before: tuple[tuple[ReportConfirmation, Correction], ...]
    corrections: tuple[Correction, ...]

    @property
    def ready(self) -> bool:
        return self.venue.closed_at is not None

    @property
    def provisional(self) -> bool:
        return self.venue.accepted_at is None

    def days_best_first(self) -> list[tuple[Team, TeamDay | None]]:
        """Each team with its day, best first as the engine ranks the day; before anything was entered, in the
        venue's order with no day."""
        by_name = {team.name: team for team in self.teams}
        ranked = [(by_name[row.team], row) for row in self.day.rows] if self.day is not None else []
        listed = {team.pk for team, _day in ranked}
        return ranked + [(team, None) for team in self.teams if team.pk not in listed]

    def results_digest(self) -> str:
        """A digest of the results the report shows (each table's players with their teams and lines, each series'
        places): a correction keeps it as it reopened them, so that closing it again tells whether any changed. Its
        confirmations and acceptance are left out: they change no result."""
        shown = [
            [
                [
                    (
                        line.player.pk,
                        line.team.pk if line.team else None,
                        line.game_points,
                        line.won,
                        line.lost,
                        line.total,
                    )
                    for table in one.tables
                    for line in table.lines
                ],
                [(place.team, place.score, place.place, str(place.points)) for place in one.places],
            ]
            for one in self.series
        ]
        return hashlib.sha256(json.dumps(shown).encode()).hexdigest()


def venue_teams(venue: Venue) -> list[Team]:
    """The venue's teams in their order."""
    return [one.team for one in VenueTeam.objects.filter(venue=venue).select_related("team__club").order_by("order")]


def venue_seatings(venue: Venue, *, through: int) -> list[tuple[tuple[Player, ...], ...]]:
    """Who sat at which table in each series of the venue from 1 to ``through``, table by table in seat order (a
    series not seated has no tables)."""
    seats = Seat.objects.filter(match__venue_table__venue=venue, match__venue_table__series__lte=through)
    tables: dict[tuple[int, int], list[Player]] = {}
    for seat in seats.select_related("player", "match__venue_table").order_by(
        "match__venue_table__series", "match__venue_table__number", "position"
    ):
        table = seat.match.venue_table
        tables.setdefault((table.series, table.number), []).append(seat.player)
    return [
        tuple(tuple(players) for (series, _), players in tables.items() if series == number)
        for number in range(1, through + 1)
    ]


def met_again_in(venue: Venue, series: int) -> list[tuple[str, str]]:
    """The pairs seated together in ``series`` at the venue who sat at one table in a series before it there (by
    their names in the league's book): what its seating could not avoid."""
    *before, this = (
        tuple(tuple(player.name for player in table) for table in tables)
        for tables in venue_seatings(venue, through=series)
    )
    return met_again(this, before)


def _game_lines(tables: Sequence[VenueTable]) -> dict[tuple[int, int], tuple[int, int, int, int]]:
    """Each (match, player)'s total, game points, won and lost over the tables' games, summed by the database."""
    return {
        (one.match, one.player): (one.points, one.game_points(seeger_fabian=True), one.won, one.lost)
        for one in list_sums([table.match_id for table in tables])
    }


def _paper_lines(tables: Sequence[VenueTable]) -> dict[tuple[int, int], tuple[int, int, int, int]]:
    """Each (match, player)'s Seeger-Fabian line from the tables kept on paper."""
    lines = paper_sums([table.match_id for table in tables if table.paper])
    return {key: (line.total, line.game_points, line.won, line.lost) for key, line in lines.items()}


def venue_report(venue: Venue) -> VenueReport:
    """The venue's report as it stands: every player's total per series from the tables' games or paper lines, each
    team's series score (the sum of its players'), the series' places and the day's points (as the league's rules
    say), whether it is ready and whether it is accepted."""
    league = venue.match_day.group.division.league
    teams = venue_teams(venue)
    by_pk = {team.pk: team for team in teams}
    check_ins = list(
        CheckIn.objects.filter(venue=venue).select_related("league_player", "entry").order_by("position", "id")
    )
    tables = list(VenueTable.objects.filter(venue=venue).select_related("match").order_by("series", "number"))
    entered = {**_game_lines(tables), **_paper_lines(tables)}
    seats = Seat.objects.filter(match_id__in=[table.match_id for table in tables]).select_related("player")
    seated: dict[int, list[Player]] = {}
    for seat in seats.order_by("match_id", "position"):
        seated.setdefault(seat.match_id, []).append(seat.player)
    rules = series_rules(league)
    results = []
    for number in range(1, venue.series + 1):
        team_of = {one.league_player_id: by_pk.get(one.team_id) for one in check_ins if one.series == number}
        line_ups = tuple(
            (team, tuple(one.league_player for one in check_ins if one.series == number and one.team_id == team.pk))
            for team in teams
        )
        lined_up = _lined_up(check_ins, number, teams)
        series_tables = []
        scores: dict[str, int] = {}
        for table in (table for table in tables if table.series == number):
            lines = []
            for player in seated.get(table.match_id, []):
                total, game_points, won, lost = entered.get((table.match_id, player.pk), (0, 0, 0, 0))
                team = team_of.get(player.pk)
                lines.append(PlayerLine(player, team, total, game_points, won, lost))
                if team is not None:
                    scores[team.name] = scores.get(team.name, 0) + total
            games = table.match.deals
            complete = table.paper or games >= (table.match.planned_games or 0)
            series_tables.append(TableResult(table, tuple(lines), games, complete))
        # A series is ranked once one of its tables entered something: seated tables alone would tie every team.
        begun = any(result.table.paper or result.games for result in series_tables)
        places = _ranked(scores, len(teams), rules) if begun else ()
        results.append(SeriesResult(number, line_ups, tuple(series_tables), places, lined_up))
    played = [{place.team: place.score for place in one.places} for one in results if one.places]
    day = score_match_day([team.name for team in teams], played, rules) if played and len(teams) >= 2 else None
    corrections = tuple(Correction.objects.filter(venue=venue).select_related("user"))
    confirmed, confirmed_before = [], []
    for one in ReportConfirmation.objects.filter(venue=venue).select_related("team", "captain"):
        corrected = next((correction for correction in corrections if correction.created_at > one.created_at), None)
        if corrected is None:
            confirmed.append(one)
        else:
            confirmed_before.append((one, corrected))
    return VenueReport(venue, tuple(teams), tuple(results), day, tuple(confirmed), tuple(confirmed_before), corrections)


def standing_confirmations(venue: Venue) -> QuerySet[ReportConfirmation]:
    """The captains' confirmations of the venue's report as it stands: those made since its latest correction."""
    later = Correction.objects.filter(venue=OuterRef("venue"), created_at__gt=OuterRef("created_at"))
    return ReportConfirmation.objects.filter(venue=venue).exclude(Exists(later))


def _lined_up(
    check_ins: Sequence[CheckIn], number: int, teams: Sequence[Team]
) -> tuple[tuple[Team, tuple[LinedUp, ...]], ...]:
    """Each team's line-up of series ``number`` with the report's details: a player not in the team's previous
    series came in for one of that series who is not in this one, paired in line-up order."""
    lined_up = []
    for team in teams:
        now = [one for one in check_ins if one.series == number and one.team_id == team.pk]
        before = [one.league_player for one in check_ins if one.series == number - 1 and one.team_id == team.pk]
        here = {one.league_player_id for one in now}
        left = iter([player for player in before if player.pk not in here])
        came = {player.pk for player in before}
        players = tuple(
            LinedUp(
                one.league_player,
                one.entry.federation_number,
                one.entry.substitute,
                next(left, None) if before and one.league_player_id not in came else None,
            )
            for one in now
        )
        lined_up.append((team, players))
    return tuple(lined_up)


def _ranked(scores: dict[str, int], teams: int, rules: SeriesRules) -> tuple[SeriesPlace, ...]:
    """A series' places, once two teams have a score in it."""
    if len(scores) < 2:
        return ()
    return tuple(rank_series(scores, rules, absent=teams - len(scores)))


# --- The group's table ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupTableRow:
    """A team's row in the group's table; ``provisional``: a match day counted in it is not accepted yet."""

    row: TableRow
    team: Team
    provisional: bool


@dataclass(frozen=True)
class GroupTable:
    group: Group
    rows: tuple[GroupTableRow, ...]

    @property
    def provisional(self) -> bool:
        return any(row.provisional for row in self.rows)


@dataclass(frozen=True)
class _ClosedVenue:
    teams: list[str]
    series: dict[int, dict[str, int]]
    accepted: bool


def _closed_days(venues: Iterable[int], rules: SeriesRules) -> dict[int, tuple[DayResult, bool]]:
    """Each closed venue's day as its stored series scores give it (no game read), and whether it is accepted."""
    found: dict[int, _ClosedVenue] = {}
    scores = SeriesScore.objects.filter(venue_id__in=list(venues)).values_list(
        "venue_id", "series", "team__name", "score", "venue__accepted_at"
    )
    for venue, series, team, score, accepted in scores.order_by("venue_id", "series"):
        found.setdefault(venue, _ClosedVenue([], {}, accepted is not None)).series.setdefault(series, {})[team] = score
    teams = VenueTeam.objects.filter(venue_id__in=list(found)).values_list("venue_id", "team__name")
    for venue, team in teams.order_by("venue_id", "order", "id"):
        found[venue].teams.append(team)
    return {
        venue: (score_match_day(one.teams, [one.series[number] for number in sorted(one.series)], rules), one.accepted)
        for venue, one in found.items()
    }


def kept_day(venue: Venue) -> DayResult | None:
    """The closed venue's day as its kept series scores give it (None while it keeps none)."""
    found = _closed_days([venue.pk], series_rules(venue.match_day.group.division.league))
    return found[venue.pk][0] if venue.pk in found else None


def _standing(team: Team) -> TeamStanding | None:
    """The team's standing, read with the team (none before its first closed venue)."""
    standing: TeamStanding | None = getattr(team, "standing", None)
    return standing


def _totals(team: Team) -> TeamTotals:
    """The team's sums as its standing keeps them."""
    standing = _standing(team)
    if standing is None:
        return TeamTotals(team.name)
    points = LeaguePoints(Fraction(standing.plus_halves, 2), Fraction(standing.minus_halves, 2))
    return TeamTotals(team.name, points, standing.game_points, standing.match_days)


def group_table(group: Group) -> GroupTable:
    """The group's table: league points as plus:minus, then the summed series scores, ties and marks as the league
    sets, over every closed venue of its match days (from the teams' standings); a result not yet accepted counts
    and is flagged provisional. Only teams equal in everything and told apart by their direct comparison have the
    venues where they met read."""
    league = group.division.league
    teams = list(Team.objects.filter(group=group).select_related("club", "standing").order_by("name"))
    rules = series_rules(league)

    def meetings(names: Sequence[str]) -> list[DayResult]:
        venues = (
            VenueTeam.objects.filter(team__group=group, team__name__in=names, venue__closed_at__isnull=False)
            .values("venue_id")
            .annotate(met=Count("id"))
            .filter(met__gte=2)
            .values_list("venue_id", flat=True)
        )
        return [day for day, _ in _closed_days(venues, rules).values()]

    rows = table_of_totals([_totals(team) for team in teams], table_rules(league, group), meetings)
    by_name = {team.name: team for team in teams}
    provisional = {team.name for team in teams if (standing := _standing(team)) is not None and standing.open_days}
    return GroupTable(group, tuple(GroupTableRow(row, by_name[row.team], row.team in provisional) for row in rows))


# --- A team's match days ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamMatchDay:
    """A match day of a team: where it plays, and (once the venue closed) its day's points, flagged provisional
    until accepted."""

    venue: Venue
    result: TeamDay | None
    provisional: bool


def team_match_days(team: Team) -> list[TeamMatchDay]:
    """The team's match days in order, each with its result once its venue closed (from the stored series
    scores)."""
    league = team.group.division.league
    venues = [
        one.venue
        for one in VenueTeam.objects.filter(team=team)
        .select_related("venue__match_day")
        .order_by("venue__match_day__number")
    ]
    days = _closed_days([venue.pk for venue in venues if venue.closed_at is not None], series_rules(league))
    found = []
    for venue in venues:
        day = days.get(venue.pk)
        row = next((row for row in day[0].rows if row.team == team.name), None) if day else None
        found.append(TeamMatchDay(venue, row, venue.accepted_at is None))
    return found


# --- The players' ranking ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankedPlayer:
    """A player's row in the league's ranking; ``provisional``: a series counted in it is not accepted yet."""

    row: PlayerAverage
    player: Player
    provisional: bool


def players_ranking(league: League, *, group: Group | None = None) -> list[RankedPlayer]:
    """The league's players (or a group's) by their average Seeger-Fabian total per series, from the league's
    minimum number of series, those sharing a rank by name; read from the players' standings in its groups (a player
    who played in two groups has both summed)."""
    rows = PlayerStanding.objects.filter(group__division__league=league)
    if group is not None:
        rows = rows.filter(group=group)
    sums: dict[str, list[int]] = {}
    for player, total, series, provisional in rows.values_list("league_player_id", "total", "series", "open_series"):
        held = sums.setdefault(str(player), [0, 0, 0])
        held[0] += total
        held[1] += series
        held[2] += provisional
    ranked = ranking_of_sums(
        ((player, total, series) for player, (total, series, _) in sums.items()), league.minimum_series
    )
    players = Player.objects.in_bulk([int(row.player) for row in ranked])
    # The players of a shared rank by name, as the group's table lists its teams (the ranking's order is by rank).
    ranked.sort(key=lambda row: (row.rank, players[int(row.player)].name))
    return [RankedPlayer(row, players[int(row.player)], bool(sums[row.player][2])) for row in ranked]


# --- The room's screen ------------------------------------------------------------------------------------------------


def screen_state(venue: Venue) -> tuple[int, ...]:
    """What the venue's room screen shows moves with: the venue's version (line-ups, seatings, paper lists,
    closing, acceptance), its tables' games (their versions and how many), the group's venues' versions (the
    group's table moves when one of them closes or is accepted) and its teams (one entered). Counted by the database
    in three reads, however long the day or the group's history."""
    tables = Match.objects.filter(venue_table__venue=venue).aggregate(versions=Sum("version"), games=Sum("deals"))
    return (venue.version, tables["versions"] or 0, tables["games"] or 0, *group_state(venue.match_day.group_id))


def group_state(group_id: int) -> tuple[int, ...]:
    """What a group's table moves with: its venues' versions (one closes, is accepted, reopened), how many there are,
    its teams (one entered) and its own version (its kept standings written anew). Counted by the database in two
    reads, however long the group's history."""
    venues = Venue.objects.filter(match_day__group_id=group_id).aggregate(versions=Sum("version"), venues=Count("pk"))
    group = Group.objects.filter(pk=group_id).annotate(entered=Count("teams")).values_list("version", "entered").get()
    return (venues["versions"] or 0, venues["venues"], *group)


def closed_venue_lists(match_ids: Sequence[int]) -> dict[int, ListPlace]:
    """Of the matches ``match_ids``, the tables of closed venues, each with its venue, match day, group and series."""
    tables = VenueTable.objects.filter(match_id__in=match_ids, venue__closed_at__isnull=False).values_list(
        "match_id",
        "series",
        "venue__public_id",
        "venue__match_day__date",
        "venue__match_day__group__public_id",
        "venue__match_day__group__name",
        "venue__match_day__group__division__league__name",
    )
    return {
        match: ListPlace("league", venue, f"{league} · {group}", group_id, date, series)
        for match, series, venue, date, group_id, group, league in tables
    }


def league_book_names(keepers: Sequence[int]) -> dict[int, str]:
    """The names of the leagues that keep some of these books (keepers, by id), by the book's id, in one query."""
    return dict(League.objects.filter(keeper_id__in=keepers).values_list("keeper_id", "name"))
