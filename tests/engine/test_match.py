"""The match scorer: a whole match from its rules and entries, the next deal, and scoring from a checkpoint."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.engine import (
    PASSED,
    Checkpoint,
    DealEntry,
    GameEntry,
    RamschEntry,
    RuleError,
    deal_from_data,
    deal_state,
    describe,
    game_from_data,
    game_to_data,
    next_deal,
    score_deals,
    score_match,
    setup_match,
    shape_of,
)
from matches.engine.entry import FIELDS, Kind, accepted_fields
from matches.engine.options import KONTRA

PUB = setup_match("skat", rules={"kontra_re": True, "bock": True}, players=3, first_dealer=2)


def clubs(declarer: int, points: int = 70, *, kontra: bool = False) -> DealEntry:
    return DealEntry(GameEntry("clubs", matadors=1, declarer_card_points=points, kontra=kontra), declarer)


def test_a_match_scores_every_deal_with_its_dealer_and_bock() -> None:
    deals = [clubs(0, kontra=True), clubs(1), PASSED, clubs(2), clubs(0)]
    scored = score_match(PUB, deals)
    assert [deal.seating.dealer for deal in scored.deals] == [2, 0, 1, 2, 0]
    assert [deal.bock for deal in scored.deals] == [0, 1, 1, 1, 0]
    # Kontra: 24 × 2 = 48; Bock doubles the next round of three deals (the passed deal among them).
    assert [deal.scores for deal in scored.deals] == [(48, 0, 0), (0, 48, 0), (0, 0, 0), (0, 0, 48), (24, 0, 0)]
    assert scored.totals == (72, 48, 48)
    assert scored.next.number == 6
    assert scored.next.seating.dealer == 1


def test_the_next_deal_says_what_may_be_entered() -> None:
    upcoming = score_match(PUB, []).next
    assert upcoming.can_pass
    names = [field.name for field in upcoming.shape.fields]
    assert "kontra" in names
    assert "ramsch.card_points" not in names
    officers = next_deal(setup_match("officers-skat"), Checkpoint(0, (0, 0)))
    assert not officers.can_pass
    declarer = officers.shape.get("declarer")
    assert declarer is not None
    assert declarer.default == officers.seating.forehand
    lieutenant = next_deal(setup_match("lieutenant-skat"), Checkpoint(0, (0, 0)))
    assert lieutenant.shape.get("matadors") is None


def test_at_four_the_fields_offer_only_the_seats_that_play() -> None:
    four = setup_match("skat", rules={"ramsch": True}, players=4, first_dealer=0)
    shape = accepted_fields(four.spec, four.scheme, four.rules, four.seating(1))
    declarer = shape.get("declarer")
    points = shape.get("ramsch.card_points")
    assert declarer is not None
    assert points is not None
    assert declarer.choices == ("1", "2", "3")
    assert points.choices == ("1", "2", "3")


def test_a_table_gets_the_fields_it_asked_for_before_and_their_key_tells_tables_apart() -> None:
    """Game after game a table asks for the same fields: they are worked out once and shared."""
    assert shape_of(PUB, 4) is next_deal(PUB, Checkpoint(3, (0, 0, 0))).shape
    four = setup_match("skat", rules={"ramsch": True}, players=4)
    assert shape_of(four, 1).key != shape_of(four, 2).key
    assert shape_of(four, 1).key == shape_of(four, 5).key


def test_a_complete_series_takes_no_more_deals() -> None:
    series = setup_match("skat", planned_games=1)
    scored = score_match(series, [clubs(0)])
    assert scored.next.finished
    assert scored.next.games_left == 0


def test_a_ramsch_has_no_declarer_and_a_game_needs_one() -> None:
    ramsch = setup_match("skat", rules={"ramsch": True})
    game = GameEntry("ramsch", ramsch=RamschEntry(card_points=(20, 60, 40)))
    with pytest.raises(RuleError):
        score_match(ramsch, [DealEntry(game, 0)])
    assert score_match(ramsch, [DealEntry(game, None)]).deals[0].declarer is None
    with pytest.raises(RuleError):
        score_match(ramsch, [DealEntry(GameEntry("clubs", matadors=1, declarer_card_points=70), None)])


def test_a_what_if_scores_what_it_can_and_marks_the_rest() -> None:
    officers = setup_match("officers-skat", scheme="card-points", rules={"null": True})
    deals = [DealEntry(GameEntry("null", won=True), 1), DealEntry(GameEntry("hearts", declarer_card_points=70), 1)]
    scored = score_match(officers, deals, lenient=True)
    assert not scored.deals[0].scorable
    assert scored.deals[1].scores == (0, 70)


@st.composite
def pub_deals(draw: st.DrawFn) -> list[DealEntry]:
    """A pub evening: suit games with Kontra now and then, draws, passed deals."""
    deals: list[DealEntry] = []
    for _ in range(draw(st.integers(0, 12))):
        if draw(st.booleans()) and draw(st.booleans()):
            deals.append(PASSED)
            continue
        points = draw(st.sampled_from([40, 60, 61, 95]))
        deals.append(clubs(draw(st.integers(0, 2)), points, kontra=draw(st.booleans())))
    return deals


@given(pub_deals(), st.data())
def test_scoring_from_a_checkpoint_gives_what_scoring_from_the_start_gives(
    deals: list[DealEntry], data: st.DataObject
) -> None:
    whole = score_match(PUB, deals)
    split = data.draw(st.integers(0, len(deals)))
    before = score_match(PUB, deals[:split])
    rest = score_match(PUB, deals[split:], before.end)
    assert rest.totals == whole.totals
    assert [deal.scores for deal in rest.deals] == [deal.scores for deal in whole.deals[split:]]
    assert [deal.bock for deal in rest.deals] == [deal.bock for deal in whole.deals[split:]]
    assert rest.next == whole.next


@given(pub_deals())
def test_the_totals_are_the_sum_of_the_deals(deals: list[DealEntry]) -> None:
    scored = score_match(PUB, deals)
    assert scored.totals == tuple(sum(deal.scores[seat] for deal in scored.deals) for seat in range(3))
    assert [point.deals for _, point in score_deals(PUB, deals)] == list(range(1, len(deals) + 1))


def test_the_stored_form_is_sparse_and_reads_back() -> None:
    game = GameEntry("grand", matadors=-2, declarer_card_points=95, hand=True, announced="schneider")
    assert game_to_data(game) == {
        "contract": "grand",
        "matadors": -2,
        "declarer_card_points": 95,
        "hand": True,
        "announced": "schneider",
    }
    assert game_from_data(game_to_data(game)) == game
    deal = DealEntry(game, 1)
    assert deal_from_data(**deal_state(deal)) == deal
    assert deal_from_data(**deal_state(PASSED)) == PASSED


def test_a_deal_all_passed_with_a_declarer_or_a_game_is_refused_by_field() -> None:
    game = {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}
    with pytest.raises(RuleError) as refused:
        deal_from_data(passed=True, declarer=1, entry=game)
    assert [error.field for error in refused.value.errors] == ["declarer", "game"]


def test_the_legacy_form_with_every_field_reads_the_same() -> None:
    legacy = {
        "contract": "clubs",
        "matadors": 1,
        "declarer_card_points": 70,
        "schwarz": None,
        "hand": False,
        "ouvert": False,
        "announced": None,
        "won": None,
        "bid": None,
        "kontra": False,
        "re": False,
        "conceded": False,
        "ramsch": None,
    }
    assert game_to_data(game_from_data(legacy, version=0)) == {
        "contract": "clubs",
        "matadors": 1,
        "declarer_card_points": 70,
    }


def test_an_entry_of_the_wrong_shape_names_each_field() -> None:
    with pytest.raises(RuleError) as refused:
        game_from_data({"contract": 7, "hand": "yes", "matadors": 1.5, "ramsch": {"card_points": "many"}, "x": 1})
    assert {problem.field for problem in refused.value.errors} == {
        "game.contract",
        "game.hand",
        "game.matadors",
        "game.ramsch.card_points",
        "game.x",
    }
    with pytest.raises(RuleError):
        game_from_data({"contract": "clubs"}, version=99)


def test_every_field_has_a_kind_the_form_and_the_schema_know() -> None:
    assert {field.kind for field in FIELDS} == set(Kind)


def test_an_entry_in_the_api_shape_is_described_as_entered() -> None:
    """Nulls and defaults mean "left out": a won null sent with every field is described as won, not lost."""
    api_shaped = {"contract": "null", "won": True, "matadors": None, "schwarz": None, "hand": False, "bid": None}
    words = [word.render() for word in describe(game_from_data(api_shaped), [], KONTRA)]
    assert words == ["won"]
