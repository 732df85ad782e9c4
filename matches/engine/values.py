"""Skat's game values: which values a game can have, which contracts give each, and the game entered by its value.

A club player writes one number per game. The value entry takes that number as it is (``GameEntry.value`` with the
contract ``BY_VALUE``): it is checked against the values a game can have (ISkO: base value × multiplier, or a null
game's fixed value), and scored as the full entry scores a valued game. No contract is guessed from it; the paper
list is marked only where the value alone decides a column.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import BASE_VALUES, Contract
from .common import Context, check_doubling, forbid
from .entry import BY_VALUE, GameEntry
from .errors import Problems
from .game import Result
from .lieutenant import LIEUTENANT_COLUMNS, lieutenant_marks
from .messages import Message, gettext_noop, msg
from .officers import officers_columns, officers_marks
from .options import Rules
from .schafkopf import schafkopf_columns, schafkopf_marks
from .skat import (
    MAX_MULTIPLIER_GRAND,
    MAX_MULTIPLIER_SUIT,
    NULL_VALUES,
    SKAT_COLUMNS,
    ListMarks,
    Mark,
    Valuation,
    check_seats,
    declarer_result,
    list_marks,
)
from .variants import Family, Scheme, VariantSpec

# A suit or grand game is worth at least "with or without 1, game 2".
LOWEST_MULTIPLIER = 2
NULL_NAMES: dict[tuple[bool, bool], Message] = {
    (False, False): msg(gettext_noop("null")),
    (True, False): msg(gettext_noop("null hand")),
    (False, True): msg(gettext_noop("null ouvert")),
    (True, True): msg(gettext_noop("null ouvert hand")),
}
# What a value entry says besides the value: everything else belongs to the full entry.
NOT_BY_VALUE = (
    "matadors",
    "declarer_card_points",
    "outcome",
    "schwarz",
    "hand",
    "ouvert",
    "announced",
    "bid",
    "conceded",
    "ramsch",
)


@dataclass(frozen=True)
class Reading:
    """One game that has a value: a suit or grand game at a multiplier (matadors, game and the levels), or a null
    game (``multiplier`` None) with its hand and ouvert."""

    contract: Contract
    multiplier: int | None = None
    hand: bool = False
    ouvert: bool = False

    @property
    def label(self) -> Message:
        """ "clubs × 4", "grand × 2", "null ouvert"."""
        if self.multiplier is None:
            return NULL_NAMES[(self.hand, self.ouvert)]
        return msg(gettext_noop("{contract} × {multiplier}"), contract=self.contract.label, multiplier=self.multiplier)


def game_values(contracts: Collection[Contract]) -> dict[int, tuple[Reading, ...]]:
    """Every value a suit, grand or null game of ``contracts`` can have, ascending, each with the games that give
    it (ISkO: base value × 2 to 18, a grand × 2 to 11; null 23, 35, 46, 59)."""
    return _game_values(frozenset(contracts) & (frozenset(BASE_VALUES) | {Contract.NULL}))


@lru_cache(maxsize=8)
def _game_values(contracts: frozenset[Contract]) -> dict[int, tuple[Reading, ...]]:
    found: dict[int, list[Reading]] = {}
    for contract, base in BASE_VALUES.items():
        if contract not in contracts:
            continue
        top = MAX_MULTIPLIER_GRAND if contract is Contract.GRAND else MAX_MULTIPLIER_SUIT
        for multiplier in range(LOWEST_MULTIPLIER, top + 1):
            found.setdefault(base * multiplier, []).append(Reading(contract, multiplier))
    if Contract.NULL in contracts:
        for (hand, ouvert), value in NULL_VALUES.items():
            found.setdefault(value, []).append(Reading(Contract.NULL, hand=hand, ouvert=ouvert))
    return {value: tuple(found[value]) for value in sorted(found)}


def nearest_values(value: int, legal: Sequence[int]) -> tuple[int, ...]:
    """The legal values next to ``value``: the highest below it and the lowest above it (one of them at the ends)."""
    below = [each for each in legal if each < value]
    above = [each for each in legal if each > value]
    return tuple([*below[-1:], *above[:1]])


def readings_label(readings: Sequence[Reading]) -> Message:
    """ "clubs × 4 or grand × 2": every game a value can be."""
    label = readings[0].label
    for reading in readings[1:]:
        label = msg(gettext_noop("{first} or {second}"), first=label, second=reading.label)
    return label


def offered_contracts(ctx: Context) -> tuple[Contract, ...]:
    """The contracts whose values a value entry may have at this table: null only where the rules play it."""
    return tuple(c for c in ctx.spec.contracts if c is not Contract.NULL or ctx.rules.null)


def score_by_value(ctx: Context, game: GameEntry) -> Result:
    """Score a game entered by its value: checked against the values a game can have, then scored as any valued
    game (Kontra, Re, Bock, lost = −2 × the value, Seeger-Fabian)."""
    problems = Problems()
    if ctx.spec.family is not Family.SKAT:
        problems.add("game.contract", msg(gettext_noop("A game is entered by its value in Skat only.")))
        problems.raise_if_any()
    check_doubling(ctx, game, problems)
    check_seats(ctx, problems, has_declarer=True)
    forbid(
        game,
        problems,
        NOT_BY_VALUE,
        msg(gettext_noop("A game entered by its value has only the value, won or lost, Kontra and Re.")),
    )
    values = game_values(offered_contracts(ctx))
    if game.value is None:
        problems.add("game.value", msg(gettext_noop("Enter the game's value.")))
    elif game.value not in values:
        problems.add("game.value", not_a_value(game.value, tuple(values)))
    if game.won is None:
        problems.add("game.won", msg(gettext_noop("Say whether the game was won or lost.")))
    problems.raise_if_any()
    assert game.value is not None
    assert game.won is not None
    step = msg(
        gettext_noop("value {value} as entered ({games})"), value=game.value, games=readings_label(values[game.value])
    )
    return declarer_result(ctx, game, Valuation(won=game.won, value=game.value, hand=False, steps=(step,)))


def not_a_value(value: int, legal: Sequence[int]) -> Message:
    """Why ``value`` is refused, naming the legal values next to it."""
    near = nearest_values(value, legal)
    if len(near) == 1:
        return msg(gettext_noop("No game is worth {value}; the nearest value is {near}."), value=value, near=near[0])
    return msg(
        gettext_noop("No game is worth {value}; the nearest values are {below} and {above}."),
        value=value,
        below=near[0],
        above=near[1],
    )


def value_marks(value: int) -> ListMarks:
    """A game entered by its value on the paper list: the base value where every game of that value has the same
    (a null game's value is its base, with its hand and ouvert); with or without, and the levels, are never decided
    by the value alone and stay empty."""
    readings = _game_values(frozenset(Contract)).get(value, ())
    if not readings:
        return ListMarks()
    if all(reading.contract is Contract.NULL for reading in readings):
        only = readings[0]
        return ListMarks(base=value, hand=only.hand, ouvert=only.ouvert)
    bases = {BASE_VALUES.get(reading.contract) for reading in readings}
    return ListMarks(base=bases.pop()) if len(bases) == 1 else ListMarks()


def paper_columns(spec: VariantSpec, scheme: Scheme, rules: Rules) -> tuple[Mark, ...]:
    """The paper list's columns of what a game's value was computed from: all of Skat's in Skat (a Seeger-Fabian
    list writes the ISkO's game points), those the scheme counts in the Officers' family, Schneider and Schwarz in
    Lieutenant Skat, and those and the Laufende where Officers' Schafkopf counts them (the list of every family but
    Skat's names the game and its declarer beside them)."""
    if spec.family is Family.SKAT:
        return SKAT_COLUMNS
    if spec.family is Family.OFFICERS:
        return officers_columns(spec, scheme, rules)
    if spec.family is Family.LIEUTENANT:
        return LIEUTENANT_COLUMNS
    return schafkopf_columns(rules)


def paper_marks(spec: VariantSpec, scheme: Scheme, rules: Rules, game: GameEntry, result: Result) -> ListMarks:
    """The marks of a scored game on the paper list in its columns (``paper_columns``), whether entered in full or
    by its value."""
    if spec.family is Family.OFFICERS:
        return officers_marks(spec, scheme, rules, game, result)
    if spec.family is Family.LIEUTENANT:
        return lieutenant_marks(result)
    if spec.family is Family.SCHAFKOPF:
        return schafkopf_marks(rules, game, result)
    if game.contract == BY_VALUE:
        return value_marks(game.value or 0)
    return list_marks(game, result)
