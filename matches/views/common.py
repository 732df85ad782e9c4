"""What every page of the core shares: the request's posted values, a refusal shown as messages, a match's labels;
and what every kind of event's pages share: something new made once by its form."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

from ..engine import (
    find_variant,
)
from ..forms.fields import MakesOnce
from ..labels import (
    match_label,
    scheme_label,
    variant_label,
)
from ..models import Match
from ..permissions import signed_in_account
from ..selectors import (
    seats_of,
)
from ..services.once import Made, made_once

STOP_POLLING = 286  # "nothing more to follow": the answer takes the polling element's place, and the polling ends


def posted_uuid(request: HttpRequest, name: str = "token") -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get(name, ""))
    except ValueError:
        return None


def posted_int(request: HttpRequest, name: str) -> int | None:
    value = request.POST.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


def seat_names(match: Match) -> list[str]:
    return [seat.player.name for seat in seats_of(match)]


def kind_of(variant: str, scheme: str) -> str:
    """ "Skat · Seeger-Fabian": what a record counts, for statistics kept apart by variant and scheme."""
    return f"{variant_label(variant)} · {scheme_label(scheme)}"


def kind_labels(match: Match) -> dict[str, Any]:
    """The variant and the scheme, as the status line names them."""
    return {"variant_name": variant_label(match.variant), "scheme_name": scheme_label(match.scheme)}


def match_labels(match: Match) -> dict[str, Any]:
    """What a whole page says about the match: its name, its kind, and the other schemes it can be seen under."""
    spec = find_variant(match.variant)
    schemes = [(s.value, scheme_label(s)) for s in spec.schemes if s.value != match.scheme] if spec else []
    return {"match_name": match_label(match), **kind_labels(match), "schemes": schemes}


def made_by_form(request: HttpRequest, form: MakesOnce, model: type[Made], make: Callable[[], Made]) -> Made:
    """What ``make`` made for the signed-in account's ``form``: made now, or the first time the same form was sent
    (refused as ``SentAgain`` when sent again with other values)."""
    account = signed_in_account(request)
    return made_once(model, account=account, token=form.token, asked=form.asked(request.path), make=make)
