"""The load test's own parts, which ``make loadtest`` (CI runs a small match day) relies on: the seeded day's plan,
the phones' reading of the pages they act on (the entry form's next deal and version, the undo form, the follow's
version), and the check of the database against what the phones were told, which must find a lost save and a save
kept twice. The shared cache it puts nginx in front with is the one ``docs/deploying.md`` documents."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from loadtest.__main__ import cache_directives, checked
from loadtest.day import seed_day
from loadtest.pages import FOLLOW, UNDO, entry_of
from matches.models import Match, MatchEvent
from matches.services import Submission, game_add

pytestmark = pytest.mark.django_db


def test_the_day_is_seeded_with_every_table_and_public_page() -> None:
    plan = seed_day(4)
    kinds = [table["kind"] for table in plan.tables]
    assert kinds.count("league") == 16
    assert kinds.count("club") == 2
    assert kinds.count("tournament") >= 3
    assert {kind: len(pages) for kind, pages in plan.pages.items()} == {
        "group": 1,
        "venue": 4,
        "screen": 4,
        "live": 1,
        "club screen": 1,
    }
    assert len(plan.sessions) == len(plan.venues) == 4
    for address in [page for pages in plan.pages.values() for page in pages]:
        assert Client().get(address).status_code == 200


def test_a_phone_reads_the_next_deal_the_undo_and_the_followed_version_off_the_pages() -> None:
    plan = seed_day(4)
    table = plan.tables[0]
    phone = Client()
    phone.post(table["join"])
    match = Match.objects.get(public_id=table["match"])
    page = phone.get(f"/matches/{table['match']}/").content.decode()
    assert entry_of(page) == (match.deals + 1, match.version)
    found = UNDO.search(page)
    assert found is not None
    assert found[1] == f"/matches/{table['match']}/undo/"
    followed = phone.get(f"/matches/{table['match']}/follow/?version=0", headers={"HX-Request": "true"})
    version = FOLLOW.search(followed.content.decode())
    assert version is not None
    assert version[1] == str(match.version)


def test_the_check_finds_a_save_lost_and_a_save_kept_twice() -> None:
    plan = seed_day(4)
    seeded = MatchEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    match = Match.objects.get(public_id=plan.tables[0]["match"])
    kept, lost = uuid.uuid4(), uuid.uuid4()

    def saved(token: uuid.UUID) -> None:
        """A game saved with ``token``; the seat after the dealer declares (the dealer sits out at four)."""
        match.refresh_from_db()
        game = Submission(declarer=(match.deals + 1) % 4, entry={"contract": "null", "won": True})
        game_add(match=match, user=None, token=token, submission=game)

    saved(kept)
    told = [{"match": str(match.public_id), "token": str(token)} for token in (kept, lost)]
    assert checked(told, [], seeded) == (1, 0, 0)
    # A save sent as the run stopped is kept, its answer never came: nothing wrong.
    unanswered = uuid.uuid4()
    saved(unanswered)
    assert checked(told, [str(unanswered)], seeded) == (1, 0, 0)
    # A game no phone sent: a save kept a second time under another key.
    saved(uuid.uuid4())
    assert checked(told, [str(unanswered)], seeded) == (1, 1, 0)


def test_the_load_tests_nginx_keeps_the_shared_cache_the_deployment_guide_documents() -> None:
    directives = cache_directives()
    assert "proxy_cache scorekeeper;" in directives
    assert "proxy_cache_bypass $cookie_sessionid;" in directives
    assert "proxy_no_cache $cookie_sessionid;" in directives
