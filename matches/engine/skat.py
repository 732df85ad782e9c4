"""Skat by the International Skat Order (ISkO), with the house rules clubs play and Seeger-Fabian scoring."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .cards import BASE_VALUES, Contract
from .common import (
    CardResult,
    Context,
    apply_doubling,
    check_doubling,
    forbid,
    lost_step,
    matadors_step,
    max_matadors,
    only_seat,
    read_announcement,
    read_contract,
    read_matadors,
    read_result,
)
from .entry import OVERBID, Announcement, GameEntry
from .errors import Problems
from .game import Result
from .messages import Message, gettext_noop, msg
from .options import LostHand
from .ramsch import score_ramsch
from .variants import Scheme

# ISkO: null 23, null hand 35, null ouvert 46, null ouvert hand 59; keyed by (hand, ouvert).
NULL_VALUES: dict[tuple[bool, bool], int] = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}

# A suit game reaches at most 11 matadors + 7 levels (game, hand, schneider, announced, schwarz, announced, ouvert),
# a grand 4 + 7.
MAX_MULTIPLIER_SUIT = 11 + 7
MAX_MULTIPLIER_GRAND = 4 + 7

# Seeger-Fabian (DSkV tournament scoring): ±50 for the declarer, and to each opponent of a lost game 40 at a table of
# three or 30 at a table of four (where the dealer who sits out counts as an opponent). The engine's own: a list's
# sums and their inverse are league.py's, which everything outside the engine asks.
_SEEGER_FABIAN_DECLARER = 50
_SEEGER_FABIAN_OPPONENTS = {3: 40, 4: 30}


def _legal_game_values() -> frozenset[int]:
    values = set(NULL_VALUES.values())
    for contract, base in BASE_VALUES.items():
        top = MAX_MULTIPLIER_GRAND if contract is Contract.GRAND else MAX_MULTIPLIER_SUIT
        values.update(base * multiplier for multiplier in range(2, top + 1))
    return frozenset(values)


LEGAL_GAME_VALUES = _legal_game_values()
LOWEST_BID = min(LEGAL_GAME_VALUES)


@dataclass(frozen=True)
class Valuation:
    """A declarer's game valued before Kontra, Bock and the doubling of a lost game."""

    won: bool
    value: int
    hand: bool
    schneider: bool = False
    schwarz: bool = False
    overbid: bool = False
    steps: tuple[Message, ...] = field(default_factory=tuple)


def check_declarations(ctx: Context, game: GameEntry, contract: Contract, problems: Problems) -> Announcement | None:
    """Hand, announcements, ouvert, the bid and conceding: only where there is bidding, and only as the rules allow."""
    if not ctx.spec.bidding:
        forbid(
            game,
            problems,
            ("hand", "ouvert", "announced", "bid", "conceded"),
            msg(gettext_noop("This variant has no bidding: no hand games, announcements, bids or conceding.")),
        )
        return None
    announcement = read_announcement(game, problems)
    if contract is Contract.NULL:
        if announcement is not None:
            problems.add("game.announced", msg(gettext_noop("Null games have no Schneider or Schwarz to announce.")))
    else:
        if announcement is not None and not game.hand:
            problems.add(
                "game.announced", msg(gettext_noop("Schneider and Schwarz can be announced in hand games only."))
            )
        if game.ouvert and not game.hand:
            problems.add(
                "game.ouvert", msg(gettext_noop("An ouvert suit or grand game is always a hand game: set hand."))
            )
        if game.ouvert and announcement is Announcement.SCHNEIDER:
            problems.add("game.announced", msg(gettext_noop("Ouvert already announces Schwarz.")))
    if game.bid is not None:
        if game.bid not in LEGAL_GAME_VALUES:
            problems.add(
                "game.bid",
                msg(
                    gettext_noop("{bid} is not a value any game can have: bids start at 18 (18, 20, 22, 23, 24, …)."),
                    bid=game.bid,
                ),
            )
        elif contract is Contract.NULL and game.bid > NULL_VALUES[(game.hand, game.ouvert)]:
            # Sources differ on a null above its bid; the ISkO does not let the declarer announce it at all.
            problems.add(
                "game.bid",
                msg(
                    gettext_noop(
                        "A null worth {value} cannot be played after a bid of {bid}: the game must reach the bid."
                    ),
                    value=NULL_VALUES[(game.hand, game.ouvert)],
                    bid=game.bid,
                ),
            )
    return announcement


def value_null(game: GameEntry) -> Valuation:
    """ISkO: null values are fixed; the declarer wins by taking no trick."""
    value = NULL_VALUES[(game.hand, game.ouvert)]
    name = {
        (False, False): msg(gettext_noop("null")),
        (True, False): msg(gettext_noop("null hand")),
        (False, True): msg(gettext_noop("null ouvert")),
        (True, True): msg(gettext_noop("null ouvert hand")),
    }[(game.hand, game.ouvert)]
    won = bool(game.won) and not game.conceded
    steps = [msg(gettext_noop("{contract} = {value}"), contract=name, value=value)]
    if game.conceded:
        steps.append(msg(gettext_noop("conceded")))
    return Valuation(won=won, value=value, hand=game.hand, steps=tuple(steps))


def announced_levels(game: GameEntry, announcement: Announcement | None) -> tuple[bool, bool]:
    """Schneider announced and Schwarz announced, as levels of a suit or grand game: Schwarz announced includes
    Schneider announced, and ouvert announces Schwarz (ISkO 5.2.6)."""
    schwarz_announced = game.ouvert or announcement is Announcement.SCHWARZ
    return schwarz_announced or announcement is Announcement.SCHNEIDER, schwarz_announced


def value_suit_grand(
    contract: Contract, matadors: int, points: CardResult | None, game: GameEntry, announcement: Announcement | None
) -> Valuation:
    """ISkO: value = base value × (matadors + 1 for game + the levels reached or announced).

    Announced levels always count; an announcement that is missed loses the game at that level. A declarer who is
    schneider or schwarz himself loses at that level. A conceded game (``points`` None) counts no Schneider or
    Schwarz that was not announced.
    """
    schneider_announced, schwarz_announced = announced_levels(game, announcement)
    schneider = schneider_announced or (
        points is not None and (points.opponents_schneider or points.declarer_schneider)
    )
    schwarz = schwarz_announced or (points is not None and (points.opponents_schwarz or points.declarer_schwarz))
    count = abs(matadors)
    steps = [matadors_step(matadors, count)]
    for applies, label in (
        (True, msg(gettext_noop("game"))),
        (game.hand, msg(gettext_noop("hand"))),
        (schneider, msg(gettext_noop("Schneider"))),
        (schneider_announced, msg(gettext_noop("Schneider announced"))),
        (schwarz, msg(gettext_noop("Schwarz"))),
        (schwarz_announced, msg(gettext_noop("Schwarz announced"))),
        (game.ouvert, msg(gettext_noop("ouvert"))),
    ):
        if applies:
            count += 1
            steps.append(msg(gettext_noop("{level} {count}"), level=label, count=count))
    base = BASE_VALUES[contract]
    value = base * count
    steps.append(
        msg(
            gettext_noop("{count} × {base} ({contract}) = {value}"),
            count=count,
            base=base,
            contract=contract.label,
            value=value,
        )
    )
    if points is None:
        won = False
        steps.append(msg(gettext_noop("conceded")))
    else:
        won = (
            points.declarer_reached
            and (not schneider_announced or points.opponents_schneider)
            and (not schwarz_announced or points.opponents_schwarz)
        )
        if points.declarer_reached and not won:
            steps.append(msg(gettext_noop("announcement missed")))
    return Valuation(
        won=won,
        value=value,
        hand=game.hand,
        schneider=bool(points and (points.opponents_schneider or points.declarer_schneider)),
        schwarz=bool(points and (points.opponents_schwarz or points.declarer_schwarz)),
        steps=tuple(steps),
    )


def apply_overbid(valuation: Valuation, base: int, bid: int | None) -> Valuation:
    """ISkO (the overbid game): a game worth less than the bid is lost, at the lowest multiple of its base value
    reaching the bid."""
    if bid is None or valuation.value >= bid:
        return valuation
    raised = -(-bid // base) * base
    step = msg(
        OVERBID,
        bid=bid,
        value=valuation.value,
        raised=raised,
    )
    return replace(valuation, won=False, value=raised, overbid=True, steps=(*valuation.steps, step))


def declarer_score(ctx: Context, game: GameEntry, valuation: Valuation) -> tuple[int, int, list[Message]]:
    """The doubled game value and the declarer's score: the value if won, minus twice (or once) if lost."""
    steps = list(valuation.steps)
    game_value = apply_doubling(ctx, valuation.value, game, steps)
    if valuation.won:
        steps.append(msg(gettext_noop("won: {score}"), score=game_value))
        return game_value, game_value, steps
    factor = 1 if valuation.hand and ctx.rules.lost_hand is LostHand.SINGLE else 2
    steps.append(lost_step(game_value, factor))
    return game_value, -factor * game_value, steps


def value_declarer_game(ctx: Context, game: GameEntry, contract: Contract, problems: Problems) -> Valuation | None:
    """Check and value a suit, grand or null game of Skat (and of the Skat-valued two-player games)."""
    announcement = check_declarations(ctx, game, contract, problems)
    forbid(game, problems, ("ramsch",), msg(gettext_noop("Only a Ramsch has Ramsch results.")))
    if contract is Contract.NULL:
        forbid(
            game,
            problems,
            ("matadors", "declarer_card_points", "outcome", "schwarz"),
            msg(gettext_noop("A null game is decided by tricks alone: no matadors or card points.")),
        )
        if game.conceded and game.won is not None:
            problems.add("game.won", msg(gettext_noop("A conceded game is lost: leave “won” out.")))
        elif not game.conceded and game.won is None:
            problems.add("game.won", msg(gettext_noop("Say whether the null game was won.")))
        problems.raise_if_any()
        return apply_overbid(value_null(game), NULL_VALUES[(game.hand, game.ouvert)], game.bid)
    if game.won is not None:
        problems.add(
            "game.won",
            msg(gettext_noop("Suit and grand games are decided by card points: “won” is for null games only.")),
        )
    matadors = read_matadors(game, max_matadors(ctx, contract), problems, required=True)
    points = read_result(ctx, game, problems, required=not game.conceded)
    problems.raise_if_any()
    assert matadors is not None
    valuation = value_suit_grand(contract, matadors, None if game.conceded else points, game, announcement)
    return apply_overbid(valuation, BASE_VALUES[contract], game.bid)


def check_seats(ctx: Context, problems: Problems, *, has_declarer: bool) -> None:
    """Four at the table: the dealer sits out, so the declarer (a Ramsch has none) cannot be the dealer."""
    table = ctx.table
    if has_declarer and table.players == 4 and table.dealer is not None and table.dealer == table.declarer:
        problems.add("declarer", msg(gettext_noop("With four players the dealer sits out and cannot declare.")))


def score_skat(ctx: Context, game: GameEntry) -> Result:
    """Score one game of Skat (three players, or four with the dealer sitting out), standard or Seeger-Fabian."""
    problems = Problems()
    contract = read_contract(ctx, game, problems)
    check_doubling(ctx, game, problems)
    check_seats(ctx, problems, has_declarer=contract is not Contract.RAMSCH)
    if contract is None:
        problems.raise_if_any()
    assert contract is not None
    if contract is Contract.RAMSCH:
        return score_ramsch(ctx, game, problems)
    valuation = value_declarer_game(ctx, game, contract, problems)
    assert valuation is not None
    return declarer_result(ctx, game, valuation)


def declarer_result(ctx: Context, game: GameEntry, valuation: Valuation) -> Result:
    """A valued declarer's game scored at the table: Kontra, Re and Bock, a lost game doubled, Seeger-Fabian's
    points; the same for a game entered in full and one entered by its value."""
    game_value, score, steps = declarer_score(ctx, game, valuation)
    scores = list(only_seat(ctx.table.players, ctx.table.declarer, score))
    if ctx.scheme is Scheme.SEEGER_FABIAN:
        _add_seeger_fabian(ctx, valuation.won, scores, steps)
    return Result(
        won=valuation.won,
        game_value=game_value,
        scores=tuple(scores),
        schneider=valuation.schneider,
        schwarz=valuation.schwarz,
        overbid=valuation.overbid,
        breakdown=tuple(steps),
    )


def _add_seeger_fabian(ctx: Context, won: bool, scores: list[int], steps: list[Message]) -> None:
    declarer = ctx.table.declarer
    if won:
        scores[declarer] += _SEEGER_FABIAN_DECLARER
        steps.append(msg(gettext_noop("Seeger-Fabian: +{points} for the won game"), points=_SEEGER_FABIAN_DECLARER))
        return
    scores[declarer] -= _SEEGER_FABIAN_DECLARER
    bonus = _SEEGER_FABIAN_OPPONENTS[ctx.table.players]
    for seat in range(ctx.table.players):
        if seat != declarer:
            scores[seat] += bonus
    steps.append(msg(gettext_noop("Seeger-Fabian: −{points} for the lost game"), points=_SEEGER_FABIAN_DECLARER))
    steps.append(msg(gettext_noop("+{points} to each opponent"), points=bonus))


class Mark(StrEnum):
    """A column of the paper list that marks what a game's value was computed from: the base value, the matadors
    (with and without, two columns), each level, and Schafkopf's Laufende (how many counted)."""

    BASE = "base"
    MATADORS = "matadors"
    HAND = "hand"
    SCHNEIDER = "schneider"
    SCHNEIDER_ANNOUNCED = "schneider-announced"
    SCHWARZ = "schwarz"
    SCHWARZ_ANNOUNCED = "schwarz-announced"
    OUVERT = "ouvert"
    LAUFENDE = "laufende"


# Skat's list: the base value, with or without, and every level of the ISkO.
SKAT_COLUMNS = (
    Mark.BASE,
    Mark.MATADORS,
    Mark.HAND,
    Mark.SCHNEIDER,
    Mark.SCHNEIDER_ANNOUNCED,
    Mark.SCHWARZ,
    Mark.SCHWARZ_ANNOUNCED,
    Mark.OUVERT,
)


@dataclass(frozen=True)
class ListMarks:
    """A declarer's game as the paper list writes it: the base value (a null game's value), with or without how
    many matadors, the levels ticked, and the Laufende that counted."""

    base: int | None = None
    matadors: int | None = None
    hand: bool = False
    schneider: bool = False
    schneider_announced: bool = False
    schwarz: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    laufende: int | None = None

    def only(self, columns: Collection[Mark]) -> ListMarks:
        """These marks in the list's ``columns`` alone: a mark the list has no column for is left out."""
        return ListMarks(
            base=self.base if Mark.BASE in columns else None,
            matadors=self.matadors if Mark.MATADORS in columns else None,
            hand=self.hand and Mark.HAND in columns,
            schneider=self.schneider and Mark.SCHNEIDER in columns,
            schneider_announced=self.schneider_announced and Mark.SCHNEIDER_ANNOUNCED in columns,
            schwarz=self.schwarz and Mark.SCHWARZ in columns,
            schwarz_announced=self.schwarz_announced and Mark.SCHWARZ_ANNOUNCED in columns,
            ouvert=self.ouvert and Mark.OUVERT in columns,
            laufende=self.laufende if Mark.LAUFENDE in columns else None,
        )


def list_marks(game: GameEntry, result: Result) -> ListMarks:
    """The marks of a scored game on the paper list: for a suit or grand game every level it counted (an announced
    level counts whether reached or not), for a null game its value, hand and ouvert; nothing for other contracts.
    ``game`` was scored: its contract and announcement are ones the rules took."""
    if game.contract == Contract.NULL:
        return ListMarks(base=NULL_VALUES[(game.hand, game.ouvert)], hand=game.hand, ouvert=game.ouvert)
    base = BASE_VALUES.get(Contract(game.contract))
    if base is None:
        return ListMarks()
    announcement = Announcement(game.announced) if game.announced else None
    schneider_announced, schwarz_announced = announced_levels(game, announcement)
    return ListMarks(
        base=base,
        matadors=game.matadors,
        hand=game.hand,
        schneider=schneider_announced or result.schneider,
        schneider_announced=schneider_announced,
        schwarz=schwarz_announced or result.schwarz,
        schwarz_announced=schwarz_announced,
        ouvert=game.ouvert,
    )
