import copy
import datetime
import os
import time
import uuid
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from pytest_django import DjangoDbBlocker
from rest_framework.test import APIClient

from matches.clubs import services as clubs
from matches.clubs.models import Club, Night, Season
from matches.middleware import ExpiredSessionsMiddleware
from matches.models import FileJob, Game, Match, Player, RankingList, RestoreJob
from matches.permissions import LINKS_SESSION_KEY, Visitor
from matches.services import match_undo, player_link, player_link_invite

from .factories import add, make_match, make_user
from .writers import services_only

# No test is timed (speed lives in ``make bench``): Hypothesis's deadline would fail an example that a busy machine
# slowed down. Loaded here, before any test module makes its settings from the defaults.
hypothesis_settings.register_profile("untimed", deadline=None)
hypothesis_settings.load_profile("untimed")

# Hashing at full strength costs a sizeable part of every sign-up and login; tests only need a password to match.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

T = TypeVar("T")


# The slow kinds of test, by where they live (a folder or a file right under tests/), so that a new one is marked
# without anybody remembering to: `make test-fast` leaves them out, `make test` and CI run them all.
MARKERS_BY_PLACE = {
    "browser": "browser",
    "test_load.py": "load",
    "test_schema_fuzz.py": "fuzz",
    "test_state_machine.py": "fuzz",
}
TESTS = Path(__file__).parent
# What gives a test the database: pytest-django refuses it to every other test.
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "live_server", "django_db_reset_sequences"})
# Tests that ask for no database of their own but still depend on the engine the suite runs on: gunicorn on a
# database of that engine (the load test), and the settings that DATABASE_URL makes (read here or by a process started
# with the suite's environment).
ENGINE_BOUND = frozenset({"test_load.py", "test_settings.py", "test_production.py"})


def pytest_itemcollected(item: pytest.Item) -> None:
    if not item.path.is_relative_to(TESTS):
        return
    place = item.path.relative_to(TESTS).parts[0]
    marker = MARKERS_BY_PLACE.get(place)
    if marker is not None:
        item.add_marker(marker)
    if place not in ENGINE_BOUND and not _asks_for_a_database(item):
        item.add_marker("nodb")


def _asks_for_a_database(item: pytest.Item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(fixtures & DATABASE_FIXTURES)


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


# --- Data built once for a module's tests ------------------------------------------------------------------------


class ModuleData:
    """What a module-scoped fixture builds its shared data with, in the module's transaction."""

    def __init__(self, blocker: DjangoDbBlocker) -> None:
        self.blocker = blocker

    def build(self, builder: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        with self.blocker.unblock():
            return builder(*args, **kwargs)


@pytest.fixture(scope="module")
def module_data(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[ModuleData]:
    """A transaction around a module's tests on this worker, for the data many of them share: built once inside it
    (``ModuleData.build`` in a module-scoped fixture), it is there for every test of the module, whose own changes
    roll back to a savepoint after each test (as Django's ``TestCase.setUpTestData`` keeps a class's data), and goes
    with the transaction when the module's tests are done. A test that commits (``transaction=True``, the live
    server) cannot share such a module: collection refuses the mix (``pytest_collection_modifyitems`` below)."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
    try:
        yield ModuleData(django_db_blocker)
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def fresh(data: T) -> T:
    """A test's own copy of a module's shared objects (what it changes on them in memory stays with it), as Django
    gives each test a copy of ``setUpTestData``'s."""
    return copy.deepcopy(data)


# What a run starts first, so that no long test is left to run alone at the end while the other workers wait.
FIRST = ("slow", "load", "fuzz", "browser")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first (in the random order they were given, as a stable sort keeps it), and no test that
    commits in a module whose tests share data in its transaction (``module_data``)."""
    items.sort(key=lambda item: not any(item.get_closest_marker(name) for name in FIRST))
    sharing = {item.path for item in items if "module_data" in getattr(item, "fixturenames", ())}
    for item in items:
        if item.path in sharing and _commits(item):
            raise pytest.UsageError(
                f"{item.nodeid} commits, in a module whose tests share data in a transaction (module_data): "
                "move it to a module of its own"
            )


def _commits(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    transaction_asked = marker is not None and bool(marker.kwargs.get("transaction", marker.args[:1] == (True,)))
    fixtures = set(getattr(item, "fixturenames", ()))
    return transaction_asked or bool(fixtures & {"transactional_db", "live_server"})


# --- The personas: everybody who may meet a match, from nobody to its owner ----------------------------------------


@dataclass(frozen=True)
class Table:
    """The match every persona meets, kept by ``owner``: four games entered and the last one undone (so that there
    is something to fix, undo and redo), Ben (``player``) linked to an account, Cleo invited to link one
    (``claim_token``). ``other`` is Anna, who sat with Ben; ``unseated`` is Dora, the owner's player from another
    match, who never sat at this table (the one Ben can be merged with). The owner also owns a club, with a season
    and an open night whose three players are drawn to one table, has restored a backup (``restore``) and has a file
    made in the background (``file``) and a ranking list over the season (``ranking``)."""

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
    file: FileJob
    ranking: RankingList


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
    made = FileJob.objects.create(
        user=owner,
        kind="tournament-cards",
        title="Karten",
        language="de",
        state=FileJob.State.DONE,
        file_name="Karten.pdf",
        content_type="application/pdf",
        content=b"%PDF-1.4",
    )
    ranking = RankingList.objects.create(owner=owner, name="Rangliste", events=[str(season.public_id)])
    return Table(owner, match, games[0], ben, anna, dora, claim_token, club, season, night, restore, made, ranking)


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


@pytest.fixture
def staff(client: Client) -> Client:
    """A browser signed in as a superuser, for the admin."""
    client.force_login(User.objects.create_superuser("root", "root@example.org", "a-long-enough-password-1"))
    return client
