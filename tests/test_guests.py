"""Keeping score without an account: a guest's matches belong to the browser until its user signs up or logs in,
and then to the account, with everything in them."""

import html
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.models import Game, GameScore, Keeper, Match, Player
from matches.services import guest_keeper, keeper_claim, match_create, match_links_claim

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-secret-7"
ISKO = {
    "preset": "skat-isko",
    "scheme": "standard",
    "player_0": "Anna",
    "player_1": "Ben",
    "player_2": "Cleo",
    "player_3": "",
    "first_dealer": "0",
}


def _start_as_guest(client: Client) -> Match:
    response = client.post("/matches/new/", {**ISKO, "token": str(uuid.uuid4())})
    assert response.status_code == 302
    return Match.objects.latest("pk")


def _game(number: int) -> dict[str, Any]:
    return {"token": str(uuid.uuid4()), "number": str(number), "contract": "clubs", "declarer": "1"} | {
        "matadors": "1",
        "outcome": "won",
    }


def test_a_guest_starts_a_match_scores_it_and_sees_it_at_home(client: Client) -> None:
    assert client.get("/matches/new/?preset=skat-isko").status_code == 200
    match = _start_as_guest(client)
    assert match.keeper.user is None
    assert match.keeper.guest_key is not None
    assert client.post(f"/matches/{match.public_id}/games/", _game(1)).status_code == 302
    home = client.get("/").content.decode()
    assert f"/matches/{match.public_id}/" in home
    assert "These matches are kept in this browser only." in home
    assert Client().get(f"/matches/{match.public_id}/").status_code == 302  # another browser is sent to log in


def test_a_second_match_of_the_guest_goes_into_the_same_book(client: Client) -> None:
    first, second = _start_as_guest(client), _start_as_guest(client)
    assert first.keeper_id == second.keeper_id
    assert Player.objects.filter(keeper=first.keeper).count() == 3


def test_signing_up_makes_the_guests_matches_the_accounts(client: Client) -> None:
    match = _start_as_guest(client)
    for number in range(1, 6):
        assert client.post(f"/matches/{match.public_id}/games/", _game(number)).status_code == 302
    signup = {"username": "dora", "email": "", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", signup).status_code == 302
    dora = User.objects.get(username="dora")
    match.refresh_from_db()
    assert match.keeper.user == dora
    assert match.keeper.guest_key is None
    assert match.created_by == dora
    assert f"/matches/{match.public_id}/" in client.get("/").content.decode()
    assert Game.objects.filter(match=match, deleted=False).count() == 5


def test_logging_in_merges_the_guests_book_into_the_accounts(client: Client) -> None:
    dora = make_user("dora")
    kept = make_match(dora)
    add(kept, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    match = _start_as_guest(client)
    client.post(f"/matches/{match.public_id}/games/", _game(1))
    response = client.post("/accounts/login/", {"username": "dora", "password": "a-long-enough-password-1"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.keeper == Keeper.objects.get(user=dora)
    assert not Keeper.objects.filter(guest_key__isnull=False).exists()
    # One Anna, one Ben, one Cleo in Dora's book, with the scores of both matches.
    assert sorted(Player.objects.filter(keeper__user=dora).values_list("name", flat=True)) == ["Anna", "Ben", "Cleo"]
    ben = Player.objects.get(keeper__user=dora, name="Ben")
    assert GameScore.objects.filter(player=ben).count() == 2
    home = client.get("/").content.decode()
    assert f"/matches/{match.public_id}/" in home
    assert f"/matches/{kept.public_id}/" in home


def test_a_claim_without_a_guests_book_changes_nothing() -> None:
    dora = make_user("dora")
    assert keeper_claim(key=None, user=dora) is None
    assert keeper_claim(key=str(uuid.uuid4()), user=dora) is None


def test_a_guests_book_of_an_account_is_nobody_elses() -> None:
    dora = make_user("dora")
    book = guest_keeper(None)
    match_create(owner=None, keeper=book, variant="skat", scheme="standard", rules={}, player_names=["A", "B", "C"])
    keeper_claim(key=str(book.guest_key), user=dora)
    assert guest_keeper(str(book.guest_key)).pk != book.pk


def test_invite_links_held_without_an_account_make_a_co_scorer(client: Client) -> None:
    owner = make_user("owner")
    match = make_match(owner)
    match.refresh_from_db()
    join = f"/join/{match.invite_token}/"
    assert client.post(join).status_code == 302
    assert client.get(f"/matches/{match.public_id}/").status_code == 200
    signup = {"username": "erik", "email": "", "password1": PASSWORD, "password2": PASSWORD}
    client.post(f"/accounts/signup/?next={join}", signup)
    assert match.scorers.filter(username="erik").exists()
    assert f"/matches/{match.public_id}/" in client.get("/").content.decode()


def test_a_renewed_invite_link_claims_nothing() -> None:
    owner, erik = make_user("owner"), make_user("erik")
    match = make_match(owner)
    match_links_claim(links={str(match.public_id): "an-old-token"}, user=erik)
    assert not match.scorers.exists()


def test_a_retried_start_finds_the_guests_first_match_and_book(client: Client) -> None:
    data = {**ISKO, "token": str(uuid.uuid4())}
    assert client.post("/matches/new/", data).status_code == 302
    match = Match.objects.get()
    other = Client()  # the first answer, with the session cookie, was lost on the way
    response = other.post("/matches/new/", data)
    assert response["Location"] == f"/matches/{match.public_id}/"
    assert other.get(response["Location"]).status_code == 200
    assert Keeper.objects.count() == 1


def test_a_refused_start_leaves_no_guests_book(client: Client) -> None:
    response = client.post("/matches/new/", {**ISKO, "player_1": "Anna", "token": str(uuid.uuid4())})
    assert response.status_code == 400
    assert not Keeper.objects.exists()


def _link(page: str, text: str) -> str:
    found = re.search(rf'<a href="([^"]*)">{text}</a>', page)
    assert found is not None, text
    return html.unescape(found.group(1))


def test_signing_up_mid_match_lands_on_the_match_and_says_it_was_kept(client: Client) -> None:
    match = _start_as_guest(client)
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    signup = {"username": "dora", "email": "", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(_link(page, "Sign up"), signup, follow=True)
    assert response.redirect_chain[-1][0] == f"/matches/{match.public_id}/"
    assert "The match started in this browser is kept in your account." in response.content.decode()


def test_logging_in_mid_match_lands_on_the_match_and_says_how_many_were_kept(client: Client) -> None:
    make_user("dora")
    first, match = _start_as_guest(client), _start_as_guest(client)
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    login_page = client.get(_link(page, "Log in")).content.decode()
    target = re.search(r'name="next" value="([^"]*)"', login_page)
    assert target is not None
    credentials = {"username": "dora", "password": "a-long-enough-password-1", "next": html.unescape(target.group(1))}
    response = client.post("/accounts/login/", credentials, follow=True)
    assert response.redirect_chain[-1][0] == f"/matches/{match.public_id}/"
    assert "The 2 matches started in this browser are kept in your account." in response.content.decode()
    assert first.public_id != match.public_id


def test_signing_up_without_a_guests_book_says_nothing_was_kept(client: Client) -> None:
    signup = {"username": "dora", "email": "", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", signup, follow=True)
    assert "kept in your account" not in response.content.decode()
