"""Open tournaments ("Preisskat"): the money, the rankings over the series, the prize list, the cashier's list and the
seating of each series.

Anyone may enter before the first series is drawn and pays an entry fee, a fee per list and fees for the games lost
as declarer; two to four series are played, 48 games at a table of four and 36 at a table of three. Each player's
Seeger-Fabian totals are summed over the series; ties go to more games won, then fewer lost, then a lot drawn from
the tournament's seed. The entry fees make the prize money, paid out by place under a published schedule, with
prizes for categories (women, seniors, youth), for the best single series, and for tandems and teams entered for an
extra fee. Where organisers differ, the reading is an option with a default; docs/rules.md ("Open tournaments")
names each one and its source. Money is in whole cents throughout.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .draw import Tables, draw_tables, pairings_met, seat_by_ranking
from .errors import FieldError, Problems, RuleError
from .league import Place, SeriesLine, Standing, lost_games_fee, rank
from .messages import Message, gettext_noop, msg

MIN_SERIES = 2
MAX_SERIES = 4
TANDEM_SIZE = 2
TEAM_SIZE = 4
TABLE_SIZES = (3, 4)
# Shares are counted in basis points: 10 000 is the whole, 250 is 2.5 %.
WHOLE = 10_000
# What most open tournaments charge per lost game of a series (euroskat and skat-online fee tables): 0.50 € for the
# 1st to 3rd lost game, 1 € for the 4th and 5th, 3 € from the 6th on.
LOST_GAME_TIERS = ((1, 50), (4, 100), (6, 300))
# Within one tournament a pairing met in series 1 is as much a repeat in series 3 as one met in series 2.
REPEAT_WEIGHT_DECAY = 1.0


# --- Options ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fees:
    """What a player pays, in cents: the entry fee once, a fee for each list (series) played, the lost-game fees of
    each list by ``lost_games`` tiers (from the n-th lost game of a list on, this much per game), and a fee for each
    side ranking the player is entered in (per player of the tandem or team)."""

    entry: int = 0
    per_list: int = 0
    lost_games: tuple[tuple[int, int], ...] = LOST_GAME_TIERS
    tandem: int = 0
    team: int = 0


class ShareKind(StrEnum):
    """How the organiser's share of the pot is given."""

    PERCENT = "percent"  # a share of the pot, in basis points (500 = 5 %)
    FIXED = "fixed"  # a fixed amount in cents


@dataclass(frozen=True)
class OrganiserShare:
    """What the organiser keeps: the list fees and the lost-game fees outright (where ``keeps_…``), and ``value`` of
    the rest of the pot, as ``kind`` says."""

    kind: ShareKind = ShareKind.PERCENT
    value: int = 0
    keeps_list_fees: bool = True
    keeps_lost_game_fees: bool = True


class ScheduleKind(StrEnum):
    """What the numbers of a prize schedule are."""

    AMOUNTS = "amounts"  # cents per place
    SHARES = "shares"  # basis points of the prize money per place


class Payout(StrEnum):
    """How much of the prize money a schedule pays out."""

    IN_FULL = "in-full"  # all of it, split in the proportions of the schedule
    AS_ANNOUNCED = "as-announced"  # the amounts or shares as published; what they leave stays with the organiser


@dataclass(frozen=True)
class PrizeSchedule:
    """The prizes by place, best first."""

    values: tuple[int, ...] = ()
    kind: ScheduleKind = ScheduleKind.SHARES
    payout: Payout = Payout.IN_FULL


@dataclass(frozen=True)
class Category:
    """A category with prizes of its own (women, seniors, youth, or the organiser's own), amounts in cents by place
    within the category."""

    name: str
    prizes: tuple[int, ...]


class Doubles(StrEnum):
    """What a player wins who is placed for two prizes."""

    BETTER = "better"  # the better of the two; the other passes to the next player in its ranking
    BOTH = "both"  # both


@dataclass(frozen=True)
class TournamentRules:
    """An open tournament as announced. ``places``, the category prizes and ``best_series`` (amounts by place in
    the ranking of each player's best series) are paid from the prize money; ``tandems`` and ``teams`` from their
    own fees."""

    seed: str
    series: int = 3
    games_at_four: int = 48
    games_at_three: int = 36
    fees: Fees = Fees()
    share: OrganiserShare = OrganiserShare()
    places: PrizeSchedule = PrizeSchedule()
    categories: tuple[Category, ...] = ()
    best_series: tuple[int, ...] = ()
    tandems: PrizeSchedule = PrizeSchedule()
    teams: PrizeSchedule = PrizeSchedule()
    doubles: Doubles = Doubles.BETTER

    def games(self, table_size: int) -> int:
        """The games of a series at a table of ``table_size``."""
        return self.games_at_four if table_size == 4 else self.games_at_three


@dataclass(frozen=True)
class Entrant:
    """A player entered: the categories they are in (any number) and what they have paid so far, in cents."""

    player: str
    categories: frozenset[str] = frozenset()
    paid: int = 0


@dataclass(frozen=True)
class Side:
    """A tandem or a team entered in its side ranking: its name and its members."""

    name: str
    members: tuple[str, ...]


# --- Money -----------------------------------------------------------------------------------------------------------


def money(cents: int) -> Message:
    """An amount as the reader writes money: ``1,012.50 €``, in German ``1.012,50 €``, its thousands grouped, a
    real minus sign below nought and a no-break space before the sign, as the pages write every amount
    (``labels.euros``), so that a message never ends a line with the figure and starts the next with its €."""
    if cents < 0:
        return msg(gettext_noop("\N{MINUS SIGN}{amount}"), amount=money(-cents))
    euros, rest = divmod(cents, 100)
    return msg(gettext_noop("{euros}.{cents}\N{NO-BREAK SPACE}€"), euros=_grouped(euros), cents=f"{rest:02d}")


def _grouped(whole: int) -> int | Message:
    """A whole number, not negative, with its thousands grouped as the reader writes them: ``1,234,567``, in German
    ``1.234.567``; under a thousand as it is."""
    thousands, hundreds = divmod(whole, 1000)
    if not thousands:
        return whole
    return msg(gettext_noop("{thousands},{hundreds}"), thousands=_grouped(thousands), hundreds=f"{hundreds:03d}")


def split_by_weights(total: int, weights: Sequence[int]) -> tuple[int, ...]:
    """``total`` cents split in the proportions of ``weights``, in whole cents that add up to ``total`` exactly:
    each part gets its exact share rounded down, and the cents left over go one each to the parts with the largest
    remainders; of equal remainders, the earlier part (the better place) gets the cent first."""
    whole = sum(weights)
    if total <= 0 or whole <= 0:
        return (0,) * len(weights)
    parts = [divmod(total * weight, whole) for weight in weights]
    amounts = [share for share, _ in parts]
    left = total - sum(amounts)
    by_remainder = sorted(range(len(parts)), key=lambda index: (-parts[index][1], index))
    for index in by_remainder[:left]:
        amounts[index] += 1
    return tuple(amounts)


@dataclass(frozen=True)
class Dues:
    """What one player owes the tournament, in cents."""

    player: str
    entry: int
    lists: int
    lost_games: int
    tandem: int = 0
    team: int = 0

    @property
    def total(self) -> int:
        return self.entry + self.lists + self.lost_games + self.tandem + self.team


def dues(
    entrant: Entrant, lines: Iterable[SeriesLine], fees: Fees, *, in_tandem: bool = False, in_team: bool = False
) -> Dues:
    """A player's fees over the lists they played (a list fee and the tiered lost-game fees for each)."""
    played = list(lines)
    return Dues(
        entrant.player,
        entry=fees.entry,
        lists=fees.per_list * len(played),
        lost_games=sum(lost_games_fee(line.lost, fees.lost_games) for line in played),
        tandem=fees.tandem if in_tandem else 0,
        team=fees.team if in_team else 0,
    )


@dataclass(frozen=True)
class Pot:
    """The money of a tournament, in cents: every fee due, what the organiser keeps outright and as a share, and
    the prize money that is left, beside the side rankings' own."""

    entries: int
    list_fees: int
    lost_game_fees: int
    tandem_fees: int
    team_fees: int
    kept: int
    share: int

    @property
    def total(self) -> int:
        return self.entries + self.list_fees + self.lost_game_fees + self.tandem_fees + self.team_fees

    @property
    def main(self) -> int:
        """The pot of the individual ranking: every fee but the side rankings' and what the organiser keeps."""
        return self.total - self.tandem_fees - self.team_fees - self.kept

    @property
    def prize_money(self) -> int:
        return self.main - self.share


def pot(every_due: Iterable[Dues], share: OrganiserShare) -> Pot:
    """The pot from every player's dues; ``RuleError`` if the organiser's share is more than the pot."""
    due = list(every_due)
    list_fees = sum(one.lists for one in due)
    lost = sum(one.lost_games for one in due)
    kept = list_fees * share.keeps_list_fees + lost * share.keeps_lost_game_fees
    main = sum(one.entry for one in due) + list_fees + lost - kept
    taken = _share_of(main, share)
    return Pot(
        entries=sum(one.entry for one in due),
        list_fees=list_fees,
        lost_game_fees=lost,
        tandem_fees=sum(one.tandem for one in due),
        team_fees=sum(one.team for one in due),
        kept=kept,
        share=taken,
    )


def _share_of(main: int, share: OrganiserShare) -> int:
    """The organiser's share of ``main`` cents; a percentage is rounded down, so that the odd cents stay prizes."""
    if share.value < 0 or (share.kind is ShareKind.PERCENT and share.value > WHOLE):
        raise _refuse("share", msg(gettext_noop("The organiser's share lies between 0 and the whole pot.")))
    taken = main * share.value // WHOLE if share.kind is ShareKind.PERCENT else share.value
    if taken > main:
        raise _refuse(
            "share",
            msg(
                gettext_noop("The organiser's share of {share} is more than the pot of {pot}."),
                share=money(taken),
                pot=money(main),
            ),
        )
    return taken


def schedule_amounts(
    schedule: PrizeSchedule, prize_money: int, *, field_name: str = "places", taken: int = 0
) -> tuple[int, ...]:
    """Each place's prize under ``schedule`` from ``prize_money`` cents less ``taken`` (what the categories' and
    best series' prizes take of it first), in whole cents. Paid out in full, all of that is split in the schedule's
    proportions; as announced, amounts are paid as they are and shares of it rounded as ``split_by_weights`` does.
    ``RuleError`` if the schedule pays out more than there is, saying what was taken."""
    if any(value < 0 for value in schedule.values):
        raise _refuse(field_name, msg(gettext_noop("A prize cannot be negative.")))
    left = prize_money - taken
    if schedule.payout is Payout.IN_FULL:
        return split_by_weights(left, schedule.values)
    if schedule.kind is ScheduleKind.AMOUNTS:
        _check_pays_out(sum(schedule.values), prize_money, field_name, taken=taken)
        return schedule.values
    too_much = shares_beyond_whole(schedule)
    if too_much is not None:
        raise _refuse(field_name, too_much)
    return split_by_weights(left * sum(schedule.values) // WHOLE, schedule.values)


def shares_beyond_whole(schedule: PrizeSchedule) -> Message | None:
    """Why a schedule of shares promises more than there is (``None``: it does not, or it is of amounts): shares
    are percent of the prize money, so that together they are at most all of it, whether the schedule pays them as
    announced or splits the whole prize money in their proportions."""
    if schedule.kind is not ScheduleKind.SHARES or sum(schedule.values) <= WHOLE:
        return None
    return msg(
        gettext_noop("The shares add up to {share}\N{NO-BREAK SPACE}%: more than the whole pot."),
        share=_percent(schedule),
    )


def _percent(schedule: PrizeSchedule) -> Message | str:
    """The schedule's shares summed, in percent as the reader writes a fraction: ``100.5``, in German ``100,5``."""
    whole, rest = divmod(sum(schedule.values), 100)
    if not rest:
        return str(whole)
    return msg(gettext_noop("{whole}.{hundredths}"), whole=whole, hundredths=f"{rest:02d}".rstrip("0"))


def _check_pays_out(paid: int, prize_money: int, field_name: str, *, taken: int = 0) -> None:
    """Refuse prizes of ``paid`` cents beyond ``prize_money`` less ``taken`` (the categories' and best series'
    prizes, paid from it first): the refusal names the prize money as the cashier's list shows it and, where
    something was taken, what and how much, so that its figures agree with the list beside it."""
    left = prize_money - taken
    if paid <= left:
        return
    if not taken:
        raise _refuse(
            field_name,
            msg(
                gettext_noop("The prizes pay out {paid}, but the prize money is {pot}."),
                paid=money(paid),
                pot=money(prize_money),
            ),
        )
    raise _refuse(
        field_name,
        msg(
            gettext_noop(
                "The prizes by place pay out {paid}, but the prize money left after the categories' and best "
                "series' prizes is {left} ({pot} less {taken})."
            ),
            paid=money(paid),
            left=money(left),
            pot=money(prize_money),
            taken=money(taken),
        ),
    )


# --- Rankings --------------------------------------------------------------------------------------------------------


def _standing(player: str, lines: Sequence[SeriesLine]) -> Standing:
    return Standing(
        player,
        Fraction(sum(line.total for line in lines)),
        won=sum(line.won for line in lines),
        lost=sum(line.lost for line in lines),
        lists=len(lines),
        game_points=sum(line.game_points for line in lines),
    )


@dataclass(frozen=True)
class Rankings:
    """Every ranking of a tournament. ``best_series``: each player by their best single series; ``categories``:
    the whole ranking cut to each category's players."""

    series: tuple[tuple[Place, ...], ...]
    total: tuple[Place, ...]
    best_series: tuple[Place, ...]
    categories: Mapping[str, tuple[Place, ...]]
    tandems: tuple[Place, ...]
    teams: tuple[Place, ...]


def rank_tournament(
    rules: TournamentRules,
    entrants: Sequence[Entrant],
    series: Sequence[Sequence[SeriesLine]],
    *,
    tandems: Sequence[Side] = (),
    teams: Sequence[Side] = (),
) -> Rankings:
    """Every ranking from the lists of each series: per series, in total (Seeger-Fabian summed over the series), by
    the best single series, per category, and the tandems and teams (their members' totals summed). Ties: more
    games won, then fewer lost, then a lot from the tournament's seed."""
    check_results(rules, entrants, series)
    by_player = _lines_by_player(series)
    totals = {player: _standing(player, lines) for player, lines in by_player.items()}
    best = {player: _standing(player, [max(lines, key=_series_key)]) for player, lines in by_player.items()}
    return Rankings(
        series=tuple(
            tuple(rank([_standing(line.player, [line]) for line in lines], seed=rules.seed)) for lines in series
        ),
        total=tuple(rank(totals.values(), seed=rules.seed)),
        best_series=tuple(rank(best.values(), seed=rules.seed)),
        categories={
            category.name: _rank_category(category.name, entrants, totals, rules.seed) for category in rules.categories
        },
        tandems=_rank_sides(tandems, by_player, rules.seed),
        teams=_rank_sides(teams, by_player, rules.seed),
    )


def _rank_category(
    name: str, entrants: Sequence[Entrant], totals: Mapping[str, Standing], seed: str
) -> tuple[Place, ...]:
    """The players of category ``name`` in the order of the whole ranking (the same keys and lots)."""
    return tuple(
        rank([totals[one.player] for one in entrants if name in one.categories and one.player in totals], seed=seed)
    )


def _series_key(line: SeriesLine) -> tuple[int, int, int]:
    return line.total, line.won, -line.lost


def _lines_by_player(series: Sequence[Sequence[SeriesLine]]) -> dict[str, list[SeriesLine]]:
    by_player: dict[str, list[SeriesLine]] = {}
    for lines in series:
        for line in lines:
            by_player.setdefault(line.player, []).append(line)
    return by_player


def _rank_sides(sides: Sequence[Side], by_player: Mapping[str, Sequence[SeriesLine]], seed: str) -> tuple[Place, ...]:
    """Tandems or teams by the sum of their members' lists (a member who played nothing adds nothing)."""
    standings = [
        _standing(side.name, [line for member in side.members for line in by_player.get(member, ())]) for side in sides
    ]
    return tuple(rank(standings, seed=seed))


def check_results(rules: TournamentRules, entrants: Sequence[Entrant], series: Sequence[Sequence[SeriesLine]]) -> None:
    """Refuse lists that cannot be: more series than the tournament has, a player who has not entered, a player
    with two lists (two seats) in one series, a table of another size than three or four, more games won and lost
    than a series has."""
    problems = Problems()
    if not MIN_SERIES <= rules.series <= MAX_SERIES:
        problems.add(
            "series",
            msg(
                gettext_noop("A tournament plays {low} to {high} series, not {count}."),
                low=MIN_SERIES,
                high=MAX_SERIES,
                count=rules.series,
            ),
        )
    if len(series) > rules.series:
        problems.add("series", msg(gettext_noop("The tournament has {count} series, not more."), count=rules.series))
    entered = {one.player for one in entrants}
    for index, lines in enumerate(series):
        seen: set[str] = set()
        for line in lines:
            field_name = f"series.{index}"
            if line.player not in entered:
                problems.add(
                    field_name, msg(gettext_noop("{player} has not entered the tournament."), player=line.player)
                )
            if line.player in seen:
                problems.add(
                    field_name,
                    msg(
                        gettext_noop("{player} has two lists in series {number}."), player=line.player, number=index + 1
                    ),
                )
            seen.add(line.player)
            if line.table_size not in TABLE_SIZES:
                problems.add(field_name, msg(gettext_noop("A tournament's tables seat three or four players.")))
            elif line.won + line.lost > rules.games(line.table_size):
                problems.add(
                    field_name,
                    msg(
                        gettext_noop("{player} won and lost {count} games in series {number}, which has {games}."),
                        player=line.player,
                        count=line.won + line.lost,
                        number=index + 1,
                        games=rules.games(line.table_size),
                    ),
                )
    problems.raise_if_any()


# --- The prize list --------------------------------------------------------------------------------------------------


class PrizeKind(StrEnum):
    """Which ranking a prize is for; in this order a prize counts as the better of two equal ones."""

    PLACE = "place"
    BEST_SERIES = "best-series"
    CATEGORY = "category"
    TANDEM = "tandem"
    TEAM = "team"


@dataclass(frozen=True)
class Prize:
    """A prize of the prize list. ``winner``: a player, or a tandem's or team's name; ``None`` when nobody is left
    in its ranking to win it (its money stays with the organiser)."""

    kind: PrizeKind
    place: int
    amount: int
    winner: str | None
    category: str = ""


@dataclass(frozen=True)
class _Competition:
    kind: PrizeKind
    category: str
    amounts: tuple[int, ...]
    ranking: tuple[str, ...]


def prize_list(rules: TournamentRules, rankings: Rankings, money_pot: Pot) -> tuple[Prize, ...]:
    """Every prize with its money and its winner: the places, the best series, the categories, then the tandems and
    teams. Under ``Doubles.BETTER`` the prizes are given out from the largest down (of equal ones, a place before
    the best series before a category, categories in the order announced), each to the best player of its ranking
    who has no prize yet, so that a player placed for two prizes wins the better one and the other passes down its
    ranking. ``RuleError`` if the prizes pay out more than the prize money."""
    extras = [*rules.best_series, *(amount for category in rules.categories for amount in category.prizes)]
    if any(amount < 0 for amount in extras):
        raise _refuse("categories", msg(gettext_noop("A prize cannot be negative.")))
    _check_pays_out(sum(extras), money_pot.prize_money, "categories")
    places = schedule_amounts(rules.places, money_pot.prize_money, taken=sum(extras))
    individual = [
        _Competition(PrizeKind.PLACE, "", places, _players(rankings.total)),
        _Competition(PrizeKind.BEST_SERIES, "", rules.best_series, _players(rankings.best_series)),
        *(
            _Competition(
                PrizeKind.CATEGORY, category.name, category.prizes, _players(rankings.categories[category.name])
            )
            for category in rules.categories
        ),
    ]
    given = _one_each(individual) if rules.doubles is Doubles.BETTER else _each_by_its_ranking(individual)
    tandems = schedule_amounts(rules.tandems, money_pot.tandem_fees, field_name="tandems")
    teams = schedule_amounts(rules.teams, money_pot.team_fees, field_name="teams")
    sides = [
        _Competition(PrizeKind.TANDEM, "", tandems, _players(rankings.tandems)),
        _Competition(PrizeKind.TEAM, "", teams, _players(rankings.teams)),
    ]
    return (*given, *_each_by_its_ranking(sides))


def _players(places: Sequence[Place]) -> tuple[str, ...]:
    return tuple(place.standing.player for place in places)


def _each_by_its_ranking(competitions: Sequence[_Competition]) -> list[Prize]:
    return [
        Prize(one.kind, place, amount, one.ranking[place - 1] if place <= len(one.ranking) else None, one.category)
        for one in competitions
        for place, amount in enumerate(one.amounts, start=1)
    ]


def _one_each(competitions: Sequence[_Competition]) -> list[Prize]:
    """One prize a player: the largest prize still open (the next place of some ranking; of equal ones, the earlier
    ranking's) goes first, to the best player of its ranking without a prize."""
    awarded: set[str] = set()
    given: list[list[Prize]] = [[] for _ in competitions]
    while True:
        still_open = [index for index, one in enumerate(competitions) if len(given[index]) < len(one.amounts)]
        if not still_open:
            return [prize for prizes in given for prize in prizes]
        index = min(still_open, key=lambda index: (-competitions[index].amounts[len(given[index])], index))
        one, place = competitions[index], len(given[index]) + 1
        winner = next((player for player in one.ranking if player not in awarded), None)
        if winner is not None:
            awarded.add(winner)
        given[index].append(Prize(one.kind, place, one.amounts[place - 1], winner, one.category))


# --- The cashier's list ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CashierLine:
    """One player at the cashier's, in cents: what they owe the tournament (``dues``), what they have paid, what
    they won; ``owed``: what they still have to pay; ``balance``: what the cashier hands them at the end (negative:
    what the cashier still takes from them)."""

    dues: Dues
    paid: int
    won: int

    @property
    def player(self) -> str:
        return self.dues.player

    @property
    def owed(self) -> int:
        return self.dues.total - self.paid

    @property
    def balance(self) -> int:
        return self.won - self.owed


@dataclass(frozen=True)
class Cashier:
    """The cashier's list: every player's line, the pot, and the prize money nobody won or a schedule left."""

    lines: tuple[CashierLine, ...]
    pot: Pot
    paid_out: int

    @property
    def paid_in(self) -> int:
        return sum(line.paid for line in self.lines)

    @property
    def owed(self) -> int:
        return sum(line.owed for line in self.lines)

    @property
    def not_paid_out(self) -> int:
        return self.pot.total - self.pot.kept - self.pot.share - self.paid_out

    @property
    def organiser(self) -> int:
        """What the organiser keeps: the fees kept outright, the share, and the prize money not paid out."""
        return self.pot.kept + self.pot.share + self.not_paid_out


def winnings(prizes: Iterable[Prize], *, tandems: Sequence[Side] = (), teams: Sequence[Side] = ()) -> dict[str, int]:
    """Each player's prize money; a tandem's or team's prize is shared among its members in whole cents, the first
    member named getting the odd cent first."""
    members = {
        PrizeKind.TANDEM: {side.name: side.members for side in tandems},
        PrizeKind.TEAM: {side.name: side.members for side in teams},
    }
    won: dict[str, int] = {}
    for prize in prizes:
        if prize.winner is None:
            continue
        if prize.kind in members:
            players = members[prize.kind][prize.winner]
            for player, amount in zip(players, split_by_weights(prize.amount, [1] * len(players)), strict=True):
                won[player] = won.get(player, 0) + amount
        else:
            won[prize.winner] = won.get(prize.winner, 0) + prize.amount
    return won


@dataclass(frozen=True)
class TournamentResult:
    rankings: Rankings
    prizes: tuple[Prize, ...]
    cashier: Cashier


def score_tournament(
    rules: TournamentRules,
    entrants: Sequence[Entrant],
    series: Sequence[Sequence[SeriesLine]],
    *,
    tandems: Sequence[Side] = (),
    teams: Sequence[Side] = (),
) -> TournamentResult:
    """The rankings, the prize list and the cashier's list of a tournament from its entrants and the lists of its
    series."""
    check_entrants(entrants, tandems=tandems, teams=teams)
    rankings = rank_tournament(rules, entrants, series, tandems=tandems, teams=teams)
    every_due = all_dues(rules.fees, entrants, series, tandems=tandems, teams=teams)
    money_pot = pot(every_due, rules.share)
    prizes = prize_list(rules, rankings, money_pot)
    won = winnings(prizes, tandems=tandems, teams=teams)
    lines = tuple(
        CashierLine(due, one.paid, won.get(one.player, 0)) for due, one in zip(every_due, entrants, strict=True)
    )
    return TournamentResult(rankings, prizes, Cashier(lines, money_pot, sum(line.won for line in lines)))


def all_dues(
    fees: Fees,
    entrants: Sequence[Entrant],
    series: Sequence[Sequence[SeriesLine]],
    *,
    tandems: Sequence[Side] = (),
    teams: Sequence[Side] = (),
) -> list[Dues]:
    """Every entrant's dues over the lists of the series, in the entrants' order."""
    by_player = _lines_by_player(series)
    in_tandem = {member for side in tandems for member in side.members}
    in_team = {member for side in teams for member in side.members}
    return [
        dues(
            one,
            by_player.get(one.player, ()),
            fees,
            in_tandem=one.player in in_tandem,
            in_team=one.player in in_team,
        )
        for one in entrants
    ]


def check_entrants(entrants: Sequence[Entrant], *, tandems: Sequence[Side] = (), teams: Sequence[Side] = ()) -> None:
    """Refuse a player entered twice, a tandem of other than two or a team of other than four entrants, a tandem or
    team entered twice under one name, and a player in two tandems or two teams."""
    problems = Problems()
    players = [one.player for one in entrants]
    for player in sorted({player for player in players if players.count(player) > 1}):
        problems.add("entrants", msg(gettext_noop("{player} has entered already."), player=player))
    in_two = {
        "tandems": gettext_noop("{player} plays in two tandems."),
        "teams": gettext_noop("{player} plays in two teams."),
    }
    for field_name, sides, size in (("tandems", tandems, TANDEM_SIZE), ("teams", teams, TEAM_SIZE)):
        taken: set[str] = set()
        names: set[str] = set()
        for index, side in enumerate(sides):
            if side.name in names:
                problems.add(f"{field_name}.{index}", msg(gettext_noop("{side} is entered twice."), side=side.name))
            names.add(side.name)
            if len(side.members) != size or len(set(side.members)) != size:
                problems.add(
                    f"{field_name}.{index}",
                    msg(gettext_noop("{side} needs {size} different players."), side=side.name, size=size),
                )
            for member in dict.fromkeys(side.members):
                if member not in players:
                    problems.add(
                        f"{field_name}.{index}",
                        msg(gettext_noop("{player} has not entered the tournament."), player=member),
                    )
                elif member in taken:
                    problems.add(f"{field_name}.{index}", msg(in_two[field_name], player=member))
                taken.add(member)
    problems.raise_if_any()


# --- Entries and seating ---------------------------------------------------------------------------------------------


def check_entry(player: str, *, entrants: Sequence[str], drawn: int) -> None:
    """Refuse an entry once a series is drawn (``drawn``: how many are), or of a player entered already; late
    entries join before the first series is drawn."""
    problems = Problems()
    if drawn > 0:
        problems.add("player", msg(gettext_noop("Series 1 is drawn: entries are closed.")))
    if player in entrants:
        problems.add("player", msg(gettext_noop("{player} has entered already."), player=player))
    problems.raise_if_any()


class Seating(StrEnum):
    """How a series after the first is seated."""

    DRAW = "draw"  # drawn again from its own seed, avoiding the pairings of the series before
    STANDINGS = "standings"  # by the standings: the leaders together at table 1, the next at table 2, …
    PLAN = "plan"  # by a fixed plan: the tables as given


def series_seed(seed: str, number: int) -> str:
    """The seed series ``number`` is drawn from: recorded once as the tournament's, the same for every draw."""
    return f"{seed}/series-{number}"


def seat_series(
    players: Sequence[str],
    *,
    number: int,
    rules: TournamentRules,
    seating: Seating = Seating.DRAW,
    before: Sequence[Tables] = (),
    standings: Sequence[str] = (),
    plan: Tables = (),
) -> Tables:
    """The tables of series ``number`` for ``players`` (those still in: a player who withdrew is not among them, and
    the tables are planned anew, of four first and the rest of three). The first series is drawn from the
    tournament's seed (or planned); a later one is drawn again avoiding every pairing of ``before`` (each counting
    alike), seated by ``standings`` (the total ranking so far, best first), or by ``plan``."""
    if not 1 <= number <= rules.series:
        raise _refuse("series", msg(gettext_noop("The tournament has {count} series, not more."), count=rules.series))
    still_in = set(players)
    doubles = sorted({player for player in still_in if list(players).count(player) > 1})
    if doubles:
        raise RuleError(
            [
                FieldError("players", msg(gettext_noop("{player} has entered already."), player=player))
                for player in doubles
            ]
        )
    if seating is Seating.PLAN:
        check_tables(plan, players)
        return plan
    if seating is Seating.STANDINGS and number > 1:
        ranked = [player for player in standings if player in still_in]
        return seat_by_ranking(ranked + sorted(still_in - set(ranked)))
    met = pairings_met(before, decay=REPEAT_WEIGHT_DECAY) if before else None
    return draw_tables(players, seed=series_seed(rules.seed, number), met=met)


def check_tables(tables: Tables, players: Sequence[str]) -> None:
    """Refuse tables that do not seat ``players`` once each at tables of three or four: a player in two seats, a
    player not in the series, a player left without a seat."""
    problems = Problems()
    seats: dict[str, int] = {}
    for number, table in enumerate(tables, start=1):
        if len(table) not in TABLE_SIZES:
            problems.add(
                f"tables.{number - 1}",
                msg(
                    gettext_noop("Table {number} seats {count}: a table seats three or four."),
                    number=number,
                    count=len(table),
                ),
            )
        for player in table:
            if player in seats:
                problems.add(
                    f"tables.{number - 1}",
                    msg(
                        gettext_noop("{player} has two seats: at table {first} and at table {second}."),
                        player=player,
                        first=seats[player],
                        second=number,
                    ),
                )
            elif player not in players:
                problems.add(
                    f"tables.{number - 1}", msg(gettext_noop("{player} does not play this series."), player=player)
                )
            seats.setdefault(player, number)
    for player in players:
        if player not in seats:
            problems.add("tables", msg(gettext_noop("{player} has no seat."), player=player))
    problems.raise_if_any()


def _refuse(field_name: str, message: Message) -> RuleError:
    return RuleError([FieldError(field_name, message)])
