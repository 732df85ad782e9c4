"""Sharing a match: spectators page back through the list, a turned-off link says so, co-scorers can be removed."""

import re
import uuid
from html import unescape as html_unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches.models import Match
from matches.services import match_link_renew, match_lock, match_unlock, paper_enter, paper_to_phones

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> User:
    return make_user("owner")


def long_match(owner: User, games: int) -> Match:
    match = make_match(owner)
    for number in range(games):
        add(match, declarer=number % 3, contract="clubs", matadors=1, declarer_card_points=70)
    match.refresh_from_db()
    return match


def test_a_spectator_pages_back_to_the_first_game(client: Client, owner: User) -> None:
    match = long_match(owner, 52)
    page = client.get(f"/watch/{match.share_token}/").content.decode()
    link = re.search(rf'href="(/watch/{match.share_token}/list/\?after=[^"]+)"', page)
    assert link is not None
    earlier = client.get(html_unescape(link[1]))
    assert earlier.status_code == 200
    html = earlier.content.decode()
    assert "<td>1</td>" in html
    assert "<td>2</td>" in html
    assert "<td>3</td>" not in html
    assert "/edit/" not in html
    assert f'<a href="/watch/{match.share_token}/list/">Latest games</a>' in html


def test_a_turned_off_link_tells_the_open_page_and_stops_its_polling(client: Client, owner: User) -> None:
    match = long_match(owner, 1)
    token = match.share_token
    match_link_renew(match=match, link="share", revoke=True)
    poll = client.get(f"/watch/{token}/?version=1", headers={"HX-Request": "true"})
    assert poll.status_code == 286
    assert "This spectators' link was turned off or renewed" in poll.content.decode()
    assert client.get(f"/watch/{token}/").status_code == 404


def test_the_spectator_page_and_its_fragment_tell_a_cache_they_differ_by_htmx(client: Client, owner: User) -> None:
    match = long_match(owner, 1)
    address = f"/watch/{match.share_token}/"
    page = client.get(address)
    fragment = client.get(address, headers={"HX-Request": "true"})
    assert page.content.decode().startswith("<!doctype html>")
    assert fragment.content.decode().lstrip().startswith('<div id="spectator"')
    assert "HX-Request" in page["Vary"]
    assert "HX-Request" in fragment["Vary"]


def test_the_owner_removes_a_co_scorer(client: Client, owner: User) -> None:
    match = make_match(owner)
    helper = make_user("helper")
    match.scorers.add(helper)
    client.force_login(owner)
    page = client.get(f"/matches/{match.public_id}/share/").content.decode()
    assert "Remove helper" in page
    answer = client.post(f"/matches/{match.public_id}/scorers/", {"scorer": "helper"})
    assert answer["Location"] == f"/matches/{match.public_id}/share/"
    assert not match.scorers.filter(pk=helper.pk).exists()
    client.force_login(helper)
    assert client.get(f"/matches/{match.public_id}/").status_code == 404
    data = {"token": str(uuid.uuid4())}
    assert client.post(f"/matches/{match.public_id}/pass/", data).status_code == 404


def test_the_match_page_brings_its_sharing_when_it_is_scrolled_to(client: Client, owner: User) -> None:
    """The links, downloads and share buttons are not in the match page itself: a placeholder fetches them (htmx,
    when revealed), and without a script its link leads to the page that holds them."""
    match = make_match(owner)
    client.force_login(owner)
    share = f"/matches/{match.public_id}/share/"
    invite, spectate = match.invite_token, match.share_token
    assert invite is not None
    assert spectate is not None
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert f'hx-get="{share}" hx-trigger="revealed"' in page
    assert f'<a href="{share}">Rules, what if, share, download, print</a>' in page
    assert invite not in page
    assert "Share the results as a picture" not in page

    whole = client.get(share).content.decode()
    assert whole.startswith("<!doctype html>")
    assert "<h1>Rules and sharing: " in whole
    assert invite in whole
    assert spectate in whole
    assert f"/matches/{match.public_id}/export/csv/" in whole
    # The text to share is the standings, here as on the match page.
    assert re.search(r'<p class="share-text" data-share-text="[^"]*1\. Anna 0\n', whole.replace("&#x27;", "'"))
    assert answer_varies_by_htmx(client, share)

    part = client.get(share, headers={"HX-Request": "true"}).content.decode()
    assert part.lstrip().startswith('<div class="share-tools">')
    assert invite in part
    assert "<h1>" not in part


def answer_varies_by_htmx(client: Client, address: str) -> bool:
    return "HX-Request" in client.get(address)["Vary"]


def test_a_changed_link_leads_back_to_the_sharing_page(client: Client, owner: User) -> None:
    match = make_match(owner)
    client.force_login(owner)
    old = match.invite_token
    answer = client.post(f"/matches/{match.public_id}/links/", {"link": "invite", "action": "renew"}, follow=True)
    assert answer.redirect_chain == [(f"/matches/{match.public_id}/share/", 302)]
    match.refresh_from_db()
    assert match.invite_token is not None
    assert match.invite_token != old
    page = answer.content.decode()
    assert match.invite_token in page
    assert "The link was changed: the old one no longer works." in page


def _locked(owner: User) -> Match:
    """A table of a closed club night: its list is locked and its scoring link turned off."""
    match = make_match(owner)
    Match.objects.filter(pk=match.pk).update(locked=True, invite_token=None)
    match.refresh_from_db()
    return match


def test_a_locked_list_offers_no_link_or_co_scorer_changes(client: Client, owner: User) -> None:
    match = _locked(owner)
    match.scorers.add(make_user("helper"))
    client.force_login(owner)
    for headers in ({}, {"HX-Request": "true"}):
        page = client.get(f"/matches/{match.public_id}/share/", headers=headers).content.decode()
        assert "Turn on" not in page
        assert "Turn off" not in page
        assert "New link" not in page
        assert "Remove helper" not in page
        assert "Invite a co-scorer (they can enter and fix games): turned off" in page


@pytest.mark.parametrize(
    "change",
    [
        {"link": "invite", "action": "renew"},
        {"link": "share", "action": "renew"},
        {"link": "share", "action": "revoke"},
    ],
)
def test_a_locked_list_refuses_link_changes(client: Client, owner: User, change: dict[str, str]) -> None:
    match = _locked(owner)
    client.force_login(owner)
    answer = client.post(f"/matches/{match.public_id}/links/", change, follow=True)
    after = Match.objects.get(pk=match.pk)
    assert (after.invite_token, after.share_token) == (None, match.share_token)
    assert "This list is closed" in answer.content.decode()
    assert "The link was changed" not in answer.content.decode()


def test_a_locked_list_keeps_its_co_scorers(client: Client, owner: User) -> None:
    match = _locked(owner)
    helper = make_user("helper")
    match.scorers.add(helper)
    client.force_login(owner)
    answer = client.post(f"/matches/{match.public_id}/scorers/", {"scorer": "helper"}, follow=True)
    assert match.scorers.filter(pk=helper.pk).exists()
    assert "This list is closed" in answer.content.decode()


def test_a_locked_lists_invite_link_makes_no_co_scorer(client: Client, owner: User) -> None:
    """A table entered from paper is locked with its invite link still set: the link adds nobody any more."""
    match = make_match(owner)
    Match.objects.filter(pk=match.pk).update(locked=True)
    client.force_login(make_user("latecomer"))
    client.post(f"/join/{match.invite_token}/")
    assert not match.scorers.exists()


def _on_paper(match: Match, owner: User) -> None:
    seated = [seat.player for seat in match.seats.order_by("position")]
    paper_enter(match=match, lines=[(player, 0, 0, 0) for player in seated], games=None, skat_values=False, user=owner)


def _phone_game(match: Match) -> dict[str, str]:
    return {
        "token": str(uuid.uuid4()),
        "number": "1",
        "contract": "clubs",
        "matadors": "1",
        "declarer": "1",
        "declarer_card_points": "70",
    }


def test_a_list_back_from_paper_on_its_phones_keeps_its_scoring_link(owner: User) -> None:
    """The table's QR card and the link in its group chat keep working for it: its paper list turned the link off,
    scoring on the phones again turns the same one on."""
    match = make_match(owner)
    token = match.invite_token
    assert token is not None
    phone = Client()
    phone.post(f"/join/{token}/")
    _on_paper(match, owner)
    assert Client().get(f"/join/{token}/").status_code == 410
    paper_to_phones(match=Match.objects.get(pk=match.pk), user=owner)
    assert Match.objects.get(pk=match.pk).invite_token == token
    link = match.events.order_by("version").last()
    assert link is not None
    assert (link.action, link.before, link.after) == ("link", {"invite": False}, {"invite": True})
    saved = phone.post(f"/matches/{match.public_id}/games/", _phone_game(match), headers={"HX-Request": "true"})
    assert saved.status_code == 200
    assert match.games.count() == 1
    newcomer = Client()
    assert newcomer.get(f"/join/{token}/").status_code == 200
    assert newcomer.post(f"/join/{token}/")["Location"] == f"/matches/{match.public_id}/"
    assert newcomer.get(f"/matches/{match.public_id}/").status_code == 200


def _revoked(match: Match, owner: User) -> None:
    match_link_renew(match=match, link="invite", revoke=True, user=owner)


def _closed_and_reopened(match: Match, owner: User) -> None:
    match_lock(match=match, user=owner, end_scoring=True)
    match_unlock(match=match, user=owner)


@pytest.mark.parametrize("turned_off", [_revoked, _closed_and_reopened], ids=["turned off", "closed, reopened"])
def test_a_link_turned_off_before_the_paper_list_stays_off_and_the_phones_get_a_new_one(
    owner: User, turned_off: Any
) -> None:
    match = make_match(owner)
    token = match.invite_token
    turned_off(match, owner)
    _on_paper(Match.objects.get(pk=match.pk), owner)
    paper_to_phones(match=Match.objects.get(pk=match.pk), user=owner)
    after = Match.objects.get(pk=match.pk).invite_token
    assert after is not None
    assert after != token
    assert Client().get(f"/join/{token}/").status_code == 404
    assert Client().get(f"/join/{after}/").status_code == 200


def test_a_link_renewed_after_the_phones_took_the_list_back_is_not_the_old_one_on_the_next_paper_round(
    owner: User,
) -> None:
    match = make_match(owner)
    token = match.invite_token
    _on_paper(match, owner)
    paper_to_phones(match=Match.objects.get(pk=match.pk), user=owner)
    renewed = match_link_renew(match=Match.objects.get(pk=match.pk), link="invite", user=owner).invite_token
    _on_paper(Match.objects.get(pk=match.pk), owner)
    paper_to_phones(match=Match.objects.get(pk=match.pk), user=owner)
    assert Match.objects.get(pk=match.pk).invite_token == renewed != token


def test_a_paper_list_closed_by_its_event_and_reopened_goes_back_to_its_phones_with_a_new_link(owner: User) -> None:
    """A night or a venue closed while the table was on paper turned every table's scoring off: reopened, the paper
    table stays locked (its results are the paper's), and back on its phones it gets a new link as every other table
    does, never the one its paper list turned off."""
    match = make_match(owner)
    token = match.invite_token
    _on_paper(match, owner)
    closed = match_lock(match=Match.objects.get(pk=match.pk), user=owner, end_scoring=True)
    closing = match.events.order_by("version").last()
    assert closing is not None
    assert closing.version == closed.version
    assert (closing.action, closing.before, closing.after) == (
        "lock",
        {"locked": True, "link": False},
        {"locked": True, "link": False},
    )
    paper_to_phones(match=Match.objects.get(pk=match.pk), user=owner)
    after = Match.objects.get(pk=match.pk).invite_token
    assert after is not None
    assert after != token
    assert Client().get(f"/join/{after}/").status_code == 200


def test_a_paper_list_entered_anew_or_sent_twice_still_goes_back_to_its_phones_with_its_link(owner: User) -> None:
    match = make_match(owner)
    token = match.invite_token
    _on_paper(match, owner)
    _on_paper(Match.objects.get(pk=match.pk), owner)  # the same list sent again: nothing more
    seated = [seat.player for seat in match.seats.order_by("position")]
    corrected = [(seated[0], 30, 1, 0), (seated[1], 0, 0, 0), (seated[2], 0, 0, 0)]
    paper_enter(match=Match.objects.get(pk=match.pk), lines=corrected, games=None, skat_values=False, user=owner)
    assert list(match.events.order_by("version").values_list("action", flat=True)) == ["paper", "lock", "paper"]
    paper_to_phones(match=Match.objects.get(pk=match.pk), user=owner)
    assert Match.objects.get(pk=match.pk).invite_token == token


def test_the_history_is_read_once_and_bounded_for_the_link_however_long_it_is(owner: User) -> None:
    match = make_match(owner)
    token = match.invite_token
    for _ in range(3):
        _on_paper(Match.objects.get(pk=match.pk), owner)
        paper_to_phones(match=Match.objects.get(pk=match.pk), user=owner)
    _on_paper(Match.objects.get(pk=match.pk), owner)
    with CaptureQueriesContext(connection) as queries:
        paper_to_phones(match=Match.objects.get(pk=match.pk), user=owner)
    history = [query["sql"] for query in queries.captured_queries if query["sql"].startswith("SELECT")]
    history = [sql for sql in history if '"matches_matchevent"' in sql.split(" FROM ", 1)[1].split(" WHERE ")[0]]
    assert len(history) == 1
    assert history[0].endswith("LIMIT 1")
    assert Match.objects.get(pk=match.pk).invite_token == token
