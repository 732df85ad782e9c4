"""The API's rates: a client that calls too often is answered 429 with Retry-After, by address without an account
and by account with one; the counts are kept in a table of the database, so they hold across workers and servers."""

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from scorekeeper.settings import env_rate

from .factories import make_user

pytestmark = pytest.mark.django_db

CALCULATE = {"variant": "skat", "game": {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}}
DATABASE_CACHE = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "api_rates"}}


@pytest.fixture
def two_a_minute() -> Iterator[None]:
    rest = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "2/minute", "user": "2/minute"}}
    with override_settings(REST_FRAMEWORK=rest):
        cache.clear()
        yield
        cache.clear()


def test_an_anonymous_client_calling_too_often_is_told_when_to_come_back(two_a_minute: None) -> None:
    client = APIClient()
    answers = [client.post("/api/v1/calculate/", CALCULATE, format="json") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert 0 < int(answers[2]["Retry-After"]) <= 60
    assert len(answers[2].content) < 200


def test_another_address_has_its_own_count(two_a_minute: None) -> None:
    client = APIClient()
    for _ in range(2):
        client.post("/api/v1/calculate/", CALCULATE, format="json")
    other = client.post("/api/v1/calculate/", CALCULATE, format="json", REMOTE_ADDR="192.0.2.7")
    assert other.status_code == 200


def test_a_client_naming_another_address_in_x_forwarded_for_is_still_counted(two_a_minute: None) -> None:
    client = APIClient()
    answers = [
        client.post("/api/v1/calculate/", CALCULATE, format="json", HTTP_X_FORWARDED_FOR=f"198.51.100.{number}")
        for number in range(3)
    ]
    assert answers[2].status_code == 429


def test_an_account_calling_too_often_is_told_when_to_come_back(two_a_minute: None) -> None:
    client = APIClient()
    client.force_authenticate(make_user("anna"))
    answers = [client.get("/api/v1/matches/") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert "Retry-After" in answers[2]


def test_the_counts_are_kept_in_a_table_of_the_database_that_every_worker_and_server_shares(
    two_a_minute: None,
) -> None:
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    client = APIClient()
    answers = [client.post("/api/v1/calculate/", CALCULATE, format="json") for _ in range(3)]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {settings.CACHES['default']['LOCATION']}")
        (kept,) = cursor.fetchone()
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert kept >= 1


def test_the_cache_is_a_setting_away(two_a_minute: None) -> None:
    with override_settings(CACHES=DATABASE_CACHE):
        call_command("createcachetable", verbosity=0)
        client = APIClient()
        answers = [client.post("/api/v1/calculate/", CALCULATE, format="json") for _ in range(3)]
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM api_rates")
            (kept,) = cursor.fetchone()
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert kept >= 1


def test_the_rates_are_on_by_default() -> None:
    assert env_rate("SCOREKEEPER_UNSET_RATE", "60/minute") == "60/minute"


@pytest.mark.parametrize("value", ["60", "sixty/minute", "60/fortnight", "/minute"])
def test_a_rate_that_is_no_rate_stops_the_process(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SCOREKEEPER_RATE", value)
    with pytest.raises(ImproperlyConfigured):
        env_rate("SCOREKEEPER_RATE", "60/minute")


def test_a_rate_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_RATE", "off")
    assert env_rate("SCOREKEEPER_RATE", "60/minute") is None
