"""The write protocol: every change bumps the match version under its lock; a fix, a delete, an undo made on an old
picture of the match is refused with an explanation; undo names its change and can be redone."""

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.errors import Conflict, Gone, Invalid, ServiceError
from matches.models import Game, Match, MatchEvent
from matches.selectors import match_sheet, redoable, undoable
from matches.services import (
    GameGone,
    MatchConflict,
    StaleSubmission,
    Submission,
    game_add,
    game_delete,
    game_edit,
    match_redo,
    match_undo,
)

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

CLUBS_70: dict[str, Any] = {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}


@pytest.fixture
def owner() -> User:
    return make_user()


def fix(matadors: int) -> Submission:
    return Submission(declarer=0, entry={**CLUBS_70, "matadors": matadors})


def test_every_change_bumps_the_version_once(owner: User) -> None:
    match = make_match(owner)
    assert match.version == 0
    game = add(match, **CLUBS_70)
    assert Match.objects.get(pk=match.pk).version == 1
    game_edit(game=game, user=owner, token=uuid.uuid4(), submission=fix(2))
    game_delete(game=game, user=owner, token=uuid.uuid4())
    match_undo(match=match, user=owner, token=uuid.uuid4())
    assert Match.objects.get(pk=match.pk).version == 4
    assert list(MatchEvent.objects.filter(match=match).values_list("version", flat=True)) == [4, 3, 2, 1]


def test_a_retry_changes_nothing_and_bumps_nothing(owner: User) -> None:
    match = make_match(owner)
    token = uuid.uuid4()
    add(match, token=token, **CLUBS_70)
    add(match, token=token, **CLUBS_70)
    assert Match.objects.get(pk=match.pk).version == 1


def test_two_phones_fixing_the_same_game_the_second_is_refused(owner: User) -> None:
    match = make_match(owner)
    game = add(match, **CLUBS_70)
    seen = Match.objects.get(pk=match.pk).version
    game_edit(game=game, user=owner, token=uuid.uuid4(), submission=fix(2), version=seen)
    with pytest.raises(Conflict) as refused:
        game_edit(game=game, user=owner, token=uuid.uuid4(), submission=fix(3), version=seen)
    assert refused.value.status == 409
    assert "Game 1 was changed on another phone meanwhile" in str(refused.value)
    assert Game.objects.get(pk=game.pk).entry == {**CLUBS_70, "matadors": 2}


def test_a_fix_of_an_untouched_game_goes_through_although_the_match_moved_on(owner: User) -> None:
    match = make_match(owner)
    first = add(match, **CLUBS_70)
    seen = Match.objects.get(pk=match.pk).version
    add(match, declarer=1, **CLUBS_70)
    game_edit(game=first, user=owner, token=uuid.uuid4(), submission=fix(2), version=seen)
    assert match_sheet(match).totals == [36, 24, 0]


def test_an_undo_from_a_page_that_is_behind_undoes_nothing(owner: User) -> None:
    match = make_match(owner)
    add(match, **CLUBS_70)
    shown = Match.objects.get(pk=match.pk)
    offered = undoable(shown)
    assert offered is not None
    add(match, declarer=1, **CLUBS_70)  # another phone
    with pytest.raises(Conflict) as refused:
        match_undo(match=match, user=owner, token=uuid.uuid4(), change=offered.public_id, version=shown.version)
    assert "changed on another phone" in str(refused.value)
    assert Game.objects.filter(match=match, deleted=False).count() == 2


def test_an_undo_names_the_change_it_undoes(owner: User) -> None:
    match = make_match(owner)
    add(match, **CLUBS_70)
    add(match, declarer=1, **CLUBS_70)
    older = MatchEvent.objects.filter(match=match).order_by("version").first()
    assert older is not None
    with pytest.raises(Conflict):
        match_undo(match=match, user=owner, token=uuid.uuid4(), change=older.public_id)
    latest = undoable(match)
    assert latest is not None
    event = match_undo(match=match, user=owner, token=uuid.uuid4(), change=latest.public_id)
    assert event is not None
    assert event.undo_of == latest


def test_undo_can_be_redone_until_something_new_happens(owner: User) -> None:
    match = make_match(owner)
    add(match, **CLUBS_70)
    game = add(match, declarer=1, **CLUBS_70)
    match_undo(match=match, user=owner, token=uuid.uuid4())
    match_undo(match=match, user=owner, token=uuid.uuid4())
    assert match_sheet(match).totals == [0, 0, 0]
    match_redo(match=match, user=owner, token=uuid.uuid4())
    assert match_sheet(match).totals == [24, 0, 0]
    match_redo(match=match, user=owner, token=uuid.uuid4())
    assert match_sheet(match).totals == [24, 24, 0]
    assert match_redo(match=match, user=owner, token=uuid.uuid4()) is None
    match_undo(match=match, user=owner, token=uuid.uuid4())  # takes back the latest redo: game 2 again
    assert Game.objects.get(pk=game.pk).deleted
    assert match_sheet(match).totals == [24, 0, 0]
    add(match, declarer=2, **CLUBS_70)
    assert redoable(match) is None


def test_an_undone_fix_is_redone(owner: User) -> None:
    match = make_match(owner)
    game = add(match, **CLUBS_70)
    game_edit(game=game, user=owner, token=uuid.uuid4(), submission=fix(3))
    match_undo(match=match, user=owner, token=uuid.uuid4())
    assert match_sheet(match).totals == [24, 0, 0]
    event = match_redo(match=match, user=owner, token=uuid.uuid4())
    assert event is not None
    assert event.action == MatchEvent.Action.REDO
    assert match_sheet(match).totals == [48, 0, 0]


@pytest.mark.parametrize(
    ("error", "status"), [(Invalid, 400), (Conflict, 409), (StaleSubmission, 409), (MatchConflict, 409), (Gone, 410)]
)
def test_every_failure_has_one_base_and_one_status(error: type[ServiceError], status: int) -> None:
    assert issubclass(error, ServiceError)
    assert error.status == status
    assert GameGone.status == 410


def test_a_deleted_game_cannot_be_deleted_again_with_another_token(owner: User) -> None:
    match = make_match(owner)
    game = add(match, **CLUBS_70)
    game_delete(game=game, user=owner, token=uuid.uuid4())
    with pytest.raises(GameGone):
        game_delete(game=game, user=owner, token=uuid.uuid4())


def test_a_bad_entry_shape_is_invalid_not_a_crash(owner: User) -> None:
    match = make_match(owner)
    with pytest.raises(Invalid) as refused:
        game_add(
            match=match,
            user=owner,
            token=uuid.uuid4(),
            submission=Submission(declarer=0, entry={"contract": "clubs", "matadors": "two", "colour": "red"}),
        )
    assert {problem.field for problem in refused.value.errors} == {"game.matadors", "game.colour"}


@pytest.fixture
def scorer(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


def _page(client: Client, match: Match) -> str:
    return client.get(f"/matches/{match.public_id}/").content.decode()


def test_a_deal_number_that_is_no_number_is_not_a_500(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    response = scorer.post(f"/matches/{match.public_id}/pass/", {"token": str(uuid.uuid4()), "number": "²"})
    assert response.status_code == 302
    assert Game.objects.filter(match=match, passed=True).count() == 1


def test_an_error_on_a_hidden_field_is_shown_on_the_page(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    data: dict[str, Any] = {"token": "not-a-token", "number": "²", "contract": "clubs", "declarer": "0"}
    response = scorer.post(f"/matches/{match.public_id}/games/", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "This page is out of date or was changed on the way" in html
    assert html.count('role="alert"') >= 2


def test_the_page_offers_undo_for_the_named_change_and_redo_after_it(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    add(match, **CLUBS_70)
    html = _page(scorer, match)
    assert "game 1 added: Anna: ♣ Clubs, with 1, 70 card points" in html
    event = undoable(match)
    assert event is not None
    version = Match.objects.get(pk=match.pk).version
    scorer.post(
        f"/matches/{match.public_id}/undo/",
        {"token": str(uuid.uuid4()), "change": str(event.public_id), "version": str(version)},
    )
    html = _page(scorer, match)
    assert "Game 1 undone (no longer on the list): Anna: ♣ Clubs, with 1, 70 card points" in html
    assert ">Redo game 1</button>" in html
    redo = redoable(match)
    assert redo is not None
    scorer.post(
        f"/matches/{match.public_id}/redo/",
        {"token": str(uuid.uuid4()), "change": str(redo.public_id), "version": str(version + 1)},
    )
    assert "Game 1 entered again (redo): Anna: ♣ Clubs, with 1, 70 card points" in _page(scorer, match)
    assert match_sheet(match).totals == [24, 0, 0]


def test_a_stale_fix_page_explains_instead_of_overwriting(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    game = add(match, **CLUBS_70)
    url = f"/matches/{match.public_id}/games/{game.public_id}/edit/"
    form = {"token": str(uuid.uuid4()), "version": "1", "contract": "clubs", "declarer": "0"}
    form |= {"matadors": "2", "declarer_card_points": "70"}
    other = {**form, "token": str(uuid.uuid4()), "matadors": "3"}
    assert scorer.post(url, form).status_code == 302
    response = scorer.post(url, other, follow=True)
    html = response.content.decode()
    assert response.redirect_chain == [(url, 302)]
    assert "Game 1 was changed on another phone meanwhile" in html
    assert Game.objects.get(pk=game.pk).entry == {**CLUBS_70, "matadors": 2}
    # The page shows the game as the other phone left it, made out for the match as it is now.
    assert 'name="matadors" value="2"' in html
    assert 'name="version" value="2"' in html


def test_a_fix_of_a_game_deleted_meanwhile_says_so(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    game = add(match, **CLUBS_70)
    game_delete(game=game, user=owner, token=uuid.uuid4())
    url = f"/matches/{match.public_id}/games/{game.public_id}/edit/"
    form = {"token": str(uuid.uuid4()), "version": "1", "contract": "clubs", "declarer": "0"}
    response = scorer.post(url, form, follow=True)
    assert response.redirect_chain == [(f"/matches/{match.public_id}/", 302)]
    assert "This game was deleted meanwhile; nothing was changed." in response.content.decode()


def test_a_save_refused_because_another_phone_was_faster_can_be_saved_as_the_next_deal(
    scorer: Client, owner: User
) -> None:
    match = make_match(owner)
    url = f"/matches/{match.public_id}/games/"
    mine = {"token": str(uuid.uuid4()), "number": "1", "contract": "hearts", "declarer": "1"}
    mine |= {"matadors": "1", "declarer_card_points": "70"}
    add(match, **CLUBS_70)  # the other phone
    refused = scorer.post(url, mine, headers={"HX-Request": "true"})
    html = refused.content.decode()
    assert "Game 1 was just entered from another phone" in html
    assert 'hx-swap-oob="true" aria-label="Score sheet"' in html  # the list comes along, with the other phone's game
    assert 'name="number" value="2"' in html
    assert mine["token"] not in html
    again = dict(mine, number="2", token=html.split('name="token" value="')[1].split('"')[0])
    scorer.post(url, again, headers={"HX-Request": "true"})
    assert Game.objects.filter(match=match).count() == 2


def test_a_fix_made_before_an_earlier_game_was_deleted_is_refused(owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo", "Dora"))
    first = add(match, declarer=1, **CLUBS_70)
    second = add(match, declarer=2, **CLUBS_70)
    seen = Match.objects.get(pk=match.pk).version
    game_delete(game=first, user=owner, token=uuid.uuid4())  # game 2 is now game 1, dealt by another seat
    with pytest.raises(Conflict):
        game_edit(game=second, user=owner, token=uuid.uuid4(), submission=fix(2), version=seen)
    assert Game.objects.get(pk=second.pk).entry == CLUBS_70


def test_an_undo_sent_again_to_redo_is_refused(owner: User) -> None:
    match = make_match(owner)
    add(match, **CLUBS_70)
    token = uuid.uuid4()
    match_undo(match=match, user=owner, token=token)
    with pytest.raises(StaleSubmission):
        match_redo(match=match, user=owner, token=token)
    assert match_sheet(match).totals == [0, 0, 0]


def test_a_deletion_keeps_the_number_the_game_had(owner: User) -> None:
    match = make_match(owner)
    add(match, **CLUBS_70)
    second = add(match, declarer=1, **CLUBS_70)
    game_delete(game=second, user=owner, token=uuid.uuid4())
    match_undo(match=match, user=owner, token=uuid.uuid4())
    match_undo(match=match, user=owner, token=uuid.uuid4())  # the add of game 2: gone again
    numbers = list(MatchEvent.objects.filter(match=match).order_by("version").values_list("action", "number"))
    assert numbers == [("add", 1), ("add", 2), ("delete", 2), ("undo", 2), ("undo", 2)]


def test_a_place_in_the_list_that_is_no_place_is_a_404_not_a_500(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    add(match, **CLUBS_70)
    assert scorer.get(f"/matches/{match.public_id}/list/?after=²").status_code == 404
    assert Client().get(f"/watch/{match.share_token}/list/?after=²").status_code == 404


def test_a_bid_typed_before_choosing_ramsch_is_left_out(scorer: Client, owner: User) -> None:
    match = make_match(owner, rules={"ramsch": True})
    data = {"token": str(uuid.uuid4()), "contract": "ramsch", "bid": "18"}
    data |= {"ramsch_0": "20", "ramsch_1": "60", "ramsch_2": "40"}
    assert scorer.post(f"/matches/{match.public_id}/games/", data).status_code == 302
    assert Game.objects.get(match=match).entry == {"contract": "ramsch", "ramsch": {"card_points": [20, 60, 40]}}
