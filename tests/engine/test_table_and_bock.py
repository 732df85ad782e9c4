import pytest

from matches.engine import Checkpoint, DealEntry, GameEntry, calculate, next_deal, rules_for, setup_match
from matches.engine.bock import bock_ahead, bock_counts, bock_multiplier
from matches.engine.table import seating

GRAND_HAND = GameEntry("grand", matadors=1, declarer_card_points=70, hand=True)
PLAIN = GameEntry("clubs", matadors=1, declarer_card_points=70)
DRAW = GameEntry("clubs", matadors=1, declarer_card_points=60)
KONTRA = GameEntry("clubs", matadors=1, declarer_card_points=70, kontra=True)


def test_at_three_the_dealer_is_rearhand_and_the_deal_moves_clockwise() -> None:
    assert [seating(3, 0, deal).dealer for deal in range(1, 5)] == [0, 1, 2, 0]
    first = seating(3, 0, 1)
    assert first.playing == (1, 2, 0)
    assert first.forehand == 1
    assert first.sitting_out is None


def test_at_four_the_dealer_sits_out() -> None:
    second = seating(4, 2, 2)
    assert second.dealer == 3
    assert second.sitting_out == 3
    assert second.playing == (0, 1, 2)


def test_at_two_the_non_dealer_leads() -> None:
    assert seating(2, 0, 1).forehand == 1
    assert seating(2, 0, 2).forehand == 0


def test_seating_refuses_impossible_tables() -> None:
    with pytest.raises(ValueError, match="at least two"):
        seating(1, 0, 1)
    with pytest.raises(ValueError, match="from 1"):
        seating(3, 0, 0)


def test_each_trigger_starts_a_round_of_bock_games() -> None:
    rules = rules_for("skat", {"bock": True})
    assert bock_counts(rules, [DRAW, PLAIN, PLAIN, PLAIN, PLAIN], 3) == [0, 1, 1, 1, 0]
    assert bock_counts(rules, [KONTRA, None, PLAIN, PLAIN], 3) == [0, 1, 1, 1]
    assert bock_counts(rules, [GRAND_HAND, GRAND_HAND, PLAIN, PLAIN, PLAIN], 3) == [0, 1, 2, 2, 1]


def test_triggers_can_be_switched_off_one_by_one() -> None:
    rules = rules_for("skat", {"bock": True, "bock_on_draw": False, "bock_on_kontra": False})
    assert bock_counts(rules, [DRAW, KONTRA, GRAND_HAND, PLAIN], 3) == [0, 0, 0, 1]
    assert bock_counts(rules_for("skat", {}), [GRAND_HAND, PLAIN], 3) == [0, 0]


def test_bock_ahead_counts_down_the_round_after_a_trigger() -> None:
    rules = rules_for("skat", {"bock": True})
    assert bock_ahead(rules, [GRAND_HAND], 3) == [1, 1, 1]
    assert bock_ahead(rules, [GRAND_HAND, PLAIN], 3) == [1, 1, 0]
    assert bock_ahead(rules, [GRAND_HAND, PLAIN, None, PLAIN], 3) == [0, 0, 0]
    assert bock_ahead(rules, [GRAND_HAND, GRAND_HAND], 3) == [2, 2, 1]


def test_the_bock_multiplier_is_the_factor_the_score_is_multiplied_by() -> None:
    assert [bock_multiplier(rounds) for rounds in range(4)] == [1, 2, 4, 8]
    plain = calculate("skat", PLAIN, rules={"bock": True}).scores[0]
    for rounds in range(4):
        scored = calculate("skat", PLAIN, rules={"bock": True}, bock=rounds).scores[0]
        assert scored == plain * bock_multiplier(rounds)


def test_the_next_deal_counts_the_bock_games_after_it() -> None:
    pub = setup_match("skat", rules={"bock": True}, players=3)
    after_one = next_deal(pub, Checkpoint(1, (72, 0, 0), (DealEntry(GRAND_HAND, 0),)))
    assert (after_one.bock, after_one.bock_games_after) == (1, 2)
    after_two = next_deal(pub, Checkpoint(2, (144, 0, 0), (DealEntry(GRAND_HAND, 0), DealEntry(GRAND_HAND, 1))))
    assert (after_two.bock, after_two.bock_games_after) == (2, 2)
    last = next_deal(
        pub, Checkpoint(3, (0, 0, 0), (DealEntry(GRAND_HAND, 0), DealEntry(PLAIN, 1), DealEntry(PLAIN, 2)))
    )
    assert (last.bock, last.bock_games_after) == (1, 0)
