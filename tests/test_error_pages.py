"""Every error page is a page of the site: its layout with the main landmark, in the visitor's language. Under the
API's addresses an address that names nothing is the API's JSON 404, and none is redirected to add its slash."""

import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.utils import translation
from django.views.defaults import bad_request, permission_denied, server_error
from knox.models import AuthToken

from matches.models import Match

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


def _is_a_page_of_the_site(html: str) -> None:
    assert html.startswith("<!doctype html>")
    assert "<main>" in html
    assert '<header class="top">' in html
    assert '<footer class="bottom">' in html


@pytest.mark.parametrize(
    ("language", "heading", "home"),
    [("en", "Page not found", "Back to the matches"), ("de", "Seite nicht gefunden", "Zurück zu den Partien")],
)
def test_the_not_found_page_is_a_page_of_the_site(client: Client, language: str, heading: str, home: str) -> None:
    response = client.get("/no-such-page/", headers={"Accept-Language": language})
    assert response.status_code == 404
    html = response.content.decode()
    _is_a_page_of_the_site(html)
    assert f'<html lang="{language}">' in html
    assert f"<h1>{heading}</h1>" in html
    assert f'<a href="/">{home}</a>' in html


def test_a_refused_form_is_a_page_of_the_site(client: Client) -> None:
    guarded = Client(enforce_csrf_checks=True)
    response = guarded.post("/accounts/login/", {"username": "x"}, headers={"Accept-Language": "de"})
    assert response.status_code == 403
    html = response.content.decode()
    _is_a_page_of_the_site(html)
    assert "<h1>Formular abgelaufen</h1>" in html


def test_a_request_for_another_host_is_a_page_of_the_site() -> None:
    browser = Client(raise_request_exception=False)
    response = browser.get("/", headers={"Host": "elsewhere.example", "Accept-Language": "de"})
    assert response.status_code == 400
    html = response.content.decode()
    _is_a_page_of_the_site(html)
    assert "<h1>Ungültige Anfrage</h1>" in html


HANDLERS: dict[str, tuple[Callable[[HttpRequest], HttpResponse], int, str]] = {
    "forbidden": (lambda request: permission_denied(request, PermissionDenied()), 403, "Kein Zugriff"),
    "bad request": (lambda request: bad_request(request, ValueError()), 400, "Ungültige Anfrage"),
    "server error": (server_error, 500, "Etwas ist schiefgegangen"),
}


@pytest.mark.parametrize("name", HANDLERS)
def test_each_error_handler_answers_with_a_page_of_the_site_in_the_visitors_language(name: str) -> None:
    handler, status, heading = HANDLERS[name]
    request = RequestFactory().get("/somewhere/")
    with translation.override("de"):
        response = handler(request)
    assert response.status_code == status
    html = response.content.decode()
    _is_a_page_of_the_site(html)
    assert '<html lang="de">' in html
    assert f"<h1>{heading}</h1>" in html


def test_logging_in_from_an_address_that_names_no_page_leads_to_the_usual_place(client: Client) -> None:
    html = client.get("/no-such-page/").content.decode()
    assert '<a href="/accounts/login/">Log in</a>' in html


# --- The API's addresses -------------------------------------------------------------------------------------------

NOT_FOUND = {"en": {"detail": "Not found."}, "de": {"detail": "Nicht gefunden."}}


def _token_client() -> Client:
    """A script's client, with a token of an account that keeps a match; a server error is answered, not raised."""
    owner = make_user("olga")
    make_match(owner)
    token = AuthToken.objects.create(owner)[1]
    return Client(raise_request_exception=False, headers={"Authorization": f"Token {token}"})


CHANGES_WITHOUT_THE_SLASH: dict[str, tuple[str, str, dict[str, Any]]] = {
    "a match started": ("POST", "/api/v1/matches", {"variant": "skat", "players": ["Anna", "Ben", "Cleo"]}),
    "a game calculated": ("POST", "/api/v1/calculate", {"variant": "skat", "game": {"contract": "grand"}}),
    "a game fixed": ("PUT", "/api/v1/matches/{match}/games/{game}", {"declarer": 0, "game": {"contract": "grand"}}),
    "a match patched": ("PATCH", "/api/v1/matches/{match}", {}),
    "a game deleted": ("DELETE", "/api/v1/matches/{match}/games/{game}", {}),
}


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
@pytest.mark.parametrize("change", CHANGES_WITHOUT_THE_SLASH)
def test_a_change_to_an_api_address_without_its_slash_is_a_404_never_a_redirect(debug: bool, change: str) -> None:
    """Followed as a GET, a redirect would read the list and look like success while nothing was changed; with DEBUG
    on, Django would not redirect a change at all but fail with a server error."""
    method, address, body = CHANGES_WITHOUT_THE_SLASH[change]
    api = _token_client()
    match = Match.objects.get()
    game = add(match, contract="clubs", matadors=1, declarer_card_points=70)
    version = Match.objects.get().version
    address = address.format(match=match.public_id, game=game.public_id)
    with override_settings(DEBUG=debug):
        response = api.generic(method, address, json.dumps(body), content_type="application/json")
    assert response.status_code == 404, response.content[:300]
    assert "Location" not in response
    assert Match.objects.get().version == version
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    "address",
    ["/api/v1/matches", "/api/v1/calculate", "/api/v1/matches/not-a-uuid/", "/api/v1/nonexistent/", "/api/v2/"],
)
@pytest.mark.parametrize("language", NOT_FOUND)
def test_an_api_address_that_names_nothing_is_the_apis_json_404(address: str, language: str) -> None:
    api = _token_client()
    for method in ("GET", "POST"):
        with override_settings(DEBUG=False):
            response = api.generic(
                method, address, "{}", content_type="application/json", headers={"Accept-Language": language}
            )
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json() == NOT_FOUND[language]


@pytest.mark.parametrize("address", ["/api/v1/nonexistent/", "/api/v1/matches/not-a-uuid/", "/api/v2/"])
def test_an_api_address_that_names_nothing_is_the_apis_json_404_with_debug_on_too(address: str) -> None:
    """An engineer trying the API on ``make run`` (DEBUG on) gets the answer a script gets, not Django's HTML."""
    with override_settings(DEBUG=True):
        response = _token_client().get(address, headers={"Accept-Language": "de"})
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == NOT_FOUND["de"]


@pytest.mark.parametrize("language", NOT_FOUND)
def test_another_accounts_match_is_not_there_in_the_askers_language(language: str) -> None:
    api = _token_client()
    stranger = make_match(make_user("mallory"))
    token = AuthToken.objects.create(make_user("ben"))[1]
    headers = {"Accept-Language": language}
    for client in (api, Client(headers={"Authorization": f"Token {token}"})):
        response = client.get(f"/api/v1/matches/{stranger.public_id}/", headers=headers)
        assert response.status_code == 404
        assert response.json() == NOT_FOUND[language]
    anybody = Client().get(f"/api/v1/matches/{stranger.public_id}/", headers=headers)
    assert anybody.status_code == 401
    assert (
        anybody.json()
        == {
            "en": {"detail": "Authentication credentials were not provided."},
            "de": {"detail": "Anmeldedaten fehlen."},
        }[language]
    )


def test_the_apis_json_404_is_worded_as_its_views_answer_a_thing_not_there() -> None:
    api = _token_client()
    with override_settings(DEBUG=False):
        missing_game = api.get(f"/api/v1/matches/{Match.objects.get().public_id}/games/{uuid.uuid4()}/")
        no_address = api.get("/api/v1/nonexistent/")
    assert missing_game.status_code == no_address.status_code == 404
    assert missing_game["Content-Type"] == no_address["Content-Type"]
    assert missing_game.json() == no_address.json()


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_a_page_without_its_slash_is_still_redirected_to_it(client: Client, debug: bool) -> None:
    with override_settings(DEBUG=debug):
        response = client.get("/accounts/login")
    assert response.status_code == 301
    assert response["Location"] == "/accounts/login/"


def test_a_page_that_names_nothing_is_still_a_page_of_the_site_with_debug_off(client: Client) -> None:
    with override_settings(DEBUG=False):
        response = client.get("/apiary/", headers={"Accept-Language": "de"})
    assert response.status_code == 404
    html = response.content.decode()
    _is_a_page_of_the_site(html)
    assert "<h1>Seite nicht gefunden</h1>" in html
