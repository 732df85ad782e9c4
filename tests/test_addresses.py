"""The addresses a save's answer and the score sheet draw, written from patterns reversed once: the same as reversing
them each time, under whatever URL configuration, script prefix and language are in force."""

import uuid

import pytest
from django.conf.urls.i18n import i18n_patterns
from django.http import HttpRequest, HttpResponse
from django.test import override_settings
from django.urls import NoReverseMatch, clear_script_prefix, path, reverse, set_script_prefix
from django.utils import translation

from matches.addresses import address

MATCH = uuid.uuid4()
GAME = uuid.uuid4()


def _page(request: HttpRequest, match_id: uuid.UUID) -> HttpResponse:
    return HttpResponse()


# Addresses that start with the language, for the test of the language: the project's own do not.
urlpatterns = i18n_patterns(path("page/<uuid:match_id>/", _page, name="page_in_language"))


@pytest.mark.parametrize(
    ("name", "ids"),
    [
        ("match_detail", (MATCH,)),
        ("game_pass", (MATCH,)),
        ("match_follow", (MATCH,)),
        ("game_edit", (MATCH, GAME)),
        ("game_delete", (MATCH, GAME)),
    ],
)
def test_an_address_is_what_reversing_it_gives(name: str, ids: tuple[uuid.UUID, ...]) -> None:
    assert address(name, *ids) == reverse(name, args=ids)


def test_each_id_goes_to_its_own_place() -> None:
    assert address("game_edit", MATCH, GAME) == f"/matches/{MATCH}/games/{GAME}/edit/"
    assert address("game_edit", GAME, MATCH) == f"/matches/{GAME}/games/{MATCH}/edit/"


def test_an_address_follows_the_script_prefix() -> None:
    address("game_pass", MATCH)
    set_script_prefix("/skat/")
    try:
        assert address("game_pass", MATCH) == f"/skat/matches/{MATCH}/pass/"
    finally:
        clear_script_prefix()
    assert address("game_pass", MATCH) == f"/matches/{MATCH}/pass/"


def test_an_address_follows_the_url_configuration() -> None:
    with override_settings(ROOT_URLCONF="bench.urls"):
        assert address("bench_bare") == reverse("bench_bare")
    with pytest.raises(NoReverseMatch):
        address("bench_bare")


@override_settings(ROOT_URLCONF=__name__)
def test_an_address_is_kept_per_language() -> None:
    with translation.override("de"):
        assert address("page_in_language", MATCH) == f"/de/page/{MATCH}/"
    with translation.override("en"):
        assert address("page_in_language", MATCH) == f"/en/page/{MATCH}/"


def test_only_ids_go_into_an_address() -> None:
    with pytest.raises(TypeError, match="not an id"):
        address("match_spectate", "a b/c")  # type: ignore[arg-type]
    # A view taking a number where the stand-in for an id stood refuses the address, as reverse would.
    with pytest.raises(NoReverseMatch):
        address("interclub_paper", MATCH, GAME)
    with pytest.raises(ValueError, match="at most"):
        address("game_edit", MATCH, GAME, MATCH, GAME)
