"""The same input gets the same answer on the page and in the API: a name with a character that could not be read
(bytes that are not UTF-8, or U+FFFD itself) and a number written with other digits than 0 to 9 (Arabic-Indic,
fullwidth, "4_8") are refused on both, each next to its field (page) or named by its field (API)."""

import json
import uuid
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from matches.models import Game, Match
from matches.numbers import NotAWholeNumber, whole_number

from .factories import make_match, make_user

pytestmark = pytest.mark.django_db

NEW_MATCH = {
    "preset": "skat-isko",
    "scheme": "standard",
    "first_dealer": "0",
    "rule_ramsch_loss": "card-points",
    "rule_ramsch_fixed_loss": "10",
    "rule_lost_hand": "double",
    "player_0": "Anna",
    "player_1": "Ben",
    "player_2": "Cleo",
}
UNREADABLE = "A character here could not be read (shown as \N{REPLACEMENT CHARACTER}): type it again."
NOT_A_WHOLE_NUMBER = "Enter a whole number, with the digits 0 to 9."
# The bytes of a name as a client sends them: not UTF-8 ("Anna" and a stray byte), and UTF-8 for U+FFFD itself.
BAD_NAMES = {"not UTF-8": b"Anna\xff", "the replacement character": "Anna\N{REPLACEMENT CHARACTER}".encode()}
# Digits Python's int() reads as 48 that no JSON number is written with.
BAD_NUMBERS = ["\u0664\u0668", "\uff14\uff18", "4_8"]


@pytest.fixture
def owner() -> User:
    return make_user("owner")


@pytest.fixture
def page(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


@pytest.fixture
def api(owner: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


def field_error(response: Any, field: str) -> str:
    """The message shown next to the form field ``field``."""
    html: str = response.content.decode()
    start = html.index(f'id="id_{field}_error">') + len(f'id="id_{field}_error">')
    return html[start : html.index("</p>", start)]


def posted_form(client: Client, address: str, fields: dict[str, str], raw: dict[str, bytes]) -> Any:
    """A form post as a browser encodes it, with the ``raw`` fields' bytes percent-encoded as they are."""
    body = "&".join([urlencode(fields), *(f"{name}={quote(value)}" for name, value in raw.items())])
    return client.post(address, body, content_type="application/x-www-form-urlencoded")


def posted_json(client: Any, address: str, body: dict[str, Any], raw: bytes) -> Any:
    """A JSON body whose ``"RAW"`` string is replaced by ``raw``'s bytes as they are."""
    encoded = json.dumps(body, ensure_ascii=False).encode().replace(b"RAW", raw)
    return client.generic("POST", address, encoded, content_type="application/json")


# --- Names ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_name_that_could_not_be_read_is_refused_on_the_new_match_page(page: Client, name: str) -> None:
    fields = {key: value for key, value in NEW_MATCH.items() if key != "player_1"}
    response = posted_form(page, "/matches/new/?preset=skat-isko", fields, {"player_1": BAD_NAMES[name]})
    assert response.status_code == 400
    assert field_error(response, "player_1") == UNREADABLE
    assert not Match.objects.exists()


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_name_that_could_not_be_read_is_refused_by_the_api_naming_its_seat(api: APIClient, name: str) -> None:
    body = {"variant": "skat", "players": ["Anna", "RAW", "Cleo"]}
    response = posted_json(api, "/api/v1/matches/", body, BAD_NAMES[name])
    assert response.status_code == 400, response.content
    assert response.json() == {"players": {"1": [UNREADABLE]}}
    assert not Match.objects.exists()


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_title_that_could_not_be_read_is_refused_on_the_page_and_in_the_api(
    page: Client, api: APIClient, name: str
) -> None:
    on_page = posted_form(page, "/matches/new/?preset=skat-isko", NEW_MATCH, {"title": b"Friday " + BAD_NAMES[name]})
    assert on_page.status_code == 400
    assert field_error(on_page, "title") == UNREADABLE

    body = {"variant": "skat", "players": ["Anna", "Ben", "Cleo"], "title": "Friday RAW"}
    in_api = posted_json(api, "/api/v1/matches/", body, BAD_NAMES[name])
    assert in_api.status_code == 400, in_api.content
    assert in_api.json() == {"title": [UNREADABLE]}
    assert not Match.objects.exists()


def test_a_body_with_bytes_that_are_not_utf_8_outside_a_text_is_not_json(api: Any) -> None:
    response = api.generic("POST", "/api/v1/matches/", b'{"variant":"skat",\xff"players":[]}', "application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": "The body is not valid JSON."}


# --- Numbers -------------------------------------------------------------------------------------------------------


def game_form(**fields: str) -> dict[str, str]:
    return {"token": str(uuid.uuid4()), "contract": "clubs", "declarer": "1", "matadors": "2", **fields}


# What a table enters on the page, and the same in the API's shape: the bad number in the field named.
GAME_NUMBERS = {
    "card points": ({"declarer_card_points": "BAD"}, "declarer_card_points", ("declarer_card_points",)),
    "matadors": ({"matadors": "+", "matadors_count": "BAD"}, "matadors_count", ("matadors",)),
    "value": ({"mode": "value", "value": "BAD", "value_won": "yes"}, "value", ("value",)),
}


def api_game(fields: dict[str, str], number: str) -> dict[str, Any]:
    if "value" in fields:
        return {"contract": "value", "value": number, "won": True}
    if "matadors" in fields:
        return {"contract": "clubs", "matadors": number, "declarer_card_points": 70}
    return {"contract": "clubs", "matadors": 2, "declarer_card_points": number}


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_card_points_in_other_digits_count_no_points_for_the_opponents(page: Client, owner: User, number: str) -> None:
    match = make_match(owner)
    on_page = page.post(f"/matches/{match.public_id}/games/", game_form(declarer_card_points=number))
    assert on_page.status_code == 400
    assert 'data-opponents-of="id_declarer_card_points">–</output>' in on_page.content.decode()


@pytest.mark.parametrize("number", BAD_NUMBERS)
@pytest.mark.parametrize("field", GAME_NUMBERS)
def test_a_number_in_other_digits_is_refused_in_a_game_on_the_page_and_in_the_api(
    page: Client, api: APIClient, owner: User, field: str, number: str
) -> None:
    match = make_match(owner)
    fields, form_field, api_path = GAME_NUMBERS[field]
    typed = {name: number if value == "BAD" else value for name, value in fields.items()}
    on_page = page.post(f"/matches/{match.public_id}/games/", game_form(**typed))
    assert on_page.status_code == 400
    assert field_error(on_page, form_field) == NOT_A_WHOLE_NUMBER

    sent = {"declarer": 1, "game": api_game(fields, number)}
    in_api = api.post(f"/api/v1/matches/{match.public_id}/games/", sent, format="json")
    assert in_api.status_code == 400, in_api.content
    assert set(in_api.json()) == {"game"}
    assert set(in_api.json()["game"]) == set(api_path)
    assert not Game.objects.exists()


# Each a length or a seat the match could have, were it read as a number.
NEW_MATCH_NUMBERS = [("planned_games", number) for number in BAD_NUMBERS] + [
    ("first_dealer", "\u0661"),
    ("first_dealer", "\uff11"),
]


@pytest.mark.parametrize(("field", "number"), NEW_MATCH_NUMBERS)
def test_a_number_in_other_digits_is_refused_for_a_new_match_on_the_page_and_in_the_api(
    page: Client, api: APIClient, field: str, number: str
) -> None:
    on_page = page.post("/matches/new/", {**NEW_MATCH, field: number})
    assert on_page.status_code == 400
    assert f'id="id_{field}_error"' in on_page.content.decode()

    body = {"variant": "skat", "players": ["Anna", "Ben", "Cleo"], field: number}
    in_api = api.post("/api/v1/matches/", body, format="json")
    assert in_api.status_code == 400, in_api.content
    assert set(in_api.json()) == {field}
    assert not Match.objects.exists()


@pytest.mark.parametrize("number", ["48", " 48 ", "+48"])
def test_a_number_in_the_digits_0_to_9_is_taken_on_the_page_and_in_the_api(
    page: Client, api: APIClient, owner: User, number: str
) -> None:
    match = make_match(owner)
    assert page.post(f"/matches/{match.public_id}/games/", game_form(declarer_card_points=number)).status_code == 302
    sent = {"declarer": 1, "game": {"contract": "clubs", "matadors": 2, "declarer_card_points": 48}}
    assert api.post(f"/api/v1/matches/{match.public_id}/games/", sent, format="json").status_code == 201
    assert [(game.entry or {}).get("declarer_card_points") for game in Game.objects.order_by("position")] == [48, 48]


@pytest.mark.parametrize(("text", "number"), [("48", 48), (" 48 ", 48), ("-3", -3), ("+7", 7), ("007", 7)])
def test_a_whole_number_is_read_from_the_digits_0_to_9(text: str, number: int) -> None:
    assert whole_number(text) == number


@pytest.mark.parametrize("text", ["", " ", "-", *BAD_NUMBERS, "48.0", "1e3", "0x30", "4 8", "48\u00a0", "9" * 5000])
def test_anything_else_is_not_a_whole_number(text: str) -> None:
    with pytest.raises(NotAWholeNumber):
        whole_number(text)
