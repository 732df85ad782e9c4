"""Open tournaments through the API: every read (the tournament as announced, its entries with their payments, an
entrant's own entry, tandems and teams, series with their tables, the standings per series and in total, the prize
list, the cashier's list) and every change (an online entry, an entry at the door, a payment, a withdrawal, a tandem
or team, a draw, a table's paper list, closing a series), each with its retry by Idempotency-Key, its change on a
stale version and its bad input, and who may make it: the organiser, a secretary of the tournament's club, an
entrant, a stranger and somebody without an account."""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from matches.clubs import services as clubs
from matches.labels import NO_BREAK_SPACE
from matches.models import Game, KeptAnswer
from matches.tasks import ANSWERS_KEPT, forget_old_answers
from matches.tournaments import services as tournaments
from matches.tournaments.models import Entry, Payment, Series, Side, Table, Tournament

from .conftest import ModuleData, fresh
from .factories import make_user
from .tournaments_setup import SETTINGS, announce, enter_field, enter_paper, paper_totals, play_series, seated

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Field:
    """A tournament announced for a club, with eight entries (six at the door and paid, one online and paid, and
    an entrant's own online entry, not paid yet), and the people around it."""

    tournament: Tournament
    entries: list[Entry]
    own: Entry
    people: dict[str, User | None]

    @property
    def organiser(self) -> User:
        organiser = self.people["organiser"]
        assert organiser is not None
        return organiser


@pytest.fixture(scope="module")
def built_field(module_data: ModuleData) -> Field:
    return module_data.build(_field)


@pytest.fixture
def field(built_field: Field, db: None) -> Field:
    return fresh(built_field)


def _field() -> Field:
    organiser, secretary, entrant = make_user("organiser"), make_user("secretary"), make_user("entrant")
    club = clubs.club_create(owner=make_user("owner"), name="Grand Hand")
    clubs.member_set(club=club, username=secretary.username, role="secretary")
    clubs.member_set(club=club, username=organiser.username, role="secretary")
    tournament = tournaments.tournament_announce(organiser=organiser, settings=SETTINGS, club=club)
    entries = enter_field(tournament, 7, online=1)
    own = tournaments.entry_register_online(
        tournament=tournament, form=tournaments.EntryForm("Eva Entrant", club="SC 9"), account=entrant
    )
    people = {
        "organiser": organiser,
        "club secretary": secretary,
        "entrant": entrant,
        "stranger": make_user("stranger"),
        "anonymous": None,
    }
    return Field(tournament, [*entries, own], own, people)


def signed(user: User | None) -> APIClient:
    """A client that sends a token of ``user``'s, as a script would (none: no credentials at all)."""
    client = APIClient()
    if user is not None:
        _, token = AuthToken.objects.create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def address(tournament: Tournament, what: str = "") -> str:
    return f"/api/v1/tournaments/{tournament.public_id}/" + (f"{what}/" if what else "")


def send(
    client: APIClient,
    where: str,
    body: dict[str, Any],
    *,
    key: str | None = None,
    seen: int | None = None,
    method: str = "post",
) -> Any:
    headers = {"Idempotency-Key": key or str(uuid.uuid4())}
    if seen is not None:
        headers["If-Match"] = f'"{seen}"'
    return getattr(client, method)(where, body, format="json", headers=headers)


def version(tournament: Tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


def drawn(field: Field, number: int = 1) -> Series:
    tournaments.series_draw(tournament=field.tournament, number=number, user=field.organiser)
    return Series.objects.get(tournament=field.tournament, number=number)


def closed(field: Field, number: int = 1, *, salt: int = 0) -> Series:
    series = drawn(field, number)
    play_series(series, salt=salt)
    return tournaments.series_close(series=series, user=field.organiser)


def ids(entries: list[Entry]) -> list[str]:
    return [str(entry.public_id) for entry in entries]


# --- Reads -----------------------------------------------------------------------------------------------------------


def test_the_tournaments_are_listed_in_pages_for_everybody(field: Field) -> None:
    tournaments.tournament_announce(
        organiser=make_user("otto"), settings=tournaments.TournamentSettings(name="Herbstskat", date=SETTINGS.date)
    )
    first = APIClient().get("/api/v1/tournaments/", {"page_size": 1})
    assert first.status_code == 200
    second = APIClient().get(first.json()["next"])
    names = [one["name"] for one in first.json()["results"] + second.json()["results"]]
    assert names == ["Herbstskat", "Preisskat im Goldenen Löwen"]
    assert second.json()["results"][0]["club"]["name"] == "Grand Hand"
    assert APIClient().get("/api/v1/tournaments/", {"page_size": 0}).status_code == 400


def test_a_tournament_answers_as_announced_with_its_version_as_its_etag(field: Field) -> None:
    response = APIClient().get(address(field.tournament))
    assert response.status_code == 200
    body = response.json()
    assert response["ETag"] == f'"{body["version"]}"'
    assert body["version"] == version(field.tournament)
    assert body["fees"] == {
        "entry": 1500,
        "list": 200,
        "lost_games": [{"start": 1, "cents": 50}, {"start": 4, "cents": 100}, {"start": 6, "cents": 300}],
        "tandem": 0,
        "team": 0,
    }
    assert body["places"] == {
        "values": [2000, 1600, 1400, 1200, 1100, 1050, 1000, 650],
        "kind": "shares",
        "payout": "in-full",
    }
    assert body["categories"] == [{"name": "Damen", "prizes": [3000, 1500]}, {"name": "Senioren", "prizes": [2000]}]
    assert (body["best_series"], body["series"], body["games_at_four"], body["entrants"]) == ([1500], 3, 16, 8)
    assert (body["drawn"], body["manages"], body["late_entries"]) == ([], False, True)
    assert signed(field.people["club secretary"]).get(address(field.tournament)).json()["manages"] is True


def test_the_organiser_reads_every_entry_with_its_payments_in_pages(field: Field) -> None:
    client = signed(field.organiser)
    first = client.get(address(field.tournament, "entries"), {"page_size": 5})
    assert first.status_code == 200
    rest = client.get(first.json()["next"]).json()
    assert rest["next"] is None
    rows = first.json()["results"] + rest["results"]
    assert [row["name"] for row in rows] == [entry.name for entry in field.entries]
    assert rows[0]["payments"][0]["amount"] == 1500
    assert (rows[0]["paid"], rows[0]["channel"], rows[1]["channel"]) == (1500, "online", "door")
    assert (rows[-1]["paid"], rows[-1]["payments"], rows[-1]["code"]) == (0, [], field.own.code)


def test_an_entrant_reads_their_own_entry_and_no_other(field: Field) -> None:
    entrant = signed(field.people["entrant"])
    own = entrant.get(address(field.tournament, f"entries/{field.own.public_id}"))
    assert own.status_code == 200
    assert (own.json()["name"], own.json()["club"], own.json()["code"]) == ("Eva Entrant", "SC 9", field.own.code)
    assert entrant.get(address(field.tournament, f"entries/{field.entries[0].public_id}")).status_code == 404
    assert entrant.get(address(field.tournament, "entries")).status_code == 404


def test_an_entry_is_not_found_under_another_tournament(field: Field) -> None:
    other = tournaments.tournament_announce(organiser=field.organiser, settings=SETTINGS)
    where = f"/api/v1/tournaments/{other.public_id}/entries/{field.own.public_id}/"
    assert signed(field.organiser).get(where).status_code == 404


def test_the_tandems_and_teams_are_read_by_everybody(field: Field) -> None:
    tournaments.side_enter(tournament=field.tournament, kind="tandem", name="Die Zwei", entries=field.entries[2:4])
    tournaments.side_enter(tournament=field.tournament, kind="team", name="Vier Buben", entries=field.entries[:4])
    body = APIClient().get(address(field.tournament, "sides")).json()
    assert [(side["kind"], side["name"]) for side in body] == [("tandem", "Die Zwei"), ("team", "Vier Buben")]
    assert [member["entry"] for member in body[0]["members"]] == ids(field.entries[2:4])


def test_a_series_answers_its_tables_whose_matches_are_scored_through_the_games(field: Field) -> None:
    series = drawn(field)
    body = APIClient().get(address(field.tournament, "series/1")).json()
    assert (body["number"], body["seating"], body["closed"], body["seed"]) == (1, "draw", False, series.seed)
    tables = list(Table.objects.filter(series=series).select_related("match").order_by("number"))
    assert [table["match"] for table in body["tables"]] == [str(table.match.public_id) for table in tables]
    assert [seat["entry"] for seat in body["tables"][0]["seats"]] == ids(seated(tables[0]))
    assert body["tables"][0]["planned_games"] == 16
    assert APIClient().get(address(field.tournament, "series")).json() == [
        {key: value for key, value in body.items() if key != "tournament"}
    ]
    game = {"declarer": 1, "game": {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}}
    where = f"/api/v1/matches/{body['tables'][0]['match']}/games/"
    assert send(signed(field.organiser), where, game).status_code == 201
    assert APIClient().get(address(field.tournament, "series/1")).json()["tables"][0]["deals"] == 1


@pytest.mark.parametrize("what", ["series/1", "series/2", "series/5", "series/1/standings"])
def test_a_series_not_drawn_is_not_found(field: Field, what: str) -> None:
    assert APIClient().get(address(field.tournament, what)).status_code == 404


def test_the_standings_come_in_pages_by_place_and_each_series_has_its_ranking(field: Field) -> None:
    closed(field, 1)
    series = drawn(field, 2)
    play_series(series, salt=1)
    whole = APIClient().get(address(field.tournament, "standings"), {"page_size": 200}).json()["results"]
    assert [row["place"] for row in whole] == list(range(1, 9))
    assert {row["entry"] for row in whole} == set(ids(field.entries))
    assert all(row["lists"] == 2 for row in whole)
    first = APIClient().get(address(field.tournament, "standings"), {"page_size": 3}).json()
    assert first["previous"] is None
    second = APIClient().get(first["next"]).json()
    third = APIClient().get(second["next"]).json()
    assert first["results"] + second["results"] + third["results"] == whole
    assert third["next"] is None
    assert APIClient().get(third["previous"]).json() == second
    assert APIClient().get(second["previous"]).json() == first
    one = APIClient().get(address(field.tournament, "series/2/standings"), {"page_size": 200}).json()["results"]
    assert [row["score"] for row in one] == sorted((row["score"] for row in one), reverse=True)
    by_entry = {row["entry"]: row for row in whole}
    first_series = APIClient().get(address(field.tournament, "series/1/standings")).json()["results"]
    assert {row["entry"]: row["score"] for row in whole} == {
        row["entry"]: row["score"] + next(other["score"] for other in one if other["entry"] == row["entry"])
        for row in first_series
    }
    assert by_entry[str(field.own.public_id)]["name"] == "Eva Entrant"


@pytest.mark.parametrize("size", ["0", "201", "1.5", "fifty", ""])
@pytest.mark.parametrize("what", ["entries", "standings", "series/1/standings"])
def test_a_page_size_that_is_not_a_whole_number_from_1_to_200_is_a_400_naming_it(
    field: Field, what: str, size: str
) -> None:
    drawn(field)
    response = signed(field.organiser).get(address(field.tournament, what), {"page_size": size})
    assert response.status_code == 400, response.content
    assert response.json() == {"page_size": ["Must be a whole number from 1 to 200."]}


def test_a_cursor_not_made_here_is_a_404_and_an_empty_one_a_400(field: Field) -> None:
    assert APIClient().get(address(field.tournament, "standings"), {"cursor": "bm9uc2Vuc2U"}).status_code == 404
    assert APIClient().get(address(field.tournament, "standings"), {"cursor": ""}).status_code == 400


def test_the_prize_list_is_public_and_the_cashiers_list_is_for_those_who_manage(field: Field) -> None:
    closed(field, 1)
    prizes = APIClient().get(address(field.tournament, "prizes")).json()
    assert prizes["problems"] == {}
    places = [prize for prize in prizes["prizes"] if prize["kind"] == "place"]
    assert [prize["place"] for prize in places] == list(range(1, 9))
    standings = APIClient().get(address(field.tournament, "standings")).json()["results"]
    best = next(prize for prize in prizes["prizes"] if prize["kind"] == "best-series")
    winners = {prize["winner"]["entry"] for prize in prizes["prizes"] if prize["winner"] is not None}
    assert standings[0]["entry"] in winners
    assert best["amount"] == 1500
    cashier = signed(field.people["club secretary"]).get(address(field.tournament, "cashier")).json()
    assert len(cashier["lines"]) == 8
    own = next(line for line in cashier["lines"] if line["entry"] == str(field.own.public_id))
    assert (own["entry_fee"], own["list_fees"], own["paid"]) == (1500, 200, 0)
    assert own["owed"] == own["due"] == 1500 + 200 + own["lost_game_fees"]
    assert cashier["paid_in"] == 7 * 1500
    assert cashier["paid_out"] == sum(line["won"] for line in cashier["lines"])
    pot = cashier["pot"]
    assert pot["total"] == sum(line["due"] for line in cashier["lines"])
    # The share and the prize money come from the prize pot: the fees but those the organiser keeps outright.
    assert pot["prize_pot"] == pot["total"] - pot["kept"] - pot["tandem_fees"] - pot["team_fees"] == 8 * 1500
    assert pot["share"] + pot["prize_money"] == pot["prize_pot"]
    for who in ("entrant", "stranger"):
        assert signed(field.people[who]).get(address(field.tournament, "cashier")).status_code == 404
    assert APIClient().get(address(field.tournament, "cashier")).status_code == 401


def test_a_tandems_and_a_teams_place_and_prize_name_the_side_alone_where_an_entrant_has_its_name() -> None:
    """A side may be named as an entrant is: its place and its prize's winner name no entry and no club, as the
    results page names them."""
    whole = tournaments.Schedule((10000,))
    tournament = announce(tandem_fee=500, team_fee=500, tandem_prizes=whole, team_prizes=whole)
    entries = enter_field(tournament, 8)
    tournaments.side_enter(tournament=tournament, kind="tandem", name=entries[0].name, entries=entries[2:4])
    tournaments.side_enter(tournament=tournament, kind="team", name=entries[1].name, entries=entries[4:8])
    series = tournaments.series_draw(tournament=tournament, number=1)[0].series
    play_series(series)
    tournaments.series_close(series=series, user=None)
    body = APIClient().get(address(tournament, "prizes")).json()
    assert body["problems"] == {}
    for kind, name in (("tandem", entries[0].name), ("team", entries[1].name)):
        [place] = body[f"{kind}s"]
        assert (place["name"], place["entry"], place["club"]) == (name, None, ""), kind
        [prize] = [prize for prize in body["prizes"] if prize["kind"] == kind]
        assert prize["winner"] == {"entry": None, "name": name, "withdrawn_after": None}, kind


def test_a_place_and_a_prize_winner_say_after_which_series_their_entrant_withdrew_at_no_cost_per_place() -> None:
    """``withdrawn_after`` of an entrant's places, prizes and line of the cashier's list, read with the results: null
    for one still in, and for a tandem's place and prize even where an entrant of its name withdrew."""
    tournament = announce(tandem_fee=500, tandem_prizes=tournaments.Schedule((10000,)))
    entries = enter_field(tournament, 8)
    tournaments.side_enter(tournament=tournament, kind="tandem", name=entries[0].name, entries=entries[2:4])
    series = tournaments.series_draw(tournament=tournament, number=1)[0].series
    play_series(series)
    tournaments.series_close(series=series, user=None)
    reads = ("standings", "series/1/standings", "prizes")

    def read() -> tuple[dict[str, Any], list[int]]:
        bodies, counts = {}, []
        for what in reads:
            with CaptureQueriesContext(connection) as queries:
                bodies[what] = APIClient().get(address(tournament, what)).json()
            counts.append(len(queries.captured_queries))
        return bodies, counts

    first, before = read()
    # The tandem's namesake withdraws, and so does the winner of the first place, whoever the draw made it.
    winner = Entry.objects.get(public_id=first["prizes"]["prizes"][0]["winner"]["entry"])
    gone = {str(tournaments.entry_withdraw(entry=entry).public_id) for entry in {entries[0], winner}}
    bodies, after = read()
    assert after == before
    for what in reads[:2]:
        withdrawn = {row["entry"]: row["withdrawn_after"] for row in bodies[what]["results"]}
        assert withdrawn == {str(entry.public_id): 1 if str(entry.public_id) in gone else None for entry in entries}
    prizes = bodies["prizes"]
    winners = [prize["winner"] for prize in prizes["prizes"] if prize["kind"] != "tandem" and prize["winner"]]
    assert winners[0] == {"entry": str(winner.public_id), "name": winner.name, "withdrawn_after": 1}
    assert all(one["withdrawn_after"] == (1 if one["entry"] in gone else None) for one in winners)
    [tandem] = prizes["tandems"]
    [prize] = [prize for prize in prizes["prizes"] if prize["kind"] == "tandem"]
    assert (tandem["name"], tandem["withdrawn_after"]) == (entries[0].name, None)
    assert prize["winner"] == {"entry": None, "name": entries[0].name, "withdrawn_after": None}
    cashier = signed(tournament.organiser).get(address(tournament, "cashier")).json()
    withdrawn = {line["entry"]: line["withdrawn_after"] for line in cashier["lines"]}
    assert withdrawn == {str(entry.public_id): 1 if str(entry.public_id) in gone else None for entry in entries}


def test_reading_the_results_costs_as_many_queries_however_many_players() -> None:
    """Each read of the results sums the lists in the database: a room of twice the players asks no more."""

    def counted(size: int) -> list[int]:
        organiser = make_user(f"organiser-{size}")
        tournament = tournaments.tournament_announce(organiser=organiser, settings=SETTINGS)
        enter_field(tournament, size, online=2)
        first = tournaments.series_draw(tournament=tournament, number=1, user=organiser)[0].series
        play_series(first, phones=(1,))
        tournaments.series_close(series=first, user=organiser)
        second = tournaments.series_draw(tournament=tournament, number=2, user=organiser)[0].series
        play_series(second, phones=(2,), salt=1)
        client = signed(organiser)
        found = []
        reads = ("standings", "series/1/standings", "series/2/standings", "prizes", "cashier", "series", "entries")
        for what in reads:
            with CaptureQueriesContext(connection) as queries:
                assert (
                    client.get(address(tournament, what), {"page_size": 200} if "standings" in what else {}).status_code
                    == 200
                )
            found.append(len(queries.captured_queries))
        return found

    assert counted(7) == counted(15)


# --- Every change: its answer, its retry, a stale version, who may make it --------------------------------------------


@dataclass(frozen=True)
class Asked:
    method: str
    where: str
    body: dict[str, Any]
    status: int


def asked(field: Field, change: str) -> Asked:
    """A change that goes through on the field as it stands for it (a series drawn for a paper list, its tables all
    entered for closing), and the status of its first answer."""
    tournament = field.tournament
    if change == "door":
        return Asked("post", address(tournament, "entries"), {"name": "Walter", "club": "SC 7"}, 201)
    if change == "online":
        return Asked("post", address(tournament, "enter"), {"name": "Olga", "category": "damen"}, 201)
    if change == "payment":
        return Asked("post", address(tournament, f"entries/{field.own.public_id}/payments"), {}, 201)
    if change == "withdraw":
        return Asked("post", address(tournament, f"entries/{field.own.public_id}/withdraw"), {}, 200)
    if change == "side":
        body = {"kind": "tandem", "name": "Die Zwei", "entries": ids(field.entries[:2])}
        return Asked("post", address(tournament, "sides"), body, 201)
    if change == "draw":
        return Asked("post", address(tournament, "series"), {"series": 1}, 201)
    series = drawn(field)
    table = Table.objects.get(series=series, number=1)
    if change == "paper":
        lines = [
            {"entry": str(entry.public_id), "game_points": points, "won": won, "lost": lost}
            for entry, (points, won, lost) in zip(
                seated(table), [paper_totals(2, 0, 0), paper_totals(1, 1, 0), (0, 0, 0), (0, 0, 0)], strict=False
            )
        ]
        return Asked("put", address(tournament, "series/1/tables/1/paper"), {"lines": lines}, 200)
    assert change == "close"
    play_series(series)
    return Asked("post", address(tournament, "series/1/close"), {}, 200)


CHANGES = ["door", "online", "payment", "withdraw", "side", "draw", "paper", "close"]


@pytest.mark.parametrize("change", CHANGES)
def test_each_change_moves_the_tournament_on_and_a_retry_gets_the_first_answer(field: Field, change: str) -> None:
    request = asked(field, change)
    client = signed(field.organiser)
    before = version(field.tournament)
    key = str(uuid.uuid4())
    first = send(client, request.where, request.body, key=key, seen=before, method=request.method)
    assert first.status_code == request.status, first.content
    after = version(field.tournament)
    assert after > before
    assert (first.json()["version"], first.json()["replayed"]) == (after, False)
    assert first["ETag"] == f'"{after}"'
    again = send(client, request.where, request.body, key=key, seen=before, method=request.method)
    assert again.status_code == 200
    assert again.json() == {**first.json(), "replayed": True}
    assert version(field.tournament) == after
    assert field.tournament.kept_answers.filter(key=key).count() == 1


@pytest.mark.parametrize("change", CHANGES)
def test_each_change_on_a_version_no_longer_current_is_a_409_with_the_current_one(field: Field, change: str) -> None:
    request = asked(field, change)
    current = version(field.tournament)
    response = send(signed(field.organiser), request.where, request.body, seen=current - 1, method=request.method)
    assert response.status_code == 409, response.content
    assert response.json()["version"] == current
    assert "changed meanwhile" in response.json()["tournament"][0]
    assert version(field.tournament) == current


def test_a_key_sent_again_with_another_change_is_a_409(field: Field) -> None:
    client = signed(field.organiser)
    key = str(uuid.uuid4())
    assert send(client, address(field.tournament, "entries"), {"name": "Walter"}, key=key).status_code == 201
    again = send(client, address(field.tournament, "entries"), {"name": "Wilma"}, key=key)
    assert again.status_code == 409
    assert "Idempotency-Key" in again.json()
    assert not Entry.objects.filter(name="Wilma").exists()


# Who may make each change: those who manage the tournament; everybody with an account enters online.
MAY_CHANGE = {"organiser", "club secretary"}


@pytest.mark.parametrize("who", ["organiser", "club secretary", "entrant", "stranger", "anonymous"])
@pytest.mark.parametrize("change", CHANGES)
def test_each_persona_changes_a_tournament_as_the_tournament_says(field: Field, change: str, who: str) -> None:
    request = asked(field, change)
    before = version(field.tournament)
    response = send(signed(field.people[who]), request.where, request.body, method=request.method)
    if who == "anonymous":
        assert response.status_code == 401
    elif who in MAY_CHANGE or change == "online":
        assert response.status_code == request.status, response.content
    else:
        assert response.status_code == 404
    assert (version(field.tournament) > before) is (response.status_code < 300)


@pytest.mark.parametrize("who", ["organiser", "club secretary", "entrant", "stranger", "anonymous"])
def test_everybody_reads_the_tournament_and_its_results_and_only_whom_it_lets_its_entries(
    field: Field, who: str
) -> None:
    closed(field, 1)
    client = signed(field.people[who])
    for what in ("", "sides", "series", "series/1", "series/1/standings", "standings", "prizes"):
        assert client.get(address(field.tournament, what)).status_code == 200, what
    manages = 200 if who in MAY_CHANGE else 401 if who == "anonymous" else 404
    assert client.get(address(field.tournament, "entries")).status_code == manages
    assert client.get(address(field.tournament, "cashier")).status_code == manages
    own = 200 if who in {*MAY_CHANGE, "entrant"} else 401 if who == "anonymous" else 404
    assert client.get(address(field.tournament, f"entries/{field.own.public_id}")).status_code == own


# --- Each change's own answers and refusals ---------------------------------------------------------------------------


def test_an_entry_at_the_door_is_paid_at_once_and_answers_its_code(field: Field) -> None:
    response = send(signed(field.organiser), address(field.tournament, "entries"), {"name": "Walter"})
    entry = response.json()["entry"]
    stored = Entry.objects.get(public_id=entry["id"])
    assert (entry["name"], entry["channel"], entry["code"], entry["paid"]) == ("Walter", "door", stored.code, 1500)
    unpaid = send(signed(field.organiser), address(field.tournament, "entries"), {"name": "Wilma", "paid": False})
    assert unpaid.json()["entry"]["payments"] == []


def test_an_online_entry_is_read_again_by_its_entrant(field: Field) -> None:
    olga = make_user("olga")
    response = send(signed(olga), address(field.tournament, "enter"), {"name": "Olga", "category": "Damen"})
    entry = response.json()["entry"]
    assert (entry["channel"], entry["category"], entry["paid"]) == ("online", "Damen", 0)
    again = signed(olga).get(address(field.tournament, f"entries/{entry['id']}"))
    assert again.json()["code"] == Entry.objects.get(public_id=entry["id"]).code


def test_an_online_entry_to_a_tournament_that_is_not_there_is_a_404(field: Field) -> None:
    response = send(signed(make_user("olga")), f"/api/v1/tournaments/{uuid.uuid4()}/enter/", {"name": "Olga"})
    assert response.status_code == 404


def test_an_entry_after_the_draw_is_a_400_naming_the_field(field: Field) -> None:
    drawn(field)
    for where, client in (("entries", signed(field.organiser)), ("enter", signed(make_user("olga")))):
        response = send(client, address(field.tournament, where), {"name": "Spät"})
        assert response.status_code == 400, response.content
        assert response.json() == {"name": ["Series 1 is drawn: entries are closed."]}
    assert not Entry.objects.filter(name="Spät").exists()


def test_a_player_entered_twice_is_a_400_naming_the_player(field: Field) -> None:
    response = send(
        signed(field.organiser), address(field.tournament, "entries"), {"name": "Eva Entrant", "club": "SC 9"}
    )
    assert response.status_code == 400
    assert response.json() == {"name": ["Eva Entrant has entered already."]}


@pytest.mark.parametrize(
    ("body", "field_name"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "Walter", "category": "Junioren"}, "category"),
        ({"name": "Walter", "federation_number": "12 34 ?"}, "federation_number"),
        ({"name": "Walter", "club": "x" * 101}, "club"),
        ({"name": "Walter", "age": 70}, "age"),
    ],
)
def test_an_entry_that_does_not_fit_is_a_400_naming_the_field(
    field: Field, body: dict[str, Any], field_name: str
) -> None:
    response = send(signed(field.organiser), address(field.tournament, "entries"), body)
    assert response.status_code == 400
    assert list(response.json()) == [field_name]


def test_a_payment_is_recorded_beside_the_others_and_a_correction_too(field: Field) -> None:
    client = signed(field.organiser)
    where = address(field.tournament, f"entries/{field.own.public_id}/payments")
    assert send(client, where, {"amount": 2000, "paid": 0}).json()["entry"]["paid"] == 2000
    corrected = send(client, where, {"amount": -500, "paid": 2000}).json()["entry"]
    assert ([one["amount"] for one in corrected["payments"]], corrected["paid"]) == ([2000, -500], 1500)
    assert Payment.objects.filter(entry=field.own).count() == 2


def test_a_payment_naming_a_paid_below_nought_is_a_400_naming_it(field: Field) -> None:
    """What an entrant had paid is never below nought: a client sending it is told so, never answered with a 500."""
    response = send(
        signed(field.organiser),
        address(field.tournament, f"entries/{field.own.public_id}/payments"),
        {"amount": 500, "paid": -1},
    )
    assert response.status_code == 400
    assert list(response.json()) == ["paid"]
    assert not Payment.objects.filter(entry=field.own).exists()


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "Eva Entrant has nothing to pay."),
        (-100, f"Eva Entrant has paid 0.00{NO_BREAK_SPACE}€: a correction takes back no more."),
        ("zehn", "Send whole cents as a number, not as text: 1500 for 15 €."),
        ("15", "Send whole cents as a number, not as text: 1500 for 15 €."),
        (15.0, "Send whole cents as a number, not as text: 1500 for 15 €."),
        (None, "Send whole cents as a number: 1500 for 15 €."),
        (True, "Send whole cents as a number, not as text: 1500 for 15 €."),
    ],
)
def test_a_payment_that_cannot_be_is_a_400_naming_the_amount(field: Field, amount: Any, message: str) -> None:
    """Whole cents as a JSON number only: "15" is not read as 15 cents when a cashier's tool meant 15 €."""
    response = send(
        signed(field.organiser),
        address(field.tournament, f"entries/{field.own.public_id}/payments"),
        {"amount": amount, "paid": 0},
    )
    assert response.status_code == 400
    assert response.json() == {"amount": [message]}
    assert not Payment.objects.filter(entry=field.own).exists()


def test_a_payment_of_an_amount_says_what_the_cashier_saw_paid(field: Field) -> None:
    where = address(field.tournament, f"entries/{field.own.public_id}/payments")
    response = send(signed(field.organiser), where, {"amount": 1500})
    assert response.status_code == 400
    assert list(response.json()) == ["paid"]
    assert not Payment.objects.filter(entry=field.own).exists()


def test_a_payment_meeting_one_recorded_meanwhile_is_a_409_and_takes_nothing(field: Field) -> None:
    """Two cashiers (or the desk and a tool) take the fee each having seen nothing paid: the second is refused."""
    client = signed(field.organiser)
    where = address(field.tournament, f"entries/{field.own.public_id}/payments")
    assert send(client, where, {"amount": 1500, "paid": 0}).status_code == 201
    response = send(client, where, {"amount": 1500, "paid": 0})
    assert response.status_code == 409
    assert response.json()["paid"] == [
        f"Eva Entrant has paid 15.00{NO_BREAK_SPACE}€ meanwhile (the list showed 0.00{NO_BREAK_SPACE}€): nothing more "
        "was taken. The list shows what is still owed."
    ]
    assert list(Payment.objects.filter(entry=field.own).values_list("amount", flat=True)) == [1500]
    # A correction sent having seen nothing paid takes nothing back, and says so.
    response = send(client, where, {"amount": -1500, "paid": 0})
    assert response.status_code == 409
    assert response.json()["paid"] == [
        f"Eva Entrant has paid 15.00{NO_BREAK_SPACE}€ meanwhile (the list showed 0.00{NO_BREAK_SPACE}€): nothing was "
        "taken back. The list shows what is paid now."
    ]
    assert list(Payment.objects.filter(entry=field.own).values_list("amount", flat=True)) == [1500]


def test_a_withdrawal_is_kept_and_a_second_is_a_409(field: Field) -> None:
    client = signed(field.organiser)
    where = address(field.tournament, f"entries/{field.own.public_id}/withdraw")
    assert send(client, where, {}).json()["entry"]["withdrawn_after"] == 0
    again = send(client, where, {})
    assert again.status_code == 409
    assert again.json()["entry"] == ["Eva Entrant withdrew before series 1."]


def test_an_entrant_seated_in_a_series_being_played_withdraws_once_it_is_closed(field: Field) -> None:
    series = drawn(field)
    where = address(field.tournament, f"entries/{field.own.public_id}/withdraw")
    assert send(signed(field.organiser), where, {}).status_code == 409
    play_series(series)
    tournaments.series_close(series=series, user=field.organiser)
    assert send(signed(field.organiser), where, {}).json()["entry"]["withdrawn_after"] == 1


def test_a_side_of_the_wrong_size_or_with_an_unknown_entrant_is_a_400_naming_the_entries(field: Field) -> None:
    client = signed(field.organiser)
    where = address(field.tournament, "sides")
    three = send(client, where, {"kind": "tandem", "name": "Drei", "entries": ids(field.entries[:3])})
    assert three.status_code == 400
    assert three.json() == {"entries": ["Drei needs 2 different players."]}
    unknown = send(
        client, where, {"kind": "tandem", "name": "Zwei", "entries": [ids(field.entries)[0], str(uuid.uuid4())]}
    )
    assert unknown.status_code == 400
    assert unknown.json() == {"entries": {"1": ["No entrant of this tournament has that id."]}}
    assert send(client, where, {"kind": "pair", "name": "Zwei", "entries": ids(field.entries[:2])}).status_code == 400
    assert not Side.objects.exists()


def test_a_player_in_two_tandems_is_a_400(field: Field) -> None:
    client = signed(field.organiser)
    where = address(field.tournament, "sides")
    assert send(client, where, {"kind": "tandem", "name": "Eins", "entries": ids(field.entries[:2])}).status_code == 201
    second = send(client, where, {"kind": "tandem", "name": "Zwei", "entries": ids(field.entries[1:3])})
    assert second.status_code == 400
    assert list(second.json()) == ["entries"]


def test_a_draw_answers_the_series_with_its_tables(field: Field) -> None:
    response = send(signed(field.organiser), address(field.tournament, "series"), {"series": 1})
    series = response.json()["series"]
    assert (series["number"], series["seating"], len(series["tables"])) == (1, "draw", 2)
    assert {seat["entry"] for table in series["tables"] for seat in table["seats"]} == set(ids(field.entries))


def test_a_series_drawn_twice_is_a_409_and_keeps_its_tables(field: Field) -> None:
    client = signed(field.organiser)
    assert send(client, address(field.tournament, "series"), {"series": 1}).status_code == 201
    tables = list(Table.objects.values_list("match_id", flat=True))
    again = send(client, address(field.tournament, "series"), {"series": 1})
    assert again.status_code == 409
    assert again.json()["series"] == ["Series 1 is drawn already."]
    assert list(Table.objects.values_list("match_id", flat=True)) == tables


def test_a_series_planned_by_hand_is_seated_as_planned(field: Field) -> None:
    plan = [ids(field.entries[:4]), ids(field.entries[4:])]
    response = send(
        signed(field.organiser), address(field.tournament, "series"), {"series": 1, "seating": "plan", "tables": plan}
    )
    assert response.status_code == 201, response.content
    assert [[seat["entry"] for seat in table["seats"]] for table in response.json()["series"]["tables"]] == plan


def test_a_later_series_seated_by_the_standings_puts_the_leaders_at_table_1(field: Field) -> None:
    closed(field, 1)
    leaders = [row["entry"] for row in APIClient().get(address(field.tournament, "standings")).json()["results"][:4]]
    response = send(signed(field.organiser), address(field.tournament, "series"), {"series": 2, "seating": "standings"})
    assert response.status_code == 201, response.content
    first = response.json()["series"]["tables"][0]
    assert sorted(seat["entry"] for seat in first["seats"]) == sorted(leaders)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"series": 1, "seating": "plan", "tables": "twice"}, "tables"),
        ({"series": 1, "seating": "plan", "tables": "stranger"}, "tables"),
        ({"series": 1, "tables": "as planned"}, "tables"),
        ({"series": 1, "seating": "standings"}, "seating"),
        ({"series": 2}, "series"),
        ({"series": 9}, "series"),
        ({"series": 1, "seating": "by age"}, "seating"),
    ],
)
def test_a_draw_that_cannot_be_is_a_400_naming_the_field(field: Field, body: dict[str, Any], problem: str) -> None:
    tables = {
        "twice": [ids(field.entries[:4]), ids([field.entries[0], *field.entries[4:7]])],
        "stranger": [ids(field.entries[:4]), [*ids(field.entries[4:7]), str(uuid.uuid4())]],
        "as planned": [ids(field.entries[:4]), ids(field.entries[4:])],
    }
    if isinstance(body.get("tables"), str):
        body = {**body, "tables": tables[body["tables"]]}
    response = send(signed(field.organiser), address(field.tournament, "series"), body)
    assert response.status_code == 400, response.content
    assert list(response.json()) == [problem]
    assert not Series.objects.exists()


def test_a_plan_seating_a_player_twice_names_the_player(field: Field) -> None:
    twice = [ids(field.entries[:4]), ids([field.entries[0], *field.entries[4:7]])]
    response = send(
        signed(field.organiser), address(field.tournament, "series"), {"series": 1, "seating": "plan", "tables": twice}
    )
    problems = [message for messages in response.json()["tables"].values() for message in messages]
    assert any(field.entries[0].name in message for message in problems), problems


def test_a_paper_list_is_entered_and_the_table_takes_no_games_after_it(field: Field) -> None:
    request = asked(field, "paper")
    response = send(signed(field.organiser), request.where, request.body, method="put")
    table = next(table for table in response.json()["series"]["tables"] if table["number"] == 1)
    assert table["paper"] is True
    game = {"declarer": 1, "game": {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}}
    assert send(signed(field.organiser), f"/api/v1/matches/{table['match']}/games/", game).status_code == 409


def test_a_paper_list_no_series_can_produce_is_a_400_naming_the_line(field: Field) -> None:
    request = asked(field, "paper")
    lines = [dict(line) for line in request.body["lines"]]
    lines[0]["game_points"] = 7
    response = send(signed(field.organiser), request.where, {"lines": lines}, method="put")
    assert response.status_code == 400
    assert response.json() == {
        "lines": {"0": {"game_points": [f"No {lines[0]['won']} won and 0 lost games add up to 7 game points."]}}
    }
    assert not Table.objects.filter(paper=True).exists()


def test_a_paper_list_naming_a_player_not_at_the_table_is_a_400(field: Field) -> None:
    request = asked(field, "paper")
    table_two = seated(Table.objects.get(series__number=1, number=2))
    lines = [*request.body["lines"][:3], {**request.body["lines"][3], "entry": str(table_two[0].public_id)}]
    response = send(signed(field.organiser), request.where, {"lines": lines}, method="put")
    assert response.status_code == 400
    assert response.json() == {"lines": ["One line for each player at the table."]}


@pytest.mark.parametrize(
    "what",
    [
        "series/1/tables/3/paper",
        "series/2/tables/1/paper",
        "series/4/tables/999/paper",
        f"series/1/tables/{10**20}/paper",
        f"series/{10**20}/tables/1/paper",
    ],
)
def test_a_paper_list_of_a_table_that_is_not_there_is_a_404(field: Field, what: str) -> None:
    request = asked(field, "paper")
    response = send(signed(field.organiser), address(field.tournament, what), request.body, method="put")
    assert response.status_code == 404
    # The address is wrong whatever the body says: it is not read.
    empty = send(signed(field.organiser), address(field.tournament, what), {"lines": []}, method="put")
    assert empty.status_code == 404


def test_a_series_with_a_table_short_of_games_is_not_closed(field: Field) -> None:
    series = drawn(field)
    enter_paper(Table.objects.get(series=series, number=1))
    response = send(signed(field.organiser), address(field.tournament, "series/1/close"), {})
    assert response.status_code == 409
    assert response.json()["tables"] == ["Table 2 of series 1 has 0 of 16 games."]
    assert Series.objects.get(pk=series.pk).closed_at is None


def test_a_closed_series_answers_closed_and_its_tables_take_no_more_games(field: Field) -> None:
    request = asked(field, "close")
    body = send(signed(field.organiser), request.where, request.body).json()["series"]
    assert body["closed"] is True
    assert Game.objects.filter(match__tournament_table__series__number=1).count() == 0


# --- The schema -------------------------------------------------------------------------------------------------------


def test_the_schema_lists_every_address_of_the_tournaments_with_its_answers() -> None:
    schema = APIClient().get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    paths = schema["paths"]
    base = "/api/v1/tournaments/{tournament_id}/"
    changes = {
        (base + "entries/", "post"): "201",
        (base + "enter/", "post"): "201",
        (base + "entries/{entry_id}/payments/", "post"): "201",
        (base + "entries/{entry_id}/withdraw/", "post"): "200",
        (base + "sides/", "post"): "201",
        (base + "series/", "post"): "201",
        (base + "series/{series}/tables/{number}/paper/", "put"): "200",
        (base + "series/{series}/close/", "post"): "200",
    }
    for (where, method), made in changes.items():
        operation = paths[where][method]
        assert operation["summary"], where
        assert {made, "400", "401", "404", "409"} <= set(operation["responses"]), where
        assert {"Idempotency-Key", "If-Match"} <= {parameter["name"] for parameter in operation["parameters"]}
        assert ("requestBody" in operation) is not where.endswith(("withdraw/", "close/")), where
    reads = ["", "entries/", "entries/{entry_id}/", "sides/", "series/", "series/{series}/", "standings/", "prizes/"]
    for where in [*(base + one for one in reads), base + "series/{series}/standings/", base + "cashier/"]:
        assert paths[where]["get"]["summary"], where
    standings = paths[base + "standings/"]["get"]
    assert {"cursor", "page_size"} <= {parameter["name"] for parameter in standings["parameters"]}
    shapes = schema["components"]["schemas"]
    for shape in ("TournamentPlaceShape", "TournamentWinnerShape"):
        withdrawn = shapes[shape]["properties"]["withdrawn_after"]
        assert (withdrawn["type"], withdrawn["nullable"], bool(withdrawn["description"])) == ("integer", True, True)
    assert "/api/v1/tournaments/" in paths


def test_a_retry_after_its_answer_was_dropped_is_refused_as_expired_and_changes_nothing(field: Field) -> None:
    client = signed(field.organiser)
    key = str(uuid.uuid4())
    assert send(client, address(field.tournament, "entries"), {"name": "Walter"}, key=key).status_code == 201
    KeptAnswer.objects.filter(key=key).update(created_at=timezone.now() - ANSWERS_KEPT - datetime.timedelta(1))
    forget_old_answers()
    kept = KeptAnswer.objects.get(key=key)
    assert kept.answer is None
    entries = Entry.objects.filter(tournament=field.tournament).count()
    late = send(client, address(field.tournament, "entries"), {"name": "Walter"}, key=key)
    assert late.status_code == 409
    assert late.json()["Idempotency-Key"] == [
        "This change was made with this Idempotency-Key more than 7 days ago and its answer is no longer kept: "
        "nothing was changed again. Ask for how it stands now."
    ]
    assert Entry.objects.filter(tournament=field.tournament).count() == entries
