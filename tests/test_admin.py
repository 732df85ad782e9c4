"""The admin is for looking: every page opens for staff, matches, games and the history cannot be edited there, and
its one action on matches rescores them through the services."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.models import Game, GameScore, Keeper, Match

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def match() -> Match:
    match = make_match(make_user())
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    return match


@pytest.mark.parametrize("model", ["match", "game", "matchevent", "player", "keeper", "profile"])
def test_every_list_opens_for_staff(staff: Client, match: Match, model: str) -> None:
    assert staff.get(f"/admin/matches/{model}/").status_code == 200


def test_a_game_is_shown_but_not_editable(staff: Client, match: Match) -> None:
    game = Game.objects.get(match=match)
    page = staff.get(f"/admin/matches/game/{game.pk}/change/")
    assert page.status_code == 200
    assert 'name="game_value"' not in page.content.decode()
    assert staff.post(f"/admin/matches/game/{game.pk}/change/", {"game_value": "999"}).status_code == 403
    assert staff.get("/admin/matches/game/add/").status_code == 403


def test_a_match_is_shown_but_not_editable_its_title_neither(staff: Client, match: Match) -> None:
    """A title changed beside the services would not move the match's version on: the phones following it would
    never show it."""
    Match.objects.filter(pk=match.pk).update(title="Dienstagsrunde")
    page = staff.get(f"/admin/matches/match/{match.pk}/change/")
    assert page.status_code == 200
    assert "Dienstagsrunde" in page.content.decode()
    for field in ("title", "totals", "rules"):
        assert f'name="{field}"' not in page.content.decode()
    assert staff.post(f"/admin/matches/match/{match.pk}/change/", {"title": "Umbenannt"}).status_code == 403
    assert Match.objects.get(pk=match.pk).title == "Dienstagsrunde"


def test_the_rescore_action_puts_a_tampered_score_right(staff: Client, match: Match) -> None:
    GameScore.objects.filter(game__match=match, seat=0).update(points=999)
    response = staff.post("/admin/matches/match/", {"action": "rescore", "_selected_action": [str(match.pk)]})
    assert response.status_code == 302
    assert GameScore.objects.get(game__match=match, seat=0).points == 24


def test_an_account_deleted_by_staff_goes_as_its_owner_deleting_it_would(staff: Client, match: Match) -> None:
    """Its matches go with its book, its player links end: never a book left behind without its account."""
    owner = match.keeper.user
    assert owner is not None
    page = staff.get(f"/admin/auth/user/{owner.pk}/delete/")
    assert page.status_code == 200
    assert staff.post(f"/admin/auth/user/{owner.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not User.objects.filter(pk=owner.pk).exists()
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Keeper.objects.filter(pk=match.keeper_id).exists()


def test_staff_delete_accounts_one_at_a_time(staff: Client) -> None:
    """Each is told apart: the one that alone runs something is refused with why, the others go."""
    answer = staff.get("/admin/auth/user/")
    assert answer.status_code == 200
    assert 'value="delete_selected"' not in answer.content.decode()
