"""A JSON body's values are taken in their own JSON type only: a number sent as a text ("455"), a name sent as a
number (123), true sent as "true" or 1 are refused by their field, never read as what they might have meant, at
every write of the API, the core's and each kind of event's. A query's parameters stay texts, as they are by
nature."""

import functools
import json
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from matches.models import Game, Match

from .conftest import Table
from .factories import make_match, make_user
from .test_hostile import _address, _writes
from .test_personas import argument_values, routes

pytestmark = pytest.mark.django_db

WHOLE_NUMBER = "Must be a whole number."
TEXT = "Must be a text."
TRUE_OR_FALSE = "Must be true or false."
# Values of every other JSON type than the one a field of each type takes.
WRONG: dict[str, list[Any]] = {
    "integer": ["455", 4.5, 455.0, True],
    "boolean": ["true", 1, 0],
    "string": [123, 1.5, True],
}


@functools.cache
def _schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call,no-any-return]


def _resolved(shape: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in shape:
        return _resolved(_schema()["components"]["schemas"][shape["$ref"].rsplit("/", 1)[1]])
    if len(shape.get("allOf", ())) == 1:
        return _resolved(shape["allOf"][0])
    return shape


# Where a value sits in a body: the names of the fields and a list's first place (0) on the way to it.
Place = tuple[str | int, ...]


def _typed_fields(method: str, path: str) -> dict[Place, str]:
    """The places in the write's JSON body that take a value of one JSON type (integer, boolean, string), with that
    type: its fields, the items of its lists and the fields of the bodies in its lists. A field of any JSON (a game,
    the rules, which the engine reads) is left out."""
    operation = _schema()["paths"][path][method.lower()]
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    return {} if content is None else dict(_places(_resolved(content["schema"]), ()))


def _places(shape: dict[str, Any], place: Place) -> list[tuple[Place, str]]:
    if shape.get("type") == "object" and (not place or place[-1] == 0):  # a body, or one in a list: not the rules
        return [
            found
            for name, field in shape.get("properties", {}).items()
            for found in _places(_resolved(field), (*place, name))
        ]
    if shape.get("type") == "array":
        return _places(_resolved(shape["items"]), (*place, 0))
    return [(place, shape["type"])] if shape.get("type") in WRONG and place else []


def _at(refusal: Any, place: Place) -> Any:
    """The messages at ``place`` in a refusal, whose places in a list are texts."""
    for step in place:
        refusal = refusal.get(str(step)) if isinstance(refusal, dict) else None
    return refusal


def test_the_writes_asked_have_fields_of_every_type_in_the_core_and_each_apps() -> None:
    asked = {(method, path): _typed_fields(method, path) for method, path in _writes()}
    kinds = {kind for fields in asked.values() for kind in fields.values()}
    assert kinds == set(WRONG)
    for prefix in ("/api/v1/matches/", "/api/v1/nights/", "/api/v1/venues/", "/api/v1/tournaments/"):
        assert any(fields for (_method, path), fields in asked.items() if path.startswith(prefix)), prefix
    paper = asked[("PUT", "/api/v1/tournaments/{tournament_id}/series/{series}/tables/{number}/paper/")]
    assert paper[("lines", 0, "game_points")] == "integer"
    assert asked[("POST", "/api/v1/matches/")][("players", 0)] == "string"


def test_every_write_refuses_a_value_of_another_json_type_by_its_field(table: Table) -> None:
    """Every write of the API, the core's and the club nights', leagues' and tournaments', asked by the account
    that keeps the match, owns the club, manages the league and organises the tournament, with each of its fields
    sent as a value of another JSON type: a 400 naming the field, whatever else the body lacks."""
    client = APIClient()
    client.force_authenticate(table.owner)
    values = argument_values(table, next(route for route in routes() if route.is_api))
    for method, path in _writes():
        address = _address(path, values)
        for place, kind in _typed_fields(method, path).items():
            for wrong in WRONG[kind]:
                body = _body(place, wrong)
                response = client.generic(method, address, json.dumps(body), content_type="application/json")
                assert response.status_code == 400, (method, address, body, response.content[:300])
                refused = _at(response.json(), place)
                assert refused == [_message(kind, path)], (method, address, body, response.json())


def _body(place: Place, wrong: Any) -> Any:
    body: Any = wrong
    for step in reversed(place):
        body = [body] if isinstance(step, int) else {step: body}
    return body


def _message(kind: str, path: str) -> str:
    if kind == "integer":
        return (
            "Send whole cents as a number, not as text: 1500 for 15 €." if path.endswith("/payments/") else WHOLE_NUMBER
        )
    return TRUE_OR_FALSE if kind == "boolean" else TEXT


def test_a_match_is_not_started_with_values_of_another_type() -> None:
    client = APIClient()
    client.force_authenticate(make_user("anna"))
    body = {"variant": "skat", "players": ["Anna", 123, "Cleo"], "first_dealer": "0", "title": True}
    refused = client.post("/api/v1/matches/", body, format="json")
    assert refused.status_code == 400
    assert refused.json() == {"players": {"1": [TEXT]}, "first_dealer": [WHOLE_NUMBER], "title": [TEXT]}
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"declarer": 0, "game": {"contract": "clubs", "declarer_card_points": 70}, "number": "1"}, {"number"}),
        ({"passed": "true"}, {"passed"}),
        ({"passed": 1}, {"passed"}),
        ({"declarer": "0", "game": {"contract": "clubs", "declarer_card_points": 70}}, {"declarer"}),
        ({"declarer": 0, "game": {"contract": "clubs", "declarer_card_points": "70"}}, {"game"}),
    ],
)
def test_a_game_is_not_entered_with_values_of_another_type(body: dict[str, Any], errors: set[str]) -> None:
    owner = make_user("anna")
    match = make_match(owner)
    client = APIClient()
    client.force_authenticate(owner)
    refused = client.post(f"/api/v1/matches/{match.public_id}/games/", body, format="json")
    assert refused.status_code == 400, refused.content
    assert set(refused.json()) == errors
    assert not Game.objects.exists()


def test_the_calculator_takes_no_seat_as_a_text() -> None:
    game = {"contract": "clubs", "matadors": 2, "declarer_card_points": 70}
    refused = APIClient().post("/api/v1/calculate/", {"variant": "skat", "dealer": "0", "game": game}, format="json")
    assert (refused.status_code, refused.json()) == (400, {"dealer": [WHOLE_NUMBER]})


def test_german_says_the_type_wanted() -> None:
    game = {"contract": "clubs", "matadors": 2, "declarer_card_points": 70}
    body = {"variant": "skat", "declarer": True, "game": game}
    refused = APIClient().post("/api/v1/calculate/", body, format="json", headers={"Accept-Language": "de"})
    assert refused.json() == {"declarer": ["Muss eine ganze Zahl sein."]}


def test_a_query_is_read_from_its_texts() -> None:
    owner = make_user("anna")
    make_match(owner)
    client = APIClient()
    client.force_authenticate(owner)
    found = client.get("/api/v1/matches/", {"since": "2000-01-01", "variant": "skat", "page_size": "1"})
    assert found.status_code == 200, found.content
    assert len(found.json()["results"]) == 1
