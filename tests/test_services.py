import uuid

import pytest
from django.contrib.auth.models import User

from matches.engine import RuleError
from matches.models import Game, GameScore, Match, MatchEvent, Player
from matches.selectors import match_sheet
from matches.services import (
    GameGone,
    MatchConflict,
    StaleSubmission,
    Submission,
    game_add,
    game_delete,
    game_edit,
    match_rescore,
    match_undo,
)

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> User:
    return make_user()


def totals(match: Match) -> list[int]:
    return match_sheet(match).totals


def test_a_match_keeps_the_complete_rule_set_it_started_with(owner: User) -> None:
    match = make_match(owner, rules={"kontra_re": True})
    assert match.rules["kontra_re"] is True
    assert match.rules["lost_hand"] == "double"
    assert set(match.rules) == {
        "kontra_re", "bock", "bock_on_draw", "bock_on_kontra", "bock_on_grand_hand", "ramsch", "ramsch_jungfrau",
        "ramsch_durchmarsch", "ramsch_schieben", "ramsch_loss", "ramsch_fixed_loss", "lost_hand", "ramsch_ties",
    }  # fmt: skip


def test_players_are_found_by_name_in_the_owners_book(owner: User) -> None:
    make_match(owner, names=("Anna", "Ben", "Cleo"))
    make_match(owner, names=("anna", "Ben", "Dora"))
    assert sorted(Player.objects.filter(keeper__user=owner).values_list("name", flat=True)) == [
        "Anna",
        "Ben",
        "Cleo",
        "Dora",
    ]


def test_games_add_up_and_the_deal_moves_on(owner: User) -> None:
    match = make_match(owner, first_dealer=2)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=1, contract="grand", matadors=-2, declarer_card_points=40)
    sheet = match_sheet(match)
    assert [row.scores for row in sheet.rows] == [[24, 0, 0], [0, -144, 0]]
    assert sheet.totals == [24, -144, 0]
    assert [row.seating.dealer for row in sheet.rows] == [2, 0]
    assert sheet.next_seating.dealer == 1
    assert sheet.next_seating.forehand == 2


def test_a_retried_submission_makes_no_second_game(owner: User) -> None:
    match = make_match(owner)
    token = uuid.uuid4()
    first = add(match, token=token, contract="hearts", matadors=1, declarer_card_points=80)
    again = add(match, token=token, contract="hearts", matadors=1, declarer_card_points=80)
    assert first.pk == again.pk
    assert Game.objects.filter(match=match).count() == 1
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_bad_input_is_refused_and_nothing_is_stored(owner: User) -> None:
    match = make_match(owner)
    with pytest.raises(RuleError) as raised:
        add(match, contract="hearts", matadors=15, declarer_card_points=80)
    assert [problem.field for problem in raised.value.errors] == ["game.matadors"]
    assert not Game.objects.exists()


def test_a_declarer_is_required_except_in_a_ramsch(owner: User) -> None:
    match = make_match(owner, rules={"ramsch": True})
    with pytest.raises(RuleError) as raised:
        add(match, declarer=None, contract="hearts", matadors=1, declarer_card_points=80)
    assert [problem.field for problem in raised.value.errors] == ["declarer"]
    game = add(match, declarer=None, contract="ramsch", ramsch={"card_points": [20, 60, 40]})
    assert [score.points for score in game.scores.all()] == [0, -60, 0]


def test_a_passed_deal_moves_the_dealer_on_and_scores_nothing(owner: User) -> None:
    match = make_match(owner)
    add(match, passed=True, declarer=None)
    sheet = match_sheet(match)
    assert sheet.rows[0].scores == [0, 0, 0]
    assert sheet.next_seating.dealer == 1


def test_passing_is_refused_where_a_ramsch_is_played(owner: User) -> None:
    match = make_match(owner, rules={"ramsch": True})
    with pytest.raises(RuleError):
        add(match, passed=True, declarer=None)


def test_fixing_a_game_rescores_everything_after_it_and_keeps_the_old_entry(owner: User) -> None:
    match = make_match(owner, rules={"bock": True, "kontra_re": True})
    first = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=1, contract="hearts", matadors=1, declarer_card_points=70)
    assert totals(match) == [24, 20, 0]
    fixed = Submission(
        declarer=0, entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70, "kontra": True}
    )
    game_edit(game=first, user=owner, token=uuid.uuid4(), submission=fixed)
    # The Kontra game doubles (48) and starts a Bock round: the hearts game counts double (40).
    assert totals(match) == [48, 40, 0]
    event = MatchEvent.objects.get(game=first, action="edit")
    assert event.before is not None
    assert event.after is not None
    assert event.before["entry"] == {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}
    assert event.after["entry"]["kontra"] is True
    assert event.user == owner


def test_a_bad_fix_is_refused_and_the_game_stays_as_it_was(owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    with pytest.raises(RuleError):
        game_edit(
            game=game, user=owner, token=uuid.uuid4(), submission=Submission(declarer=0, entry={"contract": "clubs"})
        )
    game.refresh_from_db()
    assert game.entry == {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}
    assert totals(match) == [24, 0, 0]


def test_deleting_keeps_the_game_in_history_and_undo_brings_it_back(owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=1, contract="diamonds", matadors=1, declarer_card_points=70)
    game_delete(game=game, user=owner, token=uuid.uuid4())
    assert totals(match) == [0, 18, 0]
    assert match_sheet(match).rows[0].seating.dealer == 0
    match_undo(match=match, user=owner, token=uuid.uuid4())
    assert totals(match) == [24, 18, 0]
    assert Game.objects.filter(match=match, deleted=False).count() == 2


def test_undo_walks_back_one_change_at_a_time(owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    game_edit(
        game=game,
        user=owner,
        token=uuid.uuid4(),
        submission=Submission(declarer=0, entry={"contract": "clubs", "matadors": 2, "declarer_card_points": 70}),
    )
    assert totals(match) == [36, 0, 0]
    match_undo(match=match, user=owner, token=uuid.uuid4())
    assert totals(match) == [24, 0, 0]
    match_undo(match=match, user=owner, token=uuid.uuid4())
    assert totals(match) == [0, 0, 0]
    assert match_undo(match=match, user=owner, token=uuid.uuid4()) is None
    assert list(MatchEvent.objects.filter(match=match).values_list("action", flat=True)) == [
        "undo", "undo", "edit", "add",
    ]  # fmt: skip


def test_a_retried_undo_undoes_once(owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    token = uuid.uuid4()
    match_undo(match=match, user=owner, token=token)
    match_undo(match=match, user=owner, token=token)
    assert totals(match) == [24, 0, 0]


def test_a_deletion_that_would_seat_a_declarer_out_is_refused(owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo", "Dora"), first_dealer=0)
    first = add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    # Deal 2: Ben deals and sits out; Anna declares. Without deal 1, Anna would deal deal 2 herself.
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    with pytest.raises(MatchConflict) as raised:
        game_delete(game=first, user=owner, token=uuid.uuid4())
    assert raised.value.number == 1
    assert Game.objects.filter(match=match, deleted=False).count() == 2


def test_bock_rounds_start_after_a_trigger_and_run_one_round(owner: User) -> None:
    match = make_match(owner, rules={"bock": True})
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    for _ in range(4):
        add(match, declarer=1, contract="diamonds", matadors=1, declarer_card_points=70)
    sheet = match_sheet(match)
    assert [row.bock for row in sheet.rows] == [0, 1, 1, 1, 0]
    assert [row.scores[1] for row in sheet.rows] == [0, 36, 36, 36, 18]


def test_a_bock_round_reaches_past_games_taken_back_at_the_end(owner: User) -> None:
    """The next deal's Bock comes from the last live deals, however many taken-back games lie after them."""
    match = make_match(owner, rules={"bock": True})
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    for _ in range(10):
        add(match, declarer=1, contract="diamonds", matadors=1, declarer_card_points=70)
        match_undo(match=match, user=owner, token=uuid.uuid4())
    after = add(match, declarer=1, contract="diamonds", matadors=1, declarer_card_points=70)
    assert after.number == 2
    assert after.bock == 1
    assert after.position == 12
    assert match_rescore(match, check=True).changed == 0


def test_what_if_scores_the_same_games_under_another_scheme(owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=50)
    sheet = match_sheet(match, scheme="seeger-fabian")
    assert sheet.totals == [-98, 40, 40]
    assert match_sheet(match).totals == [-48, 0, 0]


def test_scores_are_stored_per_player_for_statistics(owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=2, contract="spades", matadors=-1, declarer_card_points=95)
    scores = GameScore.objects.filter(game__match=match).order_by("seat")
    assert [(score.player.name, score.points, score.declarer) for score in scores] == [
        ("Anna", 0, False),
        ("Ben", 0, False),
        ("Cleo", 33, True),
    ]


def test_a_complete_series_takes_no_more_games(owner: User) -> None:
    match = make_match(owner, planned_games=2)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    assert match_sheet(match).finished
    with pytest.raises(RuleError) as raised:
        add(match, declarer=2, contract="clubs", matadors=1, declarer_card_points=70)
    assert str(raised.value) == "match: The series is complete: 2 games."
    assert Game.objects.filter(match=match).count() == 2


def test_a_fix_reads_the_game_again_under_the_lock(owner: User) -> None:
    match = make_match(owner)
    stale = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    other_phone = Game.objects.get(pk=stale.pk)
    first = Submission(declarer=0, entry={"contract": "clubs", "matadors": 2, "declarer_card_points": 70})
    game_edit(game=other_phone, user=owner, token=uuid.uuid4(), submission=first)
    second = Submission(declarer=0, entry={"contract": "clubs", "matadors": 3, "declarer_card_points": 70})
    game_edit(game=stale, user=owner, token=uuid.uuid4(), submission=second)
    latest = MatchEvent.objects.filter(game=stale, action="edit").first()
    assert latest is not None
    assert latest.before is not None
    assert latest.before["entry"]["matadors"] == 2
    match_undo(match=match, user=owner, token=uuid.uuid4())
    assert totals(match) == [36, 0, 0]


def test_fixing_a_game_deleted_meanwhile_is_refused(owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    game_delete(game=Game.objects.get(pk=game.pk), user=owner, token=uuid.uuid4())
    fix = Submission(declarer=0, entry={"contract": "clubs", "matadors": 2, "declarer_card_points": 70})
    with pytest.raises(GameGone):
        game_edit(game=game, user=owner, token=uuid.uuid4(), submission=fix)
    assert Game.objects.get(pk=game.pk).deleted


def test_a_saved_form_coming_back_with_other_content_is_refused(owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    token = uuid.uuid4()
    fix = Submission(declarer=0, entry={"contract": "clubs", "matadors": 2, "declarer_card_points": 70})
    game_edit(game=game, user=owner, token=token, submission=fix)
    game_edit(game=game, user=owner, token=token, submission=fix)
    other = Submission(declarer=0, entry={"contract": "spades", "matadors": 2, "declarer_card_points": 70})
    with pytest.raises(StaleSubmission):
        game_edit(game=game, user=owner, token=token, submission=other)
    add_token = uuid.uuid4()
    add(match, token=add_token, declarer=1, contract="hearts", matadors=1, declarer_card_points=70)
    with pytest.raises(StaleSubmission):
        add(match, token=add_token, declarer=2, contract="grand", matadors=1, declarer_card_points=70)
    assert Game.objects.filter(match=match).count() == 2


def test_two_phones_entering_the_same_deal_do_not_both_save_it(owner: User) -> None:
    match = make_match(owner)
    entry = {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}
    game_add(match=match, user=owner, token=uuid.uuid4(), submission=Submission(declarer=0, entry=entry, number=1))
    with pytest.raises(RuleError) as raised:
        game_add(match=match, user=owner, token=uuid.uuid4(), submission=Submission(declarer=0, entry=entry, number=1))
    assert "Game 1 was just entered from another phone" in str(raised.value)
    assert Game.objects.filter(match=match).count() == 1


def test_statistics_count_only_the_deals_a_player_played(owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo", "Dora"), scheme="seeger-fabian")
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=40)
    stats = {score.player.name: score for score in GameScore.objects.filter(game__match=match)}
    assert stats["Anna"].points == 30
    assert not stats["Anna"].played
    assert stats["Cleo"].played
