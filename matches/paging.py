"""Every list that grows, a page at a time (``page_of``): by a place in the list, each page at the same cost however
far down, and its one pager (the ``paging`` template tag)."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import IntegerField, Model, Q, QuerySet
from django.http import Http404


class BadPlace(Http404):
    """A place in a list that was not made here (a hand-made or damaged link): the page asked for does not exist."""


@dataclass(frozen=True)
class Page:
    """One page of a list that grows: its entries, where the next page starts (None on the last), and whether it is
    a later page than the first (``templates/partials/_pager.html`` links the first and the next)."""

    items: list[Any]
    after: str | None
    paged: bool = False


def _numbered(model: type[Model], path: str) -> bool:
    """Whether the field a list is ordered by (``user__username``: across relations) holds whole numbers: its place
    in an address is then a number, else a text."""
    *relations, name = path.split("__")
    for relation in relations:
        model = model._meta.get_field(relation).related_model  # type: ignore[assignment]
    return isinstance(model._meta.get_field(name), IntegerField)


def page_of(query: QuerySet[Any], *, by: str, after: str | None, size: int) -> Page:
    """The ``size`` entries of ``query`` after the place ``after`` (from an earlier page; None: the first), ordered
    by ``by`` (``-updated_at``, ``name``, ``user__username``, ``-version``, ``-date``) and then by id: each page costs
    the same, however far down the list, and entries arriving meanwhile move nothing along. The one way every page
    of the site pages a list. Raises ``BadPlace`` (a 404) for a place not made here."""
    field = by.removeprefix("-")
    descending = by.startswith("-")
    ordered = query.order_by(by, "-pk" if descending else "pk")
    if after:
        try:
            value, pk = place_of(after)
            numbered = _numbered(query.model, field)
            readable = type(value) is int if numbered else isinstance(value, str) and "\x00" not in value
            if not readable or type(pk) is not int or not 0 < pk < 2**63:
                raise ValueError(value)
            beyond = "lt" if descending else "gt"
            ordered = ordered.filter(Q(**{f"{field}__{beyond}": value}) | Q(**{field: value, f"pk__{beyond}": int(pk)}))
            found = list(ordered[: size + 1])
        except PLACE_ERRORS as error:
            raise BadPlace(after) from error
    else:
        found = list(ordered[: size + 1])
    if len(found) <= size:
        return Page(found, None, paged=bool(after))
    last = found[size - 1]
    mark = last
    for part in field.split("__"):
        mark = getattr(mark, part)
    place = place_token(mark.isoformat() if hasattr(mark, "isoformat") else mark, last.pk)
    return Page(found[:size], place, paged=bool(after))


def place_token(value: Any, pk: int) -> str:
    """A place in a list, as its pager carries it: the value the list is ordered by and the entry's id."""
    return base64.urlsafe_b64encode(json.dumps([value, pk]).encode()).decode("ascii")


def place_of(token: str) -> tuple[Any, Any]:
    """The value and the id of a place made by ``place_token``; ValueError (or the like) for anything else."""
    value, pk = json.loads(base64.urlsafe_b64decode(token.encode("ascii")))
    return value, pk


PLACE_ERRORS = (ValueError, TypeError, OverflowError, UnicodeError, binascii.Error, ValidationError)
