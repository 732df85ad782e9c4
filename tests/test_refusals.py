"""Every page turns a refusal into words in one place (``matches/refusals.py``): next to the field it names, or above
the form or the page, in the reader's language and with the suits of the reader's deck."""

import ast
from pathlib import Path

import pytest
from django import forms
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpRequest
from django.test import RequestFactory

from matches.engine import FieldError, RuleError
from matches.engine.messages import gettext_noop, msg
from matches.models import Deck
from matches.preferences import DECK_SESSION_KEY
from matches.refusals import refusal_as_messages, refusal_on_form, refusal_texts

ROOT = Path(settings.BASE_DIR) / "matches"
SUIT = msg(gettext_noop("clubs"))


class Named(forms.Form):
    name = forms.CharField()
    player_0 = forms.CharField()


def _refusal() -> RuleError:
    return RuleError(
        [
            FieldError("name", msg(gettext_noop("This field is required."))),
            FieldError("players.0", SUIT),
            FieldError("match", msg(gettext_noop("This list is closed."))),
        ]
    )


def _request(deck: str = Deck.FRENCH) -> HttpRequest:
    request = RequestFactory().post("/")
    request.session = SessionStore()
    request.session[DECK_SESSION_KEY] = deck
    request.user = AnonymousUser()
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]  # as the messages middleware sets it
    return request


def test_each_problem_goes_next_to_the_field_it_names_and_the_rest_above_the_form() -> None:
    form = Named({"name": "Skatclub", "player_0": "Anna"})
    refusal_on_form(form, _refusal(), lambda field: field.replace("players.", "player_"))
    assert form.errors["name"] == ["This field is required."]
    assert form.errors["player_0"] == ["clubs"]
    assert form.non_field_errors() == ["This list is closed."]


def test_given_the_request_what_no_field_takes_goes_above_the_page_in_the_readers_deck() -> None:
    form, request = Named({"name": "Skatclub", "player_0": "Anna"}), _request(Deck.GERMAN)
    refusal_on_form(form, _refusal(), lambda field: "player_0" if field == "players.0" else None, request=request)
    assert form.errors["player_0"] == ["acorns"]
    assert "name" not in form.errors
    assert [str(message) for message in get_messages(request)] == ["This field is required.", "This list is closed."]


def test_a_refusal_as_messages_and_as_texts_reads_the_same() -> None:
    request = _request(Deck.GERMAN)
    refusal_as_messages(request, _refusal())
    assert [str(message) for message in get_messages(request)] == refusal_texts(_refusal(), request)
    assert refusal_texts(_refusal())[1] == "clubs"


@pytest.mark.parametrize("path", sorted(ROOT.rglob("*.py")), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_page_or_form_puts_a_refusal_into_words_itself(path: Path) -> None:
    """Outside the refusals module, the API (which answers field messages in a shape of its own, built in
    ``scoring.error_tree``) and the engine and the services (which make the refusals), nothing walks a refusal's
    problems to render them."""
    relative = path.relative_to(ROOT).as_posix()
    outside = ("api/", "engine/", "services/", "migrations/", "management/")
    if relative in ("refusals.py", "scoring.py") or relative.startswith(outside):
        return
    rendered = [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr == "message"
        and isinstance(node.value, ast.Name)
        and node.value.id == "problem"
    ]
    assert rendered == [], f"{relative} renders a refusal's problems itself (lines {rendered})"
