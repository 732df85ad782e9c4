"""A person's record and the ranking lists through the API, under the rules of their pages: refusals are 400s with
messages by field, and nobody reads what they may not see."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.api.resources.people import API_NAMES, RankingInput
from matches.clubs import services as clubs
from matches.models import Person, RankingEdition, RankingList
from matches.services.rankings import RankingForm

from .factories import make_user
from .test_api_resources import signed
from .test_rankings import REASON, club, corrected  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def test_a_record_through_the_api_as_its_page_shows_it(club: dict[str, Any]) -> None:  # noqa: F811
    from matches.services import player_link

    anna = make_user("anna")
    player_link(player=club["club"].keeper.players.get(name="Anna"), account=anna)
    own = signed(anna).get("/api/v1/people/me/record/").json()
    # November 122, December nothing: two series, 61 a series.
    assert own["figures"]["series"] == 2
    assert own["figures"]["average"] == 61
    assert [(group["group"], group["figures"]["total"]) for group in own["by_kind"]] == [("Club nights", 122)]
    assert [row["total"] for row in own["lists"]] == [0, 122]
    person = Person.objects.get(account=anna)
    address = f"/api/v1/people/{person.public_id}/record/"
    assert signed(make_user("mallory")).get(address).status_code == 404
    assert APIClient().get(address).status_code == 401
    person.shown = "first"
    person.save()
    public = APIClient().get(address)
    assert public.status_code == 200
    assert public.json()["name"] == "Anna"
    assert public.json()["figures"]["best"] == 122


def test_ranking_lists_through_the_api(club: dict[str, Any]) -> None:  # noqa: F811
    owner = signed(club["owner"])
    body = {"name": "Monatsrangliste", "events": [str(club["season"].public_id)], "period": "month"}
    made = owner.post("/api/v1/rankings/", body, format="json")
    assert made.status_code == 201, made.content
    ranking = made.json()["id"]
    assert made.json()["periods"] == ["2026-12", "2026-11"]
    november = owner.get(f"/api/v1/rankings/{ranking}/?period=2026-11").json()
    assert november["published_at"] is None
    assert next((row["place"], row["name"], row["score"]) for row in november["rows"]) == (1, "Anna", 122)
    assert november["next"] is None
    for wrong in ("2026-13", "2026", "", "november"):
        refused = owner.get(f"/api/v1/rankings/{ranking}/", {"period": wrong})
        assert refused.status_code == 400, wrong
        assert refused.json() == {
            "period": ["The list has no such period: one of its periods, or leave the parameter out."]
        }
    assert owner.post(f"/api/v1/rankings/{ranking}/publish/", {"period": "2026-11"}, format="json").status_code == 201
    again = owner.post(f"/api/v1/rankings/{ranking}/publish/", {"period": "2026-11"}, format="json")
    assert again.status_code == 409
    assert RankingEdition.objects.count() == 1
    assert [row["name"] for row in owner.get("/api/v1/rankings/").json()["results"]] == ["Monatsrangliste"]

    stranger = signed(make_user("mallory"))
    assert stranger.get(f"/api/v1/rankings/{ranking}/").status_code == 404
    assert stranger.delete(f"/api/v1/rankings/{ranking}/").status_code == 404
    changed = owner.put(f"/api/v1/rankings/{ranking}/", body | {"method": "best", "best": 2}, format="json")
    assert changed.status_code == 200
    assert changed.json()["method"] == "best"
    assert owner.delete(f"/api/v1/rankings/{ranking}/").status_code == 204
    assert not RankingList.objects.exists()


def test_ranking_changes_retried_with_their_key_are_made_once(club: dict[str, Any]) -> None:  # noqa: F811
    owner = signed(club["owner"])
    body = {"name": "Monatsrangliste", "events": [str(club["season"].public_id)], "period": "month"}
    key = {"Idempotency-Key": str(uuid.uuid4())}
    made = owner.post("/api/v1/rankings/", body, format="json", headers=key)
    assert made.status_code == 201
    assert made.json()["replayed"] is False
    retried = owner.post("/api/v1/rankings/", body, format="json", headers=key)
    assert retried.status_code == 200
    assert retried.json() == made.json() | {"replayed": True}
    assert RankingList.objects.count() == 1
    # The key sent with another change is refused; a new key defines a second list.
    other = owner.post("/api/v1/rankings/", body | {"name": "Zweite"}, format="json", headers=key)
    assert other.status_code == 409
    assert "Idempotency-Key" in other.json()
    fresh = {"Idempotency-Key": str(uuid.uuid4())}
    assert owner.post("/api/v1/rankings/", body, format="json", headers=fresh).status_code == 201
    assert RankingList.objects.count() == 2
    # Another account's key is its own.
    stranger = signed(make_user("mallory"))
    theirs = stranger.post("/api/v1/rankings/", body, format="json", headers=key)
    assert theirs.status_code == 400  # they may not count the club's season: not the owner's answer
    ranking = made.json()["id"]

    # Publishing answers with the list as GET does, its places as figures; a retry gets that answer again.
    publish = {"Idempotency-Key": str(uuid.uuid4())}
    published = owner.post(
        f"/api/v1/rankings/{ranking}/publish/", {"period": "2026-11"}, format="json", headers=publish
    )
    assert published.status_code == 201
    shown = owner.get(f"/api/v1/rankings/{ranking}/", {"period": "2026-11"}).json()
    assert published.json() == shown | {"replayed": False, "next": None}
    assert published.json()["rows"][0] == {
        "place": 1,
        "name": "Anna",
        "person": None,
        "series": 1,
        "events": 1,
        "total": 122,
        "score": 122,
    }
    again = owner.post(f"/api/v1/rankings/{ranking}/publish/", {"period": "2026-11"}, format="json", headers=publish)
    assert (again.status_code, again.json()) == (200, published.json() | {"replayed": True})
    assert RankingEdition.objects.count() == 1
    # Without the key a second publishing is refused as published already.
    assert owner.post(f"/api/v1/rankings/{ranking}/publish/", {"period": "2026-11"}, format="json").status_code == 409

    change = {"Idempotency-Key": str(uuid.uuid4())}
    changed = owner.put(f"/api/v1/rankings/{ranking}/", body | {"name": "Neu"}, format="json", headers=change)
    assert (changed.status_code, changed.json()["name"]) == (200, "Neu")
    RankingList.objects.filter(public_id=ranking).update(name="Später")
    replayed = owner.put(f"/api/v1/rankings/{ranking}/", body | {"name": "Neu"}, format="json", headers=change)
    assert replayed.json() == changed.json() | {"replayed": True}
    assert RankingList.objects.get(public_id=ranking).name == "Später"


@pytest.mark.parametrize("published", [False, True])
def test_a_ranking_list_comes_a_page_of_places_at_a_time(club: dict[str, Any], published: bool) -> None:  # noqa: F811
    owner = signed(club["owner"])
    made = owner.post("/api/v1/rankings/", {"name": "R", "events": [str(club["season"].public_id)]}, format="json")
    ranking = made.json()["id"]
    if published:
        assert owner.post(f"/api/v1/rankings/{ranking}/publish/", {"period": ""}, format="json").status_code == 201
    first = owner.get(f"/api/v1/rankings/{ranking}/", {"page_size": 2}).json()
    assert [(row["place"], row["name"]) for row in first["rows"]] == [(1, "Ben"), (2, "Anna")]
    assert (first["published_at"] is not None) == published
    second = owner.get(first["next"]).json()
    assert [(row["place"], row["name"]) for row in second["rows"]] == [(3, "Cleo")]
    assert second["next"] is None
    assert owner.get(f"/api/v1/rankings/{ranking}/", {"page_size": 201}).status_code == 400
    assert owner.get(f"/api/v1/rankings/{ranking}/", {"cursor": ""}).status_code == 400
    assert owner.get(f"/api/v1/rankings/{ranking}/", {"cursor": "WzIsIDBd"}).json() == {"detail": "Invalid cursor"}


def test_a_page_of_a_ranking_list_continues_its_own_period_and_reading(club: dict[str, Any]) -> None:  # noqa: F811
    owner = signed(club["owner"])
    body = {"name": "R", "events": [str(club["season"].public_id)], "period": "month"}
    ranking = owner.post("/api/v1/rankings/", body, format="json").json()["id"]
    december = owner.get(f"/api/v1/rankings/{ranking}/", {"page_size": 1}).json()
    assert (december["period"], december["rows"][0]["name"]) == ("2026-12", "Ben")
    assert "period" not in december["next"]
    # Its next page continues December, wherever the period is left out; never November's list.
    following = owner.get(december["next"]).json()
    assert (following["period"], following["rows"][0]["place"]) == ("2026-12", 2)
    cursor = december["next"].rsplit("cursor=", 1)[1]
    elsewhere = owner.get(f"/api/v1/rankings/{ranking}/", {"period": "2026-11", "cursor": cursor})
    assert elsewhere.status_code == 404
    # Published meanwhile, the list is read another way: the page asked for is not made any more.
    assert owner.post(f"/api/v1/rankings/{ranking}/publish/", {"period": "2026-12"}, format="json").status_code == 201
    assert owner.get(december["next"]).status_code == 404
    assert owner.get(f"/api/v1/rankings/{ranking}/", {"period": "2026-12", "page_size": "1"}).json()["next"] is not None
    # A published period stays readable when its lists reopened since; another empty period is refused.
    clubs.night_reopen(night=club["december"], user=club["owner"])
    assert owner.get(f"/api/v1/rankings/{ranking}/", {"period": "2026-12"}).json()["rows"][0]["name"] == "Ben"
    assert owner.get(f"/api/v1/rankings/{ranking}/", {"period": ""}).status_code == 400


def test_a_ranking_list_that_cannot_rank_is_a_400_by_field(club: dict[str, Any]) -> None:  # noqa: F811
    owner = signed(club["owner"])
    season = str(club["season"].public_id)
    refused = owner.post("/api/v1/rankings/", {"name": "R", "events": [season], "minimum": 5}, format="json")
    assert refused.status_code == 400
    assert refused.json()["minimum"] == ["Nobody has played 5 series in a period of these events: the most is 2."]
    unknown = owner.post("/api/v1/rankings/", {"name": "R", "events": [str(club["club"].public_id)]}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["events"] == ["Choose the events to count from those offered."]
    bad = owner.post("/api/v1/rankings/", {"name": "R", "events": ["not-an-id"], "minimum": "x"}, format="json")
    assert bad.status_code == 400
    assert "events" in bad.json()
    assert "minimum" in bad.json()
    nothing = owner.post("/api/v1/rankings/", {"name": "R", "events": [season], "date_to": "2020-01-01"}, format="json")
    assert nothing.status_code == 400
    assert not RankingList.objects.exists()


def test_the_answers_kept_for_an_account_go_with_it(club: dict[str, Any]) -> None:  # noqa: F811
    from matches.accounts import account_delete
    from matches.models import KeptAnswer

    owner = signed(club["owner"])
    body = {"name": "R", "events": [str(club["season"].public_id)]}
    ranking = owner.post(
        "/api/v1/rankings/", body, format="json", headers={"Idempotency-Key": str(uuid.uuid4())}
    ).json()
    owner.put(f"/api/v1/rankings/{ranking['id']}/", body, format="json", headers={"Idempotency-Key": str(uuid.uuid4())})
    assert KeptAnswer.objects.count() == 2
    clubs.member_set(club=club["club"], username=make_user("max").username, role="owner")
    account_delete(user=club["owner"])
    # The list stays (without its owner) with the answer about it; the account's own answer is gone.
    assert [answer.thing for answer in KeptAnswer.objects.all()] == [RankingList.objects.get()]
    RankingList.objects.get().delete()
    assert not KeptAnswer.objects.exists()


def test_a_ranking_list_takes_as_many_events_and_places_as_its_schema_says(club: dict[str, Any]) -> None:  # noqa: F811
    """More than a hundred of each: the body's bound on a list refuses none of them, the list's own rules judge."""
    owner = signed(club["owner"])
    season = str(club["season"].public_id)
    places = list(range(150, 0, -1))
    body = {"name": "R", "events": [season], "method": "places", "places": places, "field": 150}
    made = owner.post("/api/v1/rankings/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["places"] == places
    events = [season, *(str(uuid.uuid4()) for _ in range(149))]
    refused = owner.put(f"/api/v1/rankings/{made.json()['id']}/", body | {"events": events}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {"events": ["Choose the events to count from those offered."]}
    too_many = owner.put(f"/api/v1/rankings/{made.json()['id']}/", body | {"places": [1] * 201}, format="json")
    assert too_many.status_code == 400
    assert list(too_many.json()) == ["places"]


def test_a_ranking_lists_refusals_name_the_apis_fields(club: dict[str, Any]) -> None:  # noqa: F811
    owner = signed(club["owner"])
    body = {"name": "R4", "events": [str(club["season"].public_id)], "counted": "book"}
    for club_sent in ({}, {"club": None}, {"club": str(uuid.uuid4())}):
        refused = owner.post("/api/v1/rankings/", body | club_sent, format="json")
        assert refused.status_code == 400, club_sent
        assert refused.json() == {"club": ["Choose one of your clubs."]}, club_sent
    made = owner.post("/api/v1/rankings/", body | {"club": str(club["club"].public_id)}, format="json")
    assert made.status_code == 201, made.content
    # The list says whose players count, as its input takes it: what was read is sent back as it was.
    assert (made.json()["club"], made.json()["club_name"]) == (str(club["club"].public_id), "Skatclub Herz Dame")
    read = owner.get(f"/api/v1/rankings/{made.json()['id']}/").json()
    listed = owner.get("/api/v1/rankings/").json()["results"]
    assert read["club"] == listed[0]["club"] == str(club["club"].public_id)
    taken = ("name", "events", "counted", "club", "method", "minimum", "best", "places", "field", "public")
    again = owner.put(f"/api/v1/rankings/{made.json()['id']}/", {key: read[key] for key in taken}, format="json")
    assert again.status_code == 200, again.content
    everybody = owner.post("/api/v1/rankings/", body | {"counted": "everybody"}, format="json").json()
    assert (everybody["club"], everybody["club_name"]) == (None, None)
    backwards = {"date_from": "2026-12-01", "date_to": "2026-11-01"}
    changed = owner.put(f"/api/v1/rankings/{made.json()['id']}/", body | backwards, format="json")
    assert changed.status_code == 400
    assert changed.json() == {"date_to": ["The end is before the start."], "club": ["Choose one of your clubs."]}


def test_every_field_a_ranking_lists_service_may_refuse_is_a_field_of_the_api() -> None:
    service = {field.name for field in dataclasses.fields(RankingForm)}
    assert {API_NAMES.get(name, name) for name in service} == set(RankingInput().fields)


def test_a_period_published_anew_through_the_api_keeps_the_list_published_before(club: dict[str, Any]) -> None:  # noqa: F811
    owner = signed(club["owner"])
    body = {"name": "Monatsrangliste", "events": [str(club["season"].public_id)], "period": "month"}
    ranking = owner.post("/api/v1/rankings/", body, format="json").json()["id"]
    address = f"/api/v1/rankings/{ranking}/publish/"
    first = owner.post(address, {"period": "2026-11"}, format="json").json()
    assert (first["edition"], first["replaced_at"], first["reason"]) == (1, None, "")
    assert first["editions"] == [
        {"edition": 1, "published_at": first["published_at"], "replaced_at": None, "reason": ""}
    ]
    corrected(club)

    # Published anew with a reason, once however often it is sent with its key; without a reason, refused.
    assert owner.post(address, {"period": "2026-11"}, format="json").json() == {
        "reason": ["Say why the list is published anew: what was corrected."]
    }
    key = {"Idempotency-Key": str(uuid.uuid4())}
    anew = owner.post(address, {"period": "2026-11", "reason": REASON}, format="json", headers=key)
    assert anew.status_code == 201, anew.content
    published = anew.json()
    assert (published["edition"], published["reason"], published["rows"][0]["name"]) == (2, REASON, "Ben")
    assert published["editions"] == [
        {"edition": 2, "published_at": published["published_at"], "replaced_at": None, "reason": REASON},
        {
            "edition": 1,
            "published_at": first["published_at"],
            "replaced_at": published["published_at"],
            "reason": "",
        },
    ]
    replayed = owner.post(address, {"period": "2026-11", "reason": REASON}, format="json", headers=key)
    assert (replayed.status_code, replayed.json()) == (200, published | {"replayed": True})
    assert RankingEdition.objects.count() == 2
    # Nothing changed since: a 409 next to the period.
    same = owner.post(address, {"period": "2026-11", "reason": REASON}, format="json")
    assert same.status_code == 409
    assert same.json() == {"period": ["This period's list is published already, and nothing changed since."]}

    # The period gives the list published last; the one before, and the list as it stands, when asked for.
    current = owner.get(f"/api/v1/rankings/{ranking}/", {"period": "2026-11"}).json()
    assert published == current | {"replayed": False, "next": None}
    assert (current["edition"], current["rows"][0]["name"]) == (2, "Ben")
    earlier = owner.get(f"/api/v1/rankings/{ranking}/", {"period": "2026-11", "edition": "1"}).json()
    assert (earlier["edition"], earlier["rows"][0]["name"]) == (1, "Anna")
    assert earlier["replaced_at"] == published["published_at"]
    assert earlier["editions"] == published["editions"]
    standing = owner.get(f"/api/v1/rankings/{ranking}/", {"period": "2026-11", "edition": "standing"}).json()
    assert (standing["edition"], standing["published_at"], standing["rows"][0]["name"]) == (None, None, "Ben")
    for wrong in ("3", "0", "zwei"):
        refused = owner.get(f"/api/v1/rankings/{ranking}/", {"period": "2026-11", "edition": wrong})
        assert refused.status_code == 400, wrong
        assert list(refused.json()) == ["edition"]
    # Nobody but the owner publishes the list anew.
    stranger = signed(make_user("mallory"))
    assert stranger.post(address, {"period": "2026-11", "reason": REASON}, format="json").status_code == 404


def test_ranking_lists_are_listed_a_page_at_a_time_as_every_other_list(club: dict[str, Any]) -> None:  # noqa: F811
    owner = signed(club["owner"])
    season = str(club["season"].public_id)
    for name in ("Cäcilia", "Anton", "Berta"):
        assert owner.post("/api/v1/rankings/", {"name": name, "events": [season]}, format="json").status_code == 201
    first = owner.get("/api/v1/rankings/", {"page_size": "2"})
    assert first.status_code == 200, first.content
    assert [row["name"] for row in first.json()["results"]] == ["Anton", "Berta"]
    rest = owner.get(first.json()["next"]).json()
    assert [row["name"] for row in rest["results"]] == ["Cäcilia"]
    assert rest["next"] is None
    refused = owner.get("/api/v1/rankings/", {"page_size": "0"})
    assert refused.json() == {"page_size": ["Must be a whole number from 1 to 200."]}
