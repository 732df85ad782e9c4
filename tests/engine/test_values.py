"""Skat's game values and the game entered by its value: the values the rules digest names, every value matched
with the games that give it (both ways), and a value game scored as any valued game."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.engine import BASE_VALUES, Contract, DealEntry, GameEntry, RuleError, calculate
from matches.engine.cards import MAX_MATADORS_SKAT
from matches.engine.entry import (
    BY_VALUE,
    ENTRY_VERSION,
    VALUE_ENTRY_VERSION,
    deal_from_data,
    deal_state,
    describe,
    stored_version,
)
from matches.engine.options import KONTRA
from matches.engine.skat import ListMarks
from matches.engine.values import Reading, game_values, nearest_values, value_marks

from .test_properties import skat_games

SKAT_GAMES = (Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES, Contract.CLUBS, Contract.GRAND, Contract.NULL)
VALUES = game_values(SKAT_GAMES)
# A suit or grand game's levels above "game", in the order the full entry reaches them (ISkO 4.1.1).
LEVELS: dict[int, dict[str, object]] = {
    0: {},
    1: {"hand": True},
    2: {"hand": True, "outcome": "won-schneider"},
    3: {"hand": True, "outcome": "won-schneider", "announced": "schneider"},
    4: {"hand": True, "outcome": "won-schwarz", "announced": "schneider"},
    5: {"hand": True, "outcome": "won-schwarz", "announced": "schwarz"},
    6: {"hand": True, "outcome": "won-schwarz", "ouvert": True},
}


def by_value(value: int | None, won: bool | None = True, **fields: object) -> GameEntry:
    return GameEntry(BY_VALUE, value=value, won=won, **fields)  # type: ignore[arg-type]


def in_full(reading: Reading) -> GameEntry:
    """The game of ``reading`` as the full entry takes it, won: as many matadors as the contract has, then levels."""
    if reading.multiplier is None:
        return GameEntry("null", hand=reading.hand, ouvert=reading.ouvert, won=True)
    matadors = min(reading.multiplier - 1, MAX_MATADORS_SKAT[reading.contract])
    levels = LEVELS[reading.multiplier - 1 - matadors]
    return GameEntry(reading.contract.value, matadors=matadors, **{"outcome": "won", **levels})  # type: ignore[arg-type]


# --- Golden: the values of the rules digest (ISkO) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "games"),
    [
        (18, [Reading(Contract.DIAMONDS, 2)]),
        (20, [Reading(Contract.HEARTS, 2)]),
        (22, [Reading(Contract.SPADES, 2)]),
        (23, [Reading(Contract.NULL)]),
        (24, [Reading(Contract.CLUBS, 2)]),
        (35, [Reading(Contract.NULL, hand=True)]),
        (36, [Reading(Contract.DIAMONDS, 4), Reading(Contract.CLUBS, 3)]),
        (46, [Reading(Contract.NULL, ouvert=True)]),
        (48, [Reading(Contract.CLUBS, 4), Reading(Contract.GRAND, 2)]),
        (59, [Reading(Contract.NULL, hand=True, ouvert=True)]),
        (120, [Reading(Contract.HEARTS, 12), Reading(Contract.CLUBS, 10), Reading(Contract.GRAND, 5)]),
        (162, [Reading(Contract.DIAMONDS, 18)]),
        (216, [Reading(Contract.CLUBS, 18), Reading(Contract.GRAND, 9)]),
        (264, [Reading(Contract.GRAND, 11)]),
    ],
)
def test_a_value_lists_every_game_that_gives_it(value: int, games: list[Reading]) -> None:
    assert list(VALUES[value]) == games


@pytest.mark.parametrize("value", [0, 1, 17, 19, 21, 25, 26, 29, 47, 49, 58, 265, 288])
def test_no_game_is_worth_these(value: int) -> None:
    assert value not in VALUES


def test_the_values_begin_at_18_and_end_at_264() -> None:
    assert list(VALUES)[:8] == [18, 20, 22, 23, 24, 27, 30, 33]
    assert max(VALUES) == 264


@pytest.mark.parametrize(("value", "near"), [(25, (24, 27)), (17, (18,)), (19, (18, 20)), (300, (264,))])
def test_the_nearest_values_are_below_and_above(value: int, near: tuple[int, ...]) -> None:
    assert nearest_values(value, list(VALUES)) == near


def test_without_null_its_values_are_not_legal() -> None:
    values = game_values((Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES, Contract.CLUBS, Contract.GRAND))
    assert not {23, 35, 46, 59} & set(values)


# --- Properties: the list and the full entry agree both ways ------------------------------------------------------


@pytest.mark.parametrize("reading", [reading for readings in VALUES.values() for reading in readings], ids=str)
def test_every_game_listed_for_a_value_is_worth_it_in_the_full_entry(reading: Reading) -> None:
    value = next(value for value, readings in VALUES.items() if reading in readings)
    assert calculate("skat", in_full(reading)).game_value == value


@given(skat_games(with_bid=False))
def test_every_suit_or_grand_game_the_engine_values_is_listed_with_its_contract(game: GameEntry) -> None:
    try:
        value = calculate("skat", game).game_value
    except RuleError:
        return
    contract = Contract(game.contract)
    assert Reading(contract, value // BASE_VALUES[contract]) in VALUES[value]


@given(st.booleans(), st.booleans(), st.booleans())
def test_every_null_game_is_listed(hand: bool, ouvert: bool, won: bool) -> None:
    value = calculate("skat", GameEntry("null", hand=hand, ouvert=ouvert, won=won)).game_value
    assert Reading(Contract.NULL, hand=hand, ouvert=ouvert) in VALUES[value]


# --- Scoring a game entered by its value --------------------------------------------------------------------------


def test_a_won_value_scores_the_value_for_the_declarer() -> None:
    result = calculate("skat", by_value(48), declarer=1)
    assert result.scores == (0, 48, 0)
    assert result.won is True
    assert str(result.breakdown[0]) == "value 48 as entered (clubs × 4 or grand × 2)"


def test_a_lost_value_scores_minus_twice_the_value() -> None:
    assert calculate("skat", by_value(48, won=False), declarer=1).scores == (0, -96, 0)


def test_kontra_re_and_bock_double_a_value_game() -> None:
    rules = {"kontra_re": True, "bock": True}
    assert calculate("skat", by_value(48, kontra=True), rules=rules).scores[0] == 96
    assert calculate("skat", by_value(48, kontra=True, re=True), rules=rules).scores[0] == 192
    assert calculate("skat", by_value(48), rules=rules, bock=1).scores[0] == 96


@pytest.mark.parametrize(
    ("variant", "word"), [("skat", "Kontra"), ("officers-schafkopf", "Stoß")], ids=["skat", "schafkopf"]
)
def test_a_doubling_refused_is_named_in_the_variants_word(variant: str, word: str) -> None:
    game = GameEntry("clubs", matadors=1, declarer_card_points=70)
    with pytest.raises(RuleError) as refused:
        calculate(variant, replace(game, kontra=True), rules={"kontra_re": False})
    assert str(refused.value.errors[0].message) == f"{word} and Re are not played under these rules."
    with pytest.raises(RuleError) as refused:
        calculate(variant, replace(game, re=True), rules={"kontra_re": True})
    assert str(refused.value.errors[0].message) == f"Re answers a {word}: set kontra too."


def test_seeger_fabian_counts_a_value_game_as_any_game() -> None:
    won = calculate("skat", by_value(24), scheme="seeger-fabian")
    lost = calculate("skat", by_value(24, won=False), scheme="seeger-fabian", players=4, declarer=1, dealer=0)
    assert won.scores == (74, 0, 0)
    assert lost.scores == (30, -98, 30, 30)


def test_a_value_no_game_has_is_refused_with_the_nearest_values() -> None:
    with pytest.raises(RuleError) as refused:
        calculate("skat", by_value(25))
    assert [(error.field, str(error.message)) for error in refused.value.errors] == [
        ("game.value", "No game is worth 25; the nearest values are 24 and 27.")
    ]


def test_a_value_game_needs_its_value_and_whether_it_was_won() -> None:
    with pytest.raises(RuleError) as refused:
        calculate("skat", by_value(None, won=None))
    assert [error.field for error in refused.value.errors] == ["game.value", "game.won"]


def test_a_value_game_says_nothing_of_the_full_entry() -> None:
    with pytest.raises(RuleError) as refused:
        calculate("skat", by_value(48, matadors=2, hand=True, bid=30))
    assert [error.field for error in refused.value.errors] == ["game.matadors", "game.hand", "game.bid"]


@pytest.mark.parametrize("variant", ["officers-skat", "admirals-skat", "lieutenant-skat", "officers-schafkopf"])
def test_only_skat_takes_a_game_by_its_value(variant: str) -> None:
    with pytest.raises(RuleError) as refused:
        calculate(variant, by_value(48))
    assert [error.field for error in refused.value.errors] == ["game.contract"]


# --- Stored as entered --------------------------------------------------------------------------------------------


def test_a_value_game_is_stored_as_entered_in_a_version_of_its_own() -> None:
    deal = DealEntry(game=by_value(48, won=False, kontra=True), declarer=2)
    state = deal_state(deal)
    assert state["entry"] == {"contract": "value", "value": 48, "won": False, "kontra": True}
    assert stored_version(deal) == VALUE_ENTRY_VERSION
    assert stored_version(DealEntry(game=GameEntry("clubs", matadors=1, outcome="won"), declarer=0)) == ENTRY_VERSION
    read = deal_from_data(passed=False, declarer=2, entry=state["entry"], version=VALUE_ENTRY_VERSION)
    assert read == deal
    assert [str(word) for word in describe(read.game or GameEntry("x"), ["A", "B", "C"], KONTRA)] == [
        "value 48",
        "Kontra",
        "lost",
    ]


# --- The paper list -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "marks"),
    [
        (18, ListMarks(base=9)),
        (36, ListMarks()),
        (48, ListMarks()),
        (264, ListMarks(base=24)),
        (23, ListMarks(base=23)),
        (35, ListMarks(base=35, hand=True)),
        (46, ListMarks(base=46, ouvert=True)),
        (59, ListMarks(base=59, hand=True, ouvert=True)),
    ],
)
def test_the_list_marks_only_what_the_value_decides(value: int, marks: ListMarks) -> None:
    assert value_marks(value) == marks
