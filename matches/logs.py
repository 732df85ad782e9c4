"""Log lines an operator can read (``text``) or a log collector can parse (``json``: one object per line).

``LOG_FORMAT`` in the settings chooses; both formatters show the same records. Every request leaves one line on the
``scorekeeper.requests`` logger (see ``RequestLogMiddleware``) with its method, path, status, duration and user; an
error adds its traceback. Paths never carry the secrets some addresses hold (an invite link's token, a password
reset's): those parts are logged as ``<token>``.
"""

from __future__ import annotations

import datetime
import json
import logging
import logging.config
import math
import re
from json.encoder import encode_basestring
from typing import Any

from django.http import HttpRequest

# The URL arguments that are secrets: whoever holds one may score a match, follow it, claim a player or set a
# password.
SECRET_ARGUMENTS = frozenset({"token", "uidb64"})
# What a request's line carries besides its message, by the name it has in a JSON line.
REQUEST_FIELDS = ("method", "path", "status", "duration_ms", "user")
# What writes a line's values of other kinds than ``json_value`` writes itself (one encoder: ``json.dumps`` with options
# would make a new one each time).
ENCODER = json.JSONEncoder(ensure_ascii=False, default=str)


def configure(logging_settings: dict[str, Any]) -> None:
    """Django's logging setup (``LOGGING_CONFIG``): the settings' ``LOGGING``, with records that leave out their
    thread and their process's name, which no line here writes; working them out took about a tenth of making a
    record, and every request makes one. (The process id stays: gunicorn's own lines show it.)"""
    logging.logThreads = False
    logging.logMultiprocessing = False
    logging.config.dictConfig(logging_settings)


SECRET_SEGMENTS = re.compile(r"^(/(?:join|watch|claim|screen|accounts/reset)/)[^?#]*")


def loggable_path(request: HttpRequest) -> str:
    """The request's path (never its query string) with its secret arguments left out."""
    path = request.path
    match = getattr(request, "resolver_match", None)
    if match is None:
        # Answered before a view was found (a redirect to the address with its slash, a 404): a link's token may be
        # in it all the same, so whatever follows the prefix of a link is left out.
        return SECRET_SEGMENTS.sub(lambda found: found[1] + "<token>", path)
    for name, value in match.kwargs.items():
        if name in SECRET_ARGUMENTS and str(value):
            path = path.replace(str(value), f"<{name}>")
    return path


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line: time (UTC, ISO 8601), level, logger, message, the request's fields
    where the record has them, and the traceback of an error. Written out value by value, character for character
    what the ``json`` module writes for the same object (``ENCODER``), without building the object and an encoder for
    it first: every request writes a line."""

    def format(self, record: logging.LogRecord) -> str:
        line = (
            f'{{"time": "{utc_moment(record)}", "level": {json_value(record.levelname)}, '
            f'"logger": {json_value(record.name)}, "message": {json_value(_message(record))}'
        )
        carried = vars(record)
        for name in REQUEST_FIELDS:
            if name in carried:
                line += f', "{name}": {json_value(carried[name])}'
        if record.exc_info:
            line += f', "exception": {json_value(self.formatException(record.exc_info))}'
        return line + "}"


def json_value(value: object) -> str:
    """``value`` as ``ENCODER`` writes it: texts, whole numbers, finite decimals and None directly, anything else
    through the encoder."""
    if type(value) is str:
        return encode_basestring(value)
    if type(value) is int:
        return int.__repr__(value)
    if type(value) is float and math.isfinite(value):
        return float.__repr__(value)
    if value is None:
        return "null"
    return ENCODER.encode(value)


# The last second a line was written in, as ISO 8601 in UTC: every request writes a line, most in the same second as
# the one before, and making the date and time anew takes longer than the rest of the line.
_second: tuple[int, str] = (-1, "")


def utc_moment(record: logging.LogRecord) -> str:
    """The record's moment in UTC as ISO 8601 to the millisecond (``2026-11-26T09:55:28.942+00:00``)."""
    global _second
    second, text = _second
    if int(record.created) != second:
        second = int(record.created)
        text = datetime.datetime.fromtimestamp(second, tz=datetime.UTC).isoformat()[: -len("+00:00")]
        _second = (second, text)
    return f"{text}.{int(record.msecs):03d}+00:00"


class TextFormatter(logging.Formatter):
    """``time level logger: message``, with the traceback of an error below."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = _message(record)
        return super().formatMessage(record)


def _message(record: logging.LogRecord) -> str:
    """The record's message; Django's own request errors name the whole path, which is shown without its secrets."""
    message = record.getMessage()
    request = getattr(record, "request", None)
    if isinstance(request, HttpRequest):
        message = message.replace(request.path, loggable_path(request))
    return message
