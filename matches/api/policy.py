"""The API's views under the one permission policy: each declares what it is about and which action reading and
changing it need, and asks ``matches.permissions`` before anything else. What the write protocol wants from a client
(an idempotency key, the version it saw) is read here too."""

from __future__ import annotations

import contextlib
import re
import uuid
from typing import Any, ClassVar

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from ..engine import FieldError
from ..engine.messages import gettext_noop, msg
from ..errors import Invalid
from ..models import Match
from ..numbers import whole_number
from ..permissions import Action, Denied, Rule, declared, subject_for, visitor_of

IDEMPOTENCY_HEADER = "Idempotency-Key"
VERSION_HEADER = "If-Match"
ENTITY_TAG = re.compile(r'^\s*(?:W/)?"?(\d{1,9})"?\s*$')


class Checked(BasePermission):
    """The policy decides, in ``PolicyView.initial`` (so that the schema does not offer the view to everybody)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return True


class PolicyView(APIView):
    """An API view about one ``subject`` (``match``, ``player``, ``club``, ``season``, ``night``; ``account`` for a
    person's own things; None for everybody). Reading needs ``action``, changing needs ``writes`` (when it differs).
    The thing named by ``<subject>_id`` in the address is found and checked before the handler runs, and kept as
    ``self.subject``."""

    subject_kind: ClassVar[str | None] = None
    action: ClassVar[Action | None] = Action.VIEW
    writes: ClassVar[Action | None] = None
    permission_classes: tuple[type[BasePermission], ...] = (Checked,)
    subject: Any = None

    @classmethod
    def rule(cls) -> Rule:
        return Rule(cls.action if cls.subject_kind else None, cls.subject_kind, cls.writes)

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        return declared(cls.rule())(super().as_view(**initkwargs))

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        kind = self.subject_kind
        if kind is None:
            return
        visitor = visitor_of(request)
        if (visitor.links or visitor.guest) and request.auth is None and request.method not in SAFE_METHODS:
            # What a browser holds without an account (invite links, a guest's book) is a credential too: a change
            # made with it needs the CSRF token, as one made with a logged-in session does.
            SessionAuthentication().enforce_csrf(request)
        try:
            if kind == "account":
                if visitor.account is None:
                    raise Denied(visitor)
                return
            action = self.rule().action_for(request.method or "GET")
            assert action is not None
            self.subject = subject_for(visitor, action, kind, kwargs[f"{kind}_id"])
        except Denied:
            # Somebody without an account is asked for credentials (401, naming the scheme); others meet nothing.
            if visitor.account is None:
                raise NotAuthenticated from None
            raise NotFound from None

    def current_version(self) -> int | None:
        """The version of the match this view is about, as it stands now (for a 409's answer)."""
        if isinstance(self.subject, Match):
            return Match.objects.filter(pk=self.subject.pk).values_list("version", flat=True).first()
        return None


def idempotency_key(request: HttpRequest | Request) -> uuid.UUID:
    """The request's ``Idempotency-Key`` (a UUID): sent again with a retry, it gets the first answer and changes
    nothing more. Without one, every request is a new change."""
    raw = request.headers.get(IDEMPOTENCY_HEADER)
    if raw is None:
        return uuid.uuid4()
    try:
        return uuid.UUID(raw.strip())
    except ValueError:
        raise Invalid([FieldError(IDEMPOTENCY_HEADER, msg(gettext_noop("Must be a UUID.")))]) from None


def seen_version(request: HttpRequest | Request) -> int | None:
    """The version the client saw (``If-Match``, as an ``ETag`` of a match, a game or an app's resource gave it), if
    it says (``*``: whatever it is now): a change made since to the game being fixed or deleted (for undo and redo:
    to the match) makes the request a 409 instead of overwriting it unseen."""
    raw = request.headers.get(VERSION_HEADER)
    if raw is None or raw.strip() == "*":
        return None
    found = ENTITY_TAG.match(raw)
    if found is None:
        raise Invalid([FieldError(VERSION_HEADER, msg(gettext_noop("Must be a version as an ETag gave it.")))])
    return int(found[1])


def entity_tag(version: int) -> str:
    return f'"{version}"'


# Why a query parameter given with an empty value (``?variant=``) is refused by name rather than read as left out:
# most likely a client's bug.
EMPTY_PARAMETER = gettext_noop("Give a value, or leave the parameter out.")


class Pages(CursorPagination):
    """Pages of a list that grows (``?page_size=`` from 1 to 200, 50 when left out; any other is a 400): each page
    costs the same however long the list, and no entry is skipped or shown twice while new ones arrive. A cursor that
    was not made here is a 404; an empty one a 400."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    ordering = "-created_at"

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        with contextlib.suppress(ValueError):
            size = whole_number(raw)
            if 1 <= size <= self.max_page_size:
                return size
        problem = msg(gettext_noop("Must be a whole number from 1 to {most}."), most=self.max_page_size)
        raise Invalid([FieldError(self.page_size_query_param, problem)])

    @classmethod
    def cursor_of(cls, request: Request) -> str | None:
        """The cursor asked for, None where none is; an empty one is a 400."""
        cursor = request.query_params.get(cls.cursor_query_param)
        if cursor == "":
            raise Invalid([FieldError(cls.cursor_query_param, msg(EMPTY_PARAMETER))])
        return cursor

    def decode_cursor(self, request: Request) -> Cursor | None:
        self.cursor_of(request)
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None and "\x00" in str(cursor.position):
            raise NotFound(self.invalid_cursor_message)
        return cursor

    def paginate_queryset(self, queryset: QuerySet[Any], request: Request, view: Any = None) -> list[Any] | None:
        try:
            return super().paginate_queryset(queryset, request, view)
        except Invalid:
            raise
        except (DjangoValidationError, ValueError, TypeError):
            raise NotFound(self.invalid_cursor_message) from None


class InOrder(Pages):
    """Pages of a match's games, in the order they were played."""

    ordering = "position"


class ByName(Pages):
    ordering = "name"
