"""Every address of the project, asked by every persona with GET and POST (the API's also with PUT and DELETE),
against the one permission policy.

The views of the matches app declare their rule (``permissions.on_match`` and friends): what they answer must be what
``matches.permissions`` says for the persona, and a view of the app that declares none fails here, so that no new page
can escape the policy. The framework's views (accounts, admin, language, API schema and docs) are listed below with
their access; an address missing from the list fails too. Every request runs in a savepoint that is rolled back, so
each persona meets the same table; a refused request must leave it exactly as it was, and so must every GET.
"""

import datetime
import json
import re
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum, StrEnum
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import connection, reset_queries, transaction
from django.db.models import Model
from django.http import HttpResponseBase
from django.shortcuts import resolve_url
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.views import APIView

from matches import permissions, registry
from matches.api.errors import no_such_address
from matches.clubs import services as clubs
from matches.clubs.models import Night
from matches.models import Game, Keeper, Match, MatchEvent, MemberImport, Person, Player, Seat
from matches.permissions import Action, Role, Rule, allowed, can, match_role, player_role
from matches.services import match_link_renew
from matches.services.member_imports import member_import_preview

from .conftest import Persona, Table
from .event_things import event_things
from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


# The matrix asks every address as every persona: in shards of the addresses, which the workers of a run share out.
SHARDS = 6


class Answer(StrEnum):
    ALLOWED = "let in"
    LOGIN = "sent to log in"
    NOT_FOUND = "404"
    UNAUTHORIZED = "401"
    FORBIDDEN = "403"
    ADMIN_LOGIN = "sent to the admin's login"


class Who(Enum):
    """Who may use a framework view."""

    EVERYBODY = "everybody"
    ACCOUNT = "an account"
    STAFF = "staff"


# The framework's addresses and who may use them. Every other address of the admin site is for staff only.
FRAMEWORK = {
    "accounts/login/": Who.EVERYBODY,
    "accounts/logout/": Who.EVERYBODY,
    "accounts/password_change/": Who.ACCOUNT,
    "accounts/password_change/done/": Who.ACCOUNT,
    "accounts/password_reset/done/": Who.EVERYBODY,
    "accounts/reset/<uidb64>/<token>/": Who.EVERYBODY,
    "accounts/reset/done/": Who.EVERYBODY,
    "api/v1/schema/": Who.EVERYBODY,
    "api/v1/docs/": Who.EVERYBODY,
    "i18n/setlang/": Who.EVERYBODY,
    "admin/login/": Who.EVERYBODY,
}


def subject_arguments(things: dict[str, Model]) -> dict[str, tuple[str, ...]]:
    """Which arguments of an address name the thing a rule is about: those whose thing (``things``, by argument) is
    of the subject's model, for every subject the core and the kinds of event registered that has one."""
    found = {
        name: tuple(argument for argument, thing in things.items() if isinstance(thing, subject.model))
        for name, subject in permissions.SUBJECTS.items()
    }
    return {name: arguments for name, arguments in found.items() if arguments}


def _registered_views(patterns: Sequence[URLPattern | URLResolver]) -> set[Callable[..., Any]]:
    found: set[Callable[..., Any]] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found |= _registered_views(pattern.url_patterns)
        else:
            found.add(pattern.callback)
    return found


def kinds_views() -> set[Callable[..., Any]]:
    """The pages and API views the kinds of event registered (wherever their app lives: one installed for the tests
    only, in ``tests/``)."""
    return _registered_views([*registry.app_pages(), *registry.app_api_routes()])


WRITE = re.compile(r'\s*(?:INSERT (?:OR \w+ )?INTO|UPDATE|DELETE FROM)\s+"?(\w+)', re.IGNORECASE)
ROUTE_ARGUMENT = re.compile(r"<(?:\w+:)?(\w+)>")
REGEX_ARGUMENT = re.compile(r"\(\?P<(\w+)>[^)]*\)")

STEP_TOKEN = str(uuid.uuid4())
GAME = {"contract": "clubs", "matadors": "1", "declarer": "1", "declarer_card_points": "70"}


@dataclass(frozen=True)
class Route:
    """One URL pattern of the project, with the patterns it is included under."""

    pattern: str
    name: str
    view: Callable[..., Any]
    in_admin: bool

    @property
    def arguments(self) -> list[str]:
        return REGEX_ARGUMENT.findall(self.pattern) + ROUTE_ARGUMENT.findall(REGEX_ARGUMENT.sub("", self.pattern))

    def address(self, values: dict[str, str]) -> str:
        """The address with ``values`` for its arguments (a regular expression's groups first: their names look
        like a path converter's)."""
        path = REGEX_ARGUMENT.sub(lambda found: values[found[1]], self.pattern)
        path = ROUTE_ARGUMENT.sub(lambda found: values[found[1]], path)
        return "/" + path.replace("^", "").replace("$", "")

    @property
    def is_the_apps(self) -> bool:
        # The admin's views, the project's own among them (its accounts' deletion), are the admin site's: for staff.
        if self.in_admin:
            return False
        return self.view.__module__.split(".")[0] == "matches" or self.view in kinds_views()

    @property
    def is_api(self) -> bool:
        view_class = getattr(self.view, "cls", None)
        return isinstance(view_class, type) and issubclass(view_class, APIView)


def routes(
    patterns: Sequence[URLPattern | URLResolver] | None = None, prefix: str = "", namespaces: tuple[str, ...] = ()
) -> Iterator[Route]:
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            inner = (*namespaces, entry.namespace) if entry.namespace else namespaces
            yield from routes(entry.url_patterns, prefix + str(entry.pattern), inner)
        else:
            name = ":".join([*namespaces, entry.name]) if entry.name else ""
            yield Route(prefix + str(entry.pattern), name, entry.callback, "admin" in namespaces)


def answer_of(response: HttpResponseBase) -> Answer:
    if response.status_code == 404:
        return Answer.NOT_FOUND
    if response.status_code == 401:
        return Answer.UNAUTHORIZED
    if response.status_code == 403:
        return Answer.FORBIDDEN
    if 300 <= response.status_code < 400:
        target = urlsplit(response["Location"]).path
        if target == resolve_url(settings.LOGIN_URL):
            return Answer.LOGIN
        if target in {reverse("admin:login"), reverse("admin:index")}:
            return Answer.ADMIN_LOGIN
    return Answer.ALLOWED


def argument_values(table: Table, route: Route) -> dict[str, str]:
    match = table.match
    tokens = {
        "match_join": match.invite_token,
        "match_spectate": match.share_token,
        "match_spectate_chart": match.share_token,
        "match_spectate_games": match.share_token,
        "player_claim": table.claim_token,
        "password_reset_confirm": "no-such-token",
        "club_screen": table.club.screen_token,
    }
    values = {
        "match_id": str(match.public_id),
        "game_id": str(table.game.public_id),
        "player_id": str(table.player.public_id),
        "other_id": str(table.other.public_id),
        "uidb64": urlsafe_base64_encode(force_bytes(table.owner.pk)),
        "id": str(table.owner.pk),
        "object_id": str(match.pk),
        "content_type_id": str(ContentType.objects.get_for_model(Match).pk),
        "app_label": "matches",
        "url": "nowhere/",
        "club_id": str(table.club.public_id),
        "season_id": str(table.season.public_id),
        "night_id": str(table.night.public_id),
        "restore_id": str(table.restore.public_id),
        "file_id": str(table.file.public_id),
        "person_id": str(Person.objects.get(players=table.player).public_id),
        "ranking_id": str(table.ranking.public_id),
        "book_id": str(table.club.keeper_id),
        "member_import_id": str(member_import_of(table).public_id),
        "number": "1",
        "fmt": "csv",
        "part": "1",
        "member_id": str(
            Seat.objects.filter(match__club_table__night=table.night).values_list("player__public_id", flat=True)[0]
        ),
        **{name: str(thing.public_id) for name, thing in event_things(table.owner).items()},  # type: ignore[attr-defined]
        "series": "1",
    }
    if route.name == "night_table_phones":
        values["night_id"] = str(paper_night(table).public_id)
    if route.name == "download-ranking-list":
        values["part"] = "0"  # the whole time, the list's one period
    token = tokens.get(route.name)
    return values | {"token": token} if token else values


def member_import_of(table: Table) -> MemberImport:
    """A member list read into the club's book, not yet applied: one row, a player of the club's night."""
    found, _ = MemberImport.objects.get_or_create(
        keeper=table.club.keeper,
        file_name="mitglieder.csv",
        defaults={"rows": [{"row": 2, "name": "Ida", "number": "4711"}]},
    )
    return found


def paper_night(table: Table) -> Night:
    """Another night of the table's season, whose one table entered its list on paper: one to turn back to phones
    (the table's own night has not played yet)."""
    night = clubs.night_create(season=table.season, date=datetime.date(2026, 12, 1))
    for name in ("Ida", "Jan", "Kai"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=table.owner)
    on_paper = night.tables.select_related("match").get()
    players = [seat.player for seat in on_paper.match.seats.order_by("position")]
    clubs.paper_enter(table=on_paper, lines=[(player, 0, 0, 0) for player in players])
    return night


def posted(table: Table) -> dict[str, dict[str, Any]]:
    """What each page's form would send, so that a POST that got through changes the table."""
    game = {"token": STEP_TOKEN, **GAME}
    seated = [
        str(key)
        for key in Seat.objects.filter(match__club_table__night=table.night).values_list("player__public_id", flat=True)
    ]
    return {
        "match_new": {
            "preset": "skat-isko",
            "scheme": "standard",
            "first_dealer": "0",
            "rule_ramsch_loss": "card-points",
            "rule_ramsch_fixed_loss": "10",
            "rule_lost_hand": "double",
            "player_0": "Anna",
            "player_1": "Ben",
            "player_2": "Cleo",
        },
        "game_create": game,
        "game_edit": game | {"contract": "spades"},
        "game_pass": {"token": STEP_TOKEN},
        "game_delete": {"token": STEP_TOKEN},
        "match_undo": {"token": STEP_TOKEN},
        "match_redo": {"token": STEP_TOKEN},
        "match_links": {"link": "invite", "action": "revoke"},
        "match_scorer_remove": {"scorer": "carla"},
        "match_join": {},
        "player_link": {"action": "unlink"},
        "player_merge": {"other": str(table.unseated.public_id)},
        "player_claim": {},
        "player_number": {"federation_number": "4711"},
        "player_join_undo": {"join": str(table.player.joins.get().pk)},
        "player_me_shown": {"shown": "full"},
        "player_me_joins": {"every": "1", "confirm": "on"},
        "member_import_apply": {"plan": member_import_preview(member_import_of(table)).plan},
        "club_list": {"name": "Grand Hand"},
        "club_member": {"username": "ben", "role": "member"},
        "club_player": {"name": "Zoe"},
        "club_screen_link": {"action": "renew"},
        "club_roster": {"prefix": "p", "p-player": seated[0], "p-guest": "on", "p-categories": "seniors"},
        "season_new": {
            "name": "2027",
            "preset": "skat-tournament",
            "ranking": "total",
            "games_at_four": "48",
            "games_at_three": "36",
            "games_at_two": "24",
            "minimum_lists": "0",
            "best_nights": "0",
        },
        "season_edit": {
            "name": "Saison 2026",
            "ranking": "total",
            "games_at_four": "48",
            "games_at_three": "36",
            "games_at_two": "24",
            "minimum_lists": "0",
            "best_nights": "0",
        },
        "night_new": {"date": "2026-12-01", "series": "1"},
        "night_edit": {"date": "2026-11-25"},
        "night_remove": {"confirm": "on"},
        "night_series_drop": {"series": "1"},
        "night_table_phones": {"series": "1"},
        "night_check_in": {"name": "Walter"},
        "night_draw": {"series": "1", "seating": "draw", "again": "1"},
        "night_pot": {"player": seated[0], "in_pot": "0"},
        "night_swap": {"series": "1", "first": seated[0], "second": seated[1]},
        "night_paper": {f"{field}_{seat}": "0" for field in ("points", "won", "lost") for seat in range(3)},
        "night_close": {"confirm": "on"},
        "account_delete": {"password": "a-long-enough-password-1"},
        "password_reset": {"email": "olga@example.org"},
        "api:token": {"username": "olga", "password": "a-long-enough-password-1"},
        "api:matches": {"variant": "skat", "players": ["Anna", "Ben", "Cleo"]},
        "api:games": {"declarer": 1, "game": {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}},
        "api:undo": {},
        "api:redo": {},
        "api:game": {"declarer": 2, "game": {"contract": "spades", "matadors": 1, "declarer_card_points": 70}},
    }


def refusal(route: Route, persona: Persona) -> Answer:
    """How a refused persona is answered: pages send somebody without an account to log in and tell everybody
    else that nothing is there; the API answers 401 and 404 the same way."""
    if persona.user is None:
        return Answer.UNAUTHORIZED if route.is_api else Answer.LOGIN
    return Answer.NOT_FOUND


def policy_allows(rule: Rule, persona: Persona, subjects: Sequence[Model], method: str) -> bool:
    if rule.subject is None:
        return True
    if rule.subject == "account":
        return persona.visitor.account is not None
    action = rule.action_for(method)
    assert action is not None
    return all(allowed(persona.visitor, action, thing) for thing in subjects)


def expectation(route: Route, table: Table) -> Callable[[Persona, str], Answer] | str:
    """What each persona should get at ``route``, or why that cannot be told."""
    if route.view is no_such_address:
        # Under the API's addresses, the rest name nothing: everybody is told so.
        return lambda persona, method: Answer.NOT_FOUND
    if route.is_the_apps:
        rule = getattr(route.view, "policy", None)
        if not isinstance(rule, Rule):
            return "a view of the matches app without a declared policy (permissions.on_match, public, …)"
        things: dict[str, Model] = {
            "match_id": table.match,
            "player_id": table.player,
            "other_id": table.other,
            "club_id": table.club,
            "season_id": table.season,
            "night_id": table.night,
            "restore_id": table.restore,
            "file_id": table.file,
            "person_id": Person.objects.get(players=table.player),
            "ranking_id": table.ranking,
            "book_id": table.club.keeper,
            "member_import_id": member_import_of(table),
            **event_things(table.owner),
        }
        arguments = subject_arguments(things)
        if rule.subject not in {None, "account", *arguments}:
            return f"a policy about an unknown kind of thing: {rule.subject!r}"
        wanted = arguments.get(rule.subject or "", ())
        subjects = [things[name] for name in route.arguments if name in wanted]
        if wanted and not subjects:
            return f"a policy about a {rule.subject} whose address names none"
        return lambda persona, method: (
            Answer.ALLOWED if policy_allows(rule, persona, subjects, method) else refusal(route, persona)
        )
    who = FRAMEWORK.get(route.pattern) or (Who.STAFF if route.in_admin else None)
    if who is None:
        return "a framework address not listed in FRAMEWORK"
    if who is Who.EVERYBODY:
        return lambda persona, method: Answer.ALLOWED
    if who is Who.ACCOUNT:
        return lambda persona, method: Answer.LOGIN if persona.user is None else Answer.ALLOWED
    return lambda persona, method: Answer.ALLOWED if persona.user and persona.user.is_staff else Answer.ADMIN_LOGIN


# The public pages many people read at once, answered for a shared cache to a visitor without an account
# (``matches.screens.shared``; tests/test_shared_cache.py).
SHARED_PAGES = {"interclub_group", "interclub_venue", "interclub_venue_screen", "tournaments:live", "club_screen"}


@dataclass(frozen=True)
class Asked:
    answer: Answer | str
    writes: list[str]
    body: str
    status: int = 0
    cache: str = ""


def ask(session: str | None, method: str, address: str, data: dict[str, Any], *, api: bool) -> Asked:
    """The answer at ``address`` to a browser holding ``session``, and the tables the request wrote to (its session
    aside); nothing it did is kept, the session included, so every request meets the same table. The API is sent
    JSON, the pages a form."""
    browser = Client()
    if session is not None:
        browser.cookies[settings.SESSION_COOKIE_NAME] = session
    # The connection's log of queries is bounded: once full, a capture would see none, and no write would be caught.
    reset_queries()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        try:
            if method == "GET":
                response = browser.get(address)
            elif method == "HEAD":
                response = browser.head(address)
            elif api:
                response = browser.generic(method, address, json.dumps(data), content_type="application/json")
            else:
                response = browser.post(address, data)
        except Exception as error:  # a view that fails is a finding like a wrong answer, reported with the others
            transaction.set_rollback(True)
            return Asked(f"raised {error!r}", [], "")
        transaction.set_rollback(True)
    written = (WRITE.match(query["sql"]) for query in queries.captured_queries)
    writes = sorted({found[1] for found in written if found and found[1] != "django_session"})
    body = response.content.decode(errors="replace") if response.status_code == 200 and not response.streaming else ""
    return Asked(answer_of(response), writes, body, response.status_code, response.get("Cache-Control", ""))


def leaked_links(table: Table, persona: Persona, where: str, address: str, body: str) -> list[str]:
    """The invite and spectators' links are shown only to whom the policy lets share them (or who came by them)."""
    match = table.match
    may_share = can(persona.visitor, Action.SHARE, match)
    return [
        f"{where}: shows the {kind} link"
        for kind, token in (("invite", match.invite_token), ("spectators'", match.share_token))
        if token and token in body and token not in address and not may_share
    ]


def session_of(persona: Persona) -> str | None:
    """A session of the persona's, kept for the whole test: the savepoints roll back whatever a request does to it."""
    cookie = persona.browser().cookies.get(settings.SESSION_COOKIE_NAME)
    return cookie.value if cookie else None


def shard(number: int) -> list[Route]:
    """The addresses of one of the matrix's shards (every SHARDS-th, in the order of the URL configuration)."""
    return list(routes())[number::SHARDS]


def test_the_shards_of_the_matrix_hold_every_address_once() -> None:
    shards = [route.pattern for number in range(SHARDS) for route in shard(number)]
    assert sorted(shards) == sorted(route.pattern for route in routes())
    assert len(shards) > SHARDS


def test_every_framework_address_and_every_form_sent_is_an_address_of_the_site(table: Table) -> None:
    patterns = {route.pattern for route in routes()}
    names = {route.name for route in routes()}
    assert [pattern for pattern in FRAMEWORK if pattern not in patterns] == []
    assert [name for name in posted(table) if name not in names] == []


@pytest.mark.slow
@pytest.mark.parametrize("number", range(SHARDS))
def test_every_address_answers_every_persona_as_the_policy_says(
    table: Table, personas: list[Persona], number: int
) -> None:
    """A refused request writes nothing, and neither does a GET or a view whose rule only asks to view: so no game,
    event, match version, link or player changes. A HEAD is answered as the GET (``head_like_get``)."""
    problems: list[str] = []
    sessions = {persona.name: session_of(persona) for persona in personas}
    posts = posted(table)
    written_by: set[str] = set()
    asked_here: set[str] = set()
    asked = 0
    for route in shard(number):
        asked_here.add(route.name)
        expected = expectation(route, table)
        if isinstance(expected, str):
            problems.append(f"{route.pattern} ({route.name or route.view.__qualname__}): {expected}")
            continue
        try:
            address = route.address(argument_values(table, route))
        except KeyError as missing:
            problems.append(f"{route.pattern}: no value for the argument {missing} (argument_values)")
            continue
        if resolve(urlsplit(address).path).func is not route.view:
            problems.append(f"{route.pattern}: {address} reaches another view")
            continue
        rule = getattr(route.view, "policy", None)
        for persona in personas:
            for method in ("GET", "POST", "PUT", "DELETE") if route.is_api else ("GET", "POST"):
                viewing_only = isinstance(rule, Rule) and rule.action_for(method) is Action.VIEW
                wanted = expected(persona, method)
                asked += 1
                got = ask(sessions[persona.name], method, address, posts.get(route.name, {}), api=route.is_api)
                where = f"{method} {address} as {persona.name}"
                if got.answer != wanted:
                    problems.append(f"{where}: {got.answer}, expected {wanted}")
                if got.writes and (method == "GET" or wanted is not Answer.ALLOWED or viewing_only):
                    problems.append(f"{where}: wrote to {', '.join(got.writes)}")
                if got.writes:
                    written_by.add(route.name)
                if route.is_the_apps and got.body:
                    problems += leaked_links(table, persona, where, address, got.body)
                if method == "GET":
                    problems += head_like_get(sessions[persona.name], address, got, persona.name, api=route.is_api)
                # Only the public pages many read, to a visitor without an account, go to a shared cache.
                if "public" in got.cache and (sessions[persona.name] is not None or route.name not in SHARED_PAGES):
                    problems.append(f"{where}: marked for a shared cache ({got.cache})")
    unchanged = (set(posts) & asked_here) - written_by
    problems += [f"{name}: no persona's POST changed anything (see posted())" for name in sorted(unchanged)]
    assert not problems, f"{len(problems)} problems in {asked} requests:\n" + "\n".join(problems)


def head_like_get(session: str | None, address: str, got: Asked, who: str, *, api: bool) -> list[str]:
    """HEAD is GET without the body (RFC 9110): wherever a GET is answered, a HEAD gets the same answer and writes
    nothing, never 405."""
    head = ask(session, "HEAD", address, {}, api=api)
    if (got.answer, got.status) != (head.answer, head.status) or head.writes:
        return [f"HEAD {address} as {who}: {head.status} {head.writes}, GET: {got.status}"]
    return []


# The files made of a page's data (downloads, the chart, the results as a picture) and the page they come from.
FILES_OF_PAGES = {
    "match_export": "match_detail",
    "match_chart": "match_detail",
    "match_picture": "match_detail",
    "player_export": "player_detail",
    "download-season-table": "season_detail",
    "download-night-table": "night_detail",
    "night_picture": "night_detail",
    "match_print": "match_detail",
    "night_lists": "night_detail",
    "download-ranking-list": "ranking_detail",
    "download-group-table": "interclub_group",
    "download-league-players": "interclub_league",
    "download-venue-report": "interclub_report",
    "download-tournament-standings": "tournaments:results",
    "download-tournament-series": "tournaments:results",
    "download-tournament-prizes": "tournaments:prizes",
    "download-tournament-cashier": "tournaments:cashier",
}


def test_a_file_of_a_page_answers_exactly_whoever_may_see_the_page() -> None:
    """The matrix holds each address to the rule it declares; this holds each file to the rule of its page."""
    policies = {route.name: getattr(route.view, "policy", None) for route in routes()}
    assert {name: policies[name] for name in FILES_OF_PAGES} == {
        name: policies[page] for name, page in FILES_OF_PAGES.items()
    }


def test_each_persona_meets_the_match_in_its_role(table: Table, personas: list[Persona]) -> None:
    """The matrix holds the pages to the policy; this holds the personas to the roles they stand for, so that one
    that lost its way (a join that did not take) cannot pass the matrix by being nobody everywhere."""
    assert {persona.name: match_role(persona.visitor, table.match) for persona in personas} == {
        "anonymous": Role.NOBODY,
        "stranger": Role.NOBODY,
        "spectator": Role.NOBODY,
        "link scorer": Role.LINK_SCORER,
        "co-scorer": Role.CO_SCORER,
        "owner": Role.OWNER,
        "player": Role.PLAYER,
    }
    spectator = next(persona for persona in personas if persona.name == "spectator")
    following = replace(spectator.visitor, share_token=table.match.share_token)
    assert match_role(following, table.match) is Role.SPECTATOR
    assert {persona.name: player_role(persona.visitor, table.player) for persona in personas} == {
        persona.name: {"owner": Role.OWNER, "player": Role.PLAYER}.get(persona.name, Role.NOBODY)
        for persona in personas
    }


def test_only_the_clubs_owner_gives_and_takes_its_managing_roles(table: Table, personas: list[Persona]) -> None:
    """The roles action (making or unmaking an owner or a secretary, taking a member off) is the club owner's alone:
    the policy grants it to no other persona, and the club's member form does it for exactly whom the policy grants
    it."""
    clubs.member_set(club=table.club, username="ben", role="member")
    address = reverse("club_member", args=[table.club.public_id])
    granted = {persona.name: allowed(persona.visitor, Action.ROLES, table.club) for persona in personas}
    assert granted == {persona.name: persona.name == "owner" for persona in personas}
    for persona in personas:
        session = session_of(persona)
        for data in ({"username": "ben", "role": "secretary"}, {"username": "ben", "role": "member", "remove": "1"}):
            got = ask(session, "POST", address, data, api=False)
            assert ("leagues_membership" in got.writes) is granted[persona.name], (persona.name, data)


def test_a_game_is_reached_only_through_its_own_match(table: Table, persona_co_scorer: Persona) -> None:
    """Scoring one match gives no hold on another match's games, even with their address."""
    elsewhere = make_match(make_user("xaver"))
    game = add(elsewhere, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    scorer = persona_co_scorer.browser()
    for view in ("game_edit", "game_delete"):
        address = reverse(view, args=[table.match.public_id, game.public_id])
        assert scorer.get(address).status_code == 404
        assert scorer.post(address, {"token": STEP_TOKEN, **GAME}).status_code == 404
    assert list(Game.objects.filter(match=elsewhere).values_list("deleted", "entry")) == [(False, game.entry)]
    assert MatchEvent.objects.filter(match=elsewhere).count() == 1


@pytest.mark.parametrize("revoke", [False, True], ids=["renewed", "revoked"])
def test_a_changed_invite_link_stops_the_link_scorer_at_once(
    table: Table,
    persona_link_scorer: Persona,
    persona_spectator: Persona,
    persona_co_scorer: Persona,
    revoke: bool,
) -> None:
    """The link is what lets the browser score, so it stops with the link; a co-scorer joined with an account and
    stays, and the spectators' link is another link."""
    match = table.match
    page = reverse("match_detail", args=[match.public_id])
    old_join = reverse("match_join", args=[match.invite_token])
    watch = reverse("match_spectate", args=[match.share_token])
    scorer = persona_link_scorer.browser()
    assert scorer.get(page).status_code == 200
    games = Game.objects.count()

    match_link_renew(match=match, link="invite", revoke=revoke)

    assert answer_of(scorer.get(page)) is Answer.LOGIN
    assert answer_of(scorer.post(reverse("game_pass", args=[match.public_id]), {"token": STEP_TOKEN})) is Answer.LOGIN
    assert Game.objects.count() == games
    assert persona_link_scorer.browser().get(old_join).status_code == 404
    assert persona_spectator.browser().get(watch).status_code == 200
    assert persona_co_scorer.browser().get(page).status_code == 200
    if not revoke:
        newcomer = persona_link_scorer.browser()
        newcomer.post(reverse("match_join", args=[match.invite_token]))
        assert newcomer.get(page).status_code == 200


@pytest.mark.parametrize("revoke", [False, True], ids=["renewed", "revoked"])
def test_a_changed_spectators_link_stops_the_spectator_at_once(
    table: Table, persona_spectator: Persona, persona_link_scorer: Persona, revoke: bool
) -> None:
    match = table.match
    old = match.share_token
    spectator = persona_spectator.browser()
    assert spectator.get(reverse("match_spectate", args=[old])).status_code == 200

    match_link_renew(match=match, link="share", revoke=revoke)

    assert spectator.get(reverse("match_spectate", args=[old])).status_code == 404
    assert spectator.get(reverse("match_spectate_chart", args=[old])).status_code == 404
    assert persona_link_scorer.browser().get(reverse("match_detail", args=[match.public_id])).status_code == 200
    if not revoke:
        assert spectator.get(reverse("match_spectate", args=[match.share_token])).status_code == 200


def test_a_match_outlives_the_account_that_started_it(
    table: Table, persona_co_scorer: Persona, persona_stranger: Persona
) -> None:
    """The match belongs to the keeper, not to the account: the keeper stays without a user, and so do its players,
    the match, its games and whoever scores it with it."""
    match = table.match
    seats = list(match.seats.values_list("position", "player"))
    games = list(Game.objects.filter(match=match).values_list("pk", "deleted"))
    players = Player.objects.filter(keeper=match.keeper).count()

    table.owner.delete()

    match.refresh_from_db()
    assert Keeper.objects.get(pk=match.keeper_id).user is None
    assert match.created_by is None
    assert list(match.seats.values_list("position", "player")) == seats
    assert list(Game.objects.filter(match=match).values_list("pk", "deleted")) == games
    assert Player.objects.filter(keeper=match.keeper).count() == players
    co_scorer = persona_co_scorer.browser()
    assert co_scorer.get(reverse("match_detail", args=[match.public_id])).status_code == 200
    response = co_scorer.post(reverse("game_create", args=[match.public_id]), {"token": STEP_TOKEN, **GAME})
    assert response.status_code == 302
    assert Game.objects.filter(match=match).count() == len(games) + 1
    assert persona_stranger.browser().get(reverse("match_detail", args=[match.public_id])).status_code == 404
