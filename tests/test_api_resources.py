"""The REST API's resources: tokens, players, matches, games, changes, clubs, seasons, nights and standings, through
the same services and policy as the pages."""

import base64
import datetime
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.http import HttpRequest
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken
from rest_framework.test import APIClient

from matches.api.replays import KEY_USED
from matches.clubs import services as clubs
from matches.clubs.selectors import night_results, season_table
from matches.models import Game, Match, MatchEvent
from matches.services import match_undo

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-password-1"
WON_CLUBS: dict[str, Any] = {"contract": "clubs", "matadors": 2, "declarer_card_points": 70}


def token_for(api: APIClient, user: User, password: str = PASSWORD) -> str:
    response = api.post("/api/v1/auth/token/", {"username": user.username, "password": password}, format="json")
    assert response.status_code == 201, response.content
    token: str = response.json()["token"]
    return token


def signed(user: User) -> APIClient:
    """A client that sends a token of ``user``'s, as a script would."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(client, user)}")
    return client


def started(client: APIClient, **body: Any) -> dict[str, Any]:
    response = client.post(
        "/api/v1/matches/", {"variant": "skat", "players": ["Anna", "Ben", "Cleo"], **body}, format="json"
    )
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def enter(client: APIClient, match_id: str, key: str | None = None, **body: Any) -> Any:
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(f"/api/v1/matches/{match_id}/games/", body, format="json", headers=headers)


# --- Tokens --------------------------------------------------------------------------------------------------------


def test_a_token_is_made_from_the_password_and_stored_only_hashed(api: APIClient) -> None:
    user = make_user("anna")
    token = token_for(api, user)
    stored = AuthToken.objects.get(user=user)
    assert token.startswith(stored.token_key)
    assert token not in str(stored.digest)
    assert len(stored.digest) == 128
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/matches/").status_code == 200


def test_a_wrong_password_gets_no_token(api: APIClient) -> None:
    make_user("anna")
    response = api.post("/api/v1/auth/token/", {"username": "anna", "password": "wrong"}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["password"]
    assert not AuthToken.objects.exists()


def test_without_credentials_the_answer_is_401_naming_the_scheme(api: APIClient) -> None:
    response = api.get("/api/v1/matches/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert api.get("/api/v1/matches/").status_code == 401


def test_a_revoked_token_opens_nothing_and_the_others_stay(api: APIClient) -> None:
    user = make_user("anna")
    first, second = signed(user), signed(user)
    assert len(first.get("/api/v1/auth/tokens/").json()) == 2
    assert first.delete("/api/v1/auth/tokens/current/").status_code == 204
    assert first.get("/api/v1/matches/").status_code == 401
    assert second.get("/api/v1/matches/").status_code == 200
    assert second.delete("/api/v1/auth/tokens/").status_code == 204
    assert second.get("/api/v1/matches/").status_code == 401


def test_a_session_works_as_well_and_keeps_its_csrf_check() -> None:
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(make_user("anna"))
    assert api.get("/api/v1/matches/").status_code == 200
    refused = api.post("/api/v1/matches/", {"variant": "skat", "players": ["A", "B", "C"]}, format="json")
    assert refused.status_code == 403
    assert not Match.objects.exists()


# --- Matches and games ---------------------------------------------------------------------------------------------


def test_a_match_is_started_and_its_games_entered_and_scored_as_on_the_page() -> None:
    client = signed(make_user("anna"))
    match = started(client, title="Friday")
    assert match["seats"][1]["name"] == "Ben"
    assert match["next"] == {"number": 1, "dealer": 0, "playing": [1, 2, 0]}
    response = enter(client, match["id"], declarer=1, game=WON_CLUBS)
    assert response.status_code == 201
    body = response.json()
    assert body["game"]["points"] == [0, 36, 0]
    assert body["game"]["breakdown"] == ["with 2", "game 3", "3 × 12 (clubs) = 36", "won: 36"]
    assert body["match"]["totals"] == [0, 36, 0]
    assert response["ETag"] == '"1"'
    assert response["Location"] == f"/api/v1/matches/{match['id']}/games/{body['game']['id']}/"
    assert client.get(response["Location"]).json() == body["game"]
    stored = Game.objects.get(public_id=body["game"]["id"])
    assert stored.created_by is not None
    assert (stored.declarer, stored.entry, stored.created_by.username) == (1, WON_CLUBS, "anna")


def test_a_retried_entry_is_stored_once_and_answered_as_the_first_time() -> None:
    client = signed(make_user("anna"))
    match = started(client)
    key = str(uuid.uuid4())
    first = enter(client, match["id"], key, declarer=0, game=WON_CLUBS)
    again = enter(client, match["id"], key, declarer=0, game=WON_CLUBS)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["replayed"] is True
    assert again.json()["game"]["id"] == first.json()["game"]["id"]
    assert Game.objects.filter(match__public_id=match["id"]).count() == 1
    other = enter(client, match["id"], key, declarer=2, game=WON_CLUBS)
    assert (other.status_code, other.json()["Idempotency-Key"]) == (409, [KEY_USED])
    assert Game.objects.filter(match__public_id=match["id"]).count() == 1


def test_a_retried_start_starts_one_match() -> None:
    client = signed(make_user("anna"))
    key = str(uuid.uuid4())
    body = {"variant": "skat", "players": ["Anna", "Ben", "Cleo"]}
    first = client.post("/api/v1/matches/", body, format="json", headers={"Idempotency-Key": key})
    again = client.post("/api/v1/matches/", body, format="json", headers={"Idempotency-Key": key})
    assert (first.status_code, first.json()["replayed"]) == (201, False)
    assert (again.status_code, again.json()["replayed"]) == (200, True)
    assert first.json()["id"] == again.json()["id"]
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    "other",
    [
        {"title": "Another title"},
        {"scheme": "seeger-fabian"},
        {"rules": {"ramsch": True}},
        {"players": ["Anna", "Ben", "Dora"]},
        {"first_dealer": 1},
        {"planned_games": 36},
        {"preset": "skat-isko"},
        {"variant": "officers-skat", "players": ["Anna", "Ben"]},
    ],
)
def test_a_start_retried_with_the_key_of_another_is_refused_as_a_used_key(other: dict[str, Any]) -> None:
    client = signed(make_user("anna"))
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"variant": "skat", "title": "Tuesday", "players": ["Anna", "Ben", "Cleo"]}
    assert client.post("/api/v1/matches/", body, format="json", headers=key).status_code == 201
    refused = client.post("/api/v1/matches/", {**body, **other}, format="json", headers=key)
    assert (refused.status_code, refused.json()["Idempotency-Key"]) == (409, [KEY_USED])
    assert "Tuesday" not in refused.content.decode()
    assert Match.objects.count() == 1
    assert client.post("/api/v1/matches/", body, format="json", headers=key).json()["replayed"] is True


def test_a_retried_undo_or_redo_says_it_was_replayed_and_a_key_of_another_is_refused() -> None:
    client = signed(make_user("anna"))
    match = started(client)
    enter(client, match["id"], declarer=0, game=WON_CLUBS)
    for step in ("undo", "redo"):
        key = {"Idempotency-Key": str(uuid.uuid4())}
        address = f"/api/v1/matches/{match['id']}/{step}/"
        first = client.post(address, {}, format="json", headers=key)
        again = client.post(address, {}, format="json", headers=key)
        assert (first.json()["replayed"], again.json()["replayed"]) == (False, True)
        assert again.json()["change"]["id"] == first.json()["change"]["id"]
        other = client.post(address, {"change": str(uuid.uuid4())}, format="json", headers=key)
        assert (other.status_code, other.json()["Idempotency-Key"]) == (409, [KEY_USED])
    assert MatchEvent.objects.filter(match__public_id=match["id"]).count() == 3


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        (
            {"declarer": 0, "game": {"contract": "diamonds", "matadors": 12, "declarer_card_points": 70}},
            {"game": {"matadors"}},
        ),
        ({"declarer": 7, "game": WON_CLUBS}, {"declarer"}),
        ({"declarer": "one", "game": {"contract": "clubs", "hand": "yes"}}, {"declarer", "game"}),
        ({"passed": "yes"}, {"passed"}),
        ({"declarer": 0, "game": WON_CLUBS, "number": 5}, {"match", "version"}),
        ({"passed": True, "declarer": 1, "game": WON_CLUBS}, {"declarer", "game"}),
        ({"passed": True, "game": WON_CLUBS}, {"game"}),
        ({"passed": True, "declarer": 0}, {"declarer"}),
    ],
    ids=[
        "too-many-matadors",
        "no-such-seat",
        "wrong-types",
        "not-a-flag",
        "made-for-another-deal",
        "passed-with-a-game",
        "passed-with-a-game-alone",
        "passed-with-a-declarer",
    ],
)
def test_a_bad_entry_is_refused_with_messages_by_field(body: dict[str, Any], errors: Any) -> None:
    client = signed(make_user("anna"))
    match = started(client)
    response = enter(client, match["id"], **body)
    assert response.status_code in {400, 409}
    answer = response.json()
    if isinstance(errors, dict):
        assert set(answer) == set(errors)
        assert set(answer["game"]) == errors["game"]
    else:
        assert set(answer) == errors
    assert not Game.objects.exists()


def test_a_bad_start_is_refused_with_messages_by_field() -> None:
    client = signed(make_user("anna"))
    response = client.post(
        "/api/v1/matches/", {"variant": "skat", "players": ["Anna", " ", "Anna"], "first_dealer": 9}, format="json"
    )
    assert response.status_code == 400
    assert {"players", "first_dealer"} <= set(response.json())
    assert client.post("/api/v1/matches/", {"variant": "poker", "players": []}, format="json").status_code == 400
    assert client.post("/api/v1/matches/", ["skat"], format="json").status_code == 400
    bad_key = {"Idempotency-Key": "not-a-uuid"}
    refused = client.post(
        "/api/v1/matches/", {"variant": "skat", "players": ["A", "B", "C"]}, format="json", headers=bad_key
    )
    assert refused.status_code == 400
    assert set(refused.json()) == {"Idempotency-Key"}
    assert not Match.objects.exists()


def test_a_fix_made_on_an_old_version_is_a_409_with_the_current_one() -> None:
    client = signed(make_user("anna"))
    match = started(client)
    game = enter(client, match["id"], declarer=0, game=WON_CLUBS).json()["game"]
    address = f"/api/v1/matches/{match['id']}/games/{game['id']}/"
    fixed = client.put(address, {"declarer": 2, "game": WON_CLUBS}, format="json", headers={"If-Match": '"1"'})
    assert fixed.status_code == 200
    assert fixed.json()["match"]["totals"] == [0, 0, 36]
    assert fixed["ETag"] == '"2"'
    stale = client.put(address, {"declarer": 1, "game": WON_CLUBS}, format="json", headers={"If-Match": '"1"'})
    assert stale.status_code == 409
    assert stale.json()["version"] == 2
    assert "match" in stale.json()
    assert Game.objects.get(public_id=game["id"]).declarer == 2
    unreadable = client.put(address, {"declarer": 1, "game": WON_CLUBS}, format="json", headers={"If-Match": "x"})
    assert unreadable.status_code == 400


def test_a_game_is_deleted_undone_and_redone_and_the_history_tells_it() -> None:
    client = signed(make_user("anna"))
    match = started(client)
    games = [enter(client, match["id"], declarer=seat, game=WON_CLUBS).json()["game"] for seat in range(3)]
    address = f"/api/v1/matches/{match['id']}/games/{games[0]['id']}/"
    deleted = client.delete(address, headers={"If-Match": '"3"'})
    assert deleted.status_code == 200
    assert deleted.json()["deals"] == 2
    assert deleted.json()["totals"] == [0, 36, 36]
    assert client.get(address).status_code == 410
    assert client.put(address, {"declarer": 1, "game": WON_CLUBS}, format="json").status_code == 410
    undone = client.post(f"/api/v1/matches/{match['id']}/undo/", {}, format="json")
    assert undone.json()["change"]["action"] == "undo"
    assert undone.json()["match"]["totals"] == [36, 36, 36]
    redone = client.post(f"/api/v1/matches/{match['id']}/redo/", {}, format="json", headers={"If-Match": '"5"'})
    assert redone.json()["change"]["action"] == "redo"
    assert redone.json()["match"]["deals"] == 2
    nothing = client.post(f"/api/v1/matches/{match['id']}/redo/", {}, format="json")
    assert nothing.json()["change"] is None
    changes = client.get(f"/api/v1/matches/{match['id']}/changes/").json()["results"]
    assert [change["action"] for change in changes] == ["redo", "undo", "delete", "add", "add", "add"]
    assert changes[2]["before"]["entry"] == WON_CLUBS


def test_a_closed_list_takes_no_change() -> None:
    user = make_user("anna")
    client = signed(user)
    match = started(client)
    Match.objects.filter(public_id=match["id"]).update(locked=True)
    response = enter(client, match["id"], declarer=0, game=WON_CLUBS)
    assert response.status_code == 409
    assert response.json()["version"] == 0
    assert not Game.objects.exists()


def test_others_matches_are_not_there() -> None:
    owner, stranger = make_user("anna"), make_user("xaver")
    match = make_match(owner)
    game = add(match, declarer=0, **WON_CLUBS)
    client = signed(stranger)
    for address in (
        f"/api/v1/matches/{match.public_id}/",
        f"/api/v1/matches/{match.public_id}/games/",
        f"/api/v1/matches/{match.public_id}/games/{game.public_id}/",
    ):
        assert client.get(address).status_code == 404
    assert enter(client, str(match.public_id), declarer=0, game=WON_CLUBS).status_code == 404
    assert client.get("/api/v1/matches/").json()["results"] == []
    assert Game.objects.count() == 1


def test_a_game_of_another_match_is_not_reached_through_ones_own() -> None:
    anna = make_user("anna")
    own, other = make_match(anna), make_match(make_user("xaver"))
    game = add(other, declarer=0, **WON_CLUBS)
    client = signed(anna)
    address = f"/api/v1/matches/{own.public_id}/games/{game.public_id}/"
    assert client.get(address).status_code == 404
    assert client.delete(address).status_code == 404
    assert not Game.objects.get(pk=game.pk).deleted


# --- Lists: pages and filters --------------------------------------------------------------------------------------


def walk(client: APIClient, address: str) -> list[dict[str, Any]]:
    """Every entry of a list, following its pages."""
    seen: list[dict[str, Any]] = []
    next_page: str | None = address
    while next_page:
        page = client.get(next_page).json()
        seen += page["results"]
        next_page = page["next"]
    return seen


def test_games_come_in_pages_in_the_order_played() -> None:
    user = make_user("anna")
    match = make_match(user)
    for seat in range(7):
        add(match, declarer=seat % 3, **WON_CLUBS)
    match_undo(match=match, user=user, token=uuid.uuid4())
    games = walk(signed(user), f"/api/v1/matches/{match.public_id}/games/?page_size=2")
    assert [game["number"] for game in games] == [1, 2, 3, 4, 5, 6]


def queries_for(client: APIClient, address: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200
    return len(queries)


def test_a_page_costs_the_same_however_long_the_match() -> None:
    user = make_user("anna")
    short, long = make_match(user), make_match(user)
    for seat in range(3):
        add(short, declarer=seat, **WON_CLUBS)
    for seat in range(120):
        add(long, declarer=seat % 3, **WON_CLUBS)
    client = signed(user)
    for suffix in ("", "games/", "changes/"):
        assert queries_for(client, f"/api/v1/matches/{long.public_id}/{suffix}") == queries_for(
            client, f"/api/v1/matches/{short.public_id}/{suffix}"
        )


def test_a_page_of_matches_costs_the_same_however_many_there_are() -> None:
    user = make_user("anna")
    make_match(user)
    client = signed(user)
    few = queries_for(client, "/api/v1/matches/")
    for _ in range(12):
        make_match(user, names=("Dora", "Emil", "Fritz", "Gerd"))
    assert queries_for(client, "/api/v1/matches/") == few


def test_matches_are_filtered_by_player_variant_and_date() -> None:
    user = make_user("anna")
    skat = make_match(user)
    officers = make_match(user, variant="officers-skat", names=("Anna", "Dora"))
    Match.objects.filter(pk=skat.pk).update(created_at=datetime.datetime(2026, 3, 1, 20, tzinfo=datetime.UTC))
    dora = officers.seats.get(position=1).player
    client = signed(user)

    def ids(query: str) -> set[str]:
        return {match["id"] for match in walk(client, f"/api/v1/matches/?{query}")}

    assert ids("") == {str(skat.public_id), str(officers.public_id)}
    assert ids(f"player={dora.public_id}") == {str(officers.public_id)}
    assert ids("variant=skat") == {str(skat.public_id)}
    assert ids("until=2026-06-30") == {str(skat.public_id)}
    assert ids("since=2026-07-01") == {str(officers.public_id)}
    refused = client.get("/api/v1/matches/?variant=poker&since=yesterday")
    assert refused.status_code == 400
    assert set(refused.json()) == {"variant", "since"}
    assert client.get("/api/v1/matches/?since=2026-07-01&until=2026-06-30").status_code == 400


def test_players_and_their_statistics() -> None:
    user = make_user("anna")
    match = make_match(user)
    add(match, declarer=1, **WON_CLUBS)
    client = signed(user)
    players = walk(client, "/api/v1/players/")
    assert [player["name"] for player in players] == ["Anna", "Ben", "Cleo"]
    ben = client.get(f"/api/v1/players/{players[1]['id']}/").json()
    assert ben["stats"] == [
        {
            "variant": "skat",
            "scheme": "standard",
            "total": 36,
            "games": 1,
            "declared": 1,
            "won": 1,
            "lost": 0,
            "average": 36.0,
        }
    ]
    assert signed(make_user("xaver")).get(f"/api/v1/players/{players[1]['id']}/").status_code == 404


# --- Clubs ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def club_night() -> tuple[User, Any]:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Ida", "Jan", "Kai", "Lea", "Max", "Nils", "Ole"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    for table in night.tables.select_related("match"):
        setup = table.match.setup()
        for number in range(1, 4):
            add(table.match, declarer=setup.seating(number).playing[number - 1], **WON_CLUBS)
    return owner, night


def test_a_club_its_season_night_tables_and_standings(club_night: tuple[User, Any]) -> None:
    owner, night = club_night
    client = signed(owner)
    [club] = walk(client, "/api/v1/clubs/")
    assert (club["name"], club["role"]) == ("Herz Dame", "owner")
    detail = client.get(f"/api/v1/clubs/{club['id']}/").json()
    assert [season["name"] for season in detail["seasons"]] == ["2026"]
    season = client.get(f"/api/v1/seasons/{detail['seasons'][0]['id']}/").json()
    assert season["nights"] == [
        {"id": str(night.public_id), "season": season["id"], "date": "2026-11-24", "series": 1, "closed": False}
    ]
    tables = client.get(f"/api/v1/nights/{night.public_id}/").json()["tables"]
    assert sorted(len(table["seats"]) for table in tables) == [3, 4]
    results = night_results(night)
    standings = client.get(f"/api/v1/nights/{night.public_id}/standings/").json()
    assert [(row["place"], row["player"], row["score"]) for row in standings["places"]] == [
        (place.place, place.standing.player, int(place.standing.score)) for place in results.night_places
    ]
    assert [series["series"] for series in standings["series"]] == [1]
    table = season_table(night.season)
    season_rows = client.get(f"/api/v1/seasons/{season['id']}/standings/").json()["places"]
    assert [(row["player"], row["won"]) for row in season_rows] == [
        (place.standing.player, place.standing.won) for place in table.places
    ]
    names = {row["name"] for row in season_rows}
    assert names == {"Ida", "Jan", "Kai", "Lea", "Max", "Nils", "Ole"}


def test_a_club_is_not_there_for_those_outside_it(club_night: tuple[User, Any]) -> None:
    _, night = club_night
    client = signed(make_user("xaver"))
    assert walk(client, "/api/v1/clubs/") == []
    for address in (
        f"/api/v1/clubs/{night.season.club.public_id}/",
        f"/api/v1/seasons/{night.season.public_id}/standings/",
        f"/api/v1/nights/{night.public_id}/",
    ):
        assert client.get(address).status_code == 404


def test_a_scorer_of_the_club_enters_a_tables_game(club_night: tuple[User, Any]) -> None:
    _, night = club_night
    scorer = make_user("sven")
    clubs.member_set(club=night.season.club, username="sven", role="scorer")
    match = night.tables.first().match
    client = signed(scorer)
    declarer = match.setup().seating(match.deals + 1).forehand
    response = enter(client, str(match.public_id), declarer=declarer, game=WON_CLUBS)
    assert response.status_code == 201
    assert MatchEvent.objects.filter(match=match, user=scorer).count() == 1


def test_the_schema_documents_every_address_of_the_api(api: APIClient) -> None:
    schema = api.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    paths = set(schema["paths"])
    assert {
        "/api/v1/auth/token/",
        "/api/v1/players/",
        "/api/v1/matches/",
        "/api/v1/matches/{match_id}/games/",
        "/api/v1/matches/{match_id}/games/{game_id}/",
        "/api/v1/matches/{match_id}/undo/",
        "/api/v1/clubs/",
        "/api/v1/seasons/{season_id}/standings/",
        "/api/v1/nights/{night_id}/standings/",
    } <= paths
    add_game = schema["paths"]["/api/v1/matches/{match_id}/games/"]["post"]
    assert {"201", "400", "401", "404", "409"} <= set(add_game["responses"])
    assert "Idempotency-Key" in {parameter["name"] for parameter in add_game["parameters"]}
    assert "knoxApiToken" in schema["components"]["securitySchemes"]


def test_a_change_made_with_an_invite_link_held_in_the_browser_needs_the_csrf_token() -> None:
    match = make_match(make_user("anna"))
    browser = APIClient(enforce_csrf_checks=True)
    browser.get(f"/join/{match.invite_token}/")
    joined = browser.post(f"/join/{match.invite_token}/", {"csrfmiddlewaretoken": browser.cookies["csrftoken"].value})
    assert joined.status_code == 302
    address = f"/api/v1/matches/{match.public_id}/games/"
    assert browser.get(address).status_code == 200
    refused = browser.post(address, {"declarer": 1, "game": WON_CLUBS}, format="json")
    assert refused.status_code == 403
    csrf = {"X-CSRFToken": browser.cookies["csrftoken"].value}
    assert browser.post(address, {"declarer": 1, "game": WON_CLUBS}, format="json", headers=csrf).status_code == 201
    assert Game.objects.filter(match=match).count() == 1


# --- Retries, nulls and odd input ----------------------------------------------------------------------------------


def test_a_retried_delete_gets_its_first_answer() -> None:
    client = signed(make_user("anna"))
    match = started(client)
    game = enter(client, match["id"], declarer=0, game=WON_CLUBS).json()["game"]
    address = f"/api/v1/matches/{match['id']}/games/{game['id']}/"
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.delete(address, headers=key)
    again = client.delete(address, headers=key)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json()["deals"] == 0
    assert client.delete(address, headers={"Idempotency-Key": str(uuid.uuid4())}).status_code == 410
    assert MatchEvent.objects.filter(match__public_id=match["id"], action="delete").count() == 1


def test_a_retried_start_from_another_account_or_with_other_content_shows_nothing_of_the_first() -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    anna, bob = signed(make_user("anna")), signed(make_user("bob"))
    body = {"variant": "skat", "title": "Anna's secret", "players": ["Anna", "Ben", "Cleo"]}
    assert anna.post("/api/v1/matches/", body, format="json", headers=key).status_code == 201
    stolen = bob.post("/api/v1/matches/", body, format="json", headers=key)
    assert (stolen.status_code, stolen.json()["Idempotency-Key"]) == (409, [KEY_USED])
    assert "Anna's secret" not in stolen.content.decode()
    other = anna.post("/api/v1/matches/", {**body, "players": ["Dora", "Emil", "Fritz"]}, format="json", headers=key)
    assert other.status_code == 409
    assert Match.objects.count() == 1


def test_a_ramsch_has_no_declarer_and_a_game_read_is_sent_back_unchanged() -> None:
    client = signed(make_user("anna"))
    match = started(client, rules={"ramsch": True})
    ramsch = {"contract": "ramsch", "ramsch": {"card_points": [0, 75, 45], "jungfrau": [0], "pushes": 0}}
    response = enter(client, match["id"], declarer=None, game=ramsch)
    assert response.status_code == 201, response.content
    assert response.json()["game"]["declarer"] is None
    plain = started(client)
    assert enter(client, plain["id"], passed=True, declarer=None, game=None).status_code == 201
    address = f"/api/v1/matches/{match['id']}/games/{response.json()['game']['id']}/"
    read = client.get(address).json()
    sent = {"passed": read["passed"], "declarer": read["declarer"], "game": read["game"]}
    again = client.put(address, sent, format="json", headers={"If-Match": client.get(address)["ETag"]})
    assert again.status_code == 200, again.content
    assert again.json()["game"]["points"] == read["points"]


@pytest.mark.parametrize(
    "position", ["p=garbage", "p=%00", "r=1&p=x", "o=5&p=2020-13-45", "o=-1", "o=x"], ids=lambda position: position
)
def test_a_cursor_not_made_here_is_a_404(position: str) -> None:
    user = make_user("anna")
    match = make_match(user)
    add(match, declarer=0, **WON_CLUBS)
    client = signed(user)
    cursor = base64.b64encode(position.replace("%00", "\x00").encode()).decode()
    by_name = ["/api/v1/players/"] if "%00" in position else []  # any other text is a place among names
    for address in (
        *by_name,
        "/api/v1/matches/",
        "/api/v1/clubs/",
        f"/api/v1/matches/{match.public_id}/games/",
        f"/api/v1/matches/{match.public_id}/changes/",
    ):
        assert client.get(address, {"cursor": cursor}).status_code == 404, address


def test_a_new_password_ends_every_token(client: Any) -> None:
    user = make_user("anna")
    api = signed(user)
    client.force_login(user)
    changed = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-password-2",
            "new_password2": "another-long-password-2",
        },
    )
    assert changed.status_code == 302
    assert api.get("/api/v1/matches/").status_code == 401
    assert not AuthToken.objects.exists()
    fresh = APIClient()
    fresh.credentials(
        HTTP_AUTHORIZATION=f"Token {token_for(fresh, User.objects.get(pk=user.pk), 'another-long-password-2')}"
    )
    assert client.login(request=HttpRequest(), username="anna", password="another-long-password-2")
    assert fresh.get("/api/v1/matches/").status_code == 200


def test_a_preset_gives_its_scheme_and_rules_and_only_to_its_variant() -> None:
    client = signed(make_user("anna"))
    match = started(client, preset="skat-pub", rules={"bock": False})
    assert (match["rules"]["kontra_re"], match["rules"]["ramsch"], match["rules"]["bock"]) == (True, True, False)
    tournament = started(client, preset="skat-tournament")
    assert tournament["scheme"] == "seeger-fabian"
    wrong = client.post(
        "/api/v1/matches/", {"variant": "officers-skat", "preset": "skat-pub", "players": ["A", "B"]}, format="json"
    )
    assert wrong.status_code == 400
    assert "preset" in wrong.json()


@pytest.mark.parametrize("number", [0, -3, 10**30])
def test_a_deal_number_out_of_range_is_a_400(number: int) -> None:
    client = signed(make_user("anna"))
    match = started(client)
    response = enter(client, match["id"], declarer=0, game=WON_CLUBS, number=number)
    assert response.status_code == 400
    assert set(response.json()) == {"number"}


def test_an_entry_for_a_game_past_the_next_after_an_undo_says_which_game_is_next() -> None:
    client = signed(make_user("anna"))
    match = started(client)
    for declarer in (0, 1, 2):
        assert enter(client, match["id"], declarer=declarer, game=WON_CLUBS).status_code == 201
    assert client.post(f"/api/v1/matches/{match['id']}/undo/", {}, format="json").status_code == 200

    response = enter(client, match["id"], declarer=0, game=WON_CLUBS, number=4)

    assert response.status_code == 409
    assert response.json()["match"] == ["The next game is 3, not game 4: check the list before saving."]


@pytest.mark.parametrize("depth", [20, 1_000, 30_000])
def test_json_nested_too_deep_is_a_400(api: APIClient, depth: int) -> None:
    body = "[" * depth + "]" * depth
    for address in ("/api/v1/auth/token/", "/api/v1/calculate/"):
        response = api.post(address, body, content_type="application/json")
        assert response.status_code == 400


def test_a_change_made_with_a_guests_book_needs_the_csrf_token() -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.get("/matches/new/")
    form = {
        "csrfmiddlewaretoken": browser.cookies["csrftoken"].value,
        "preset": "skat-isko",
        "scheme": "standard",
        "first_dealer": "0",
        "player_0": "Anna",
        "player_1": "Ben",
        "player_2": "Cleo",
    }
    assert browser.post("/matches/new/", form).status_code == 302
    match = Match.objects.get()
    address = f"/api/v1/matches/{match.public_id}/games/"
    assert browser.get(address).status_code == 200
    assert browser.post(address, {"declarer": 1, "game": WON_CLUBS}, format="json").status_code == 403
    assert not Game.objects.exists()


def test_the_schema_describes_pages_and_offers_private_addresses_to_nobody_anonymous(api: APIClient) -> None:
    schema = api.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    games = schema["paths"]["/api/v1/matches/{match_id}/games/"]["get"]
    listed = games["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(schema["components"]["schemas"][listed]["properties"]) == {"next", "previous", "results"}
    assert {"cursor", "page_size"} <= {parameter["name"] for parameter in games["parameters"]}
    assert {} not in games["security"]
    assert {} in schema["paths"]["/api/v1/auth/token/"]["post"].get("security", [{}])


def test_a_durchmarsch_beside_a_player_who_took_a_trick_is_a_400_naming_the_field() -> None:
    client = signed(make_user("anna"))
    match = started(client, rules={"ramsch": True})
    ramsch = {"contract": "ramsch", "ramsch": {"card_points": [120, 0, 0], "jungfrau": [1], "durchmarsch": 0}}
    response = enter(client, match["id"], declarer=None, game=ramsch)
    assert response.status_code == 400, response.content
    assert response.json()["game"]["ramsch"]["durchmarsch"] == [
        "A Durchmarsch means no other player took a trick: name every other player as Jungfrau, or none."
    ]


def test_a_retried_fix_or_deletion_says_it_was_replayed_and_a_key_of_another_is_refused() -> None:
    client = signed(make_user("anna"))
    match = started(client)
    game = enter(client, match["id"], declarer=0, game=WON_CLUBS).json()["game"]
    address = f"/api/v1/matches/{match['id']}/games/{game['id']}/"
    key = {"Idempotency-Key": str(uuid.uuid4())}
    fixed = client.put(address, {"declarer": 2, "game": WON_CLUBS}, format="json", headers=key)
    again = client.put(address, {"declarer": 2, "game": WON_CLUBS}, format="json", headers=key)
    assert (fixed.status_code, fixed.json()["replayed"]) == (200, False)
    assert (again.status_code, again.json()["replayed"]) == (200, True)
    assert again.json()["game"] == fixed.json()["game"]
    other = client.put(address, {"declarer": 1, "game": WON_CLUBS}, format="json", headers=key)
    assert (other.status_code, other.json()["Idempotency-Key"]) == (409, [KEY_USED])
    key = {"Idempotency-Key": str(uuid.uuid4())}
    deleted = client.delete(address, headers=key)
    again = client.delete(address, headers=key)
    assert (deleted.status_code, deleted.json()["replayed"]) == (200, False)
    assert (again.status_code, again.json()["replayed"]) == (200, True)
    assert again.json()["totals"] == deleted.json()["totals"] == [0, 0, 0]
    assert MatchEvent.objects.filter(match__public_id=match["id"]).count() == 3
