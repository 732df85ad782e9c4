"""The API's lists and their query parameters: a page size that is not a whole number from 1 to 200, or a parameter
given with an empty value, is a 400 naming it, not a silent default; the schema says the bounds."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from .conftest import Table

pytestmark = pytest.mark.django_db

BAD_PAGE_SIZES = ["null", "", "0", "-1", "201", "1000", "1.5", "20.0", "\u0663", "4_8", "fifty"]
MATCH_FILTERS = ["variant", "player", "since", "until"]


def lists(table: Table) -> list[str]:
    """Every list of the API that comes in pages."""
    match = table.match.public_id
    return [
        "/api/v1/players/",
        "/api/v1/matches/",
        f"/api/v1/matches/{match}/games/",
        f"/api/v1/matches/{match}/changes/",
        "/api/v1/clubs/",
        "/api/v1/rankings/",
    ]


@pytest.fixture
def owner_api(table: Table) -> APIClient:
    client = APIClient()
    client.force_authenticate(table.owner)
    return client


@pytest.mark.parametrize("size", BAD_PAGE_SIZES)
def test_a_page_size_that_is_not_a_whole_number_from_1_to_200_is_a_400_naming_it(
    table: Table, owner_api: APIClient, size: str
) -> None:
    for address in lists(table):
        response = owner_api.get(address, {"page_size": size})
        assert response.status_code == 400, (address, response.content)
        assert response.json() == {"page_size": ["Must be a whole number from 1 to 200."]}, address


@pytest.mark.parametrize(("size", "shown"), [("1", 1), ("2", 2), ("200", 3)])
def test_a_page_size_from_1_to_200_is_taken(table: Table, owner_api: APIClient, size: str, shown: int) -> None:
    response = owner_api.get(f"/api/v1/matches/{table.match.public_id}/games/", {"page_size": size})
    assert response.status_code == 200, response.content
    assert len(response.json()["results"]) == shown  # the table's three games on the list


@pytest.mark.parametrize("name", MATCH_FILTERS)
def test_a_filter_given_empty_is_a_400_naming_it(owner_api: APIClient, name: str) -> None:
    response = owner_api.get(f"/api/v1/matches/?{name}=")
    assert response.status_code == 400, response.content
    assert response.json() == {name: ["Give a value, or leave the parameter out."]}


def test_every_empty_filter_is_named_with_the_other_refusals(owner_api: APIClient) -> None:
    response = owner_api.get("/api/v1/matches/?variant=&player=&since=yesterday")
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"variant", "player", "since"}


def test_an_unknown_variant_is_a_400_naming_it(owner_api: APIClient) -> None:
    response = owner_api.get("/api/v1/matches/?variant=poker")
    assert response.status_code == 400
    assert set(response.json()) == {"variant"}


def test_an_empty_cursor_is_a_400_naming_it(table: Table, owner_api: APIClient) -> None:
    for address in lists(table):
        response = owner_api.get(f"{address}?cursor=")
        assert response.status_code == 400, (address, response.content)
        assert response.json() == {"cursor": ["Give a value, or leave the parameter out."]}, address


def test_the_schema_bounds_the_page_size_of_every_list(api: APIClient) -> None:
    schema = api.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    sizes: dict[str, Any] = {
        path: parameter["schema"]
        for path, operations in schema["paths"].items()
        for parameter in operations.get("get", {}).get("parameters", [])
        if parameter["name"] == "page_size"
    }
    assert set(sizes) == {
        "/api/v1/players/",
        "/api/v1/matches/",
        "/api/v1/matches/{match_id}/games/",
        "/api/v1/matches/{match_id}/changes/",
        "/api/v1/clubs/",
        "/api/v1/leagues/",
        "/api/v1/tournaments/",
        "/api/v1/tournaments/{tournament_id}/entries/",
        "/api/v1/tournaments/{tournament_id}/standings/",
        "/api/v1/tournaments/{tournament_id}/series/{series}/standings/",
        "/api/v1/rankings/",
        "/api/v1/rankings/{ranking_id}/",
    }
    for path, size in sizes.items():
        assert (size["type"], size["minimum"], size["maximum"]) == ("integer", 1, 200), path
