"""The middleware's lighter ways keep what they did: messages wait for the page that shows them, and the language
comes from the cookie or the browser's Accept-Language, said on every answer."""

import html
import io
import uuid

import pytest
from django.conf import settings
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from matches.tournaments import services as tournaments

from .factories import make_match, make_user
from .tournaments_setup import announce, enter_field

pytestmark = pytest.mark.django_db


def test_a_request_that_adds_or_reads_no_message_makes_no_message_storage(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[HttpRequest] = []

    def counted(request: HttpRequest) -> object:
        made.append(request)
        return default_storage(request)

    monkeypatch.setattr("matches.middleware.default_storage", counted)
    owner = make_user("olga")
    browser = Client()
    browser.force_login(owner)
    assert browser.get(reverse("health")).status_code == 200
    assert made == []
    assert browser.get(reverse("match_detail", args=[make_match(owner).public_id])).status_code == 200
    assert len(made) == 1


def test_a_message_waits_through_answers_that_do_not_show_it_for_the_page_that_does() -> None:
    owner = make_user("olga")
    match = make_match(owner)
    browser = Client()
    browser.force_login(owner)
    undone = browser.post(reverse("match_undo", args=[match.public_id]), {"token": str(uuid.uuid4())})
    assert undone.status_code == 302

    browser.get(reverse("health"))
    browser.get(
        reverse("match_spectate", args=[match.share_token]) + f"?version={match.version}", HTTP_HX_REQUEST="true"
    )
    page = browser.get(reverse("match_detail", args=[match.public_id])).content.decode()
    again = browser.get(reverse("match_detail", args=[match.public_id])).content.decode()

    assert page.count("Nothing to undo.") == 1
    assert "Nothing to undo." not in again


def test_a_waiting_message_is_shown_in_a_saves_answer_once() -> None:
    """A save's answer (htmx) writes the notice with the messages that wait, and the page after it does not repeat
    them."""
    owner = make_user("olga")
    match = make_match(owner)
    browser = Client()
    browser.force_login(owner)
    browser.post(reverse("match_undo", args=[match.public_id]), {"token": str(uuid.uuid4())})

    entry = {"token": str(uuid.uuid4()), "contract": "clubs", "declarer": "1", "matadors": "-2", "outcome": "won"}
    saved = browser.post(reverse("game_create", args=[match.public_id]), entry, headers={"HX-Request": "true"})
    page = browser.get(reverse("match_detail", args=[match.public_id])).content.decode()

    assert saved.status_code == 200
    assert '<ul class="messages" role="status"><li class="info">Nothing to undo.</li></ul>' in saved.content.decode()
    assert "Nothing to undo." not in page


def test_the_language_comes_from_the_browser_and_the_answer_says_which_and_that_it_varies() -> None:
    german = Client().get(reverse("login"), headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"})
    assert german["Content-Language"] == "de"
    assert "Accept-Language" in german["Vary"]
    assert "Anmelden" in german.content.decode()

    english = Client().get(reverse("login"), headers={"Accept-Language": "en-US,en;q=0.9"})
    assert english["Content-Language"] == "en"
    british = Client().get(reverse("login"), headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert british["Content-Language"] == "en-gb"
    assert "Log in" in british.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "page", "printed"),
    [
        ("en-US,en;q=0.9", "Dec. 5, 2026", "12/05/2026"),
        ("en-GB,en;q=0.9", "5 Dec 2026", "05/12/2026"),
        ("de-DE,de;q=0.9", "5. Dezember 2026", "05.12.2026"),
    ],
)
def test_dates_are_written_as_the_readers_locale_writes_them_on_pages_and_in_print(
    accept: str, page: str, printed: str
) -> None:
    tournament = announce()
    headers = {"Accept-Language": accept}
    shown = Client().get(reverse("tournaments:detail", args=[tournament.public_id]), headers=headers)
    assert page in html.unescape(shown.content.decode())
    enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1)
    assert tournament.organiser is not None
    organiser = Client()
    organiser.force_login(tournament.organiser)
    cards = organiser.get(reverse("tournament_table_cards", args=[tournament.public_id, 1]), headers=headers)
    first = PdfReader(io.BytesIO(cards.content)).pages[0].extract_text()
    assert printed in first


def test_a_language_chosen_on_the_site_beats_the_browsers() -> None:
    browser = Client()
    browser.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = browser.get(reverse("login"), headers={"Accept-Language": "en"})
    assert response["Content-Language"] == "de"
