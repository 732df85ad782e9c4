import datetime
import os
import time
import uuid
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from matches.clubs import services as clubs
from matches.clubs.models import Club, Night, Season
from matches.middleware import ExpiredSessionsMiddleware
from matches.models import Game, Match, Player, RestoreJob
from matches.permissions import LINKS_SESSION_KEY, Visitor
from matches.services import match_undo, player_link, player_link_invite

from .factories import add, make_match, make_user
from .writers import services_only

# No test is timed (speed lives in ``manage.py bench``): Hypothesis's deadline would fail an example that a busy machine
# slowed down. Loaded here, before any test module makes its settings from the defaults.
hypothesis_settings.register_profile("untimed", deadline=None)
hypothesis_settings.load_profile("untimed")

# Hashing at full strength costs a sizeable part of every sign-up and login; tests only need a password to match.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The slow kinds of test, by where they live (a folder or a file right under tests/), so that a new one is marked
# without anybody remembering to: `make test-fast` leaves them out, `make test` and CI run them all.
MARKERS_BY_PLACE = {
    "browser": "browser",
    "test_load.py": "load",
    "test_schema_fuzz.py": "fuzz",
    "test_state_machine.py": "fuzz",
}
TESTS = Path(__file__).parent


def pytest_itemcollected(item: pytest.Item) -> None:
    if not item.path.is_relative_to(TESTS):
        return
    marker = MARKERS_BY_PLACE.get(item.path.relative_to(TESTS).parts[0])
    if marker is not None:
        item.add_marker(marker)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """With SCOREKEEPER_NO_SKIPS=1 (as in CI) a skipped test fails: every test must have what it needs."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("SCOREKEEPER_NO_SKIPS") == "1":
        report.outcome = "failed"
        report.longrepr = f"skipped where skipping is not allowed: {report.longrepr}"


@pytest.fixture(scope="session", autouse=True)
def fast_password_hasher() -> Generator[None, None, None]:
    """For the whole run, browser tests included: their live server answers from this process, so it hashes the
    passwords they sign up with the same way."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture(scope="session", autouse=True)
def unthrottled() -> Generator[None, None, None]:
    """Tests send many requests from one address in a minute; tests/test_throttle.py sets rates of its own."""
    rest = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}
    with override_settings(REST_FRAMEWORK=rest):
        yield


@pytest.fixture(scope="session", autouse=True)
def daily_cleanup_done() -> None:
    """The site deletes expired sessions on a process's first request, then once a day (ExpiredSessionsMiddleware):
    for the tests that counts as done at the start, so that no request under test meets it by chance (the tests of
    the cleanup ask for it again)."""
    ExpiredSessionsMiddleware.next_cleanup = time.monotonic() + settings.SESSION_CLEANUP_SECONDS


@pytest.fixture(autouse=True)
def one_writer_of_matches() -> Generator[None, None, None]:
    """Every test, whatever it exercises, fails on a write to a match's tables from outside the core's services."""
    with services_only():
        yield


@pytest.fixture(autouse=True)
def default_language() -> Generator[None, None, None]:
    """Every test starts in the site's default language: a request in German leaves German active in the thread
    (the locale middleware activates a request's language and leaves it), and a later test reading a form's or the
    engine's words outside a request would read them in German."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def api() -> APIClient:
    return APIClient()


# --- The personas: everybody who may meet a match, from nobody to its owner ----------------------------------------


@dataclass(frozen=True)
class Table:
    """The match every persona meets, kept by ``owner``: four games entered and the last one undone (so that there
    is something to fix, undo and redo), Ben (``player``) linked to an account, Cleo invited to link one
    (``claim_token``). ``other`` is Anna, who sat with Ben; ``unseated`` is Dora, the owner's player from another
    match, who never sat at this table (the one Ben can be merged with). The owner also owns a club, with a season
    and an open night whose three players are drawn to one table, and has restored a backup (``restore``)."""

    owner: User
    match: Match
    game: Game
    player: Player
    other: Player
    unseated: Player
    claim_token: str
    club: Club
    season: Season
    night: Night
    restore: RestoreJob


@pytest.fixture
def table(db: None) -> Table:
    owner = make_user("olga")
    match = make_match(owner)
    games = [add(match, declarer=seat % 3, contract="clubs", matadors=1, declarer_card_points=70) for seat in range(4)]
    match_undo(match=match, user=owner, token=uuid.uuid4())
    make_match(owner, variant="officers-skat", names=("Anna", "Dora"))
    anna, ben, cleo = (seat.player for seat in match.seats.select_related("player"))
    player_link(player=ben, account=make_user("ben"))
    claim_token = player_link_invite(player=cleo)
    dora = Player.objects.get(keeper=match.keeper, name="Dora")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Ida", "Jan", "Kai"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    restore = RestoreJob.objects.create(
        user=owner, file_name="olga.json", size=100, state=RestoreJob.State.DONE, counts={"players": 1}
    )
    return Table(owner, match, games[0], ben, anna, dora, claim_token, club, season, night, restore)


@dataclass(frozen=True)
class Persona:
    """Somebody meeting the table: the account they are signed in with (none: ``user`` is None) and what their
    browser's session holds once they got there the way a person does (the invite links it opened, for one)."""

    name: str
    user: User | None
    session: Mapping[str, Any]

    @property
    def visitor(self) -> Visitor:
        """Whom ``matches.permissions`` sees at an address of a match (the spectators' link is no credential there:
        it travels in the watch/ addresses only)."""
        links = self.session.get(LINKS_SESSION_KEY, {})
        return Visitor(self.user or AnonymousUser(), links)

    def browser(self) -> Client:
        """A browser in this persona's state, with a session of its own: whatever a request does to it (logging out,
        joining a match) leaves the persona as it was for the next one."""
        browser = Client()
        if self.session:
            store = import_module(settings.SESSION_ENGINE).SessionStore()
            store.update(self.session)
            store.save()
            browser.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
        return browser


def arrive(name: str, user: User | None, *visits: tuple[str, str]) -> Persona:
    """A persona signed in as ``user`` (if any) whose browser then made ``visits`` (method, address), in order."""
    browser = Client()
    if user is not None:
        browser.force_login(user)
    for method, address in visits:
        response = browser.post(address) if method == "POST" else browser.get(address)
        assert response.status_code in {200, 302}, f"{name}: {method} {address} answered {response.status_code}"
    return Persona(name, user, dict(browser.session.items()))


def _joined(table: Table) -> tuple[tuple[str, str], ...]:
    address = reverse("match_join", args=[table.match.invite_token])
    return (("GET", address), ("POST", address))


@pytest.fixture
def persona_anonymous(table: Table) -> Persona:
    return arrive("anonymous", None)


@pytest.fixture
def persona_stranger(table: Table) -> Persona:
    return arrive("stranger", make_user("stefan"))


@pytest.fixture
def persona_spectator(table: Table) -> Persona:
    return arrive("spectator", None, ("GET", reverse("match_spectate", args=[table.match.share_token])))


@pytest.fixture
def persona_link_scorer(table: Table) -> Persona:
    return arrive("link scorer", None, *_joined(table))


@pytest.fixture
def persona_co_scorer(table: Table) -> Persona:
    return arrive("co-scorer", make_user("carla"), *_joined(table))


@pytest.fixture
def persona_owner(table: Table) -> Persona:
    return arrive("owner", table.owner)


@pytest.fixture
def persona_player(table: Table) -> Persona:
    assert table.player.account is not None
    return arrive("player", table.player.account)


@pytest.fixture
def personas(
    persona_anonymous: Persona,
    persona_stranger: Persona,
    persona_spectator: Persona,
    persona_link_scorer: Persona,
    persona_co_scorer: Persona,
    persona_owner: Persona,
    persona_player: Persona,
) -> list[Persona]:
    return [
        persona_anonymous,
        persona_stranger,
        persona_spectator,
        persona_link_scorer,
        persona_co_scorer,
        persona_owner,
        persona_player,
    ]
