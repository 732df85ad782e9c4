"""Text a player could type as a match's title or a name, meant as markup: it is shown as text everywhere a match is
drawn (the page, every part of a save's answer, what another phone's page follows, the spectators' page, the share
text), escaped once, never as markup and never dropped."""

import re
import uuid
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.models import Match

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

TITLE = '<script>alert("title")</script>'
NAMES = ("<script>alert(1)</script>", '"><img src=x onerror=alert(2)>', "{{ x }} &amp;", "O'Neil")
# Each as escaped text, as the page must hold it.
ESCAPED = (
    "&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;",
    "{{ x }} &amp;amp;",
    "O&#x27;Neil",
)
HTMX = {"HX-Request": "true"}


class _Parsed(HTMLParser):
    """A page as a browser reads it: its elements with their attributes, and its text."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def assert_no_markup(page: str) -> _Parsed:
    """Nothing hostile as markup, nothing escaped twice."""
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "O'Neil" not in page  # an apostrophe left as it is could end an attribute quoted with it
    assert re.search(r"\{\{ x \}\} &amp;(?!amp;)", page) is None  # the name's "&amp;" as typed, not as text
    for twice in ("&amp;lt;", "&amp;gt;", "&amp;quot;", "&amp;#x27;"):
        assert twice not in page
    parsed = _Parsed(page)
    for tag, attrs in parsed.elements:
        assert "onerror" not in attrs, tag
        assert not (tag == "img" and attrs.get("src") == "x")
    return parsed


def assert_shown_as_text(page: str) -> None:
    """The title and every name there, escaped once: read back by a browser, each is what was typed."""
    parsed = assert_no_markup(page)
    text = "".join(parsed.text)
    for typed, escaped in zip((TITLE, *NAMES), ESCAPED, strict=True):
        assert escaped in page, typed
        assert typed in text, typed


def share_texts(page: str) -> list[str]:
    """The share texts a page carries (what its share button sends), as a browser reads them."""
    return [str(attrs["data-share-text"]) for _, attrs in _Parsed(page).elements if "data-share-text" in attrs]


def assert_shares_every_name(page: str) -> None:
    shared = share_texts(page)
    assert shared
    for text in shared:
        assert text.startswith(TITLE + "\n")
        for name in NAMES:
            assert f". {name} " in text


@pytest.fixture
def owner() -> User:
    return make_user("owner")


@pytest.fixture
def match(owner: User) -> Match:
    return make_match(owner, names=NAMES, title=TITLE, rules={"bock": True}, planned_games=12)


def save(client: Client, match: Match, status: int = 200, **fields: Any) -> str:
    """A game saved as the scorer's phone saves it; its answer."""
    data = {"token": str(uuid.uuid4()), "matadors": "1", **fields}
    response = client.post(f"/matches/{match.public_id}/games/", data, headers=HTMX)
    assert response.status_code == status, response.content.decode()
    return response.content.decode()


def test_a_hostile_title_and_names_are_text_in_every_part_of_a_saves_answer(
    client: Client, owner: User, match: Match
) -> None:
    client.force_login(owner)
    # The first game's answer brings the whole sheet; a grand hand puts Bock on the next games.
    first = save(client, match, contract="grand", declarer="1", declarer_card_points="70", hand="on", number="1")
    assert_shown_as_text(first)
    assert "Game 1 saved: <strong>&quot;&gt;&lt;img src=x onerror=alert(2)&gt; +72</strong>" in first
    assert_shares_every_name(first)
    # Later games bring their row: its declarer, who dealt, the notice of who gained what, the next deal's sentence.
    second = save(client, match, contract="clubs", declarer="2", declarer_card_points="40", number="2")
    assert_shown_as_text(second)
    row = re.search(r'<tr id="game-.*?</tr>', second, re.DOTALL)
    assert row is not None
    assert "{{ x }} &amp;amp; · ♣ Clubs" in row[0]
    assert "dealt by &quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in row[0]
    assert "<strong>{{ x }} &amp;amp; −" in second
    assert "Game 3: {{ x }} &amp;amp; deals, O&#x27;Neil leads. {{ x }} &amp;amp; sits out." in second
    assert_shares_every_name(second)
    passed = client.post(f"/matches/{match.public_id}/pass/", {"token": str(uuid.uuid4()), "number": "3"}, headers=HTMX)
    assert passed.status_code == 200
    assert_shown_as_text(passed.content.decode())
    # A save against a deal another phone entered meanwhile is refused, with the match as it stands.
    refused = save(client, match, 409, contract="hearts", declarer="1", declarer_card_points="70", number="1")
    assert_shown_as_text(refused)


def test_a_hostile_title_and_names_are_text_on_the_match_page_and_what_follows_it(
    client: Client, owner: User, match: Match
) -> None:
    client.force_login(owner)
    url = f"/matches/{match.public_id}/"
    assert_shown_as_text(client.get(url).content.decode())
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    version = Match.objects.get(pk=match.pk).version
    add(match, declarer=2, contract="spades", matadors=1, declarer_card_points=40)
    page = client.get(url).content.decode()
    assert_shown_as_text(page)
    assert_shares_every_name(page)
    # Another phone's game: the row alone, and the whole sheet for a page too far behind.
    for shown in (version, 0):
        followed = client.get(f"{url}follow/", {"version": shown}, headers=HTMX)
        assert followed.status_code == 200
        assert_shown_as_text(followed.content.decode())
    # Undone: the page says which game went back, with its declarer's name.
    client.post(f"{url}undo/", {"token": str(uuid.uuid4())})
    undone = client.get(url).content.decode()
    assert_shown_as_text(undone)
    assert "Game 2 undone" in undone
    assert "{{ x }} &amp;amp;: ♠ Spades" in undone
    games = client.get(f"{url}list/")
    assert games.status_code == 200
    assert_shown_as_text(games.content.decode())
    shared = client.get(f"{url}share/").content.decode()
    assert_no_markup(shared)
    assert ESCAPED[0] in shared
    assert_shares_every_name(shared)  # the names are there only to be shared
    chart = client.get(f"{url}chart.svg").content.decode()
    assert_no_markup(chart)


def test_a_hostile_title_and_names_are_text_for_spectators(client: Client, match: Match) -> None:
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    version = Match.objects.get(pk=match.pk).version
    url = f"/watch/{match.share_token}/"
    assert_shown_as_text(client.get(url).content.decode())
    add(match, declarer=2, contract="spades", matadors=1, declarer_card_points=40)
    polled = client.get(url, {"version": version}, headers=HTMX)
    assert polled.status_code == 200
    assert_shown_as_text(polled.content.decode())
