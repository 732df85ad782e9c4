"""Lists on the pages that grow without end come a page at a time, each page at the same cost."""

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.clubs import services as clubs
from matches.clubs.models import Membership
from matches.models import Match, Player
from matches.services import keeper_for

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

OLDER = re.compile(r'href="\?after=([^"]+)">(?:Older matches|More players)<')


def browser_of(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def walk(browser: Client, address: str, item: re.Pattern[str]) -> list[str]:
    """What every page of a list shows, following its links to the end."""
    seen: list[str] = []
    after: str | None = ""
    while after is not None:
        page = browser.get(address, {"after": after} if after else {}).content.decode()
        seen += item.findall(page)
        found = OLDER.search(page)
        after = found[1].replace("%3D", "=") if found else None
    return seen


def matches_of(user: User, count: int) -> list[Match]:
    made = [make_match(user, title=f"Abend {number}") for number in range(count)]
    start = timezone.now() - datetime.timedelta(days=count)
    for number, match in enumerate(made):  # played on different days, and some at the same moment
        Match.objects.filter(pk=match.pk).update(updated_at=start + datetime.timedelta(days=number // 2))
    return made


def test_the_home_page_shows_every_match_once_latest_played_first_a_page_at_a_time() -> None:
    user = make_user("anna")
    made = matches_of(user, 120)
    titles = walk(browser_of(user), "/", re.compile(r"<strong>(Abend \d+)</strong>"))
    expected = sorted(made, key=lambda match: (Match.objects.get(pk=match.pk).updated_at, match.pk), reverse=True)
    assert titles == [match.title for match in expected]


def queries_for(browser: Client, address: str, data: dict[str, Any] | None = None) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert browser.get(address, data or {}).status_code == 200
    return len(queries)


def test_a_page_of_matches_costs_the_same_however_many_there_are_and_however_far_down() -> None:
    user = make_user("anna")
    browser = browser_of(user)
    matches_of(user, 10)
    few = queries_for(browser, "/")
    matches_of(user, 150)
    assert queries_for(browser, "/") == few
    page = browser.get("/").content.decode()
    found = OLDER.search(page)
    assert found is not None
    assert queries_for(browser, "/", {"after": found[1].replace("%3D", "=")}) == few


def test_players_come_by_name_a_hundred_at_a_time() -> None:
    user = make_user("anna")
    keeper = keeper_for(user)
    names = [f"Spieler {number:03d}" for number in range(230)]
    Player.objects.bulk_create(Player(keeper=keeper, name=name, name_key=name.casefold()) for name in names)
    shown = walk(browser_of(user), "/players/", re.compile(r">(Spieler \d+)</a>"))
    assert shown == names


@pytest.mark.parametrize(
    ("after", "addresses"),
    [
        ("nonsense", ("/", "/players/")),
        ("WyJ4IiwgMV0=", ("/",)),  # ["x", 1]: a name, but not a moment
        ("WzEsIDJd", ("/", "/players/")),  # [1, 2]
        ("WyJcdTAwMDAiLCAxXQ==", ("/", "/players/")),  # ["\u0000", 1]
        ("WyIyMDIwLTAxLTAxVDAwOjAwOjAwKzAwOjAwIiwgSW5maW5pdHld", ("/", "/players/")),  # [a moment, Infinity]
    ],
)
def test_a_place_in_a_list_not_made_here_is_a_404(after: str, addresses: tuple[str, ...]) -> None:
    browser = browser_of(make_user("anna"))
    for address in addresses:
        assert browser.get(address, {"after": after}).status_code == 404


@pytest.mark.parametrize(
    "after",
    [
        "WyI5OTk5LTEyLTMxVDIzOjU5OjU5LTA1OjAwIiwgMV0=",  # the calendar's last moment, west of UTC
        "WyIwMDAxLTAxLTAxVDAwOjAwOjAwKzA1OjAwIiwgMV0=",  # its first, east of UTC
    ],
)
def test_a_place_at_the_calendars_edge_is_an_empty_page_or_a_404_never_an_error(after: str) -> None:
    """SQLite cannot store these moments in UTC (a 404); PostgreSQL can (a page with nothing after it)."""
    user = make_user("anna")
    make_match(user)
    assert browser_of(user).get("/", {"after": after}).status_code in {200, 404}


def follow(browser: Client, address: str, item: re.Pattern[str], more: str) -> list[str]:
    """What every page of one list of a page shows, following its ``more`` link to the end."""
    seen: list[str] = []
    link: str | None = address
    while link is not None:
        page = browser.get(link).content.decode()
        seen += item.findall(page)
        found = re.search(rf'<a href="([^"]+)">{more}</a>', page)
        link = address + found[1].replace("&amp;", "&") if found else None
    return seen


@pytest.fixture
def big_club() -> tuple[User, Any]:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Herz Dame")
    names = [f"Spieler {number:03d}" for number in range(230)]
    Player.objects.bulk_create(Player(keeper=club.keeper, name=name, name_key=name.casefold()) for name in names)
    users = User.objects.bulk_create(User(username=f"mitglied{number:03d}") for number in range(150))
    Membership.objects.bulk_create(Membership(club=club, user=user) for user in users)
    return owner, club


def test_a_clubs_players_and_members_come_a_hundred_at_a_time(big_club: tuple[User, Any]) -> None:
    owner, club = big_club
    browser = browser_of(owner)
    address = f"/clubs/{club.public_id}/"
    players = follow(browser, address, re.compile(r">(Spieler \d+)<"), "More players")
    assert players == [f"Spieler {number:03d}" for number in range(230)]
    members = follow(browser, address, re.compile(r"<td>(mitglied\d+|olga)</td>"), "More members")
    assert members == sorted([f"mitglied{number:03d}" for number in range(150)] + ["olga"])
    roster = follow(
        browser, f"/clubs/{club.public_id}/roster/", re.compile(r"<legend>(Spieler \d+)</legend>"), "More players"
    )
    assert roster == players


def test_a_clubs_page_costs_the_same_however_many_players_and_members(big_club: tuple[User, Any]) -> None:
    owner, club = big_club
    browser = browser_of(owner)
    small = clubs.club_create(owner=owner, name="Kreuz Bube")
    assert queries_for(browser, f"/clubs/{club.public_id}/") == queries_for(browser, f"/clubs/{small.public_id}/")


def test_a_saved_roster_entry_brings_the_secretary_back_to_its_page(big_club: tuple[User, Any]) -> None:
    owner, club = big_club
    browser = browser_of(owner)
    page = browser.get(f"/clubs/{club.public_id}/roster/").content.decode()
    after = re.search(r'href="\?after=([^"]+)">More players<', page)
    assert after is not None
    later = browser.get(f"/clubs/{club.public_id}/roster/", {"after": after[1].replace("%3D", "=")}).content.decode()
    player = Player.objects.get(keeper=club.keeper, name="Spieler 150")
    assert f"player-{player.public_id}" in later
    form = {
        "prefix": str(player.public_id),
        f"{player.public_id}-player": str(player.public_id),
        f"{player.public_id}-guest": "on",
        "after": after[1].replace("%3D", "="),
    }
    answer = browser.post(f"/clubs/{club.public_id}/roster/", form)
    assert answer.status_code == 302
    assert answer["Location"].startswith(f"/clubs/{club.public_id}/roster/?after=")
    assert answer["Location"].endswith(f"#player-{player.public_id}")


def test_a_persons_clubs_come_a_hundred_at_a_time() -> None:
    owner = make_user("olga")
    names = [f"Skatclub {number:03d}" for number in range(120)]
    for name in names:
        clubs.club_create(owner=owner, name=name)
    shown = follow(browser_of(owner), "/clubs/", re.compile(r">(Skatclub \d+)</a>"), "More clubs")
    assert shown == names


def _played(games: int, page: str) -> tuple[Client, str]:
    """A scorer's browser, and the address of a page (``history``, ``list``) of their match of ``games`` grands."""
    user = make_user("anna")
    match = make_match(user)
    for _ in range(games):
        add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70)
    return browser_of(user), f"/matches/{match.public_id}/{page}/"


def test_a_matchs_history_comes_a_page_at_a_time_newest_first_each_change_once() -> None:
    browser, address = _played(53, "history")
    numbers = follow(browser, address, re.compile(r"<strong>Game (\d+) added</strong>"), "Older changes")
    assert numbers == [str(number) for number in range(53, 0, -1)]
    more = re.search(r'href="\?after=([^"]+)"', browser.get(address).content.decode())
    assert more is not None
    second = browser.get(address, {"after": more[1].replace("%3D", "=")})
    assert "Latest changes" in second.content.decode()
    assert browser.get(address, {"after": "bm90IGEgcGxhY2U="}).status_code == 404


def test_a_matchs_history_numbers_each_change_by_its_place_in_the_match_on_every_page() -> None:
    """The list is ordered: each change carries its own number (the match's version it made), so the second page
    goes on where the first ended instead of counting from 1 again."""
    browser, address = _played(53, "history")
    numbered = re.compile(r'<li value="(\d+)">\s*<p><strong>Game (\d+) added</strong>')
    first = browser.get(address).content.decode()
    more = re.search(r'href="\?after=([^"]+)"', first)
    assert more is not None
    second = browser.get(address, {"after": more[1].replace("%3D", "=")}).content.decode()
    pairs = numbered.findall(first) + numbered.findall(second)
    assert [int(value) for value, _ in pairs] == list(range(53, 0, -1))
    assert all(value == game for value, game in pairs)


def test_a_matchs_list_of_games_pages_back_as_every_list_does_with_its_running_totals() -> None:
    browser, address = _played(120, "list")
    first = browser.get(address).content.decode()
    assert "Latest games" not in first  # the first page is the latest
    rows = re.compile(r"<tr id=\"game-[^\"]+\"><td>(\d+</td>.*?<span class=\"running\">−?\d+)</span>", re.DOTALL)
    seen = [
        re.findall(r"^(\d+)</td>.*>(−?\d+)$", row, re.DOTALL)[0]
        for row in follow(browser, address, rows, "Earlier games")
    ]
    numbers = [int(number) for number, _ in seen]
    assert sorted(numbers) == list(range(1, 121))
    assert len(numbers) == 120
    first_seat = {int(number): int(total.replace("\N{MINUS SIGN}", "-")) for number, total in seen}
    assert {first_seat[number] - first_seat[number - 1] for number in range(2, 121)} == {first_seat[1]}


def test_a_seasons_nights_come_a_page_at_a_time_latest_first() -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    first = datetime.date(2026, 1, 6)
    for week in range(15):
        clubs.night_create(season=season, date=first + datetime.timedelta(weeks=week))
    dates = follow(
        browser_of(owner),
        f"/seasons/{season.public_id}/",
        re.compile(r'href="/nights/([0-9a-f-]+)/"'),
        "Earlier nights",
    )
    assert len(dates) == 15
    assert len(set(dates)) == 15


def test_the_pager_of_one_list_keeps_the_place_of_the_other_on_the_same_page(big_club: tuple[User, Any]) -> None:
    owner, club = big_club
    browser = browser_of(owner)
    page = browser.get(f"/clubs/{club.public_id}/").content.decode()
    members = re.search(r'<a href="\?(members=[^"]+)">More members</a>', page)
    assert members is not None
    later = browser.get(f"/clubs/{club.public_id}/?{members[1].replace('&amp;', '&')}").content.decode()
    more_players = re.search(r'<a href="\?([^"]+)">More players</a>', later)
    assert more_players is not None
    assert "members=" in more_players[1]
    assert "players=" in more_players[1]
