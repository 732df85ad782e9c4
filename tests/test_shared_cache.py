"""The public pages many people read at once (a group's table, a venue's page and screen, a tournament's live page, a
club's screen) are answered for a shared cache to a visitor without an account: public, for a few seconds, with an
ETag to ask again with, varying only on the language and on whether htmx asked. To a signed-in visitor the same page
(or to one with a session, a scoring link's) is theirs alone, and no answer that sets a cookie is ever marked for a
shared cache. (That no other page, to
anybody, is marked so is checked over every address by the persona matrix, ``tests/test_personas.py``.)"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils.cache import patch_cache_control

from matches.clubs import services as clubs
from matches.middleware import LeanHeadersMiddleware
from matches.screens import SHARED_SECONDS

from .factories import make_user
from .interclub_setup import league_setup
from .tournaments_setup import announce, enter_field

pytestmark = pytest.mark.django_db

SHARED = f"public, max-age=0, s-maxage={SHARED_SECONDS}"


def public_pages() -> tuple[dict[str, str], User]:
    """The addresses of every public page many read, and a signed-in member of the club who may read them too."""
    setup = league_setup(series=2)
    tournament = announce()
    enter_field(tournament, 9)
    club = clubs.club_screen_link(club=setup.clubs[0])
    pages = {
        "group": reverse("interclub_group", args=[setup.group.public_id]),
        "venue": reverse("interclub_venue", args=[setup.venue.public_id]),
        "venue screen": reverse("interclub_venue_screen", args=[setup.venue.public_id]),
        "tournament live": reverse("tournaments:live", args=[tournament.public_id]),
        "club screen": reverse("club_screen", args=[club.screen_token]),
    }
    return pages, setup.secretaries[0]


def test_a_public_page_is_answered_for_a_shared_cache_to_a_visitor_without_an_account() -> None:
    pages, _ = public_pages()
    for name, address in pages.items():
        for htmx in (False, True):
            visitor = Client()
            page = visitor.get(address, headers={"HX-Request": "true"} if htmx else {})
            assert page.status_code == 200, name
            assert page["Cache-Control"] == SHARED, name
            assert not page.cookies, name
            vary = {one.strip() for one in page.get("Vary", "").split(",")}
            assert "Accept-Language" in vary, name
            # Asked again after the seconds, with the ETag: nothing changed, nothing sent.
            assert "HX-Request" in vary, name
            again = visitor.get(
                address, headers={"If-None-Match": page["ETag"]} | ({"HX-Request": "true"} if htmx else {})
            )
            assert again.status_code == 304, name
            assert again["Cache-Control"] == SHARED, name


def test_the_same_page_to_a_signed_in_visitor_is_theirs_alone() -> None:
    pages, secretary = public_pages()
    member = Client()
    member.force_login(secretary)
    for name, address in pages.items():
        for htmx in (False, True):
            page = member.get(address, headers={"HX-Request": "true"} if htmx else {})
            assert page.status_code == 200, name
            assert "public" not in page["Cache-Control"], name
            assert "private" in page["Cache-Control"], name


def _through_the_stack(view: Callable[[HttpRequest], HttpResponse], request: HttpRequest) -> HttpResponse:
    return LeanHeadersMiddleware(view)(request)


def _public(request: HttpRequest) -> HttpResponse:
    response = HttpResponse("the group's table")
    patch_cache_control(response, public=True, max_age=0, s_maxage=SHARED_SECONDS)
    return response


def test_no_answer_that_sets_a_cookie_or_goes_to_a_signed_in_visitor_leaves_marked_for_a_shared_cache() -> None:
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    assert _through_the_stack(_public, request)["Cache-Control"] == SHARED

    def with_cookie(asked: HttpRequest) -> HttpResponse:
        response = _public(asked)
        response.set_cookie("csrftoken", "a-token")
        return response

    assert _through_the_stack(with_cookie, request)["Cache-Control"] == "private, no-cache"
    # A scoring link's rights live in a session: a visitor who holds one is somebody.
    request.COOKIES[settings.SESSION_COOKIE_NAME] = "a-session"
    assert _through_the_stack(_public, request)["Cache-Control"] == "private, no-cache"
    del request.COOKIES[settings.SESSION_COOKIE_NAME]
    request.user = make_user("anna")
    assert _through_the_stack(_public, request)["Cache-Control"] == "private, no-cache"
    # A static file, answered before anybody is known, stays everybody's.
    static = RequestFactory().get("/static/app.css")
    assert _through_the_stack(_public, static)["Cache-Control"] == SHARED
