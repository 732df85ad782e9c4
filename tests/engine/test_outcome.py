"""An outcome ("won Schneider") in place of the card points: the same score wherever the scheme counts only who won
and how, the same checks, and refused where the card points themselves count."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.engine import RuleError, calculate, headline, setup_match, shape_of
from matches.engine.bock import triggers_bock
from matches.engine.cards import POSSIBLE_SKAT_POINTS
from matches.engine.entry import GameEntry, Outcome, RamschEntry
from matches.engine.errors import Problems
from matches.engine.options import build_rules
from matches.engine.variants import VARIANTS, Scheme, Variant

from .test_properties import card_points, skat_games

# Every variant and scheme whose point games are scored from who won and how, with the table it is played at.
BY_OUTCOME = [
    ("skat", "standard", 3),
    ("skat", "seeger-fabian", 4),
    ("officers-skat", "standard", 2),
    ("officers-skat", "base-value", 2),
    ("officers-skat", "simple", 2),
    ("admirals-skat", "standard", 2),
    ("harlequin-skat", "simple", 2),
]


def outcome_of(points: int, schwarz: str | None, *, schwarz_by_points: bool = False) -> Outcome:
    """What a table calls a game whose declarer took ``points`` card points (Schneider at 30 or fewer); with
    ``schwarz_by_points`` Schwarz is having no card points, otherwise taking no trick (``schwarz``)."""
    if points >= 61:
        if schwarz == "opponents" or (schwarz_by_points and points == 120):
            return Outcome.WON_SCHWARZ
        return Outcome.WON_SCHNEIDER if points >= 90 else Outcome.WON
    if points == 60:
        return Outcome.DRAW
    if schwarz == "declarer" or (schwarz_by_points and points == 0):
        return Outcome.LOST_SCHWARZ
    return Outcome.LOST_SCHNEIDER if points <= 30 else Outcome.LOST


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_form_offers_an_outcome_where_the_card_points_do_not_count(variant: Variant) -> None:
    spec = VARIANTS[variant]
    for scheme in spec.schemes:
        setup = setup_match(variant, scheme=scheme.value, rules={}, players=spec.default_players)
        shape = shape_of(setup, 1)
        counted = variant == "lieutenant-skat" or scheme is Scheme.CARD_POINTS
        outcome, points = shape.get("outcome"), shape.get("declarer_card_points")
        assert (outcome is None) == counted, scheme
        assert points is not None
        assert points.required == counted
        assert shape.get("schwarz") is None or counted


def test_sixty_all_is_offered_where_it_counts_apart() -> None:
    def offered(variant: str, scheme: str, rules: dict[str, object]) -> tuple[str, ...]:
        field = shape_of(setup_match(variant, scheme=scheme, rules=rules, players=2 if variant != "skat" else 3), 1)
        assert field.get("outcome") is not None
        return field.get("outcome").choices  # type: ignore[union-attr]

    assert "draw" not in offered("skat", "standard", {})
    assert "draw" in offered("skat", "standard", {"bock": True, "bock_on_draw": True})
    assert "draw" in offered("officers-skat", "simple", {})
    assert "draw" not in offered("officers-skat", "standard", {})


@pytest.mark.parametrize(("variant", "scheme", "players"), BY_OUTCOME)
@given(game=skat_games(with_bid=False))
def test_an_outcome_scores_as_the_card_points_it_stands_for(
    variant: str, scheme: str, players: int, game: GameEntry
) -> None:
    if variant != "skat":
        game = replace(game, hand=False, ouvert=False, announced=None)
        game = replace(game, matadors=max(-4, min(4, game.matadors or 1)))
    rules = {"schneider": "30-or-fewer"} if variant != "skat" else {}
    points = game.declarer_card_points
    assert points is not None
    dealer = 3 if players == 4 else None
    by_card_points = setup_match(variant, scheme=scheme, rules=rules, players=players).rules.schwarz.value
    schwarz_by_points = by_card_points == "no-card-points"
    if schwarz_by_points:
        game = replace(game, schwarz=None)
    by_points = calculate(variant, game, scheme=scheme, rules=rules, players=players, dealer=dealer)
    outcome = outcome_of(points, game.schwarz, schwarz_by_points=schwarz_by_points)
    called = replace(game, declarer_card_points=None, schwarz=None, outcome=outcome.value)
    by_outcome = calculate(variant, called, scheme=scheme, rules=rules, players=players, dealer=dealer)
    assert by_outcome.scores == by_points.scores
    assert by_outcome.won == by_points.won
    both = replace(game, outcome=called.outcome)
    assert calculate(variant, both, scheme=scheme, rules=rules, players=players, dealer=dealer).scores == (
        by_points.scores
    )


@given(points=card_points, wrong=st.sampled_from(list(Outcome)))
def test_card_points_and_an_outcome_that_disagree_are_refused(points: int, wrong: Outcome) -> None:
    schwarz = "opponents" if points == 120 and wrong is Outcome.WON_SCHWARZ else None
    if points in POSSIBLE_SKAT_POINTS and wrong is Outcome.LOST_SCHWARZ:
        schwarz = "declarer"  # a declarer without a trick holds the skat's points
    if wrong in (outcome_of(points, schwarz), outcome_of(points, None)) or (points == 60 and wrong is Outcome.LOST):
        return
    game = GameEntry(contract="clubs", matadors=1, declarer_card_points=points, outcome=wrong.value)
    with pytest.raises(RuleError) as refused:
        calculate("skat", game)
    assert [problem.field for problem in refused.value.errors] == ["game.outcome"]


def test_the_refusal_says_what_the_card_points_make_of_the_game() -> None:
    game = GameEntry(contract="clubs", matadors=1, declarer_card_points=95, outcome="won")
    with pytest.raises(RuleError) as refused:
        calculate("skat", game)
    assert str(refused.value.errors[0].message) == "With 95 card points the declarer has won Schneider, not won."


def test_a_game_needs_an_outcome_or_card_points() -> None:
    with pytest.raises(RuleError) as refused:
        calculate("skat", GameEntry(contract="clubs", matadors=1))
    assert [problem.field for problem in refused.value.errors] == ["game.declarer_card_points"]
    assert str(refused.value.errors[0].message) == "Enter the outcome or the declarer's card points."


@pytest.mark.parametrize(("variant", "scheme"), [("lieutenant-skat", "standard"), ("officers-skat", "card-points")])
def test_where_the_card_points_count_an_outcome_alone_is_not_enough(variant: str, scheme: str) -> None:
    matadors = None if variant == "lieutenant-skat" else 1
    game = GameEntry(contract="clubs", matadors=matadors, outcome="won")
    with pytest.raises(RuleError) as refused:
        calculate(variant, game, scheme=scheme)
    assert [problem.field for problem in refused.value.errors] == ["game.declarer_card_points"]
    with_points = replace(game, declarer_card_points=75)
    assert (
        calculate(variant, with_points, scheme=scheme).scores
        == calculate(variant, replace(with_points, outcome=None), scheme=scheme).scores
    )


def test_a_schwarz_the_outcome_names_decides_under_the_tricks_rule() -> None:
    """120 card points are Schwarz only if the opponents took no trick: the outcome says so, as the field would."""
    plain = GameEntry(contract="grand", matadors=1, declarer_card_points=120)
    schwarz = replace(plain, outcome="won-schwarz")
    assert calculate("skat", schwarz).scores == calculate("skat", replace(plain, schwarz="opponents")).scores
    assert calculate("skat", schwarz).scores != calculate("skat", plain).scores


def test_a_schwarz_field_that_contradicts_the_outcome_is_refused() -> None:
    game = GameEntry(contract="grand", matadors=1, outcome="won-schneider", schwarz="opponents")
    with pytest.raises(RuleError) as refused:
        calculate("skat", game)
    assert [problem.field for problem in refused.value.errors] == ["game.schwarz"]
    agreeing = replace(game, outcome="won-schwarz")
    assert calculate("skat", agreeing).scores == calculate("skat", replace(agreeing, schwarz=None)).scores


def test_an_unknown_outcome_is_named() -> None:
    with pytest.raises(RuleError) as refused:
        calculate("skat", GameEntry(contract="clubs", matadors=1, outcome="great"))
    assert [problem.field for problem in refused.value.errors] == ["game.outcome"]


@pytest.mark.parametrize("contract", ["null", "ramsch"])
def test_null_and_ramsch_take_no_outcome(contract: str) -> None:
    game = GameEntry(contract=contract, outcome="won", won=True)
    with pytest.raises(RuleError) as refused:
        calculate("skat", game, rules={"ramsch": True})
    assert "game.outcome" in {problem.field for problem in refused.value.errors}


def test_a_drawn_game_called_so_is_scored_as_sixty_card_points() -> None:
    draw = GameEntry(contract="hearts", matadors=2, outcome="draw")
    sixty = GameEntry(contract="hearts", matadors=2, declarer_card_points=60)
    assert calculate("skat", draw).scores == calculate("skat", sixty).scores
    assert calculate("officers-skat", draw, scheme="simple").scores == (
        calculate("officers-skat", sixty, scheme="simple").scores
    )
    assert calculate("officers-skat", draw, scheme="simple").won is None


@pytest.mark.parametrize(
    ("schneider", "points", "outcome"),
    [
        ("under-30", 91, "won-schneider"),
        ("under-30", 90, "won"),
        ("under-30", 30, "lost"),
        ("under-30", 29, "lost-schneider"),
        ("uneven", 91, "won-schneider"),
        ("uneven", 90, "won"),
        ("uneven", 31, "lost"),
        ("uneven", 30, "lost-schneider"),
        ("under-30", 61, "won"),
        ("under-30", 60, "lost"),
        ("uneven", 0, "lost-schneider"),
    ],
)
def test_schafkopf_is_called_by_its_own_schneider(schneider: str, points: int, outcome: str) -> None:
    """Officers' Schafkopf, by the table's tariff: under 30 for either side, or uneven (the declarer is out of
    Schneider at 31, the opponents at 30, that is at the declarer's 90)."""
    rules = {"schneider": schneider}
    game = GameEntry(contract="wenz", declarer_card_points=points)
    called = replace(game, declarer_card_points=None, outcome=outcome)
    expected = calculate("officers-schafkopf", game, rules=rules).scores
    assert calculate("officers-schafkopf", called, rules=rules).scores == expected
    assert calculate("officers-schafkopf", replace(game, outcome=outcome), rules=rules).scores == expected


def test_sixty_all_called_so_starts_a_bock_round() -> None:
    skat = VARIANTS[Variant.SKAT]
    rules = build_rules(skat.options, {"bock": True}, Problems(), skat.choices)
    assert triggers_bock(rules, GameEntry(contract="clubs", matadors=1, outcome="draw"))
    assert not triggers_bock(rules, GameEntry(contract="clubs", matadors=1, outcome="lost"))


def _words(game: GameEntry, **kwargs: object) -> list[str]:
    result = calculate("skat", game, **kwargs)  # type: ignore[arg-type]
    names = ["Anna", "Ben", "Cleo"]
    words = headline(
        game,
        won=result.won,
        scores=result.scores,
        names=names,
        breakdown=result.breakdown,
        kontra=VARIANTS[Variant.SKAT].kontra,
        sitting_out=None,
    )
    return [str(word) for word in words]


def test_the_list_says_how_a_game_went() -> None:
    assert _words(GameEntry(contract="clubs", matadors=1, outcome="won-schneider", hand=True)) == [
        "won Schneider",
        "Hand",
    ]
    assert _words(GameEntry(contract="clubs", matadors=1, declarer_card_points=40)) == ["lost"]
    kontra = GameEntry(contract="grand", matadors=1, outcome="won", kontra=True, re=True)
    assert _words(kontra, rules={"kontra_re": True}) == ["won", "Kontra", "Re"]
    overbid = GameEntry(contract="diamonds", matadors=-1, declarer_card_points=80, bid=22)
    assert _words(overbid) == ["lost", "overbid"]
    ramsch = GameEntry(contract="ramsch", ramsch=RamschEntry(card_points=(30, 72, 18)))
    assert _words(ramsch, rules={"ramsch": True}) == ["card points 30/72/18", "Ben lost"]
