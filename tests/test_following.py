"""Following a match costs almost nothing: every phone of a table and every spectator asks every few seconds whether
anything changed, and nearly always nothing did. That answer is an empty 204 with one header, sets no cookie and
reads the same few rows however long the match; a changed match is answered with what changed, as before."""

import re
import uuid
from typing import Any

import brotli
import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from matches.following import asks_within, follow_steps_text
from matches.models import Match
from matches.services import match_undo

from .conftest import Persona, Table
from .factories import add, make_match, make_user
from .test_queries import enter

pytestmark = pytest.mark.django_db

# The most an unchanged poll's answer may weigh on the wire, status line, headers and body together: its status line
# ("HTTP/1.1 204 No Content"), "Cache-Control: no-store" and the blank line after the headers take 52.
UNCHANGED_BYTES = 64
# A phone's browser on the internet: HTTPS (HSTS and secure cookies), Brotli, a language of its own.
PHONE = {"HX-Request": "true", "Accept-Encoding": "gzip, deflate, br, zstd", "Accept-Language": "en-GB,en;q=0.9"}
HTTPS = override_settings(SECURE_HSTS_SECONDS=31536000, SESSION_COOKIE_SECURE=True, CSRF_COOKIE_SECURE=True)
FOLLOW = re.compile(r'hx-get="([^"]+\?version=[^"]+)"')


def on_the_wire(response: Any) -> int:
    """The bytes of an answer as HTTP/1.1 sends it: status line, headers, the cookies it sets, blank line, body."""
    status = f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n"
    headers = "".join(f"{name}: {value}\r\n" for name, value in response.items())
    cookies = "".join(f"{morsel.output()}\r\n" for morsel in response.cookies.values())
    return len(status) + len(headers) + len(cookies) + 2 + len(response.content)


def follow_address(page: str) -> str:
    """The address a page polls, as its polling element names it (with the version the page shows)."""
    found = FOLLOW.search(page)
    assert found is not None, "the page does not follow anything"
    return found[1].replace("&amp;", "&")


def opened(browser: Client, address: str) -> str:
    """The page at ``address`` as a phone opens it first (which gives the browser its CSRF cookie)."""
    page = browser.get(address, secure=True)
    assert page.status_code == 200
    return page.content.decode()


def test_the_match_page_keeps_the_csrf_cookie_the_phone_holds(owner: User) -> None:
    match = make_match(owner)
    browser = Client()
    browser.force_login(owner)
    first = browser.get(reverse("match_detail", args=[match.public_id]))
    assert "csrftoken" in first.cookies, "a phone without the cookie gets it"
    again = browser.get(reverse("match_detail", args=[match.public_id]))
    assert not again.cookies
    assert again["Cache-Control"] == "no-store"
    assert "Expires" not in again


def polled(browser: Client, address: str) -> Any:
    return browser.get(address, headers=PHONE, secure=True)


def assert_nothing_new(answer: Any) -> None:
    assert answer.status_code == 204
    assert answer.content == b""
    assert not answer.cookies, "an unchanged poll sets no cookie"
    assert dict(answer.items()) == {"Cache-Control": "no-store"}
    assert on_the_wire(answer) <= UNCHANGED_BYTES


@pytest.mark.parametrize("who", ["persona_owner", "persona_link_scorer", "persona_co_scorer", "persona_spectator"])
def test_an_unchanged_match_is_answered_with_nothing_but_no_store(
    who: str, table: Table, request: pytest.FixtureRequest
) -> None:
    persona: Persona = request.getfixturevalue(who)
    browser = persona.browser()
    match = table.match
    page = (
        reverse("match_spectate", args=[match.share_token])
        if persona.name == "spectator"
        else reverse("match_detail", args=[match.public_id])
    )
    with HTTPS:
        address = follow_address(opened(browser, page))
        for _ in range(2):
            assert_nothing_new(polled(browser, address))


def test_an_unchanged_match_asked_without_htmx_is_answered_with_nothing_but_no_store(owner: User) -> None:
    """The address opened as a page (a bookmark, a link copied): the empty answer is no document either."""
    match = make_match(owner)
    browser = Client()
    browser.force_login(owner)
    address = f"{reverse('match_follow', args=[match.public_id])}?version={match.version}"
    with HTTPS:
        answer = browser.get(address, secure=True)
    assert answer.status_code == 204
    assert dict(answer.items()) == {"Cache-Control": "no-store"}


def test_a_changed_match_is_answered_with_its_new_content_and_no_cookie(owner: User) -> None:
    match = make_match(owner)
    browser = Client()
    browser.force_login(owner)
    with HTTPS:
        address = follow_address(opened(browser, reverse("match_detail", args=[match.public_id])))
        add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
        changed = polled(browser, address)
        assert changed.status_code == 200
        assert not changed.cookies, "the CSRF cookie the page gave stays as it is"
        assert changed["Cache-Control"] == "no-store"
        assert "Expires" not in changed
        html = brotli.decompress(changed.content).decode()
        assert "Ben · ♣ Clubs · 24" in html
        following = follow_address(html)
        assert following.endswith(f"?version={Match.objects.get(pk=match.pk).version}")
        assert_nothing_new(polled(browser, following))


def test_a_game_saved_elsewhere_comes_as_one_more_row_and_any_other_change_with_the_whole_list(owner: User) -> None:
    match = make_match(owner)
    games = [add(match, declarer=seat, contract="clubs", matadors=1, declarer_card_points=70) for seat in range(3)]
    browser = Client()
    browser.force_login(owner)
    address = follow_address(opened(browser, reverse("match_detail", args=[match.public_id])))
    fourth = add(match, declarer=0, contract="spades", matadors=1, declarer_card_points=70)
    html = browser.get(address, headers={"HX-Request": "true"}).content.decode()
    assert re.search(r'<hx-partial hx-target="#sheet-rows" hx-swap="beforeend">\s*<tr id="game-', html)
    assert f'id="game-{fourth.public_id}"' in html
    assert not [game for game in games if f'id="game-{game.public_id}"' in html]
    assert '<hx-partial hx-target="#sheet-totals" hx-swap="outerHTML">' in html
    assert '<div class="status" id="status" hx-swap-oob="true">' in html
    # An undo elsewhere (or a fix, a deletion, several changes since) brings the whole list as it stands.
    following = follow_address(html)
    match_undo(match=match, user=owner, token=uuid.uuid4())
    html = browser.get(following, headers={"HX-Request": "true"}).content.decode()
    assert '<section class="sheet" id="sheet" hx-swap-oob="true"' in html
    assert all(f'id="game-{game.public_id}"' in html for game in games)
    assert f'id="game-{fourth.public_id}"' not in html


def test_a_spectator_sees_a_changed_match(owner: User) -> None:
    match = make_match(owner)
    spectator = Client()
    address = follow_address(opened(spectator, reverse("match_spectate", args=[match.share_token])))
    add(match, declarer=2, contract="clubs", matadors=1, declarer_card_points=70)
    changed = spectator.get(address, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert "Cleo · ♣ Clubs · 24" in changed.content.decode()
    assert not changed.cookies
    assert_nothing_new(spectator.get(follow_address(changed.content.decode()), headers={"HX-Request": "true"}))


@pytest.fixture
def owner() -> User:
    return make_user("olga")


def test_a_poll_reads_as_much_at_game_two_hundred_as_at_game_one(owner: User, django_assert_num_queries: Any) -> None:
    """A scorer's poll reads the session, its account and the match, each by its key; a spectator's reads the
    match's version by its link."""
    match = make_match(owner, rules={"bock": True})
    scorer = Client()
    scorer.force_login(owner)
    spectator = Client()
    enter(match, 1)
    for games in (1, 200):
        enter(match, games - Match.objects.get(pk=match.pk).deals)
        current = Match.objects.get(pk=match.pk)
        assert current.deals == games
        follow = reverse("match_follow", args=[current.public_id]) + f"?version={current.version}"
        watch = reverse("match_spectate", args=[current.share_token]) + f"?version={current.version}"
        with django_assert_num_queries(3):
            assert scorer.get(follow, headers=PHONE).status_code == 204
        with django_assert_num_queries(1):
            assert spectator.get(watch, headers=PHONE).status_code == 204


NIGHT_FOLLOW = re.compile(r'id="night-follow" hx-get="([^"]+)"')
RESULTS = re.compile(r'<section id="results".*?</section>', re.DOTALL)


def test_the_nights_page_gets_nothing_until_a_table_saves_then_its_new_totals(table: Table) -> None:
    secretary = Client()
    secretary.force_login(table.owner)
    with HTTPS:
        page = opened(secretary, reverse("night_detail", args=[table.night.public_id]))
        found = NIGHT_FOLLOW.search(page)
        assert found is not None, "the night's page does not follow its tables"
        assert "No results yet." in RESULTS.findall(page)[0]
        assert_nothing_new(polled(secretary, found[1]))
        played = table.night.tables.get().match
        seated = [seat.player.name for seat in played.seats.select_related("player").order_by("position")]
        # The first seat wins ♣ with 1, 70 (24): 24 game points + 50 for the game won.
        add(played, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
        changed = polled(secretary, found[1])
        assert changed.status_code == 200
        assert not changed.cookies
        html = brotli.decompress(changed.content).decode()
        results = RESULTS.findall(html)[0]
        assert re.search(rf"<td class=\"name\">{seated[0]}</td>\s*<td class=\"num\">74</td>", results)
        again = NIGHT_FOLLOW.search(html)
        assert again is not None
        assert again[1] != found[1]
        assert_nothing_new(polled(secretary, again[1]))


def test_the_nights_poll_reads_as_much_however_many_games_its_tables_hold(
    table: Table, django_assert_num_queries: Any
) -> None:
    """The session, the account, the night (with its season and club), the membership, and one sum over the
    versions of the night's tables: the same at its first game as at the last of a series of 36."""
    secretary = Client()
    secretary.force_login(table.owner)
    played = table.night.tables.get().match
    for games in (1, 36):
        enter(played, games - Match.objects.get(pk=played.pk).deals)
        found = NIGHT_FOLLOW.search(
            secretary.get(reverse("night_detail", args=[table.night.public_id])).content.decode()
        )
        assert found is not None
        with django_assert_num_queries(5):
            assert secretary.get(found[1], headers=PHONE).status_code == 204


def test_a_page_left_alone_for_an_hour_asks_136_times() -> None:
    """Every 5 s for a minute (12), every 10 s for the next (6), every 20 s for two more (6), then every 30 s (112),
    as docs/rules.md says; the polling element carries the steps to the page's script."""
    asks = asks_within(3600)
    assert len(asks) == 136
    assert asks[:13] == [*range(5, 65, 5), 70]
    assert asks[-1] == 3600
    assert follow_steps_text() == "5 60 10 120 20 240 30"


@pytest.mark.parametrize("version", ["", "abc", "-1", "٣", "9" * 5000])
def test_a_poll_with_a_version_that_is_none_gets_the_match_as_it_stands(owner: User, version: str) -> None:
    match = make_match(owner)
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    browser = Client()
    browser.force_login(owner)
    answer = browser.get(reverse("match_follow", args=[match.public_id]), {"version": version}, headers=PHONE)
    assert answer.status_code == 200
    assert '<section class="sheet" id="sheet" hx-swap-oob="true"' in brotli.decompress(answer.content).decode()
