"""The one answer to "may this person view / score / manage / share this?".

Every page, the API and every template ask here; nothing else decides who may do what. A person meets a match in
one role, the strongest that applies:

- the **owner**: the match is in their keeper's book (their own; a book an app keeps, a club's say, that they
  manage there; without an account, the guest's book their browser holds);
- a **co-scorer**: an account that joined through the invite link;
- a **link scorer**: somebody without an account holding the invite link (a table at a club night, a guest);
- a **player**: the account linked to one of the match's players;
- a **spectator**: somebody following the spectators' link;
- **nobody**: anonymous or a stranger.

An app built on the core (the club app) says, when it is ready, what a person is at the books it keeps
(``register_book_role``) and which things of its own a rule can be about (``register_subject``); the core asks it
here and knows nothing of it.

A revoked or renewed link stops working at once: a link grants only while it equals the match's current one.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from functools import wraps
from typing import Any, ParamSpec, Protocol, TypeVar

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ObjectDoesNotExist
from django.db import connection
from django.db.models import Field, Model, Q, QuerySet
from django.http import Http404, HttpRequest

from .models import FileJob, Keeper, Match, MemberImport, Player, RestoreJob, Seat

LINKS_SESSION_KEY = "scorer_links"
GUEST_SESSION_KEY = "guest_keeper"


class Action(StrEnum):
    VIEW = "view"  # read a match (sheet, history) or a player's statistics
    SCORE = "score"  # enter, fix, delete, undo and redo games
    SHARE = "share"  # see the links that let others score or watch
    MANAGE = "manage"  # renew or revoke those links; rename, merge and link players
    UNLINK = "unlink"  # take a player's link to an account away
    REOPEN = "reopen"  # reopen a closed club night
    BACKUP = "backup"  # download a whole book in one file (a club's)
    ROLES = "roles"  # give and take a club's managing roles (owner, secretary), take members off


class Role(IntEnum):
    NOBODY = 0
    SPECTATOR = 1
    PLAYER = 2
    LINK_SCORER = 3
    CO_SCORER = 4
    OWNER = 5


GRANTS: dict[Role, frozenset[Action]] = {
    Role.NOBODY: frozenset(),
    Role.SPECTATOR: frozenset({Action.VIEW}),
    Role.PLAYER: frozenset({Action.VIEW, Action.UNLINK}),
    Role.LINK_SCORER: frozenset({Action.VIEW, Action.SCORE}),
    Role.CO_SCORER: frozenset({Action.VIEW, Action.SCORE}),
    Role.OWNER: frozenset(Action),
}


@dataclass(frozen=True)
class Visitor:
    """Who is asking: an account (or nobody), the invite links held without an account (by match public id), the
    guest's book held without an account, and the spectators' link being followed, if any."""

    user: User | AnonymousUser
    links: Mapping[str, str] = field(default_factory=dict)
    share_token: str | None = None
    guest: str | None = None

    @property
    def account(self) -> User | None:
        return self.user if self.user.is_authenticated and isinstance(self.user, User) else None


def visitor_of(request: HttpRequest, *, share_token: str | None = None) -> Visitor:
    links = request.session.get(LINKS_SESSION_KEY, {})
    return Visitor(
        request.user,
        links if isinstance(links, dict) else {},
        share_token,
        None if request.user.is_authenticated else guest_key_of(request),
    )


def guest_key_of(request: HttpRequest) -> str | None:
    """The guest's book this browser holds (as its key), if any."""
    held = request.session.get(GUEST_SESSION_KEY)
    try:
        return str(uuid.UUID(held)) if isinstance(held, str) else None
    except ValueError:
        return None


def _same(held: str | None, current: str | None) -> bool:
    return bool(held) and bool(current) and secrets.compare_digest(str(held), str(current))


BookRole = Callable[[Visitor, Keeper], Role]

_book_roles: list[BookRole] = []


def register_book_role(answer: BookRole) -> None:
    """``answer`` says what a person is at the books an app keeps (a club's): ``NOBODY`` at every other book."""
    if answer not in _book_roles:
        _book_roles.append(answer)


def _book_role(visitor: Visitor, keeper: Keeper) -> Role:
    """The role the apps give ``visitor`` at what ``keeper``'s book keeps (``NOBODY`` where none gives one)."""
    return max((answer(visitor, keeper) for answer in _book_roles), default=Role.NOBODY)


def match_role(visitor: Visitor, match: Match) -> Role:
    """The strongest role ``visitor`` has at ``match``."""
    account = visitor.account
    if visitor.guest is not None and _same(visitor.guest, str(match.keeper.guest_key or "")):
        return Role.OWNER
    kept = _book_role(visitor, match.keeper)
    if account is not None:
        if match.keeper.user_id == account.pk or kept is Role.OWNER:
            return Role.OWNER
        if kept is Role.CO_SCORER or match.scorers.filter(pk=account.pk).exists():
            return Role.CO_SCORER
    if _same(visitor.links.get(str(match.public_id)), match.invite_token):
        return Role.LINK_SCORER
    if account is not None and Seat.objects.filter(match=match, player__account=account).exists():
        return Role.PLAYER
    if kept is Role.SPECTATOR or _same(visitor.share_token, match.share_token):
        return Role.SPECTATOR
    return Role.NOBODY


def player_role(visitor: Visitor, player: Player) -> Role:
    account = visitor.account
    if account is None:
        return Role.NOBODY
    if player.keeper.user_id == account.pk:
        return Role.OWNER
    kept = _book_role(visitor, player.keeper)
    if kept is Role.OWNER:
        return Role.OWNER
    if player.account_id == account.pk:
        return Role.PLAYER
    return Role.SPECTATOR if kept is not Role.NOBODY else Role.NOBODY


def book_role(visitor: Visitor, keeper: Keeper) -> Role:
    """What ``visitor`` is at a whole book: its owner (the account's own book; a club's secretary or owner at the
    club's), whom an app gives another role there, or nobody. Only an account keeps a book's players."""
    account = visitor.account
    if account is None:
        return Role.NOBODY
    if keeper.user_id == account.pk:
        return Role.OWNER
    return _book_role(visitor, keeper)


def can(visitor: Visitor, action: Action, thing: Match | Player) -> bool:
    role = match_role(visitor, thing) if isinstance(thing, Match) else player_role(visitor, thing)
    return action in GRANTS[role]


@dataclass(frozen=True)
class Access:
    """What a visitor may do with one match, for pages and templates to ask. A locked list (a closed club night)
    offers nobody its entry form; the services refuse changes to it whoever asks."""

    role: Role
    locked: bool = False

    def allows(self, action: Action) -> bool:
        return action in GRANTS[self.role]

    @property
    def can_score(self) -> bool:
        return self.allows(Action.SCORE) and not self.locked

    @property
    def can_share(self) -> bool:
        return self.allows(Action.SHARE)

    @property
    def can_manage(self) -> bool:
        return self.allows(Action.MANAGE)

    @property
    def can_change_links(self) -> bool:
        """Whether the links and co-scorers may change: a locked list keeps those it had."""
        return self.can_manage and not self.locked


def access(visitor: Visitor, match: Match) -> Access:
    return Access(match_role(visitor, match), match.locked)


def match_by_link(link: str, token: str) -> Match:
    """The match an invite (``invite``) or spectators' (``share``) link opens; a renewed or revoked link opens
    nothing (404), nor does the invite link of a locked list (it makes no co-scorer any more)."""
    field = {"invite": "invite_token", "share": "share_token"}[link]
    match = Match.objects.select_related("keeper__user").filter(**{field: token}).first() if token else None
    if match is None or (link == "invite" and match.locked):
        raise Http404
    return match


def version_by_share_link(token: str) -> int | None:
    """The version of the match a spectators' link follows, or None when the link opens nothing: all that a
    spectator's poll needs to know. Every open spectator page asks every few seconds, so this one read is a statement
    of its own: building it through the ORM cost nine times what the database takes to answer it."""
    if not token:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_BY_SHARE_LINK, [token])
        found = cursor.fetchone()
    return None if found is None else int(found[0])


def _column(name: str) -> str:
    field = Match._meta.get_field(name)
    assert isinstance(field, Field)
    return connection.ops.quote_name(field.column)


def _version_by_share_link_sql() -> str:
    table = connection.ops.quote_name(Match._meta.db_table)
    return f"SELECT {_column('version')} FROM {table} WHERE {_column('share_token')} = %s"


_VERSION_BY_SHARE_LINK = _version_by_share_link_sql()


def visible_matches(visitor: Visitor) -> QuerySet[Match]:
    """The matches a person keeps, scores or played in (links held without an account are not listed); without an
    account, the matches of the guest's book."""
    user = visitor.user
    if not user.is_authenticated:
        if visitor.guest is None:
            return Match.objects.none()
        return Match.objects.filter(keeper__guest_key=visitor.guest)
    return Match.objects.filter(Q(keeper__user=user) | Q(scorers=user) | Q(seats__player__account=user)).distinct()


def visible_players(user: User | AnonymousUser) -> QuerySet[Player]:
    """The players in a person's own book, and the players linked to their account."""
    if not user.is_authenticated:
        return Player.objects.none()
    return Player.objects.filter(Q(keeper__user=user) | Q(account=user)).distinct()


def kept_players(visitor: Visitor) -> QuerySet[Player]:
    """The players in a person's own book (to pick from, merge, link), or in the guest's book of a browser."""
    if visitor.account is not None:
        return Player.objects.filter(keeper__user=visitor.account)
    if visitor.guest is not None:
        return Player.objects.filter(keeper__guest_key=visitor.guest)
    return Player.objects.none()


def fellow_players(visitor: Visitor, player: Player) -> QuerySet[Player]:
    """The other players of ``player``'s book, to compare with and to merge: for whoever sees the whole book (its
    keeper, or anybody an app gives a role there, a club's members at the club's); nobody else meets them there."""
    account = visitor.account
    if account is None:
        return Player.objects.none()
    keeper = player.keeper
    if keeper.user_id != account.pk and _book_role(visitor, keeper) is Role.NOBODY:
        return Player.objects.none()
    return Player.objects.filter(keeper_id=keeper.pk).exclude(pk=player.pk)


class Denied(Exception):
    """The visitor may not do this. Pages send somebody without an account to log in, and answer everybody else as
    if the thing did not exist; the API answers 401 or 404 the same way."""

    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor
        super().__init__("denied")


P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class Rule:
    """A view's declared policy: which action on which kind of thing (``None``: open to everybody). ``writes``: the
    action a request that changes something needs, where it is another (an API address that reads and writes)."""

    action: Action | None
    subject: str | None
    writes: Action | None = None

    def action_for(self, method: str) -> Action | None:
        """The action a request with ``method`` needs."""
        safe = method.upper() in {"GET", "HEAD", "OPTIONS"}
        return self.action if safe or self.writes is None else self.writes


def declared(rule: Rule) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Attach ``rule`` to a view, so that the persona matrix can check every URL against this module."""

    def attach(view: Callable[P, R]) -> Callable[P, R]:
        view.policy = rule  # type: ignore[attr-defined]
        return view

    return attach


def public(view: Callable[P, R]) -> Callable[P, R]:
    """A view everybody may use (the checks it needs, like a link's token, happen inside)."""
    return declared(Rule(None, None))(view)


def found_in(things: Callable[[], QuerySet[Any]]) -> Callable[[Any], Any]:
    """Where a subject finds the one thing of a public id: among ``things``, or None. Not ``first()``: that would
    sort by the model's ordering, for nothing, on every page."""

    def find(public_id: Any) -> Any:
        try:
            return things().get(public_id=public_id)
        except ObjectDoesNotExist:
            return None

    return find


@dataclass(frozen=True)
class Subject:
    """A kind of thing a rule can be about: its model, how to find one by its public id (with what its answer
    reads; ``found_in``), and whether a visitor may do an action to one."""

    model: type[Model]
    find: Callable[[Any], Any]
    allows: Callable[[Visitor, Action, Any], bool]


def _restore_allows(visitor: Visitor, action: Action, job: RestoreJob) -> bool:
    """Only the account that asked for a restore sees it, and nobody does more."""
    return action is Action.VIEW and visitor.account is not None and job.user_id == visitor.account.pk


def _file_allows(visitor: Visitor, action: Action, job: FileJob) -> bool:
    """Only the account that asked for a file sees it and downloads it, and nobody does more."""
    return action is Action.VIEW and visitor.account is not None and job.user_id == visitor.account.pk


def _book_allows(visitor: Visitor, action: Action, keeper: Keeper) -> bool:
    return action in GRANTS[book_role(visitor, keeper)]


def _member_import_allows(visitor: Visitor, action: Action, member_import: MemberImport) -> bool:
    """A member list brought into a book is its keeper's, as the book's players are."""
    return _book_allows(visitor, action, member_import.keeper)


def _book_of(pk: Any) -> Keeper | None:
    """A book by its id (a book has no public id: a club's is reached from the club's pages)."""
    try:
        return Keeper.objects.get(pk=pk) if isinstance(pk, int) else None
    except Keeper.DoesNotExist:
        return None


# The kinds of things of the core; an app adds its own with ``register_subject`` when it is ready.
SUBJECTS: dict[str, Subject] = {
    "match": Subject(Match, found_in(lambda: Match.objects.select_related("keeper")), can),
    "player": Subject(Player, found_in(lambda: Player.objects.select_related("keeper")), can),
    "restore": Subject(RestoreJob, found_in(lambda: RestoreJob.objects.all()), _restore_allows),
    "file": Subject(FileJob, found_in(lambda: FileJob.objects.defer("content")), _file_allows),
    "book": Subject(Keeper, _book_of, _book_allows),
    "member_import": Subject(
        MemberImport, found_in(lambda: MemberImport.objects.select_related("keeper")), _member_import_allows
    ),
}


def register_subject(name: str, subject: Subject) -> None:
    """Let rules be about ``name`` (views on ``<name>_id``), things of an app that it answers for itself."""
    SUBJECTS.setdefault(name, subject)


def allowed(visitor: Visitor, action: Action, thing: Model) -> bool:
    """Whether ``visitor`` may ``action`` ``thing``: the match and player roles, or (a restore) the account that
    asked for it, and only to see it; an app's things as the app answers. Nobody may do anything to a kind of thing
    that no subject knows."""
    for subject in SUBJECTS.values():
        if isinstance(thing, subject.model):
            return subject.allows(visitor, action, thing)
    return False


def subject_for(visitor: Visitor, action: Action, subject: str, public_id: Any) -> Any:
    """The ``subject`` (``match``, ``player``, ``restore``, or an app's: ``club``, ``season``, ``night``) of that
    public id, if ``visitor`` may ``action`` it; ``Denied`` if it does not exist or the visitor may not."""
    thing = SUBJECTS[subject].find(public_id)
    if thing is None or not allowed(visitor, action, thing):
        raise Denied(visitor)
    return thing


def on_match(action: Action) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A view on one match (``match_id`` in the URL), for visitors who may ``action`` it; it receives the match."""
    return on_subject(action, "match")


def on_restore(action: Action) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A view on one restore of a backup (``restore_id`` in the URL), for the account that asked for it."""
    return on_subject(action, "restore")


def on_player(action: Action) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A view on one player (``player_id`` in the URL), for visitors who may ``action`` them; it receives the player."""
    return on_subject(action, "player")


def on_subject(action: Action, subject: str) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A view on the thing named by ``<subject>_id`` in its URL, called with the thing instead of its id."""

    def wrap(view: Callable[..., R]) -> Callable[..., R]:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> R:
            thing = subject_for(visitor_of(request), action, subject, kwargs.pop(f"{subject}_id"))
            return view(request, thing, *args, **kwargs)

        return declared(Rule(action, subject))(checked)

    return wrap


class HasUser(Protocol):
    """A request as Django or DRF hands it over: all the account helpers need is its user."""

    @property
    def user(self) -> Any: ...


def request_account(request: HasUser) -> User | None:
    """The account the request is signed in with, if any: the one answer for pages and the API alike."""
    user = request.user
    return user if user.is_authenticated and isinstance(user, User) else None


def signed_in_account(request: HasUser) -> User:
    """The account of a request that a rule let in only signed in (``signed_in``, a role in a club): anything
    else is refused as the policy refuses a visitor."""
    account = request_account(request)
    if account is None:
        raise Denied(Visitor(AnonymousUser()))
    return account


def signed_in(view: Callable[..., R]) -> Callable[..., R]:
    """A view of a person's own things: everybody with an account."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> R:
        if not request.user.is_authenticated:
            raise Denied(visitor_of(request))
        return view(request, *args, **kwargs)

    return declared(Rule(None, "account"))(checked)
