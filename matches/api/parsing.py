"""Reading request bodies: JSON only, and bounded before anything else looks at it. A body larger than
``MAX_BODY_BYTES`` is a 413 without being read; JSON nested deeper than ``MAX_DEPTH``, an object or a list of more
than ``MAX_ENTRIES``, texts longer than ``MAX_TEXT`` (names longer than ``MAX_KEY``) and strings no database or reply
can carry (NUL, lone surrogates) are a 400 naming the field. Bytes that are not UTF-8 are read as the pages read them,
as U+FFFD, so that the same text gets the same answer here and there. The views, the engine and the database then see
only small, clean data."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, ValidationError
from rest_framework.parsers import BaseParser

# The largest body any endpoint takes is a few hundred bytes (a game, a match's players and rules), or a few kilobytes
# (a ranking list's events).
MAX_BODY_BYTES = 64 * 1024
MAX_DEPTH = 16
# As many as the longest list any operation's body declares (a ranking list's events), and no more: whatever is
# longer is refused before a field reads it (tests/test_hostile.py reads the schema to hold the two together).
MAX_ENTRIES = 500
MAX_TEXT = 1000
MAX_KEY = 64
# NUL and the UTF-16 surrogates: PostgreSQL refuses them in text, and no UTF-8 reply can carry a lone surrogate.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("The body is too large: at most 64 KB.")
    default_code = "too_large"


class JSONBody(BaseParser):
    """JSON read from the request's own stream: not a ``JSONParser``, which DRF hands the whole body read at once, so
    that a body past Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` would be refused with its HTML 400 before this bound."""

    media_type = "application/json"

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        request = (parser_context or {}).get("request")
        if request is not None and _declared_length(request.META) > MAX_BODY_BYTES:
            raise BodyTooLarge
        raw = stream.read(MAX_BODY_BYTES + 1)
        if len(raw) > MAX_BODY_BYTES:
            raise BodyTooLarge
        # Read as the pages read a form: each byte that is not UTF-8 becomes U+FFFD, which the field it lands in
        # refuses by name (a name, a title) as it does on the page, or which makes the JSON or a choice invalid.
        text = raw.decode("utf-8", errors="replace")
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deep.")) from None
        except ValueError:
            raise ParseError(_("The body is not valid JSON.")) from None
        check_bounds(data)
        return data


def _declared_length(meta: Mapping[str, Any]) -> int:
    try:
        return int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def check_bounds(data: Any) -> None:
    """Walk ``data`` once, without recursion: a 400 at the first value nested too deep, a container too long or a
    string that cannot be stored, named by its path (``game.contract``, ``players.2``)."""
    pending: list[tuple[Any, tuple[str, ...]]] = [(data, ())]
    while pending:
        value, path = pending.pop()
        if isinstance(value, str):
            _check_text(value, path, MAX_TEXT)
            continue
        if not isinstance(value, dict | list):
            continue
        if len(path) >= MAX_DEPTH:
            _refuse(path, _("The JSON is nested too deep."))
        if len(value) > MAX_ENTRIES:
            _refuse(path, _("Too many entries: at most %(count)d.") % {"count": MAX_ENTRIES})
        if isinstance(value, list):
            pending.extend((item, (*path, str(index))) for index, item in enumerate(value))
            continue
        for key, item in value.items():
            _check_text(key, path, MAX_KEY)
            pending.append((item, (*path, key)))


def _check_text(text: str, path: tuple[str, ...], longest: int) -> None:
    if len(text) > longest:
        _refuse(path, _("Too long: at most %(count)d characters.") % {"count": longest})
    if UNSTORABLE.search(text):
        _refuse(path, _("Must not contain NUL characters or unpaired surrogates."))


def _refuse(path: tuple[str, ...], message: Any) -> None:
    tree: Any = [message]
    for part in reversed(path or ("non_field_errors",)):
        tree = {part: tree}
    raise ValidationError(tree)
