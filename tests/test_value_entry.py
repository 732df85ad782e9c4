"""A Skat game entered by its value: on the match page (the value, won or lost, Kontra and Re beside the declarer), in
the API, in the history and its fixes, and on the lists (CSV and the paper list)."""

import csv
import io
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from matches.engine.entry import VALUE_ENTRY_VERSION
from matches.engine.skat import ListMarks
from matches.game_lists import game_list
from matches.models import Game, Match, MatchEvent

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

PUB = {"kontra_re": True, "bock": True}


@pytest.fixture
def owner() -> User:
    return make_user("owner")


@pytest.fixture
def scorer(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


def by_value(match: Match, value: Any, won: str = "yes", **fields: Any) -> dict[str, Any]:
    return {
        "token": str(uuid.uuid4()),
        "number": str(match.deals + 1),
        "mode": "value",
        "declarer": "1",
        "value": str(value),
        "value_won": won,
        "contract": "diamonds",  # a page of an earlier release posted the full entry's chip too: it is ignored
        **fields,
    }


def post(client: Client, match: Match, data: dict[str, Any]) -> Any:
    return client.post(f"/matches/{match.public_id}/games/", data)


def only_game(match: Match) -> Game:
    return Game.objects.get(match=match)


# The full entry's own fields, and the value entry's: each page carries one of them.
FULL_ONLY = ('name="contract"', 'name="matadors"', 'name="outcome"', 'name="declarer_card_points"', 'name="hand"')
VALUE_ONLY = ('name="value"', 'name="value_won"', "value-picks", "js/value.js")


def test_the_match_page_renders_the_full_entry_only_with_a_link_to_the_value_entry(scorer: Client, owner: User) -> None:
    match = make_match(owner, rules=PUB)
    html = scorer.get(f"/matches/{match.public_id}/").content.decode()
    for name in FULL_ONLY:
        assert name in html
    for name in (*VALUE_ONLY, 'name="mode"', "not-value"):
        assert name not in html
    address = f"/matches/{match.public_id}/?entry=value"
    fetched = 'hx-target="#entry" hx-swap="outerHTML show:top"'
    assert f'<a class="button" href="{address}" hx-get="{address}" {fetched}>' in html
    assert ">Enter by value</a>" in html


def test_the_value_page_renders_the_value_entry_only_with_a_link_back_to_the_full_entry(
    scorer: Client, owner: User
) -> None:
    match = make_match(owner, rules=PUB)
    html = scorer.get(f"/matches/{match.public_id}/?entry=value").content.decode()
    for name in VALUE_ONLY:
        assert name in html
    for name in (*FULL_ONLY, 'name="ouvert"', 'name="announced"', 'name="bid"', "not-value"):
        assert name not in html
    for name in ('name="declarer"', 'name="kontra"', 'name="re"', '<input type="hidden" name="mode" value="value">'):
        assert name in html
    assert 'data-games="♦,9,2,18;♥,10,2,18;♠,11,2,18;♣,12,2,18;Grand,24,2,11;null,23;null hand,35;' in html
    assert f'href="/matches/{match.public_id}/?entry=full"' in html
    assert ">Enter in full</a>" in html


def test_the_link_fetched_by_the_page_answers_the_form_alone_for_the_next_deal(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=1, contract="grand", matadors=1, outcome="won")
    match.refresh_from_db()
    response = scorer.get(f"/matches/{match.public_id}/?entry=value", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<form method="post" class="entry" id="entry"')
    assert html.rstrip().endswith("</form>")
    assert '<input type="hidden" name="number" value="2">' in html
    assert f'<input type="hidden" name="version" value="{match.version}">' in html
    assert 'name="value"' in html
    assert "HX-Request" in response["Vary"]


def test_a_match_page_asked_for_an_entry_the_table_lacks_shows_the_full_entry(scorer: Client, owner: User) -> None:
    match = make_match(owner, variant="officers-skat", names=("Anna", "Ben"))
    html = scorer.get(f"/matches/{match.public_id}/?entry=value").content.decode()
    assert 'name="contract"' in html
    assert 'name="value"' not in html
    assert "?entry=" not in html


@pytest.mark.parametrize("variant", ["officers-skat", "lieutenant-skat", "officers-schafkopf"])
def test_the_other_families_have_only_the_full_entry(scorer: Client, owner: User, variant: str) -> None:
    match = make_match(owner, variant=variant, names=("Anna", "Ben"))
    html = scorer.get(f"/matches/{match.public_id}/").content.decode()
    assert 'name="mode"' not in html
    assert 'name="value"' not in html


def test_48_for_ben_won_is_stored_as_entered_and_scores_48(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    response = post(scorer, match, by_value(match, 48))
    assert response.status_code == 302
    game = only_game(match)
    assert game.entry == {"contract": "value", "value": 48, "won": True}
    assert game.entry_version == VALUE_ENTRY_VERSION
    assert (game.declarer, game.points, game.won, game.game_value) == (1, [0, 48, 0], True, 48)


def test_a_value_no_game_has_is_refused_next_to_the_field_with_the_nearest_values(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    response = post(scorer, match, by_value(match, 25))
    assert response.status_code == 400
    error = "No game is worth 25; the nearest values are 24 and 27."
    assert f'<p class="error" role="alert" id="id_value_error">{error}</p>' in response.content.decode()
    assert not Game.objects.filter(match=match).exists()


def test_a_value_game_without_won_or_lost_is_refused_next_to_that_choice(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    response = post(scorer, match, by_value(match, 48, won=""))
    assert response.status_code == 400
    assert 'id="id_value_won_error">Say whether the game was won or lost.</p>' in response.content.decode()


def test_a_lost_value_game_scores_minus_twice_the_value(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    post(scorer, match, by_value(match, 48, won="no"))
    assert only_game(match).points == [0, -96, 0]


def test_kontra_doubles_a_value_game_and_the_bock_round_after_it_doubles_again(scorer: Client, owner: User) -> None:
    match = make_match(owner, rules=PUB)
    post(scorer, match, by_value(match, 48, kontra="on"))
    match.refresh_from_db()
    post(scorer, match, by_value(match, 18))
    first, second = Game.objects.filter(match=match).order_by("position")
    assert first.points == [0, 96, 0]
    assert (second.bock, second.points) == (1, [0, 36, 0])


def test_the_live_result_shows_a_value_game_before_it_is_saved(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    html = scorer.post(f"/matches/{match.public_id}/preview/", by_value(match, 48)).content.decode()
    assert "Ben +48" in html
    assert "value 48 as entered (clubs × 4 or grand × 2)" in html


def test_the_next_game_starts_by_value_after_a_value_game(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=1, contract="value", value=48, won=True)
    html = scorer.get(f"/matches/{match.public_id}/").content.decode()
    assert '<input type="hidden" name="mode" value="value">' in html
    assert 'name="contract"' not in html


def test_a_value_game_is_fixed_by_value_keeping_its_history(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=1, contract="value", value=48, won=True)
    address = f"/matches/{match.public_id}/games/{game.public_id}/edit/"
    form = scorer.get(address).content.decode()
    assert '<input type="hidden" name="mode" value="value">' in form
    assert 'name="value" value="48"' in form
    assert 'name="contract"' not in form
    assert f'href="{address}?entry=full"' in form
    match.refresh_from_db()
    fixed = scorer.post(address, {**by_value(match, 60, won="no"), "version": str(match.version)})
    assert fixed.status_code == 302
    game.refresh_from_db()
    assert (game.entry, game.points) == ({"contract": "value", "value": 60, "won": False}, [0, -120, 0])
    change = MatchEvent.objects.filter(match=match, action=MatchEvent.Action.EDIT).get()
    assert change.before is not None
    assert change.after is not None
    assert change.before["entry"] == {"contract": "value", "value": 48, "won": True}
    assert change.after["entry"] == {"contract": "value", "value": 60, "won": False}
    history = scorer.get(f"/matches/{match.public_id}/history/").content.decode()
    assert "Ben: By value, value 48, won" in history
    assert "Ben: By value, value 60, lost" in history


def test_a_value_game_is_fixed_in_full(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=1, contract="value", value=48, won=True)
    address = f"/matches/{match.public_id}/games/{game.public_id}/edit/"
    form = scorer.get(f"{address}?entry=full").content.decode()
    assert 'name="contract"' in form
    assert 'name="value"' not in form
    assert 'name="mode"' not in form
    match.refresh_from_db()
    full = {
        "token": str(uuid.uuid4()),
        "version": str(match.version),
        "mode": "full",
        "declarer": "1",
        "contract": "grand",
        "matadors": "1",
        "outcome": "won",
    }
    assert scorer.post(address, full).status_code == 302
    game.refresh_from_db()
    assert (game.entry, game.entry_version, game.points) == (
        {"contract": "grand", "matadors": 1, "outcome": "won"},
        1,
        [0, 48, 0],
    )


def test_the_csv_list_says_a_game_was_entered_by_value(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=1, contract="value", value=48, won=False)
    content = scorer.get(f"/matches/{match.public_id}/export/csv/").getvalue().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content)))
    assert rows[1][:9] == ["1", "Anna", "Ben", "By value", "48", "lost", "", "", ""]


def test_the_paper_list_fills_only_the_columns_the_value_decides(scorer: Client, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=1, contract="value", value=18, won=True)
    add(match, declarer=2, contract="value", value=48, won=False)
    add(match, declarer=0, contract="value", value=59, won=True)
    rows = game_list(match, list(match.seats.order_by("position"))).rows
    assert [row.marks for row in rows] == [ListMarks(base=9), ListMarks(), ListMarks(base=59, hand=True, ouvert=True)]
    assert [(row.won_value, row.lost_value) for row in rows] == [(18, None), (None, -96), (59, None)]
    printed = scorer.get(f"/matches/{match.public_id}/print.pdf")
    assert printed.status_code == 200
    assert printed.content.startswith(b"%PDF")


# --- The API -------------------------------------------------------------------------------------------------------


@pytest.fixture
def api(owner: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


def test_the_api_takes_a_game_by_its_value(api: APIClient, owner: User) -> None:
    match = make_match(owner)
    body = {"declarer": 1, "game": {"contract": "value", "value": 48, "won": True}}
    response = api.post(f"/api/v1/matches/{match.public_id}/games/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["game"]["game"] == {"contract": "value", "value": 48, "won": True}
    assert response.json()["game"]["points"] == [0, 48, 0]


def test_the_api_refuses_a_value_no_game_has_by_its_field(api: APIClient, owner: User) -> None:
    match = make_match(owner)
    body = {"declarer": 1, "game": {"contract": "value", "value": 25, "won": True}}
    response = api.post(f"/api/v1/matches/{match.public_id}/games/", body, format="json")
    assert response.status_code == 400
    assert response.json()["game"] == {"value": ["No game is worth 25; the nearest values are 24 and 27."]}


def test_the_schema_documents_the_value_entry(api: APIClient) -> None:
    schema = api.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    game = schema["components"]["schemas"]["GameInput"]["properties"]["game"]
    assert "value" in game["properties"]["contract"]["enum"]
    assert game["properties"]["value"]["type"] == "integer"
    assert "by its value" in game["properties"]["value"]["description"]
