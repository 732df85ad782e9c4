"""A person's account as a whole: deleting it with what it keeps, the limit on password-reset mails, and forgetting
what only counts for a while (expired sessions, old reset requests).

Deleting an account never deletes what others score: a match of the person's own book that has a co-scorer passes
to that co-scorer's book (the first who joined), with its players; the rest of the book goes with the account. An
event's book (a club's, a league's, a tournament's) is the event's and stays. Whoever alone runs an event (a club's
last owner, a league's last owner, the organiser of a tournament nobody else runs) must hand it over first: each app
says which of its events that is, and ends the person's roles in them, through ``register_groups`` when it is
ready.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import salted_hmac
from knox.models import get_token_model

from .engine import FieldError
from .engine.messages import Message, msg
from .errors import Conflict
from .models import Keeper, KeptAnswer, LoginFailure, Match, Player, ResetRequest
from .services import account_matches_release, match_delete, match_hand_over

RESET_WINDOW = datetime.timedelta(hours=1)
LOGIN_FAILURE_WINDOW = datetime.timedelta(hours=1)


@dataclass(frozen=True)
class Handover:
    """A match of the person's book that passes to a co-scorer's book."""

    match: Match
    to: User


@dataclass(frozen=True)
class Groups:
    """What deleting an account makes of the groups an app keeps (clubs, leagues, tournaments): the names of those
    the person leaves, and of those among them the person alone runs, which keep the account until somebody else
    runs them."""

    left: list[str]
    kept: list[str]


@dataclass(frozen=True)
class GroupsOfAccounts:
    """An app's groups of accounts: what deleting an account makes of them (``of``), and leaving them all
    (``leave``), done within the deletion; and how the deletion says so, each a literal in ``gettext_noop`` with the
    groups' ``{names}``: what leaving them does (``left_says``), and what to do first about those kept
    (``kept_says``)."""

    of: Callable[[User], Groups]
    leave: Callable[[User], None]
    left_says: str
    kept_says: str


_groups: list[GroupsOfAccounts] = []


def register_groups(groups: GroupsOfAccounts) -> None:
    """Let deleting an account ask ``groups`` what it makes of them, and leave them."""
    if groups not in _groups:
        _groups.append(groups)


@dataclass(frozen=True)
class Deletion:
    """What deleting an account does, to show before and to do."""

    handed_over: list[Handover]
    deleted: list[Match]
    players: int
    unlinked: list[Player]
    # What leaving the groups of each app does, and what must be handed over first (one message an app).
    groups_left: list[Message]
    groups_kept: list[Message]
    tokens: int

    @property
    def blocked(self) -> bool:
        """The person alone runs a club, a league or a tournament: the account stays until it is handed over."""
        return bool(self.groups_kept)


def _first_co_scorer(match: Match, user: User) -> User | None:
    joined = Match.scorers.through.objects.filter(match=match, user__is_active=True).exclude(user=user)
    first = joined.select_related("user").order_by("pk").first()
    return first.user if first else None


def account_deletion(user: User) -> Deletion:
    """What deleting ``user``'s account would do; nothing is changed."""
    handed_over: list[Handover] = []
    deleted: list[Match] = []
    for match in Match.objects.filter(keeper__user=user).order_by("-updated_at"):
        co_scorer = _first_co_scorer(match, user)
        if co_scorer is None:
            deleted.append(match)
        else:
            handed_over.append(Handover(match, co_scorer))
    groups = [(registered, registered.of(user)) for registered in _groups]
    return Deletion(
        handed_over=handed_over,
        deleted=deleted,
        players=Player.objects.filter(keeper__user=user).count(),
        unlinked=list(Player.objects.filter(account=user).exclude(keeper__user=user)),
        groups_left=[msg(app.left_says, names=", ".join(found.left)) for app, found in groups if found.left],
        groups_kept=[msg(app.kept_says, names=", ".join(found.kept)) for app, found in groups if found.kept],
        tokens=get_token_model().objects.filter(user=user).count(),
    )


def account_delete(*, user: User) -> Deletion:
    """Delete ``user``'s account as ``account_deletion`` describes it: matches with a co-scorer pass to that
    co-scorer's book, the others go with the account's book; players linked to it elsewhere are unlinked, the roles
    in clubs, leagues and tournaments end, API tokens and sessions end. Refused (409) for whoever alone runs one of
    them."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        plan = account_deletion(user)
        if plan.blocked:
            raise Conflict([FieldError("account", message) for message in plan.groups_kept])
        for handover in plan.handed_over:
            match_hand_over(match=handover.match, to=handover.to)
        for match in plan.deleted:
            match_delete(match=match)
        account_matches_release(user=user)
        keeper = Keeper.objects.filter(user=user).first()
        if keeper is not None:
            Player.objects.filter(keeper=keeper).delete()
            keeper.delete()
        Player.objects.filter(account=user).update(account=None)
        for groups in _groups:
            groups.leave(user)
        get_token_model().objects.filter(user=user).delete()
        KeptAnswer.objects.filter(kind=ContentType.objects.get_for_model(User), thing_id=user.pk).delete()
        _end_sessions(user)
        user.delete()
    return plan


def _end_sessions(user: User) -> None:
    """Every session signed in as ``user`` ends (the sessions are in the database; each is read to find them)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    ended = [
        session.session_key
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if store().decode(session.session_data).get(SESSION_KEY) == str(user.pk)
    ]
    Session.objects.filter(session_key__in=ended).delete()


def _hashed(kind: str, value: str) -> str:
    return salted_hmac(f"matches.accounts.reset.{kind}", value, algorithm="sha256").hexdigest()


def password_reset_allowed(*, address: str, client: str) -> bool:
    """Whether a reset mail may go to ``address`` at the request of ``client`` (its network address): at most
    ``PASSWORD_RESET_MAILS_PER_HOUR`` for one address and ``PASSWORD_RESET_REQUESTS_PER_HOUR`` from one client, in
    the database, so that every process counts the same. An allowed request is counted."""
    since = timezone.now() - RESET_WINDOW
    address_key, client_key = _hashed("address", address.strip().lower()), _hashed("client", client)
    with transaction.atomic():
        recent = ResetRequest.objects.filter(created_at__gt=since)
        if (
            recent.filter(address=address_key).count() >= settings.PASSWORD_RESET_MAILS_PER_HOUR
            or recent.filter(client=client_key).count() >= settings.PASSWORD_RESET_REQUESTS_PER_HOUR
        ):
            return False
        ResetRequest.objects.create(address=address_key, client=client_key)
    return True


def address_locked_out(client: str) -> bool:
    """Whether logins from ``client`` (a network address) are refused: ``LOGIN_ADDRESS_FAILURE_LIMIT`` failed logins
    from it in the last hour, over any user names."""
    since = timezone.now() - LOGIN_FAILURE_WINDOW
    recent = LoginFailure.objects.filter(client=_hashed("login", client), created_at__gt=since)
    return recent.count() >= settings.LOGIN_ADDRESS_FAILURE_LIMIT


# Wrong entry codes an account, or a network address, may try in an hour (finding an entry, claiming it).
CODE_FAILURE_LIMIT = 10


def codes_locked_out(*askers: str) -> bool:
    """Whether entries may not be found or claimed by their codes for now by any of ``askers`` (an account, a network
    address, as ``code_askers`` names them): ``CODE_FAILURE_LIMIT`` wrong codes in the last hour, counted in the
    database, so that every process counts the same."""
    since = timezone.now() - LOGIN_FAILURE_WINDOW
    for asker in askers:
        recent = LoginFailure.objects.filter(client=_hashed("code", asker), created_at__gt=since)
        if recent.count() >= CODE_FAILURE_LIMIT:
            return True
    return False


def code_failure_record(*askers: str) -> None:
    LoginFailure.objects.bulk_create(LoginFailure(client=_hashed("code", asker)) for asker in askers)


def code_askers(account: User | None, address: str | None) -> list[str]:
    """Who asks with a code, as the wrong codes are counted: the account, and the network address."""
    return [*([f"account:{account.pk}"] if account is not None else []), *([f"address:{address}"] if address else [])]


def login_failure_record(client: str) -> None:
    LoginFailure.objects.create(client=_hashed("login", client))


def login_lockout_lift(user: User) -> None:
    """Forget the failed logins counted against ``user``'s name, from every address (its password was just reset)."""
    axes_reset(username=user.get_username())


class LoginLockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """Axes' count per user name and address, with a ceiling per address on top: a club room's phones behind one
    address each keep their own five tries, while guessing over many user names from one address is stopped."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        return bool(super().is_locked(request, credentials)) or address_locked_out(_client_of(request))

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None:
            return
        client = _client_of(request)
        login_failure_record(client)
        if address_locked_out(client):
            # Flagged as axes flags its own lockouts, so that its middleware answers with the lockout page.
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.axes_credentials = credentials  # type: ignore[attr-defined]


def _client_of(request: HttpRequest) -> str:
    return str(getattr(request, "axes_ip_address", "") or "")
