"""League match days between clubs: a series' league points at a venue, a team's match day, the league table, the
players' ranking, the seating of a venue's series and who may play.

A group ("Staffel") of club teams meets on match days: three or four teams play a few series side by side at one
venue, one player of each team at each table. Per series the teams are ranked by their series score (the sum of
their players' Seeger-Fabian totals) and get league points ("Wertungspunkte"): 3:0, 2:1, 1:2, 0:3 with four teams,
the plus being the teams beaten and the minus the teams that beat it (DSkV Sportordnung, Anlage 10; clubs digest).
A team may play with three players (Anlage 10). Where the texts are silent, the reading is an option with a
default; docs/rules.md ("League match days between clubs") names each one and its source.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from itertools import combinations, product
from typing import TypeVar

from .draw import table_sizes
from .errors import FieldError, Problems, RuleError
from .messages import Message, gettext_noop, msg, msg_count, ngettext_noop

Item = TypeVar("Item")
Key = TypeVar("Key")

# A venue seats at most four teams (Anlage 8a: a host and three guests); a team plays with four players, or three
# (Anlage 10); with only two teams present both must have four (Anlage 10).
MAX_TEAMS = 4
MIN_TEAMS = 2
TEAM_SIZE = 4
SHORT_TEAM_SIZE = 3


# --- League points of a series ---------------------------------------------------------------------------------------


class TieRule(StrEnum):
    """What teams with equal series scores get."""

    SHARED = "shared"  # each tie counts ½:½, so two teams tied for 2nd and 3rd get 1½:1½ each
    BETTER_PLACE = "better-place"  # each tied team gets the points of the best place among them (both 2:1)
    WORSE_PLACE = "worse-place"  # each tied team gets the points of the worst place among them (both 1:2)


class ShortVenue(StrEnum):
    """What the teams of a venue get in a series that a team of the venue did not play."""

    PRESENT = "present"  # the teams present are ranked among themselves: 2:0, 1:1, 0:2
    ABSENT_BEATEN = "absent-beaten"  # each team present has beaten the absent one too: 3:0, 2:1, 1:2


@dataclass(frozen=True)
class SeriesRules:
    """How a series at a venue gives league points. ``per_team_beaten``: 1 in the DSkV (3:0 … 0:3), 2 in ISPA
    leagues (6:0 … 0:6)."""

    tie: TieRule = TieRule.SHARED
    short_venue: ShortVenue = ShortVenue.PRESENT
    per_team_beaten: int = 1


@dataclass(frozen=True)
class LeaguePoints:
    """League points as plus:minus, halves kept exactly."""

    plus: Fraction = Fraction(0)
    minus: Fraction = Fraction(0)

    def __add__(self, other: LeaguePoints) -> LeaguePoints:
        return LeaguePoints(self.plus + other.plus, self.minus + other.minus)

    def __str__(self) -> str:
        return f"{_points_text(self.plus)}:{_points_text(self.minus)}"


def _points_text(points: Fraction) -> str:
    whole, rest = divmod(points, 1)
    if rest == 0:
        return str(whole)
    if rest == Fraction(1, 2):
        return f"{whole or ''}\N{VULGAR FRACTION ONE HALF}"
    return str(points)


@dataclass(frozen=True)
class SeriesPlace:
    """A team's result in one series: its score, its place (shared by equal scores) and its league points."""

    team: str
    score: int
    place: int
    points: LeaguePoints


def rank_series(scores: Mapping[str, int], rules: SeriesRules = SeriesRules(), *, absent: int = 0) -> list[SeriesPlace]:
    """Rank the teams of one series at a venue by their series scores, best first, and give each its league points:
    one plus point (``per_team_beaten``) for every team it beat and one minus point for every team that beat it;
    ties as ``rules.tie`` says. ``absent``: teams of the venue that did not play this series (they get nothing)."""
    if absent < 0 or len(scores) + absent > MAX_TEAMS or len(scores) < MIN_TEAMS:
        raise _refuse(
            "series",
            msg(
                gettext_noop("A series is played by {low} to {high} teams of a venue, not {count}."),
                low=MIN_TEAMS,
                high=MAX_TEAMS,
                count=len(scores) + absent,
            ),
        )
    places = []
    for team, score in scores.items():
        beaten = sum(other < score for other in scores.values())
        beaten_by = sum(other > score for other in scores.values())
        tied = len(scores) - 1 - beaten - beaten_by
        plus, minus = _split_ties(Fraction(beaten), Fraction(beaten_by), tied, rules.tie)
        if rules.short_venue is ShortVenue.ABSENT_BEATEN:
            plus += absent
        factor = rules.per_team_beaten
        places.append(SeriesPlace(team, score, beaten_by + 1, LeaguePoints(plus * factor, minus * factor)))
    return sorted(places, key=lambda place: (-place.score, place.team))


def _split_ties(plus: Fraction, minus: Fraction, tied: int, rule: TieRule) -> tuple[Fraction, Fraction]:
    if rule is TieRule.SHARED:
        return plus + Fraction(tied, 2), minus + Fraction(tied, 2)
    if rule is TieRule.BETTER_PLACE:
        return plus + tied, minus
    return plus, minus + tied


# --- A match day -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamDay:
    """A team's match day: its league points and game points (the sum of its series scores) over the series it
    played, and each series' place (``None`` for a series it did not play)."""

    team: str
    points: LeaguePoints
    game_points: int
    series: tuple[SeriesPlace | None, ...]


@dataclass(frozen=True)
class MatchDay:
    """The series of one venue on one match day, and every team's day, best first."""

    teams: tuple[str, ...]
    series: tuple[tuple[SeriesPlace, ...], ...]
    rows: tuple[TeamDay, ...]


def score_match_day(
    teams: Sequence[str], series: Sequence[Mapping[str, int]], rules: SeriesRules = SeriesRules()
) -> MatchDay:
    """Every team's league points and game points over the series of a venue (each series: team → series score;
    a team missing from a series did not play it, as a team that comes late joins at the next series, Anlage 10)."""
    problems = Problems()
    if len(set(teams)) != len(teams):
        problems.add("teams", msg(gettext_noop("A team is listed twice.")))
    if not MIN_TEAMS <= len(teams) <= MAX_TEAMS:
        problems.add("teams", _venue_size_refused(len(teams)))
    for index, scores in enumerate(series):
        for team in scores:
            if team not in teams:
                problems.add(f"series.{index}", msg(gettext_noop("{team} is not one of the venue's teams."), team=team))
    problems.raise_if_any()
    ranked = tuple(tuple(rank_series(scores, rules, absent=len(teams) - len(scores))) for scores in series)
    rows = [_team_day(team, ranked) for team in teams]
    rows.sort(key=lambda row: (-row.points.plus, row.points.minus, -row.game_points, row.team))
    return MatchDay(tuple(teams), ranked, tuple(rows))


def _team_day(team: str, series: Sequence[Sequence[SeriesPlace]]) -> TeamDay:
    places = tuple(next((place for place in one if place.team == team), None) for one in series)
    played = [place for place in places if place is not None]
    points = sum((place.points for place in played), LeaguePoints())
    return TeamDay(team, points, sum(place.score for place in played), places)


# --- The league table ------------------------------------------------------------------------------------------------


class TableTie(StrEnum):
    """What separates teams equal in league points and game points."""

    SHARED = "shared"  # nothing: they share the rank (1, 2, 2, 4), listed by name
    DIRECT = "direct"  # the series where they met each other: more of them won against the others first
    LOT = "lot"  # a lot drawn from the group's seed, marked as such


class Mark(StrEnum):
    PROMOTION = "promotion"
    RELEGATION = "relegation"


@dataclass(frozen=True)
class TableRules:
    """How a group's table is ordered and marked: by league plus points, then (``minus_counts``) fewer minus points,
    then more game points, then ``tie``; the first ``promoted`` places go up and the last ``relegated`` go down."""

    minus_counts: bool = False
    tie: TableTie = TableTie.SHARED
    promoted: int = 0
    relegated: int = 0
    seed: str = ""


@dataclass(frozen=True)
class TableRow:
    """A team's row in the table. ``rank``: None for a team that has played no match day yet, whose place nobody's
    games decided. ``undecided``: it shares its rank with a team on the other side of a promotion or relegation line.
    ``by_lot``: its place against a tied neighbour was drawn."""

    rank: int | None
    team: str
    points: LeaguePoints
    game_points: int
    match_days: int
    mark: Mark | None = None
    undecided: bool = False
    by_lot: bool = False


@dataclass
class TeamTotals:
    """A team's sums over the match days it played: what the table ranks it by."""

    team: str
    points: LeaguePoints = field(default_factory=LeaguePoints)
    game_points: int = 0
    match_days: int = 0


def league_table(
    days: Iterable[MatchDay], rules: TableRules = TableRules(), *, teams: Sequence[str] = ()
) -> list[TableRow]:
    """The group's table over its match days (``teams``: the group's teams, so that one without a match day yet is
    listed with 0:0)."""
    days = list(days)
    totals = {team: TeamTotals(team) for team in teams}
    for day in days:
        for row in day.rows:
            total = totals.setdefault(row.team, TeamTotals(row.team))
            total.points += row.points
            total.game_points += row.game_points
            total.match_days += 1
    return table_of_totals(totals.values(), rules, lambda tied: days)


def table_of_totals(
    totals: Iterable[TeamTotals], rules: TableRules, meetings: Callable[[Sequence[str]], Iterable[MatchDay]]
) -> list[TableRow]:
    """The group's table from each team's sums, kept as its match days were played; ``meetings(teams)``: the match
    days at which two or more of ``teams`` met, asked only when equal teams are separated by their direct
    comparison. The teams that played are placed and marked among themselves (the last ``relegated`` of their places
    go down); a team that has played no match day yet follows them by name, with no place and no mark."""
    if rules.promoted < 0 or rules.relegated < 0:
        raise _refuse("promoted", msg(gettext_noop("The places up and down cannot be negative.")))
    totals = list(totals)
    ordered = sorted(
        (total for total in totals if total.match_days), key=lambda total: (_table_key(total, rules), total.team)
    )
    groups: list[list[tuple[TeamTotals, bool]]] = []
    for _, members in _runs(ordered, lambda total: _table_key(total, rules)):
        groups.extend(_break_tie(members, meetings, rules))
    waiting = sorted((total for total in totals if not total.match_days), key=lambda total: total.team)
    return _marked_rows(groups, rules) + [
        TableRow(None, total.team, total.points, total.game_points, total.match_days) for total in waiting
    ]


def _table_key(total: TeamTotals, rules: TableRules) -> tuple[Fraction, Fraction, int]:
    return (-total.points.plus, total.points.minus if rules.minus_counts else Fraction(0), -total.game_points)


def _runs(items: Sequence[Item], key: Callable[[Item], Key]) -> list[tuple[Key, list[Item]]]:
    """``items`` cut into runs of equal ``key``, in order."""
    runs: list[tuple[Key, list[Item]]] = []
    for item in items:
        value = key(item)
        if runs and runs[-1][0] == value:
            runs[-1][1].append(item)
        else:
            runs.append((value, [item]))
    return runs


def _break_tie(
    members: list[TeamTotals], meetings: Callable[[Sequence[str]], Iterable[MatchDay]], rules: TableRules
) -> list[list[tuple[TeamTotals, bool]]]:
    """The tied ``members`` as groups sharing a rank, best first; each member with whether a lot placed it."""
    if len(members) == 1 or rules.tie is TableTie.SHARED:
        return [[(member, False) for member in members]]
    if rules.tie is TableTie.LOT:
        drawn = sorted(members, key=lambda member: _lot(rules.seed, member.team))
        return [[(member, True)] for member in drawn]
    teams = [member.team for member in members]
    wins = _direct_wins(teams, meetings(teams))
    ranked = sorted(members, key=lambda member: (-wins[member.team], member.team))
    return [[(member, False) for member in run] for _, run in _runs(ranked, lambda member: wins[member.team])]


def _direct_wins(teams: Sequence[str], days: Iterable[MatchDay]) -> dict[str, Fraction]:
    """For each of ``teams``: the series won against the others of ``teams`` at the same venue, a tie counting ½."""
    wins = {team: Fraction(0) for team in teams}
    for day in days:
        for series in day.series:
            scores = {place.team: place.score for place in series if place.team in wins}
            for one, other in combinations(scores, 2):
                if scores[one] == scores[other]:
                    wins[one] += Fraction(1, 2)
                    wins[other] += Fraction(1, 2)
                else:
                    wins[one if scores[one] > scores[other] else other] += 1
    return wins


def _lot(seed: str, team: str) -> str:
    return hashlib.sha256(f"{seed}\x00{team}".encode()).hexdigest()


def _marked_rows(groups: Sequence[Sequence[tuple[TeamTotals, bool]]], rules: TableRules) -> list[TableRow]:
    count = sum(len(group) for group in groups)
    rows: list[TableRow] = []
    first = 1
    for group in groups:
        last = first + len(group) - 1
        mark = None
        # A shared rank across a line is marked on both sides of it: the table cannot say who goes.
        if first <= rules.promoted:
            mark = Mark.PROMOTION
        elif last > count - rules.relegated:
            mark = Mark.RELEGATION
        undecided = first <= rules.promoted < last or first <= count - rules.relegated < last
        for total, by_lot in group:
            rows.append(
                TableRow(first, total.team, total.points, total.game_points, total.match_days, mark, undecided, by_lot)
            )
        first = last + 1
    return rows


# --- The players' ranking ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerSeries:
    """One series a player played in the league: its Seeger-Fabian total."""

    player: str
    total: int


@dataclass(frozen=True)
class PlayerAverage:
    """A player's row in the league's individual ranking; ``average`` is exact (the caller rounds for display)."""

    rank: int
    player: str
    average: Fraction
    total: int
    series: int


def individual_ranking(lists: Iterable[PlayerSeries], *, minimum_series: int) -> list[PlayerAverage]:
    """The league's players by their average Seeger-Fabian total per series played, only those with at least
    ``minimum_series`` series; ties by the higher total, then more series, and a rank shared where all three tie."""
    sums: dict[str, list[int]] = {}
    for one in lists:
        sums.setdefault(one.player, [0, 0])
        sums[one.player][0] += one.total
        sums[one.player][1] += 1
    return ranking_of_sums(((player, total, series) for player, (total, series) in sums.items()), minimum_series)


def ranking_of_sums(sums: Iterable[tuple[str, int, int]], minimum_series: int) -> list[PlayerAverage]:
    """The individual ranking from each player's summed total and number of series, kept as their series were
    played (as ``individual_ranking`` ranks them)."""
    rows = [
        (Fraction(total, series), total, series, player)
        for player, total, series in sums
        if series >= max(minimum_series, 1)
    ]
    rows.sort(key=lambda row: (-row[0], -row[1], -row[2], row[3]))
    ranked: list[PlayerAverage] = []
    for index, (average, total, series, player) in enumerate(rows):
        tied = ranked and (ranked[-1].average, ranked[-1].total, ranked[-1].series) == (average, total, series)
        rank = ranked[-1].rank if tied else index + 1
        ranked.append(PlayerAverage(rank, player, average, total, series))
    return ranked


# --- Seating a venue's series ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LineUp:
    """The players a team brings to a venue, in its order (seat numbers 1, 2, …)."""

    team: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Seat:
    player: str
    team: str


SeriesTables = tuple[tuple[Seat, ...], ...]

# Multiplication in the field of four elements {0, 1, a, a + 1} as 0..3, where addition is XOR: with it, the seat
# rotation below makes every two players of different teams meet exactly once over four series of four tables.
_GF4_TIMES = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def seat_match_day(line_ups: Sequence[LineUp], *, series: int, seed: str | None = None) -> tuple[SeriesTables, ...]:
    """The tables of each of ``series`` series at a venue.

    Where the teams can sit apart (one player of each team per table: four tables when a team has four players,
    three when none has), player ``p`` of the ``k``-th team sits in series ``s`` at table ``p + k·s`` in the field
    of three or four elements: two players of different teams then meet in one series only. A team of three leaves
    one table short, a different one for each short team, so that the tables are of four and three (Anlage 10).
    Where they cannot (two teams, or three with one short), the teams are dealt in turn to as many tables of four as
    possible, each team's order turned by a seat more each series. Without ``seed`` the plan is the fixed one of
    the order given; with one, the teams, the players and the table numbers are shuffled from it first."""
    _check_line_ups(line_ups)
    rng = random.Random(seed) if seed is not None else None
    teams = [LineUp(one.team, tuple(_shuffled(one.players, rng))) for one in _shuffled(line_ups, rng)]
    size = sum(len(team.players) for team in teams)
    count = _apart_table_count(size, max(len(team.players) for team in teams))
    if count is None:
        plan = tuple(_dealt(teams, number) for number in range(series))
        count = len(table_sizes(size))
    else:
        plan = _rotated(teams, count, series)
    order = {one.team: index for index, one in enumerate(line_ups)}
    numbers = _shuffled(range(count), rng)
    return tuple(
        tuple(tuple(sorted(tables[number], key=lambda seat: order[seat.team])) for number in numbers) for tables in plan
    )


def _shuffled(items: Iterable[Item], rng: random.Random | None) -> list[Item]:
    result = list(items)
    if rng is not None:
        rng.shuffle(result)
    return result


def _check_line_ups(line_ups: Sequence[LineUp]) -> None:
    problems = Problems()
    if not MIN_TEAMS <= len(line_ups) <= MAX_TEAMS:
        problems.add("teams", _venue_size_refused(len(line_ups)))
    seen: set[str] = set()
    for index, line_up in enumerate(line_ups):
        if not SHORT_TEAM_SIZE <= len(line_up.players) <= TEAM_SIZE:
            problems.add(
                f"teams.{index}",
                msg_count(
                    ngettext_noop(
                        "{team} brings {count} player: a team plays with {low} or {high}.",
                        "{team} brings {count} players: a team plays with {low} or {high}.",
                    ),
                    len(line_up.players),
                    team=line_up.team,
                    low=SHORT_TEAM_SIZE,
                    high=TEAM_SIZE,
                ),
            )
        elif len(line_ups) == MIN_TEAMS and len(line_up.players) < TEAM_SIZE:
            problems.add(
                f"teams.{index}",
                msg(
                    gettext_noop("With only two teams at a venue both play with {high} players."),
                    high=TEAM_SIZE,
                ),
            )
        for player in line_up.players:
            if player in seen:
                problems.add(f"teams.{index}", msg(gettext_noop("{player} is listed twice."), player=player))
            seen.add(player)
    if len({line_up.team for line_up in line_ups}) != len(line_ups):
        problems.add("teams", msg(gettext_noop("A team is listed twice.")))
    problems.raise_if_any()


def _apart_table_count(players: int, largest_team: int) -> int | None:
    """The fewest tables of three and four that seat every team apart (one player of a team per table), if any."""
    for count in range(largest_team, players // SHORT_TEAM_SIZE + 1):
        if SHORT_TEAM_SIZE * count <= players <= TEAM_SIZE * count:
            return count
    return None


def _add(one: int, other: int, count: int) -> int:
    return one ^ other if count == 4 else (one + other) % count


def _times(one: int, other: int, count: int) -> int:
    return _GF4_TIMES[one][other] if count == 4 else (one * other) % count


def _rotated(teams: Sequence[LineUp], count: int, series: int) -> tuple[list[list[Seat]], ...]:
    """Each team on its own ``count`` seats (a short team's last seats empty), seat ``p`` of team ``k`` at table
    ``p + k·s`` in series ``s``. Four teams of three at three tables cannot all meet different players each series:
    the fourth team turns as the first does."""
    empty_seats = _empty_seats(teams, count, series)
    plan = []
    for number in range(series):
        step = number % count
        tables: list[list[Seat]] = [[] for _ in range(count)]
        for index, team in enumerate(teams):
            seats = [seat for seat in range(count) if seat not in empty_seats[number][index]]
            for player, seat in zip(team.players, seats, strict=False):
                tables[_add(seat, _times(index % count, step, count), count)].append(Seat(player, team.team))
        plan.append(tables)
    return tuple(plan)


def _empty_seats(teams: Sequence[LineUp], count: int, series: int) -> list[list[frozenset[int]]]:
    """Which seats each team leaves empty in each series: the same all day where that keeps every table at three or
    four players in every series (so that the rotation's meetings hold), else chosen series by series."""
    short = [index for index, team in enumerate(teams) if len(team.players) < count]
    if not short:
        return [[frozenset() for _ in teams] for _ in range(series)]
    choices = list(product(range(count - 1, -1, -1), repeat=len(short)))
    whole_day = next(
        (choice for choice in choices if all(_apart(choice, short, count, number) for number in range(series))), None
    )
    chosen = []
    for number in range(series):
        choice = whole_day or next(choice for choice in choices if _apart(choice, short, count, number))
        empty: list[frozenset[int]] = [frozenset() for _ in teams]
        for index, seat in zip(short, choice, strict=True):
            empty[index] = frozenset({seat})
        chosen.append(empty)
    return chosen


def _apart(choice: Sequence[int], short: Sequence[int], count: int, number: int) -> bool:
    """Whether the empty seats of ``choice`` fall at different tables in series ``number``."""
    step = number % count
    tables = {_add(seat, _times(index % count, step, count), count) for seat, index in zip(choice, short, strict=True)}
    return len(tables) == len(short)


def _dealt(teams: Sequence[LineUp], number: int) -> list[list[Seat]]:
    """The players dealt across as many tables of four as possible, one table after the other and round again, the
    larger teams first and each team's players one after the other, a full table passed over: a team's players sit
    at as many different tables as there are, so that no more team-mates sit together than the tables make
    unavoidable. Each series turns the ``k``-th team's order (from 0) by ``k + 1`` seats more, so that the tables
    mix anew."""
    sizes = table_sizes(sum(len(team.players) for team in teams))
    tables: list[list[Seat]] = [[] for _ in sizes]
    turn = 0
    for index, team in sorted(enumerate(teams), key=lambda item: -len(item[1].players)):
        start = number * (index + 1) % len(team.players)
        for player in team.players[start:] + team.players[:start]:
            while len(tables[turn % len(sizes)]) == sizes[turn % len(sizes)]:
                turn += 1
            tables[turn % len(sizes)].append(Seat(player, team.team))
            turn += 1
    return tables


def seat_series(
    line_ups: Sequence[LineUp],
    *,
    number: int,
    before: Sequence[Sequence[Sequence[str]]] = (),
    seed: str | None = None,
) -> SeriesTables:
    """The tables of the ``number``-th series (from 1) at a venue, ``before`` being the series seated before it at
    the venue as they were (each its tables, each table its players).

    The series is seated as ``seat_match_day`` plans it where that seats no two players together who sat at one
    table before. Where it would (players came, left or were replaced since, a team came late, or the short teams'
    empty seats moved), the series is seated at tables of the plan's sizes with as few such pairs as can be (none
    where that can be), of those with the fewest meetings again, then the fewest players of one team together; and
    never more players of one team together than the plan seats (none where the teams can sit apart). The search is
    exhaustive and deterministic: the same line-ups, series before and seed seat the same way."""
    plan = seat_match_day(line_ups, series=number, seed=seed)[number - 1]
    costs = _Costs.of(_meetings_before(before), plan)
    planned, team_mates = costs.of_tables(plan)
    if planned < costs.per_repeat:
        return plan
    better = _fewest_repeats(line_ups, [len(table) for table in plan], costs, planned, team_mates)
    if better is None:
        return plan
    order = {one.team: index for index, one in enumerate(line_ups)}
    return tuple(tuple(sorted(table, key=lambda seat: order[seat.team])) for table in better)


def _meetings_before(before: Sequence[Sequence[Sequence[str]]]) -> dict[frozenset[str], int]:
    """How often each two players sat at one table in the series ``before``."""
    met: dict[frozenset[str], int] = {}
    for tables in before:
        for table in tables:
            for pair in combinations(table, 2):
                key = frozenset(pair)
                met[key] = met.get(key, 0) + 1
    return met


@dataclass(frozen=True)
class _Costs:
    """What seating two players together costs, as one number ordered as (pairs that sat together before, their
    meetings before, players of one team together): each part weighs more than the most the parts after it sum to."""

    met: Mapping[frozenset[str], int]
    per_meeting: int
    per_repeat: int

    @classmethod
    def of(cls, met: Mapping[frozenset[str], int], plan: SeriesTables) -> _Costs:
        pairs = sum(len(table) * (len(table) - 1) // 2 for table in plan)
        per_meeting = pairs + 1
        return cls(met, per_meeting, per_meeting * (pairs * max(met.values(), default=0) + 1))

    def between(self, one: Seat, other: Seat) -> int:
        times = self.met.get(frozenset((one.player, other.player)), 0)
        return (one.team == other.team) + (self.per_repeat + self.per_meeting * times if times else 0)

    def of_tables(self, tables: Iterable[Iterable[Seat]]) -> tuple[int, int]:
        """The cost of ``tables`` and how many pairs of team-mates sit at them."""
        pairs = [(one, other) for table in tables for one, other in combinations(table, 2)]
        return sum(self.between(one, other) for one, other in pairs), sum(
            one.team == other.team for one, other in pairs
        )


def _fewest_repeats(
    line_ups: Sequence[LineUp], sizes: Sequence[int], costs: _Costs, bound: int, team_mates: int
) -> list[list[Seat]] | None:
    """The seating at tables of ``sizes`` with at most ``team_mates`` pairs of one team at a table that costs least,
    if it costs less than ``bound`` (branch and bound).

    The players are placed team by team, the largest team first, each at every table with room in turn, the
    cheapest first. A placement is abandoned where it seats too many team-mates together, or where what it costs,
    together with what each player still to be placed costs at least at the cheapest table left to them, is as much
    as the best seating found. Of empty tables of one size only the first is tried: the others would seat the same
    way under another number."""
    players = [
        Seat(player, one.team) for one in sorted(line_ups, key=lambda one: -len(one.players)) for player in one.players
    ]
    count = len(players)
    between = [[costs.between(one, other) for other in players] for one in players]
    mate = [[int(one.team == other.team) for other in players] for one in players]
    # What each player would cost, and how many team-mates they would join, at each table as it is seated so far.
    toward = [[0] * len(sizes) for _ in players]
    mates_at = [[0] * len(sizes) for _ in players]
    tables: list[list[int]] = [[] for _ in sizes]
    best: list[list[int]] | None = None
    best_cost = bound

    def sit(index: int, number: int, sign: int) -> None:
        costs_of, mates_of = between[index], mate[index]
        for other in range(index + 1, count):
            toward[other][number] += sign * costs_of[other]
            mates_at[other][number] += sign * mates_of[other]

    def place(index: int, cost: int, mates: int) -> None:
        nonlocal best, best_cost
        if index == count:
            best, best_cost = [list(table) for table in tables], cost
            return
        options = []
        empty_sizes: set[int] = set()
        for number, table in enumerate(tables):
            if len(table) == sizes[number]:
                continue
            if not table:
                if sizes[number] in empty_sizes:
                    continue
                empty_sizes.add(sizes[number])
            more, added = cost + toward[index][number], mates + mates_at[index][number]
            if added <= team_mates and more < best_cost:
                options.append((more, number, added))
        options.sort()
        for more, number, added in options:
            if more >= best_cost:
                break
            tables[number].append(index)
            sit(index, number, 1)
            open_tables = [other for other, table in enumerate(tables) if len(table) < sizes[other]]
            least = more + sum(min(toward[other][table] for table in open_tables) for other in range(index + 1, count))
            if least < best_cost:
                place(index + 1, more, added)
            sit(index, number, -1)
            tables[number].pop()

    place(0, 0, 0)
    return None if best is None else [[players[index] for index in table] for table in best]


# --- Who may play ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roster:
    """A team of the league: its club, its players and its substitution list ("Wechselliste")."""

    team: str
    club: str
    players: frozenset[str]
    substitutes: frozenset[str] = frozenset()

    def lists(self, player: str) -> bool:
        return player in self.players or player in self.substitutes


@dataclass(frozen=True)
class CheckIn:
    """A player checked in for a team on a match day."""

    player: str
    team: str


def refused_check_ins(check_ins: Sequence[CheckIn], rosters: Iterable[Roster]) -> list[FieldError]:
    """The check-ins of a match day that cannot stand, each named ``check_ins.<index>`` with why: a player checked
    in before (for one team a day), a team not in the league, a player on the roster of another club's team in the
    league, a player neither in the team's line-up nor on its substitution list. The first check-in of a player
    stands; a later one is refused."""
    by_team = {roster.team: roster for roster in rosters}
    first: dict[str, str] = {}
    refusals = []
    for index, check_in in enumerate(check_ins):
        message = _refusal(check_in, first.get(check_in.player), by_team)
        first.setdefault(check_in.player, check_in.team)
        if message is not None:
            refusals.append(FieldError(f"check_ins.{index}", message))
    return refusals


def _refusal(check_in: CheckIn, before: str | None, by_team: Mapping[str, Roster]) -> Message | None:
    player, team = check_in.player, check_in.team
    if before == team:
        return msg(gettext_noop("{player} is checked in for {team} twice."), player=player, team=team)
    if before is not None:
        return msg(
            gettext_noop("{player} plays for {other} today: a player plays for one team a match day."),
            player=player,
            other=before,
        )
    roster = by_team.get(team)
    if roster is None:
        return msg(gettext_noop("{team} is not a team of this league."), team=team)
    other = next((other for other in by_team.values() if other.club != roster.club and other.lists(player)), None)
    if other is not None:
        return msg(
            gettext_noop("{player} is on the roster of {other} ({club}): a player plays for one club in a league."),
            player=player,
            other=other.team,
            club=other.club,
        )
    if not roster.lists(player):
        return msg(
            gettext_noop("{player} is neither in the line-up nor on the substitution list of {team}."),
            player=player,
            team=team,
        )
    return None


def _venue_size_refused(count: int) -> Message:
    return msg(
        gettext_noop("A venue seats {low} to {high} teams, not {count}."), low=MIN_TEAMS, high=MAX_TEAMS, count=count
    )


def _refuse(field_name: str, message: Message) -> RuleError:
    return RuleError([FieldError(field_name, message)])
