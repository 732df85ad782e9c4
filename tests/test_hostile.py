"""Requests an attacker would send: far too many keys, JSON nested a thousand deep, texts no database stores, bodies
too large, bytes that are not UTF-8, content types nobody reads. Each is answered with a short 4xx, and cheaply: the
answer is small and, for the calculator, asks the database nothing (counted, not timed)."""

import functools
import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from matches.api.parsing import MAX_BODY_BYTES, MAX_ENTRIES

from .conftest import Table
from .test_personas import argument_values, posted, routes

pytestmark = pytest.mark.django_db

SMALL = 2048
GAME = {"contract": "clubs", "matadors": 2, "declarer_card_points": 70}
CALCULATE = {"variant": "skat", "game": GAME}


def _object(keys: int) -> str:
    return "{" + ",".join(f'"option-{index}":1' for index in range(keys)) + "}"


HOSTILE: dict[str, tuple[bytes | str, str]] = {
    "190,000 unknown rule keys": (
        '{"variant":"skat","game":{"contract":"clubs"},"rules":' + _object(190_000) + "}",
        "application/json",
    ),
    "100 unknown rule keys": ('{"variant":"skat","game":{"contract":"clubs"},"rules":' + _object(100) + "}", "json"),
    "more keys in the game than an object may have": (
        '{"variant":"skat","game":' + _object(MAX_ENTRIES + 1) + "}",
        "application/json",
    ),
    "a longer list than any may be": (
        '{"variant":"skat","players":[' + ",".join(["1"] * (MAX_ENTRIES + 1)) + "]}",
        "json",
    ),
    "JSON nested 1,000 deep": ("[" * 1000 + "]" * 1000, "application/json"),
    "JSON nested 20 deep in the rules": (
        '{"variant":"skat","game":{"contract":"clubs"},"rules":' + '{"a":' * 20 + "1" + "}" * 21,
        "application/json",
    ),
    "a lone surrogate in a text": ('{"variant":"skat","game":{"contract":"\\ud800"}}', "application/json"),
    "a lone surrogate in a key": ('{"variant":"skat","game":{"contract":"clubs"},"rules":{"\\udfff":1}}', "json"),
    "a NUL in a text": ('{"variant":"skat\\u0000","game":{"contract":"clubs"}}', "application/json"),
    "an oversized body": (" " * MAX_BODY_BYTES + "{}", "application/json"),
    "invalid UTF-8": (b'{"variant":"sk\xff\xfeat","game":{"contract":"clubs"}}', "application/json"),
    "a text of 100,000 characters": (json.dumps({"variant": "x" * 100_000}), "application/json"),
    "a number of 5,000 digits": ('{"variant":"skat","declarer":' + "9" * 5000 + "}", "application/json"),
    "NaN": ('{"variant":"skat","declarer":NaN,"game":{"contract":"clubs"}}', "application/json"),
    "a form": ("variant=skat", "application/x-www-form-urlencoded"),
    "plain text": ("skat", "text/plain"),
    "XML": ("<game/>", "application/xml"),
}
CONTENT_TYPES = {"json": "application/json"}


def _send(client: Any, address: str, body: bytes | str, content_type: str, method: str = "POST") -> Any:
    return client.generic(method, address, body, content_type=CONTENT_TYPES.get(content_type, content_type))


@pytest.mark.parametrize("name", HOSTILE)
def test_the_calculator_answers_a_hostile_request_with_a_short_4xx_without_the_database(name: str) -> None:
    body, content_type = HOSTILE[name]
    with CaptureQueriesContext(connection) as queries:
        response = _send(APIClient(), "/api/v1/calculate/", body, content_type)
    assert 400 <= response.status_code < 500, response.content[:300]
    assert len(response.content) < SMALL, response.content[:300]
    assert len(queries) == 0, [query["sql"] for query in queries]


WRITES = ("post", "put", "patch")


@functools.cache
def _writes() -> list[tuple[str, str]]:
    """Every write the API documents, as (method, path with ``{parameters}``): read from the OpenAPI schema, so that
    a new endpoint is asked with the others."""
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    return [
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in WRITES
    ]


def _address(path: str, values: dict[str, str]) -> str:
    return re.sub(r"{(\w+)}", lambda found: values[found[1]], path)


def test_the_writes_asked_with_hostile_bodies_include_each_apps() -> None:
    """The writes read from the schema are the core's and each event app's: the matches', the club nights', the
    leagues' venues' and the tournaments', several of each."""
    paths = [path for _method, path in _writes()]
    for prefix in ("/api/v1/matches/", "/api/v1/nights/", "/api/v1/venues/", "/api/v1/tournaments/"):
        assert len([path for path in paths if path.startswith(prefix)]) >= 5, (prefix, paths)
    assert ("POST", "/api/v1/auth/token/") in _writes()
    assert ("PUT", "/api/v1/tournaments/{tournament_id}/series/{series}/tables/{number}/paper/") in _writes()


@pytest.mark.parametrize("name", HOSTILE)
def test_every_api_endpoint_taking_a_body_answers_a_hostile_request_with_a_short_4xx(table: Table, name: str) -> None:
    """Every write of the API, the core's and the club nights', leagues' and tournaments', asked by the account
    that keeps the match, owns the club, manages the league and organises the tournament: each gets as far as
    reading the body (no 401, 403 or 404), and refuses it with a short 4xx."""
    body, content_type = HOSTILE[name]
    client = APIClient()
    client.force_authenticate(table.owner)
    # The ids of the table's match, club night, league and tournament, by the name of the argument each fills.
    values = argument_values(table, next(route for route in routes() if route.is_api))
    for method, path in _writes():
        address = _address(path, values)
        response = _send(client, address, body, content_type, method)
        assert 400 <= response.status_code < 500, (method, address, response.status_code, response.content[:300])
        assert response.status_code not in (401, 403, 404), (method, address, response.content[:300])
        assert len(response.content) < SMALL, (method, address, response.content[:300])


def test_the_unknown_names_reported_are_few_and_counted() -> None:
    body = {**CALCULATE, "rules": {f"option-{index}": True for index in range(90)}}
    response = APIClient().post("/api/v1/calculate/", body, format="json")
    assert response.status_code == 400
    rules = response.json()["rules"]
    assert set(rules) == {"option-0", "option-1", "option-2", "non_field_errors"}
    assert rules["non_field_errors"] == ["… and 87 more unknown options."]


def test_a_bad_text_is_named_by_its_field() -> None:
    body = '{"variant":"skat","game":{"contract":"clubs","outcome":"\\ud800"}}'
    response = APIClient().generic("POST", "/api/v1/calculate/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"game": {"outcome": ["Must not contain NUL characters or unpaired surrogates."]}}


def test_a_body_just_under_the_limit_is_read() -> None:
    body = json.dumps(CALCULATE)
    response = APIClient().generic(
        "POST", "/api/v1/calculate/", body + " " * (MAX_BODY_BYTES - len(body)), content_type="application/json"
    )
    assert response.status_code == 200


@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1, 3 * 1024 * 1024, 30 * 1024 * 1024])
def test_a_body_over_the_limit_is_a_json_413_whatever_its_size(table: Table, size: int) -> None:
    client = APIClient()
    client.force_authenticate(table.owner)
    body = "{}" + " " * (size - 2)
    for method, address in [
        ("POST", "/api/v1/calculate/"),
        ("POST", "/api/v1/auth/token/"),
        ("POST", f"/api/v1/matches/{table.match.public_id}/games/"),
    ]:
        response = client.generic(method, address, body, content_type="application/json")
        assert response.status_code == 413, (address, response.content[:300])
        assert response.json() == {"detail": "The body is too large: at most 64 KB."}, address


def _entries_declared(schema: dict[str, Any]) -> dict[str, int]:
    """How many entries each list and object of every operation's body may have, as the schema declares them (a
    list's ``maxItems``, an object's properties), by where they are (``POST /api/v1/rankings/ events``)."""
    components = schema["components"]["schemas"]
    declared: dict[str, int] = {}
    pending = [
        (media["schema"], f"{method.upper()} {path}")
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if isinstance(operation, dict) and "requestBody" in operation
        for media in operation["requestBody"]["content"].values()
    ]
    while pending:
        node, where = pending.pop()
        while "$ref" in node:
            node = components[node["$ref"].rsplit("/", 1)[1]]
        if "maxItems" in node:
            declared[where] = node["maxItems"]
        if "properties" in node:
            declared[where] = max(declared.get(where, 0), len(node["properties"]))
            pending.extend((field, f"{where} {name}") for name, field in node["properties"].items())
        if "items" in node:
            pending.append((node["items"], f"{where} *"))
        pending.extend((part, where) for key in ("allOf", "oneOf", "anyOf") for part in node.get(key, ()))
    return declared


def test_a_body_may_hold_as_many_entries_as_the_longest_list_an_operation_declares() -> None:
    """The bound on a body's lists and objects refuses nothing the schema offers (a ranking list's 500 events, its
    200 places), and lets through nothing longer than the longest list any operation takes."""
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    declared = _entries_declared(schema)
    assert declared["POST /api/v1/rankings/ events"] == 500
    assert declared["PUT /api/v1/rankings/{ranking_id}/ places"] == 200
    assert {where: count for where, count in declared.items() if count > MAX_ENTRIES} == {}
    assert max(declared.values()) == MAX_ENTRIES


def test_a_list_longer_than_any_operation_takes_is_refused_by_name_before_it_is_read() -> None:
    body = {**CALCULATE, "players": list(range(MAX_ENTRIES + 1))}
    response = APIClient().post("/api/v1/calculate/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"players": [f"Too many entries: at most {MAX_ENTRIES}."]}
    german = APIClient().post("/api/v1/calculate/", body, format="json", headers={"Accept-Language": "de"})
    assert german.json() == {"players": [f"Zu viele Einträge: höchstens {MAX_ENTRIES}."]}


# --- The pages ------------------------------------------------------------------------------------------------------

NUL = "\x00"
QUERIES = ("before", "category", "page", "preset", "series", "player", "next")


@pytest.mark.slow
def test_a_nul_in_any_field_or_query_of_any_page_is_never_a_server_error(table: Table) -> None:
    """PostgreSQL stores no NUL in text: every form field, query and address of the app's pages, with one in it."""
    browser = Client(raise_request_exception=False)
    browser.force_login(table.owner)
    forms = posted(table)
    failed = []
    for route in routes():
        if not route.is_the_apps or route.is_api or route.in_admin:
            continue
        values = argument_values(table, route)
        address = route.address(values)
        poisoned = {name: f"{value}{NUL}" for name, value in forms.get(route.name, {"name": "x"}).items()}
        query = "&".join(f"{name}=%00" for name in QUERIES)
        answers = [browser.get(f"{address}?{query}"), browser.post(address, poisoned)]
        if "token" in values:
            answers.append(browser.get(route.address(values | {"token": quote(values["token"] + NUL)})))
        failed += [(response.request["PATH_INFO"], response.status_code) for response in answers]
    assert [(path, status) for path, status in failed if status >= 500] == []
