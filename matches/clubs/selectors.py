"""A club's results as the database sums them: each player's list per table, the series, the night, the season.

The games are never read one by one here: one aggregate query sums every list of a night or a season (game points,
games won and lost, the others' lost games), another reads the lists entered from paper; the engine's league
functions rank those sums.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db.models import (
    Count,
    Expression,
    ExpressionWrapper,
    F,
    FloatField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Cast, Coalesce, Greatest

from matches.engine import Scheme
from matches.engine.league import (
    Account,
    MoneyRules,
    NightResult,
    Place,
    RankingRule,
    SeasonRanking,
    SeriesLine,
    SeriesMoney,
    Standing,
    cashier,
    rank,
    season_standings,
)
from matches.models import Match, Player, Seat
from matches.papers import paper_sums
from matches.registry import ListPlace
from matches.selectors import versions_mark
from matches.sums import list_sums

from .models import Attendance, Club, ClubTable, Night, NightStanding, Roster, Season, SeasonStanding


@dataclass(frozen=True)
class ListResult:
    """One player's list at one table: the score it ranks by (the Seeger-Fabian total, or the match's points under
    another scheme), its game points, games won and lost, and the others' lost games."""

    player: str
    table: int
    series: int
    night: int
    size: int
    score: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    paper: bool = False

    @property
    def footer(self) -> SeriesLine:
        return SeriesLine(self.player, self.size, self.game_points, self.won, self.lost, self.others_lost)


def _game_lists(seated: Mapping[tuple[int, int], ListResult], seeger_fabian: bool) -> list[ListResult]:
    """Every list of the tables whose seats are ``seated`` (by match and player), from their games' sums."""
    lists = []
    for sums in list_sums(sorted({match for match, _ in seated})):
        empty = seated.get((sums.match, sums.player))
        if empty is not None:
            game_points = sums.game_points(seeger_fabian=seeger_fabian)
            lists.append(
                replace(
                    empty,
                    score=sums.points,
                    game_points=game_points,
                    won=sums.won,
                    lost=sums.lost,
                    others_lost=sums.others_lost,
                )
            )
    return lists


def _paper_lists(seated: Mapping[tuple[int, int], ListResult], seeger_fabian: bool) -> list[ListResult]:
    """Every list of the tables kept on paper whose seats are ``seated`` (by match and player), from the totals
    their paper lists wrote."""
    lists = []
    for key, line in paper_sums(sorted({match for match, _ in seated})).items():
        empty = seated.get(key)
        if empty is not None:
            lists.append(
                replace(
                    empty,
                    score=line.total if seeger_fabian else line.game_points,
                    game_points=line.game_points,
                    won=line.won,
                    lost=line.lost,
                    others_lost=line.others_lost,
                    paper=True,
                )
            )
    return lists


def _seated(matches: Sequence[int]) -> dict[tuple[int, int], ListResult]:
    """A list for everybody seated at the tables of ``matches`` (by match and player), empty until games or a paper
    list fill it."""
    seats = Seat.objects.filter(match_id__in=matches).values_list(
        "match_id",
        "player_id",
        "player__public_id",
        "match__club_table__id",
        "match__club_table__series",
        "match__club_table__night_id",
        "match__players",
    )
    return {
        (match, player): ListResult(str(public_id), table, series, night, size, 0, 0, 0, 0, 0)
        for match, player, public_id, table, series, night, size in seats
    }


def _lists(tables: QuerySet[ClubTable], season: Season) -> list[ListResult]:
    """Every list of the ``tables`` that have entered something, game by game or from paper: one for everybody
    seated there (a player who neither won nor lost a game has a list all the same). A table that has entered
    nothing yet has no lists: it counts for nobody's average, fees or prizes. The tables are read first and the
    sums asked for by their matches' ids, which every database answers from its indexes."""
    rows = tables.values_list("match_id", "paper", "match__deals")
    return _entered_lists({match: paper for match, paper, deals in rows if paper or deals}, season)


def _entered_lists(entered: Mapping[int, bool], season: Season) -> list[ListResult]:
    """Every list of the tables whose matches (by id) have ``entered`` something, on paper (True) or game by game,
    as ``_lists`` reads them."""
    seeger_fabian = season.scheme == Scheme.SEEGER_FABIAN
    seated = _seated(list(entered))
    on_phones = {match for match, paper in entered.items() if not paper}
    filled = {
        (one.table, one.player): one
        for one in _game_lists({key: one for key, one in seated.items() if key[0] in on_phones}, seeger_fabian)
        + _paper_lists({key: one for key, one in seated.items() if key[0] not in on_phones}, seeger_fabian)
    }
    return [filled.get((one.table, one.player), one) for one in seated.values()]


# --- A night -------------------------------------------------------------------------------------------------------


@dataclass
class TableView:
    """A table of a night as its page shows it: the match, who sits there, and each player's list so far."""

    table: ClubTable
    seats: list[Seat]
    lists: dict[str, ListResult] = field(default_factory=dict)


@dataclass
class NightResults:
    night: Night
    tables: list[TableView]
    series: dict[int, list[Place]]
    night_places: list[Place]
    players: dict[str, Player]
    accounts: list[Account]
    attendances: list[Attendance]

    def tables_of(self, series: int) -> list[TableView]:
        return [table for table in self.tables if table.table.series == series]


def _standings(lists: Iterable[ListResult]) -> list[Standing]:
    by_player: dict[str, list[ListResult]] = {}
    for one in lists:
        by_player.setdefault(one.player, []).append(one)
    return [
        Standing(
            player,
            Fraction(sum(one.score for one in own)),
            won=sum(one.won for one in own),
            lost=sum(one.lost for one in own),
            lists=len(own),
            game_points=sum(one.game_points for one in own),
        )
        for player, own in by_player.items()
    ]


def money_rules(season: Season) -> MoneyRules:
    return MoneyRules(
        stake=season.stake,
        list_fee=season.list_fee,
        lost_fees=tuple((int(start), int(cents)) for start, cents in season.lost_fees),
    )


def night_tables(night: Night, attendances: Sequence[Attendance] = ()) -> list[TableView]:
    """A night's tables in the order of their series and numbers, each with its match and its players by seat, in
    three queries: each player is read once, however many series they sit, and given to ``attendances`` (the
    night's check-ins, read without them) too."""
    tables = ClubTable.objects.filter(night=night).select_related("match")
    seats = list(Seat.objects.filter(match__club_table__night=night).order_by("match", "position"))
    players = Player.objects.in_bulk({seat.player_id for seat in seats} | {one.player_id for one in attendances})
    for attendance in attendances:
        attendance.player = players[attendance.player_id]
    by_match: dict[int, list[Seat]] = {}
    for seat in seats:
        seat.player = players[seat.player_id]
        by_match.setdefault(seat.match_id, []).append(seat)
    return [TableView(table, by_match.get(table.match_id, [])) for table in tables]


def unfinished(tables: Iterable[TableView]) -> list[ClubTable]:
    """The tables of a night's page on phones that have not played the games of their series, as
    ``night_unfinished`` finds them (without a query): closing the night asks to confirm them."""
    return [
        view.table
        for view in tables
        if not view.table.paper and view.table.match.deals < (view.table.match.planned_games or 0)
    ]


def night_unfinished(night: Night) -> QuerySet[ClubTable]:
    """A night's tables on phones that have not played the games of their series, by series and number, with their
    matches (a table kept on paper has its list complete: the paper's totals)."""
    tables = ClubTable.objects.filter(night=night, paper=False, match__deals__lt=F("match__planned_games"))
    return tables.select_related("match").order_by("series", "number")


def table_of(match: Match) -> ClubTable | None:
    """The club table a match is, with its night, season and club; None for a match of nobody's club night."""
    return ClubTable.objects.select_related("night__season__club").filter(match=match).first()


def night_on_screen(club: Club, today: datetime.date) -> Night | None:
    """The night the club room's screen shows: tonight's, else the latest whose tables were drawn. A night planned
    ahead takes the screen on its day (or once its tables are drawn), never before."""
    nights = Night.objects.filter(season__club=club).select_related("season")
    return nights.filter(date=today).first() or nights.filter(tables__isnull=False).first()


def screen_state(club: Club, today: datetime.date, night: Night | None, season: Season | None) -> Hashable:
    """What the club room's screen shows moves with, counted by the database in two reads however many nights and
    games the season holds and however many players the club's book holds: the day (a night takes the screen on
    its day), the club's name, ``night`` on the screen and ``season``'s settings and version as read already (the
    version moves with a player's roster too: their wish to be shown by first name only, a guest ranked or not);
    the season's nights (each one's version moves with check-ins, draws, seats, paper lists, closing and
    reopening; one added or removed) and the lists of all their tables (``versions_mark``). A player's name is
    never changed: a name is the player in the book."""
    shown_night = None if night is None else (night.pk, night.date, night.closed_at, night.version)
    if season is None:
        return (today, club.name, shown_night)
    settings = tuple(getattr(season, one.attname) for one in Season._meta.concrete_fields)
    nights = Night.objects.filter(season=season).aggregate(count=Count("id"), newest=Max("id"), versions=Sum("version"))
    tables = versions_mark(Match.objects.filter(club_table__night__season=season))
    return (today, club.name, shown_night, settings, tuple(nights.values()), tables)


def night_version(night: Night) -> str:
    """What the night's page asks with to learn whether any of its tables changed (a game, a paper list, a draw,
    closing): one query, however many games the tables hold."""
    return versions_mark(Match.objects.filter(club_table__night=night))


def night_results(night: Night) -> NightResults:
    """Everything a night's page shows: its tables with their players, every list so far, the table of each series
    and of the night, and the cashier's summary; each player read once, seated or checked in, however many series
    they sit."""
    season = night.season
    attendances = list(Attendance.objects.filter(night=night))
    views = {view.table.pk: view for view in night_tables(night, attendances)}
    tables = [view.table for view in views.values()]
    lists = _entered_lists(
        {table.match_id: table.paper for table in tables if table.paper or table.match.deals}, season
    )
    for one in lists:
        views[one.table].lists[one.player] = one
    players = {str(seat.player.public_id): seat.player for view in views.values() for seat in view.seats}
    players |= {str(attendance.player.public_id): attendance.player for attendance in attendances}
    series = {
        number: rank(_standings(one for one in lists if one.series == number), seed=f"{night.seed}/{number}")
        for number in sorted({table.series for table in tables})
    }
    in_pot = frozenset(str(attendance.player.public_id) for attendance in attendances if attendance.in_pot)
    money = [
        SeriesMoney(
            places=[(place.standing.player, place.standing.lost) for place in places],
            tables=sum(1 for table in tables if table.series == number),
            in_pot=in_pot,
        )
        for number, places in series.items()
    ]
    rules = money_rules(season)
    return NightResults(
        night=night,
        tables=list(views.values()),
        series=series,
        night_places=rank(_standings(lists), seed=night.seed),
        players=players,
        accounts=cashier(money, rules) if rules.any else [],
        attendances=attendances,
    )


def series_ranking(night: Night, series: int) -> list[Place]:
    tables = ClubTable.objects.filter(night=night, series=series)
    return rank(_standings(_lists(tables, night.season)), seed=f"{night.seed}/{series}")


# --- A season ------------------------------------------------------------------------------------------------------


@dataclass
class SeasonTable:
    season: Season
    places: list[Place]
    players: dict[str, Player]
    nights: int


def night_sums(night: Night) -> list[NightResult]:
    """Each player's sums over one night (every list they played that night)."""
    return _by_night(_lists(ClubTable.objects.filter(night=night), night.season))


def _by_night(lists: Iterable[ListResult]) -> list[NightResult]:
    by_night: dict[tuple[str, int], list[ListResult]] = {}
    for one in lists:
        by_night.setdefault((one.player, one.night), []).append(one)
    return [
        NightResult(
            player,
            str(night),
            score=sum(one.score for one in own),
            won=sum(one.won for one in own),
            lost=sum(one.lost for one in own),
            lists=len(own),
            game_points=sum(one.game_points for one in own),
        )
        for (player, night), own in by_night.items()
    ]


def _season_ranking(season: Season) -> SeasonRanking:
    return SeasonRanking(RankingRule(season.ranking), season.minimum_lists, season.best_nights)


def _open_lists(season: Season, nights: QuerySet[Night]) -> list[ListResult]:
    """Every list of the open nights of ``nights``, as it stands."""
    return _lists(ClubTable.objects.filter(night__in=nights.filter(closed_at__isnull=True)), season)


def _open_results(season: Season, nights: QuerySet[Night]) -> list[NightResult]:
    """Each player's sums over each open night of ``nights``, as the night's lists stand."""
    return _by_night(_open_lists(season, nights))


# The sums a night or a season keeps of each player, in the order ``NightResult`` takes them.
SUMS = ("score", "won", "lost", "lists", "game_points")
# A row of kept sums as ``season_standings`` takes it: what it was kept for (a night's or the season's id), the
# player's public id, then the ``SUMS``.
ClosedRow = tuple[int, uuid.UUID, int, int, int, int, int]


def _closed_rows(
    season: Season, nights: QuerySet[Night], ranking: SeasonRanking, *, by_night: bool
) -> QuerySet[Any, ClosedRow]:
    """The sums kept of the closed nights of ``nights`` as rows for ``season_standings`` (what they are kept for,
    then the player's public id and the sums): one row per player and night where ``by_night`` or the season counts
    a player's best nights (read in the order they were kept, which picks the first kept of equal nights), else the
    season's one row per player."""
    fields = ("player__public_id", *SUMS)
    if ranking.rule is RankingRule.BEST_NIGHTS or by_night:
        closed = NightStanding.objects.filter(night__in=nights.filter(closed_at__isnull=False))
        return closed.order_by("pk").values_list("night_id", *fields)
    return SeasonStanding.objects.filter(season=season).values_list("season_id", *fields)


def _closed_results(rows: Iterable[ClosedRow]) -> list[NightResult]:
    return [
        NightResult(str(player), f"closed {kept}", score, won, lost, lists, game_points)
        for kept, player, score, won, lost, lists, game_points in rows
    ]


def season_table(season: Season, *, before: Night | None = None, category: str = "") -> SeasonTable:
    """The season's table under its ranking rule, guests left out where the season does not rank them, one category
    only if asked. A closed night counts with the sums kept when it closed (a total or an average reads one row per
    player for all of them, however long the season has run); the open nights are summed as they stand. ``before``:
    the table as it stood before that night (to seat a night by the ranking)."""
    ranking = _season_ranking(season)
    nights = Night.objects.filter(season=season)
    if before is not None:
        nights = nights.filter(date__lt=before.date)
    results = _open_results(season, nights)
    results += _closed_results(_closed_rows(season, nights, ranking, by_night=before is not None))
    standings = season_standings(results, ranking)
    # The players of the table alone, however many more the club's book holds.
    ranked = Player.objects.filter(public_id__in=[row.player for row in standings])
    players = {str(player.public_id): player for player in ranked}
    rosters = {roster.player_id: roster for roster in Roster.objects.filter(player__in=list(players.values()))}
    kept = [row for row in standings if _ranked(players.get(row.player), rosters, season, category)]
    return SeasonTable(season, rank(kept, seed=str(season.public_id)), players, nights.count())


@dataclass
class Top:
    """The first places of a table, a season's or a night's, and how many players it ranks."""

    places: list[Place]
    ranked: int


@dataclass
class ScreenTops:
    """The first places of the club room screen's boards: the season's table, the night's (None without a night on
    the screen), and the players those places name."""

    season: Top
    night: Top | None
    players: dict[str, Player]


def _kept_sums(season: Season, ranking: SeasonRanking) -> QuerySet[Any, Any]:
    """Each player's sums over the season's closed nights as its rule counts them, one row per player: the season's
    kept sums, or of a season counting a player's best nights, the sums of those nights (the highest scores, the
    first kept of equal ones, as ``season_standings`` picks them from ``_closed_rows``)."""
    if ranking.rule is not RankingRule.BEST_NIGHTS or not ranking.best_nights:
        kept = SeasonStanding.objects.filter(season=season)
        return kept.values("player__public_id", **{f"kept_{name}": F(name) for name in SUMS})
    nights = NightStanding.objects.filter(night__season=season, night__closed_at__isnull=False)
    better = nights.filter(player=OuterRef("player")).filter(
        Q(score__gt=OuterRef("score")) | Q(score=OuterRef("score"), pk__lt=OuterRef("pk"))
    )
    beaten = Coalesce(Subquery(better.values("player").annotate(count=Count("pk")).values("count")), 0)
    best = nights.alias(beaten=beaten).filter(beaten__lt=ranking.best_nights)
    return best.values("player__public_id").annotate(**{f"kept_{name}": Sum(name) for name in SUMS})


def _season_top(season: Season, count: int, open_results: list[NightResult]) -> Top:
    """The first ``count`` places of the season's table as ``season_table`` ranks it, and how many players it ranks,
    from the sums of its open nights' players (``open_results``, as the table sums them): of the others, the database
    orders the kept sums by what ranks them, counts them, and gives only those that reach the place after the last
    one asked for (with all that rank alike with it, whom their won and lost games and the lot order)."""
    ranking = _season_ranking(season)
    nights = Night.objects.filter(season=season)
    playing = {result.player for result in open_results}
    results = open_results + _closed_results(
        _closed_rows(season, nights, ranking, by_night=False).filter(player__public_id__in=playing)
    )
    kept = _kept_sums(season, ranking).exclude(player__public_id__in=playing)
    unranked: set[str] = set()
    if not season.guests_ranked:
        kept = kept.exclude(player__roster__guest=True)
        guests = Roster.objects.filter(player__public_id__in=playing, guest=True)
        unranked = {str(public_id) for public_id in guests.values_list("player__public_id", flat=True)}
    key: Expression | F = F("kept_score")
    if ranking.rule is RankingRule.AVERAGE:
        # The database orders by the average as a float, divided and rounded once: a float never puts one average
        # below a smaller one, it may only make close ones equal, and those equal to the last are all read; the
        # engine ranks what is read by the exact averages.
        lists = Greatest("kept_lists", Value(ranking.minimum_lists), Value(1))
        key = ExpressionWrapper(Cast("kept_score", FloatField()) / lists, output_field=FloatField())
    ordered = kept.annotate(key=key).order_by("-key")
    # What ranks the place after the last one asked for (its neighbour tells whether that one was decided by lot);
    # without that many players, nothing: every one is read.
    last = Coalesce(Subquery(ordered.values("key")[count : count + 1]), F("key"))
    results += [
        NightResult(str(row["player__public_id"]), "closed", *(row[f"kept_{name}"] for name in SUMS))
        for row in ordered.filter(key__gte=last)
    ]
    standings = [row for row in season_standings(results, ranking) if row.player not in unranked]
    places = rank(standings, seed=str(season.public_id))[:count]
    return Top(places, kept.count() + len(playing - unranked))


def screen_tops(season: Season, night: Night | None, count: int) -> ScreenTops:
    """The first ``count`` places of the club room screen's boards, ``season``'s table as ``season_table`` ranks it
    and ``night``'s (one of the season's) as ``night_results`` ranks it, with the players of those places alone: read
    in the same few queries however many players the season ranks and the night sums after them. The lists of the
    season's open nights are summed once for both boards: those of ``night``, open as it was read, are among them;
    a closed night's, one closed since it was read included, are summed on their own."""
    lists = _open_lists(season, Night.objects.filter(season=season))
    season_top = _season_top(season, count, _by_night(lists))
    night_top = None
    if night is not None:
        # A night closed since it was read (or with no list yet) has none among the open nights' lists.
        if night.closed or all(one.night != night.pk for one in lists):
            lists = _lists(ClubTable.objects.filter(night=night), season)
        places = rank(_standings(one for one in lists if one.night == night.pk), seed=night.seed)
        night_top = Top(places[:count], len(places))
    shown = [place.standing.player for top in (season_top, night_top) if top is not None for place in top.places]
    players = {str(player.public_id): player for player in Player.objects.filter(public_id__in=shown)}
    return ScreenTops(season_top, night_top, players)


@dataclass(frozen=True)
class PlayerNight:
    """One player's sums over one night of a season."""

    night: Night
    result: NightResult


def player_season(season: Season, player: Player) -> list[PlayerNight]:
    """A player's nights in a season, latest first: the closed ones as they closed, the open ones as they stand."""
    key = str(player.public_id)
    nights = {night.pk: night for night in Night.objects.filter(season=season, tables__match__seats__player=player)}
    kept = NightStanding.objects.filter(night_id__in=list(nights), player=player)
    results = [
        NightResult(key, str(row.night_id), row.score, row.won, row.lost, row.lists, row.game_points) for row in kept
    ]
    open_tables = ClubTable.objects.filter(
        night_id__in=[pk for pk, night in nights.items() if not night.closed], match__seats__player=player
    )
    results += [result for result in _by_night(_lists(open_tables, season)) if result.player == key]
    rows = [PlayerNight(nights[int(result.night)], result) for result in results]
    return sorted(rows, key=lambda row: (row.night.date, row.night.created_at), reverse=True)


def _ranked(player: Player | None, rosters: dict[int, Roster], season: Season, category: str) -> bool:
    if player is None:
        return False
    roster = rosters.get(player.pk)
    if roster is not None and roster.guest and not season.guests_ranked:
        return False
    return not category or (roster is not None and category in roster.categories)


def public_names(players: Mapping[str, Player]) -> dict[str, str]:
    """What is shown outside the club (its public screen, a picture for a group chat) for each of ``players`` (by
    public id): the name, or the first name only of those who asked for it."""
    hidden = set(
        Roster.objects.filter(player__in=[player.pk for player in players.values()], first_name_only=True).values_list(
            "player_id", flat=True
        )
    )
    return {
        key: (player.name.split() or [player.name])[0] if player.pk in hidden else player.name
        for key, player in players.items()
    }


def closed_club_lists(match_ids: Sequence[int]) -> dict[int, ListPlace]:
    """Of the matches ``match_ids``, the tables of closed club nights, each with its night, season and series."""
    tables = ClubTable.objects.filter(match_id__in=match_ids, night__closed_at__isnull=False).values_list(
        "match_id",
        "series",
        "night__public_id",
        "night__date",
        "night__season__public_id",
        "night__season__name",
        "night__season__club__name",
    )
    return {
        match: ListPlace("club", night, f"{club} · {season_name}", season, date, series)
        for match, series, night, date, season, season_name, club in tables
    }


def seasons_of_members(account: User) -> list[uuid.UUID]:
    """The seasons of the clubs ``account`` belongs to: their members see one another's lists of those nights."""
    return list(Season.objects.filter(club__memberships__user=account).values_list("public_id", flat=True))


def clubs_of_member(account: User) -> list[tuple[uuid.UUID, int, str]]:
    """The clubs ``account`` belongs to, with their books, by name: a ranking list of a club's players."""
    clubs = Club.objects.filter(memberships__user=account).order_by("name")
    return list(clubs.values_list("public_id", "keeper_id", "name"))


def club_circles_of(keepers: Sequence[int]) -> dict[int, tuple[uuid.UUID, str]]:
    """Of these books (keepers, by id), the clubs' with each club's public id and name, in one query."""
    clubs = Club.objects.filter(keeper_id__in=keepers).values_list("keeper_id", "public_id", "name")
    return {keeper: (public_id, name) for keeper, public_id, name in clubs}


def club_book_names(keepers: Sequence[int]) -> dict[int, str]:
    """The names of the clubs that keep some of these books (keepers, by id), by the book's id, in one query."""
    return dict(Club.objects.filter(keeper_id__in=keepers).values_list("keeper_id", "name"))
