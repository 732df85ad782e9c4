"""Accounts: logins refused after too many failures (pages and API), the limit on password-reset mails, deleting an
account with what it keeps, and expired sessions deleted by the site itself."""

import datetime
import time
import uuid
from importlib import import_module
from typing import Any

import pytest
from axes.exceptions import AxesBackendRequestParameterRequired
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import SESSION_KEY, authenticate
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.models import Session
from django.core import mail
from django.db import DatabaseError
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from knox.models import AuthToken
from rest_framework.test import APIClient

from matches.accounts_views import client_address
from matches.clubs import services as clubs
from matches.clubs.models import Membership
from matches.middleware import ExpiredSessionsMiddleware
from matches.models import Game, GameScore, Keeper, LoginFailure, Match, Player, ResetRequest
from matches.services import keeper_for, player_link

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-password-1"
GAME = {"contract": "clubs", "matadors": "1", "declarer": "1", "declarer_card_points": "70"}


def log_in(browser: Client, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return browser.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, follow=False
    )


def signed_in(browser: Client) -> bool:
    return SESSION_KEY in browser.session


# --- Login lockout -------------------------------------------------------------------------------------------------


def test_too_many_wrong_passwords_lock_the_login_even_for_the_right_one() -> None:
    make_user("anna")
    browser = Client()
    answers = [log_in(browser, "anna", f"wrong-{n}").status_code for n in range(settings.AXES_FAILURE_LIMIT)]

    locked = log_in(browser, "anna", PASSWORD)

    assert answers == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert locked["Retry-After"] == str(settings.AXES_COOLOFF_TIME.total_seconds().__int__())
    assert not signed_in(browser)


def test_failures_for_one_member_do_not_lock_another_out_from_the_same_address() -> None:
    make_user("anna")
    make_user("ben")
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(Client(), "anna", f"wrong-{n}", address="10.0.0.7")

    browser = Client()
    assert log_in(browser, "ben", PASSWORD, address="10.0.0.7").status_code == 302
    assert signed_in(browser)
    assert log_in(Client(), "anna", PASSWORD, address="10.0.0.7").status_code == 429


def test_failures_from_one_address_do_not_lock_the_member_out_from_another() -> None:
    make_user("anna")
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(Client(), "anna", f"wrong-{n}", address="10.0.0.1")

    browser = Client()
    assert log_in(browser, "anna", PASSWORD, address="10.9.9.9").status_code == 302
    assert signed_in(browser)


def test_many_failures_from_one_address_over_many_user_names_lock_that_address() -> None:
    make_user("ben")
    answers = [
        log_in(Client(), f"guess-{n}", "wrong", address="10.0.0.7").status_code
        for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT)
    ]

    browser = Client()
    assert answers == [200] * (settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1) + [429]
    assert log_in(browser, "ben", PASSWORD, address="10.0.0.7").status_code == 429
    assert log_in(browser, "ben", PASSWORD, address="10.0.0.8").status_code == 302
    assert signed_in(browser)


def test_the_address_ceiling_counts_only_the_last_hour() -> None:
    make_user("ben")
    for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1):
        log_in(Client(), f"guess-{n}", "wrong", address="10.0.0.7")
    LoginFailure.objects.update(created_at=timezone.now() - datetime.timedelta(hours=1, seconds=1))
    log_in(Client(), "guess-last", "wrong", address="10.0.0.7")

    assert log_in(Client(), "ben", PASSWORD, address="10.0.0.7").status_code == 302


def test_a_completed_password_reset_lifts_the_members_lock() -> None:
    anna = make_user("anna")
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(Client(), "anna", f"wrong-{n}")
    uid = urlsafe_base64_encode(force_bytes(anna.pk))
    token = default_token_generator.make_token(anna)
    browser = Client()
    form = browser.get(reverse("password_reset_confirm", args=[uid, token]), follow=True)
    new = "another-long-password-2"

    done = browser.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})

    assert done.status_code == 302
    assert log_in(Client(), "anna", new).status_code == 302


def test_the_lockout_ends_after_the_cool_off() -> None:
    make_user("anna")
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(Client(), "anna", f"wrong-{n}")
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - datetime.timedelta(1))

    browser = Client()
    assert log_in(browser, "anna", PASSWORD).status_code == 302
    assert signed_in(browser)


def test_a_successful_login_starts_the_count_afresh() -> None:
    make_user("anna")
    for _ in range(2):
        for n in range(settings.AXES_FAILURE_LIMIT - 1):
            assert log_in(Client(), "anna", f"wrong-{n}").status_code == 200
        assert log_in(Client(), "anna", PASSWORD).status_code == 302


def test_the_api_token_endpoint_is_locked_out_with_the_pages(api: APIClient) -> None:
    make_user("anna")
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(Client(), "anna", f"wrong-{n}", address="127.0.0.1")
    wrong = api.post("/api/v1/auth/token/", {"username": "anna", "password": "wrong"}, format="json")

    right = api.post("/api/v1/auth/token/", {"username": "anna", "password": PASSWORD}, format="json")

    assert wrong.status_code == 429
    assert right.status_code == 429
    assert right["Content-Type"] == "application/json"
    assert "Too many failed logins" in right.json()["detail"]
    assert int(right["Retry-After"]) > 0
    assert not AuthToken.objects.exists()


def test_the_api_counts_its_own_failures(api: APIClient) -> None:
    make_user("anna")
    answers = [
        api.post("/api/v1/auth/token/", {"username": "anna", "password": f"wrong-{n}"}, format="json").status_code
        for n in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert answers == [400] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    assert log_in(Client(), "anna", PASSWORD, address="127.0.0.1").status_code == 429


def test_authenticating_without_the_request_is_an_error_not_a_way_around_the_lockout() -> None:
    """The lockout needs the request to count; every view passes it (the test client's login must be given one)."""
    make_user("anna")
    with pytest.raises(AxesBackendRequestParameterRequired):
        authenticate(username="anna", password=PASSWORD)
    assert authenticate(HttpRequest(), username="anna", password=PASSWORD) is not None


@pytest.mark.parametrize(
    ("proxies", "forwarded", "counted"),
    [
        (0, "6.6.6.6", "10.0.0.1"),
        (1, "6.6.6.6, 203.0.113.9", "203.0.113.9"),
        (2, "6.6.6.6, 203.0.113.9, 10.1.1.1", "203.0.113.9"),
        (1, "", "10.0.0.1"),
    ],
    ids=["no-proxy-ignores-the-header", "one-proxy", "two-proxies", "one-proxy-no-header"],
)
def test_the_address_counted_is_the_one_the_proxies_saw(
    settings: Any, proxies: int, forwarded: str, counted: str
) -> None:
    settings.PROXY_COUNT = proxies
    request = HttpRequest()
    request.META = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": forwarded}
    assert client_address(request) == counted


# --- Password-reset mails ------------------------------------------------------------------------------------------


def ask_reset(browser: Client, email: str, address: str = "10.0.0.1") -> Any:
    return browser.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_reset_mails_for_one_address_are_limited_per_hour() -> None:
    User.objects.create_user("anna", "anna@example.org", PASSWORD)
    limit = settings.PASSWORD_RESET_MAILS_PER_HOUR
    answers = [ask_reset(Client(), "Anna@example.org", address=f"10.0.0.{n}").status_code for n in range(limit + 1)]

    assert answers == [302] * limit + [429]
    assert len(mail.outbox) == limit
    refused = ask_reset(Client(), "anna@example.org", address="10.0.1.1")
    assert "Too many reset links" in refused.content.decode()
    assert len(mail.outbox) == limit


def test_reset_requests_from_one_client_are_limited_per_hour() -> None:
    limit = settings.PASSWORD_RESET_REQUESTS_PER_HOUR
    answers = [ask_reset(Client(), f"nobody-{n}@example.org").status_code for n in range(limit + 1)]

    assert answers == [302] * limit + [429]
    assert ask_reset(Client(), "somebody@example.org", address="10.0.0.2").status_code == 302


def test_the_reset_limit_counts_only_the_last_hour_and_keeps_no_address() -> None:
    User.objects.create_user("anna", "anna@example.org", PASSWORD)
    for _ in range(settings.PASSWORD_RESET_MAILS_PER_HOUR):
        ask_reset(Client(), "anna@example.org")
    assert not ResetRequest.objects.filter(address__contains="anna").exists()
    ResetRequest.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=61))

    assert ask_reset(Client(), "anna@example.org").status_code == 302
    assert len(mail.outbox) == settings.PASSWORD_RESET_MAILS_PER_HOUR + 1


# --- Deleting an account -------------------------------------------------------------------------------------------


def session_of(user: User) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store.create()
    key: str | None = store.session_key
    assert key is not None
    return key


def delete_account(browser: Client, password: str = PASSWORD) -> Any:
    return browser.post(reverse("account_delete"), {"password": password})


def test_deleting_an_account_passes_shared_matches_on_and_takes_the_rest_along() -> None:
    anna, bert, cleo = make_user("anna"), make_user("bert"), make_user("cleo")
    shared = make_match(anna, names=("Anna", "Bert", "Kai"))
    for _ in range(3):
        add(shared, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    shared.scorers.add(bert)
    alone = make_match(anna, names=("Anna", "Lea", "Max"))
    add(alone, declarer=0, contract="spades", matadors=1, declarer_card_points=70)
    elsewhere = make_match(cleo, names=("Cleo", "Anna", "Ute"))
    linked = Player.objects.get(keeper__user=cleo, name="Anna")
    player_link(player=linked, account=anna)
    club = clubs.club_create(owner=cleo, name="Grand Hand")
    clubs.member_set(club=club, username="anna", role="member")
    AuthToken.objects.create(user=anna)
    other_phone = session_of(anna)
    totals = Match.objects.get(pk=shared.pk).totals
    browser = Client()
    browser.force_login(anna)

    response = delete_account(browser)

    assert response.status_code == 302
    assert not User.objects.filter(username="anna").exists()
    assert not signed_in(browser)
    shared.refresh_from_db()
    assert shared.keeper == keeper_for(bert)
    assert shared.totals == totals
    assert not shared.scorers.exists()
    assert {seat.player.keeper_id for seat in shared.seats.select_related("player")} == {shared.keeper_id}
    assert set(GameScore.objects.filter(game__match=shared).values_list("player__keeper", flat=True)) == {
        shared.keeper_id
    }
    assert not Match.objects.filter(pk=alone.pk).exists()
    assert not Game.objects.filter(match_id=alone.pk).exists()
    assert not Keeper.objects.filter(players__name="Lea").exists()
    assert Player.objects.get(pk=linked.pk).account is None
    assert Match.objects.filter(pk=elsewhere.pk).exists()
    assert not Membership.objects.filter(club=club).exclude(user=cleo).exists()
    assert not AuthToken.objects.exists()
    assert not Session.objects.filter(session_key=other_phone).exists()
    bert_browser = Client()
    bert_browser.force_login(bert)
    assert bert_browser.get(reverse("match_detail", args=[shared.public_id])).status_code == 200
    saved = bert_browser.post(reverse("game_create", args=[shared.public_id]), {"token": uuid.uuid4(), **GAME})
    assert saved.status_code == 302
    assert Game.objects.filter(match=shared).count() == 4


def test_a_passed_on_match_seats_the_co_scorers_own_player_of_that_name() -> None:
    anna, bert = make_user("anna"), make_user("bert")
    make_match(bert, names=("Bert", "Kai", "Ute"))
    shared = make_match(anna, names=("Anna", "Bert", "Kai"))
    add(shared, declarer=2, contract="grand", matadors=1, declarer_card_points=70)
    shared.scorers.add(bert)
    kai = Player.objects.get(keeper__user=bert, name="Kai")
    browser = Client()
    browser.force_login(anna)

    assert delete_account(browser).status_code == 302

    assert shared.seats.get(position=2).player == kai
    assert GameScore.objects.filter(game__match=shared, seat=2).values_list("player", flat=True).get() == kai.pk
    assert Player.objects.filter(keeper__user=bert).count() == 4


def test_the_delete_page_says_what_will_happen() -> None:
    anna, bert = make_user("anna"), make_user("bert")
    shared = make_match(anna, title="Friday table")
    shared.scorers.add(bert)
    make_match(anna, title="Solo evening")
    browser = Client()
    browser.force_login(anna)

    page = browser.get(reverse("account_delete")).content.decode()

    assert "Friday table: to bert" in page
    assert "Solo evening" in page
    assert 'name="password"' in page
    assert reverse("account_delete") in browser.get(reverse("account")).content.decode()


def test_the_delete_page_names_the_first_twenty_matches_and_counts_the_rest() -> None:
    anna = make_user("anna")
    for number in range(25):
        make_match(anna, title=f"Abend {number:02d}")
    browser = Client()
    browser.force_login(anna)

    page = browser.get(reverse("account_delete")).content.decode()

    assert "25 matches nobody else scores are deleted" in page
    assert sum(f"Abend {number:02d}" in page for number in range(25)) == 20
    assert "… and 5 more" in page


def test_a_wrong_password_deletes_nothing() -> None:
    anna = make_user("anna")
    make_match(anna)
    browser = Client()
    browser.force_login(anna)

    response = delete_account(browser, "not-my-password")

    assert response.status_code == 400
    assert "That is not your password." in response.content.decode()
    assert User.objects.filter(username="anna").exists()
    assert Match.objects.count() == 1


def test_the_last_owner_of_a_club_cannot_delete_the_account() -> None:
    anna = make_user("anna")
    club = clubs.club_create(owner=anna, name="Grand Hand")
    browser = Client()
    browser.force_login(anna)

    page = browser.get(reverse("account_delete"))
    refused = delete_account(browser)

    assert "You are the last owner of Grand Hand" in page.content.decode()
    assert 'name="password"' not in page.content.decode()
    assert refused.status_code == 409
    assert "You are the last owner of Grand Hand" in refused.content.decode()
    assert User.objects.filter(username="anna").exists()
    clubs.member_set(club=club, username=make_user("bert").username, role="owner")
    assert delete_account(browser).status_code == 302
    assert list(Membership.objects.filter(club=club).values_list("user__username", flat=True)) == ["bert"]


def test_the_delete_page_needs_an_account() -> None:
    response = Client().get(reverse("account_delete"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# --- Expired sessions ----------------------------------------------------------------------------------------------


def stored_session(expires: datetime.datetime) -> str:
    key = uuid.uuid4().hex
    Session.objects.create(session_key=key, session_data="", expire_date=expires)
    return key


def test_a_cleanup_the_database_refuses_waits_for_the_next_request(monkeypatch: pytest.MonkeyPatch) -> None:
    def away() -> None:
        raise DatabaseError("the database is away")

    monkeypatch.setattr(ExpiredSessionsMiddleware, "next_cleanup", 0.0)
    monkeypatch.setattr("matches.middleware.forget_expired", away)
    assert Client().get(reverse("health")).status_code == 200
    assert ExpiredSessionsMiddleware.next_cleanup <= time.monotonic()


def test_expired_sessions_are_deleted_by_the_site_once_a_day(monkeypatch: pytest.MonkeyPatch) -> None:
    now = 1000.0
    monkeypatch.setattr("matches.middleware.time.monotonic", lambda: now)
    monkeypatch.setattr(ExpiredSessionsMiddleware, "next_cleanup", 0.0)
    expired, current = (
        stored_session(timezone.now() - datetime.timedelta(1)),
        stored_session(timezone.now() + datetime.timedelta(1)),
    )

    Client().get(reverse("home"))
    assert set(Session.objects.values_list("session_key", flat=True)) >= {current}
    assert not Session.objects.filter(session_key=expired).exists()

    later = stored_session(timezone.now() - datetime.timedelta(1))
    now += settings.SESSION_CLEANUP_SECONDS - 1
    Client().get(reverse("home"))
    assert Session.objects.filter(session_key=later).exists()

    now += 1
    Client().get(reverse("home"))
    assert not Session.objects.filter(session_key=later).exists()
    assert Session.objects.filter(session_key=current).exists()
