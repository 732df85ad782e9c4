"""A match keeps its complete rule set; an option added since is read with its default, which scores as before."""

from matches.engine import DealEntry, GameEntry, score_match, setup_match
from matches.engine.variants import VARIANTS, Variant

WIN = DealEntry(GameEntry("hearts", declarer_card_points=70), declarer=1)
SCHAFKOPF = VARIANTS[Variant.OFFICERS_SCHAFKOPF]


def test_a_schafkopf_match_kept_before_the_settlement_option_stays_zero_sum() -> None:
    kept_before = {name: value for name, value in SCHAFKOPF.options.items() if name != "settlement"}
    setup = setup_match("officers-schafkopf", rules=kept_before, players=2)
    assert setup.rules.settlement == "zero-sum"
    assert score_match(setup, [WIN]).totals == (-1, 1)


def test_a_schafkopf_match_kept_with_the_pot_scores_by_it() -> None:
    setup = setup_match("officers-schafkopf", rules={**SCHAFKOPF.options, "settlement": "pot"}, players=2)
    assert score_match(setup, [WIN]).totals == (0, 1)
    assert setup.stored_rules()["settlement"] == "pot"
