"""Sharing a match: spectators page back through the list, a turned-off link says so, co-scorers can be removed."""

import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.models import Match
from matches.services import match_link_renew

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> User:
    return make_user("owner")


def long_match(owner: User, games: int) -> Match:
    match = make_match(owner)
    for number in range(games):
        add(match, declarer=number % 3, contract="clubs", matadors=1, declarer_card_points=70)
    match.refresh_from_db()
    return match


def test_a_spectator_pages_back_to_the_first_game(client: Client, owner: User) -> None:
    match = long_match(owner, 52)
    page = client.get(f"/watch/{match.share_token}/").content.decode()
    assert f'href="/watch/{match.share_token}/list/?upto=2"' in page
    earlier = client.get(f"/watch/{match.share_token}/list/?upto=2")
    assert earlier.status_code == 200
    html = earlier.content.decode()
    assert "<td>1</td>" in html
    assert "<td>2</td>" in html
    assert "<td>3</td>" not in html
    assert "/edit/" not in html
    assert f'href="/watch/{match.share_token}/list/?upto=52"' in html


def test_a_turned_off_link_tells_the_open_page_and_stops_its_polling(client: Client, owner: User) -> None:
    match = long_match(owner, 1)
    token = match.share_token
    match_link_renew(match=match, link="share", revoke=True)
    poll = client.get(f"/watch/{token}/?version=1", headers={"HX-Request": "true"})
    assert poll.status_code == 286
    assert "This spectators' link was turned off or renewed" in poll.content.decode()
    assert client.get(f"/watch/{token}/").status_code == 404


def test_the_owner_removes_a_co_scorer(client: Client, owner: User) -> None:
    match = make_match(owner)
    helper = make_user("helper")
    match.scorers.add(helper)
    client.force_login(owner)
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert "Remove helper" in page
    client.post(f"/matches/{match.public_id}/scorers/", {"scorer": "helper"})
    assert not match.scorers.filter(pk=helper.pk).exists()
    client.force_login(helper)
    assert client.get(f"/matches/{match.public_id}/").status_code == 404
    data = {"token": str(uuid.uuid4())}
    assert client.post(f"/matches/{match.public_id}/pass/", data).status_code == 404
