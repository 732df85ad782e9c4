"""Every kind of event's page that makes something new (a club, a season, a league, a tournament) makes it once,
however often its form is sent: a double tap, a retry after a lost answer, a page the browser restores from its
history. The same form sent with other values is refused, never guessed at; sent again from the page that says so,
it makes another."""

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, models
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import Club, Season
from matches.interclub.models import League
from matches.models import KeptAnswer
from matches.tasks import ANSWERS_KEPT, forget_old_answers
from matches.tournaments.models import Tournament

from .factories import make_user
from .test_clubs_pages import SEASON_FORM
from .test_interclub_pages import LEAGUE_FORM
from .test_tournaments_pages import ANNOUNCED


@dataclass(frozen=True)
class Kind:
    model: type[models.Model]
    address: Callable[[User], str]
    form: dict[str, str]
    made: Callable[[User], models.QuerySet[Any]]


def _season_address(owner: User) -> str:
    club = Club.objects.filter(memberships__user=owner).first() or clubs.club_create(owner=owner, name="Grand Hand")
    return reverse("season_new", args=[club.public_id])


KINDS = {
    "club": Kind(
        Club, lambda _: reverse("club_list"), {"name": "Skatclub Herz Dame"}, lambda owner: Club.objects.all()
    ),
    "season": Kind(
        Season, _season_address, SEASON_FORM, lambda owner: Season.objects.filter(club__memberships__user=owner)
    ),
    "league": Kind(League, lambda _: reverse("interclub_leagues"), LEAGUE_FORM, lambda owner: League.objects.all()),
    "tournament": Kind(
        Tournament, lambda _: reverse("tournaments:new"), ANNOUNCED, lambda owner: Tournament.objects.all()
    ),
}

TOKEN = re.compile(r'<input type="hidden" name="once" value="([0-9a-f-]{36})"')


def _token(page: Any) -> str:
    found = TOKEN.findall(page.content.decode())
    assert len(found) == 1, page.content.decode()[:2000]
    token: str = found[0]
    return token


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS.values(), ids=KINDS.keys())
def test_a_form_sent_twice_makes_one_and_both_answers_lead_to_it(kind: Kind) -> None:
    owner = make_user("owner")
    client, address = _signed_in(owner), kind.address(owner)
    sent = kind.form | {"once": _token(client.get(address))}
    first = client.post(address, sent)
    again = client.post(address, sent)
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert kind.made(owner).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS.values(), ids=KINDS.keys())
def test_a_form_sent_again_with_other_values_is_refused_and_its_page_makes_another(kind: Kind) -> None:
    owner = make_user("owner")
    client, address = _signed_in(owner), kind.address(owner)
    token = _token(client.get(address))
    assert client.post(address, kind.form | {"once": token}).status_code == 302
    changed = kind.form | {"name": "Herbst 2026", "once": token}
    refused = client.post(address, changed)
    assert refused.status_code == 400
    assert "This form was saved already, with other values." in refused.content.decode()
    assert kind.made(owner).count() == 1
    renewed = _token(refused)
    assert renewed != token
    assert client.post(address, changed | {"once": renewed}).status_code == 302
    assert sorted(kind.made(owner).values_list("name", flat=True)) == sorted([kind.form["name"], "Herbst 2026"])


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS.values(), ids=KINDS.keys())
def test_a_form_refused_for_a_wrong_value_and_corrected_makes_one(kind: Kind) -> None:
    owner = make_user("owner")
    client, address = _signed_in(owner), kind.address(owner)
    token = _token(client.get(address))
    refused = client.post(address, kind.form | {"name": "", "once": token})
    assert refused.status_code == 400
    assert client.post(address, kind.form | {"once": _token(refused)}).status_code == 302
    assert kind.made(owner).count() == 1


@pytest.mark.django_db
def test_one_token_sent_by_two_accounts_makes_one_for_each() -> None:
    first, second = make_user("first"), make_user("second")
    token = _token(_signed_in(first).get(reverse("club_list")))
    for owner in (first, second):
        assert _signed_in(owner).post(reverse("club_list"), {"name": "Grand Hand", "once": token}).status_code == 302
    assert Club.objects.filter(name="Grand Hand").count() == 2


@pytest.mark.django_db
def test_a_form_sent_again_after_its_answer_is_forgotten_is_refused_not_made_again() -> None:
    owner = make_user("owner")
    client = _signed_in(owner)
    sent = {"name": "Grand Hand", "once": _token(client.get(reverse("club_list")))}
    assert client.post(reverse("club_list"), sent).status_code == 302
    KeptAnswer.objects.update(created_at=models.F("created_at") - ANSWERS_KEPT - ANSWERS_KEPT)
    forget_old_answers()
    refused = client.post(reverse("club_list"), sent)
    assert refused.status_code == 400
    assert "This form was saved already" in refused.content.decode()
    assert Club.objects.count() == 1


@pytest.mark.django_db
def test_a_form_sent_again_after_what_it_made_was_deleted_says_so() -> None:
    owner = make_user("owner")
    client = _signed_in(owner)
    sent = {"name": "Grand Hand", "once": _token(client.get(reverse("club_list")))}
    assert client.post(reverse("club_list"), sent).status_code == 302
    Club.objects.all().delete()
    refused = client.post(reverse("club_list"), sent)
    assert refused.status_code == 400
    assert "what it made was deleted since" in refused.content.decode()
    assert not Club.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_one_form_sent_twice_at_once_makes_one() -> None:
    owner = make_user("owner")
    token = _token(_signed_in(owner).get(reverse("club_list")))
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def send() -> None:
        try:
            barrier.wait(timeout=10)
            answers.append(
                _signed_in(owner).post(reverse("club_list"), {"name": "Grand Hand", "once": token}).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert answers == [302, 302]
    assert Club.objects.count() == 1
