"""Invariants of the engine, over generated games."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.engine import BASE_VALUES, Contract, GameEntry, RamschEntry, Result, RuleError, calculate
from matches.engine.cards import DECK_POINTS, MAX_MATADORS_SKAT, POSSIBLE_CARD_POINTS, POSSIBLE_SKAT_POINTS
from matches.engine.lieutenant import lieutenant_score

settings.register_profile("scorekeeper", max_examples=200, deadline=None)
settings.load_profile("scorekeeper")

TRUMP_CONTRACTS = [Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES, Contract.CLUBS, Contract.GRAND]

# The card points some deal can give a party: 0 to 120 but 1 and 119.
card_points = st.sampled_from(sorted(POSSIBLE_CARD_POINTS))


@st.composite
def skat_games(draw: st.DrawFn, *, with_bid: bool = True) -> GameEntry:
    """A valid suit or grand game of Skat, as a table could enter it."""
    contract = draw(st.sampled_from(TRUMP_CONTRACTS))
    count = draw(st.integers(1, MAX_MATADORS_SKAT[contract]))
    matadors = count * draw(st.sampled_from([1, -1]))
    points = draw(card_points)
    schwarz = None
    if points == 120:
        schwarz = draw(st.sampled_from([None, "opponents"]))
    elif points in POSSIBLE_SKAT_POINTS:
        schwarz = draw(st.sampled_from([None, "declarer"]))
    hand = draw(st.booleans())
    ouvert = hand and draw(st.booleans())
    announced = draw(st.sampled_from([None, "schwarz"] if ouvert else [None, "schneider", "schwarz"])) if hand else None
    bid = draw(st.sampled_from([None, 18, 20, 23, 24, 30, 36, 48, 60, 72, 96])) if with_bid else None
    return GameEntry(
        contract=contract.value,
        matadors=matadors,
        declarer_card_points=points,
        schwarz=schwarz,
        hand=hand,
        ouvert=ouvert,
        announced=announced,
        bid=bid,
    )


def declarer_score(result: Result, seat: int = 0) -> int:
    return result.scores[seat]


@given(skat_games())
def test_every_valid_skat_game_scores(game: GameEntry) -> None:
    result = calculate("skat", game)
    assert len(result.scores) == 3
    assert result.scores[1] == result.scores[2] == 0
    assert result.breakdown


@given(skat_games())
def test_a_won_game_scores_its_value_and_a_lost_one_minus_twice_that(game: GameEntry) -> None:
    result = calculate("skat", game)
    expected = result.game_value if result.won else -2 * result.game_value
    assert declarer_score(result) == expected


@given(skat_games())
def test_the_value_is_a_multiple_of_the_base_value_reaching_the_bid(game: GameEntry) -> None:
    result = calculate("skat", game)
    assert result.game_value % BASE_VALUES[Contract(game.contract)] == 0
    if game.bid is not None:
        assert result.game_value >= game.bid
        assert result.overbid == (_unbid_value(game) < game.bid)


def _unbid_value(game: GameEntry) -> int:
    return calculate("skat", replace(game, bid=None)).game_value


@given(skat_games(with_bid=False))
def test_one_more_matador_never_lowers_the_value(game: GameEntry) -> None:
    assert game.matadors is not None
    if abs(game.matadors) == MAX_MATADORS_SKAT[Contract(game.contract)]:
        return
    more = replace(game, matadors=game.matadors + (1 if game.matadors > 0 else -1))
    base = BASE_VALUES[Contract(game.contract)]
    assert calculate("skat", more).game_value == calculate("skat", game).game_value + base


@given(skat_games(with_bid=False))
def test_more_card_points_never_score_worse_without_announcements(game: GameEntry) -> None:
    plain = replace(game, announced=None, ouvert=False, schwarz=None)
    assert plain.declarer_card_points is not None
    if plain.declarer_card_points == 120:
        return
    more = min(points for points in POSSIBLE_CARD_POINTS if points > plain.declarer_card_points)
    better = replace(plain, declarer_card_points=more)
    assert declarer_score(calculate("skat", better)) >= declarer_score(calculate("skat", plain))


@given(skat_games(), st.booleans())
def test_kontra_doubles_and_re_doubles_again(game: GameEntry, re: bool) -> None:
    rules = {"kontra_re": True}
    plain = declarer_score(calculate("skat", game, rules=rules))
    doubled = declarer_score(calculate("skat", replace(game, kontra=True, re=re), rules=rules))
    assert doubled == plain * (4 if re else 2)


@given(skat_games(), st.sampled_from([3, 4]))
def test_seeger_fabian_adds_fifty_and_pays_the_opponents_of_a_lost_game(game: GameEntry, players: int) -> None:
    dealer = 3 if players == 4 else None
    standard = calculate("skat", game, players=players, dealer=dealer)
    seeger = calculate("skat", game, players=players, dealer=dealer, scheme="seeger-fabian")
    assert seeger.scores[0] == standard.scores[0] + (50 if standard.won else -50)
    bonus = 0 if standard.won else {3: 40, 4: 30}[players]
    assert seeger.scores[1:] == (bonus,) * (players - 1)


@given(card_points, st.sampled_from([0, 1]), st.sampled_from(["clubs", "wenz", "hearts"]), st.booleans())
def test_officers_schafkopf_is_zero_sum(points: int, declarer: int, contract: str, stoss: bool) -> None:
    game = GameEntry(contract=contract, declarer_card_points=points, kontra=stoss)
    result = calculate("officers-schafkopf", game, declarer=declarer, rules={"settlement": "zero-sum"})
    assert sum(result.scores) == 0
    assert result.scores[declarer] == (result.game_value if result.won else -result.game_value)


@given(card_points, st.sampled_from([0, 1]))
def test_lieutenant_skat_does_not_care_whose_points_were_entered(points: int, declarer: int) -> None:
    seen_from_declarer = calculate(
        "lieutenant-skat", GameEntry("hearts", declarer_card_points=points), declarer=declarer
    )
    seen_from_other = calculate(
        "lieutenant-skat", GameEntry("hearts", declarer_card_points=120 - points), declarer=1 - declarer
    )
    assert seen_from_declarer.scores == seen_from_other.scores
    assert sorted(seen_from_declarer.scores) in ([1, 1], [0, 2], [0, 3], [0, 4])


@given(st.integers(61, 120))
def test_lieutenant_scores_climb_with_card_points(points: int) -> None:
    assert lieutenant_score(points) <= lieutenant_score(min(points + 1, 120))


@given(
    st.sampled_from(["officers-skat", "harlequin-skat", "admirals-skat"]),
    st.sampled_from(["base-value", "card-points", "simple"]),
    st.sampled_from(TRUMP_CONTRACTS),
    card_points,
)
def test_simplified_schemes_score_only_the_winner(variant: str, scheme: str, contract: Contract, points: int) -> None:
    result = calculate(variant, GameEntry(contract.value, declarer_card_points=points), scheme=scheme)
    if result.won is None:
        assert scheme == "simple"
        assert result.scores == (1, 1)
    else:
        winner = 0 if result.won else 1
        assert result.scores[winner] == result.game_value > 0
        assert result.scores[1 - winner] == 0


@given(
    st.sampled_from(["officers-skat", "admirals-skat"]),
    st.sampled_from(TRUMP_CONTRACTS),
    st.integers(1, 4),
    card_points,
)
def test_officers_standard_lost_is_minus_twice_the_value(
    variant: str, contract: Contract, count: int, points: int
) -> None:
    result = calculate(variant, GameEntry(contract.value, matadors=count, declarer_card_points=points))
    assert result.scores[0] == (result.game_value if result.won else -2 * result.game_value)
    assert result.scores[1] == 0


@st.composite
def ramsch_points(draw: st.DrawFn) -> tuple[int, int, int]:
    first = draw(card_points)
    second = draw(card_points.filter(lambda points: points <= 120 - first and 120 - first - points != 1))
    return first, second, 120 - first - second


@given(ramsch_points())
def test_in_a_ramsch_only_the_most_card_points_lose(points: tuple[int, int, int]) -> None:
    game = GameEntry("ramsch", ramsch=RamschEntry(card_points=points))
    result = calculate("skat", game, rules={"ramsch": True, "ramsch_durchmarsch": False})
    most = max(points)
    for seat, score in enumerate(result.scores):
        assert score == (-most if points[seat] == most else 0)


@given(st.sets(st.integers(0, len(DECK_POINTS) - 1)))
def test_the_card_points_of_any_set_of_cards_can_be_entered(cards: set[int]) -> None:
    taken = sum(DECK_POINTS[card] for card in cards)
    for points in (taken, 120 - taken):
        calculate("lieutenant-skat", GameEntry("hearts", declarer_card_points=points))


@given(st.integers(0, 120), st.sampled_from(["skat", "officers-skat", "lieutenant-skat", "officers-schafkopf"]))
def test_only_the_totals_no_cards_make_are_refused(points: int, variant: str) -> None:
    game = GameEntry("hearts", matadors=None if variant in ("lieutenant-skat", "officers-schafkopf") else 1)
    entered = replace(game, declarer_card_points=points)
    if points not in (1, 119):
        calculate(variant, entered)
        return
    with pytest.raises(RuleError) as refused:
        calculate(variant, entered)
    assert {problem.field for problem in refused.value.errors} == {"game.declarer_card_points"}


@given(card_points.filter(lambda points: points <= 22))
def test_a_declarer_without_a_trick_holds_what_two_cards_make(points: int) -> None:
    game = GameEntry("grand", matadors=1, declarer_card_points=points, schwarz="declarer")
    two_cards = {0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 20, 21, 22}
    if points in two_cards:
        calculate("skat", game)
        return
    with pytest.raises(RuleError, match=r"game\.schwarz"):
        calculate("skat", game)


@given(card_points, st.sampled_from(["opponents", "declarer"]), st.sampled_from(["officers-skat", "lieutenant-skat"]))
def test_a_schwarz_field_is_accepted_exactly_when_the_card_points_say_the_same(
    points: int, party: str, variant: str
) -> None:
    game = GameEntry("hearts", matadors=1 if variant == "officers-skat" else None, declarer_card_points=points)
    with_field = replace(game, schwarz=party)
    if points == (120 if party == "opponents" else 0):
        assert calculate(variant, with_field) == calculate(variant, game)
        return
    with pytest.raises(RuleError, match=r"game\.schwarz"):
        calculate(variant, with_field)


ALL_TRICKS_TO_ONE = st.permutations([120, 0, 0]).map(tuple)


@given(st.one_of(ramsch_points(), ALL_TRICKS_TO_ONE), st.booleans(), st.data())
def test_a_ramsch_in_which_every_other_player_is_clean_is_a_durchmarsch(
    points: tuple[int, int, int], durchmarsch_rule: bool, data: st.DataObject
) -> None:
    clean = [seat for seat, taken in enumerate(points) if taken == 0]
    jungfrau = tuple(data.draw(st.lists(st.sampled_from(clean), unique=True))) if clean else ()
    game = GameEntry("ramsch", ramsch=RamschEntry(card_points=points, jungfrau=jungfrau))
    rules = {"ramsch": True, "ramsch_durchmarsch": durchmarsch_rule}
    if len(jungfrau) < 2:
        result = calculate("skat", game, rules=rules)
        assert min(result.scores) >= -2 * max(points)
        return
    if not durchmarsch_rule:
        with pytest.raises(RuleError, match=r"game\.ramsch\.jungfrau"):
            calculate("skat", game, rules=rules)
        return
    assert calculate("skat", game, rules=rules).scores == tuple(120 if taken else 0 for taken in points)


@given(ramsch_points(), st.sampled_from(["card-points", "fixed"]))
def test_tied_players_who_share_a_ramsch_loss_pay_it_in_whole_points(points: tuple[int, int, int], loss: str) -> None:
    game = GameEntry("ramsch", ramsch=RamschEntry(card_points=points))
    rules = {"ramsch": True, "ramsch_durchmarsch": False, "ramsch_loss": loss}
    each_full = calculate("skat", game, rules=rules | {"ramsch_ties": "each-full"})
    shared = calculate("skat", game, rules=rules | {"ramsch_ties": "shared"})
    losers = [seat for seat, score in enumerate(each_full.scores) if score]
    assert [seat for seat, score in enumerate(shared.scores) if score] == losers
    paid = -sum(shared.scores)
    assert shared.game_value <= paid < shared.game_value + len(losers)
    assert len({shared.scores[seat] for seat in losers}) == 1


@given(card_points, st.sampled_from([0, 1]))
def test_the_lieutenant_table_and_program_differ_only_at_90(points: int, declarer: int) -> None:
    game = GameEntry("hearts", declarer_card_points=points)
    table = calculate("lieutenant-skat", game, declarer=declarer, rules={"schneider": "under-30"})
    program = calculate("lieutenant-skat", game, declarer=declarer, rules={"schneider": "30-or-fewer"})
    if points in (30, 90):
        assert sorted(table.scores) == [0, 2]
        assert sorted(program.scores) == [0, 3]
    else:
        assert table == program


@given(card_points, st.sampled_from(["clubs", "wenz", "hearts"]))
def test_schafkopfs_uneven_tariff_is_under_30_for_the_opponent_and_30_or_fewer_for_the_declarer(
    points: int, contract: str
) -> None:
    game = GameEntry(contract=contract, declarer_card_points=points)
    uneven = calculate("officers-schafkopf", game, rules={"schneider": "uneven"})
    declarer_won = calculate("officers-schafkopf", game, rules={"schneider": "under-30"})
    declarer_lost = calculate("officers-schafkopf", game, rules={"schneider": "30-or-fewer"})
    assert uneven == (declarer_won if uneven.won else declarer_lost)


@given(card_points, st.sampled_from([0, 1]), st.sampled_from(["clubs", "wenz", "hearts"]), st.booleans())
def test_from_the_pot_the_winner_takes_what_the_loser_would_pay_and_the_loser_writes_nothing(
    points: int, declarer: int, contract: str, stoss: bool
) -> None:
    game = GameEntry(contract=contract, declarer_card_points=points, kontra=stoss)
    pot = calculate("officers-schafkopf", game, declarer=declarer, rules={"settlement": "pot"})
    zero_sum = calculate("officers-schafkopf", game, declarer=declarer, rules={"settlement": "zero-sum"})
    winner = declarer if pot.won else 1 - declarer
    assert pot.scores[winner] == zero_sum.scores[winner] == pot.game_value > 0
    assert pot.scores[1 - winner] == 0


@given(card_points, st.sampled_from([0, 1]), st.sampled_from(["pot", "zero-sum"]))
def test_a_bell_wenz_scores_as_a_wenz_but_for_its_longer_run_of_laufende(
    points: int, declarer: int, settlement: str
) -> None:
    rules = {"settlement": settlement, "laufende": True}

    def score(contract: str, laufende: int | None) -> Result:
        game = GameEntry(contract, matadors=laufende, declarer_card_points=points)
        return calculate("officers-schafkopf", game, declarer=declarer, rules=rules)

    for laufende in (None, 2, -3, 4):
        assert score("diamonds-wenz", laufende) == score("wenz", laufende)
    assert score("diamonds-wenz", 11).game_value == score("diamonds-wenz", None).game_value + 11


@given(st.one_of(ramsch_points(), ALL_TRICKS_TO_ONE), st.data())
def test_no_accepted_ramsch_has_a_durchmarsch_beside_a_player_with_card_points_or_a_trick(
    points: tuple[int, int, int], data: st.DataObject
) -> None:
    """A Durchmarsch (named, or every other player named Jungfrau) is accepted only where its player has all 120 card
    points and no other player is said to have taken a trick (left out of a Jungfrau list that names anybody)."""
    jungfrau = tuple(data.draw(st.lists(st.sampled_from(range(3)), unique=True, max_size=3)))
    durchmarsch = data.draw(st.one_of(st.none(), st.sampled_from(range(3))))
    game = GameEntry("ramsch", ramsch=RamschEntry(card_points=points, jungfrau=jungfrau, durchmarsch=durchmarsch))
    try:
        result = calculate("skat", game, rules={"ramsch": True})
    except RuleError:
        return
    if not result.schwarz:
        assert durchmarsch is None
        return
    (seat,) = [seat for seat, score in enumerate(result.scores) if score > 0]
    others = {other for other in range(3) if other != seat}
    assert points[seat] == 120
    assert all(points[other] == 0 for other in others)
    assert not jungfrau or set(jungfrau) == others
