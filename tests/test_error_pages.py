"""Every error page is a page of the site: its layout with the main landmark, in the visitor's language."""

from collections.abc import Callable

import pytest
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import bad_request, permission_denied, server_error

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
