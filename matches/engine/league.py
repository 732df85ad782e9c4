"""Club results over plain rows: Seeger-Fabian lists, rankings with their tie-breaks, season tables, the cashier.

Nothing here reads games: the database sums each player's list (game points, won, lost, the others' lost games);
these functions turn such sums into the footer of a paper list, a night's table, a season's table and the money.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache

from .errors import Problems
from .messages import gettext_noop, msg
from .skat import _SEEGER_FABIAN_DECLARER, _SEEGER_FABIAN_OPPONENTS, LEGAL_GAME_VALUES

# A lost game costs twice its value in game points (ISkO), under Seeger-Fabian as everywhere.
LOST_FACTOR = 2


@dataclass(frozen=True)
class SeegerFabianRates:
    """What Seeger-Fabian counts per game on a list: ``declarer`` for each game the player won as declarer (and minus
    as much for each they lost), ``others_lost`` for each game another player at the table lost."""

    declarer: int
    others_lost: int


def seeger_fabian_rates(table_size: int) -> SeegerFabianRates:
    """The rates at a table of ``table_size`` (ISkO-SWO 5.1): 50 a game, and 40 for the others' lost games at a table
    of three, 30 at a table of four. A table of another size (a two-player game's, which Seeger-Fabian does not
    score) counts nothing for them."""
    return SeegerFabianRates(_SEEGER_FABIAN_DECLARER, _SEEGER_FABIAN_OPPONENTS.get(table_size, 0))


def seeger_fabian_total(game_points: int, *, won: int, lost: int, others_lost: int, table_size: int) -> int:
    """A list's Seeger-Fabian total: game points + 50 × (won − lost) + 40 (three) or 30 (four) × the others' lost
    games."""
    rates = seeger_fabian_rates(table_size)
    return game_points + rates.declarer * (won - lost) + rates.others_lost * others_lost


def game_points_of_total(total: int, *, won: int, lost: int, others_lost: int, table_size: int) -> int:
    """The game points behind a Seeger-Fabian ``total`` (the inverse of ``seeger_fabian_total``): what is left
    without the 50 × (won − lost) and the others' lost games."""
    return total - seeger_fabian_total(0, won=won, lost=lost, others_lost=others_lost, table_size=table_size)


@dataclass(frozen=True)
class SeriesLine:
    """One player's list of one series at one table: what the footer of the paper list sums up.

    ``others_lost`` counts the games the other players at the table lost (at a table of four, those lost while the
    player sat out too)."""

    player: str
    table_size: int
    game_points: int
    won: int
    lost: int
    others_lost: int

    @property
    def won_points(self) -> int:
        return seeger_fabian_rates(self.table_size).declarer * self.won

    @property
    def lost_points(self) -> int:
        return seeger_fabian_rates(self.table_size).declarer * self.lost

    @property
    def bonus(self) -> int:
        return seeger_fabian_rates(self.table_size).others_lost * self.others_lost

    @property
    def total(self) -> int:
        """Seeger-Fabian: game points + 50 × (won − lost) + 40 (three) or 30 (four) × the others' lost games."""
        return seeger_fabian_total(
            self.game_points, won=self.won, lost=self.lost, others_lost=self.others_lost, table_size=self.table_size
        )


@dataclass(frozen=True)
class PaperLine:
    """A player's totals as a table wrote them on paper: game points, games won and games lost."""

    player: str
    game_points: int
    won: int
    lost: int


def lines_from_paper(table: Sequence[PaperLine]) -> list[SeriesLine]:
    """The Seeger-Fabian lines of a table that kept its list on paper, from each player's three totals."""
    lost = sum(line.lost for line in table)
    return [
        SeriesLine(line.player, len(table), line.game_points, line.won, line.lost, lost - line.lost) for line in table
    ]


def check_paper(table: Sequence[PaperLine], *, games: int | None, skat_values: bool) -> None:
    """Refuse totals that no series can produce: more games won and lost than were played, or (where the games are
    Skat games valued by the ISkO) game points that no legal game values reach with those wins and losses. Problems
    are named by the line's index (``lines.1.game_points``)."""
    problems = Problems()
    declared = 0
    for index, line in enumerate(table):
        if line.won < 0 or line.lost < 0:
            problems.add(f"lines.{index}.won", msg(gettext_noop("Games won and lost cannot be negative.")))
            continue
        declared += line.won + line.lost
        if skat_values and not reachable(line.game_points, won=line.won, lost=line.lost):
            problems.add(
                f"lines.{index}.game_points",
                msg(
                    gettext_noop("No {won} won and {lost} lost games add up to {points} game points."),
                    won=line.won,
                    lost=line.lost,
                    points=line.game_points,
                ),
            )
    if games is not None and declared > games:
        problems.add(
            "lines",
            msg(
                gettext_noop("{declared} games won and lost, but the series has {games} games."),
                declared=declared,
                games=games,
            ),
        )
    problems.raise_if_any()


@cache
def _sums(count: int) -> int:
    """Every sum of ``count`` legal game values, as the bits of one number (bit ``s`` set: ``s`` is reached)."""
    if count == 0:
        return 1
    smaller = _sums(count - 1)
    reached = 0
    for value in LEGAL_GAME_VALUES:
        reached |= smaller << value
    return reached


def reachable(game_points: int, *, won: int, lost: int) -> bool:
    """Whether ``won`` won and ``lost`` lost games of legal values give ``game_points`` (a lost game counts twice
    its value, negative)."""
    wins, losses = _sums(won), _sums(lost)
    loss = 0
    while losses >> loss:
        if losses >> loss & 1:
            total = game_points + LOST_FACTOR * loss
            if total >= 0 and wins >> total & 1:
                return True
        loss += 1
    return False


@dataclass(frozen=True)
class Standing:
    """One player's row in a table of results: the score it is ranked by, and the games won and lost that break
    ties."""

    player: str
    score: Fraction
    won: int
    lost: int
    lists: int = 1
    game_points: int = 0


@dataclass(frozen=True)
class Place:
    """A place in a ranking; ``by_lot``: the tie-breaks could not separate this player from a neighbour."""

    place: int
    standing: Standing
    by_lot: bool = False


def _lot(seed: str, player: str) -> str:
    return hashlib.sha256(f"{seed}\x00{player}".encode()).hexdigest()


def rank(standings: Iterable[Standing], *, seed: str) -> list[Place]:
    """Rank by score, then more games won, then fewer games lost, then by lot (drawn from ``seed``, so that the
    same table ranks the same way every time)."""
    rows = sorted(standings, key=lambda row: (-row.score, -row.won, row.lost, _lot(seed, row.player)))
    places: list[Place] = []
    for index, row in enumerate(rows):
        tied = [
            other
            for other in rows[max(0, index - 1) : index + 2]
            if other is not row and (other.score, other.won, other.lost) == (row.score, row.won, row.lost)
        ]
        places.append(Place(index + 1, row, by_lot=bool(tied)))
    return places


class RankingRule(StrEnum):
    """How a season ranks its players."""

    TOTAL = "total"  # the sum of every list
    AVERAGE = "average"  # the average per list, missing lists up to a minimum counting 0
    BEST_NIGHTS = "best-nights"  # the sum of a player's best nights


@dataclass(frozen=True)
class SeasonRanking:
    rule: RankingRule = RankingRule.TOTAL
    minimum_lists: int = 0  # for the average: fewer lists count as this many, the missing ones 0
    best_nights: int = 0  # for the best nights: how many count


@dataclass(frozen=True)
class NightResult:
    """One player's sums over one night (every list they played that night)."""

    player: str
    night: str
    score: int
    won: int
    lost: int
    lists: int
    game_points: int = 0


def season_standings(results: Iterable[NightResult], ranking: SeasonRanking) -> list[Standing]:
    """Each player's season row under the club's ranking rule."""
    by_player: dict[str, list[NightResult]] = {}
    for result in results:
        by_player.setdefault(result.player, []).append(result)
    rows = []
    for player, nights in by_player.items():
        counted = nights
        if ranking.rule is RankingRule.BEST_NIGHTS and ranking.best_nights > 0:
            counted = sorted(nights, key=lambda night: -night.score)[: ranking.best_nights]
        total = sum(night.score for night in counted)
        lists = sum(night.lists for night in counted)
        score = Fraction(total)
        if ranking.rule is RankingRule.AVERAGE:
            score = Fraction(total, max(lists, ranking.minimum_lists, 1))
        rows.append(
            Standing(
                player,
                score,
                won=sum(night.won for night in counted),
                lost=sum(night.lost for night in counted),
                lists=lists,
                game_points=sum(night.game_points for night in counted),
            )
        )
    return rows


# --- Money ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoneyRules:
    """A club's money, in cents: a stake per player and series paid out by placing in that series (as many prizes as
    tables), a fee per list to the club, and a fee per lost game, tiered by how many a list has (``lost_fees``: from
    the n-th lost game of a list on, this much per game; e.g. ((1, 50), (4, 100)))."""

    stake: int = 0
    list_fee: int = 0
    lost_fees: tuple[tuple[int, int], ...] = ()

    @property
    def any(self) -> bool:
        return bool(self.stake or self.list_fee or self.lost_fees)


def lost_games_fee(lost: int, tiers: Sequence[tuple[int, int]]) -> int:
    """What ``lost`` lost games of one list cost under ``tiers``."""
    steps = sorted(tiers)
    fee = 0
    for game in range(1, lost + 1):
        fee += next((cents for start, cents in reversed(steps) if game >= start), 0)
    return fee


def prizes(pot: int, count: int) -> list[int]:
    """The pot split among ``count`` places, the first place most: shares count, count − 1, … 1; the cents that do
    not divide go to the first place."""
    if count <= 0 or pot <= 0:
        return []
    weights = list(range(count, 0, -1))
    shares = [pot * weight // sum(weights) for weight in weights]
    shares[0] += pot - sum(shares)
    return shares


@dataclass(frozen=True)
class SeriesMoney:
    """One series of a night for the cashier: every list's player, place and lost games, who is in the pot, and how
    many tables played it."""

    places: Sequence[tuple[str, int]]  # (player, lost games) in the order of the series' ranking
    tables: int
    in_pot: frozenset[str] = field(default_factory=frozenset)


@dataclass
class Account:
    """What one player pays and receives over a night, in cents."""

    player: str
    stakes: int = 0
    list_fees: int = 0
    lost_fees: int = 0
    prizes: int = 0

    @property
    def paid(self) -> int:
        return self.stakes + self.list_fees + self.lost_fees

    @property
    def balance(self) -> int:
        return self.prizes - self.paid


def cashier(series: Iterable[SeriesMoney], rules: MoneyRules) -> list[Account]:
    """Every player's account over a night's series, and what the prizes pay out of each series' pot (as many prizes
    as tables, but never more than the players in the pot, so that the whole pot is paid out). Only players in the
    pot pay the stake and can win a prize; everybody pays the list and lost-game fees."""
    accounts: dict[str, Account] = {}
    for one in series:
        for player, lost in one.places:
            account = accounts.setdefault(player, Account(player))
            account.list_fees += rules.list_fee
            account.lost_fees += lost_games_fee(lost, rules.lost_fees)
            if player in one.in_pot:
                account.stakes += rules.stake
        winners = [player for player, _ in one.places if player in one.in_pot]
        shares = prizes(rules.stake * len(winners), min(one.tables, len(winners)))
        for player, prize in zip(winners, shares, strict=False):
            accounts[player].prizes += prize
    return list(accounts.values())
