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
import re
from typing import Any

from django.http import HttpRequest

# The URL arguments that are secrets: whoever holds one may score a match, follow it, claim a player or set a
# password.
SECRET_ARGUMENTS = frozenset({"token", "uidb64"})
# What a request's line carries besides its message, by the name it has in a JSON line.
REQUEST_FIELDS = ("method", "path", "status", "duration_ms", "user")


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
    """One JSON object per record, on one line: time (UTC, ISO 8601 to the millisecond), level, logger, message, the
    request's fields where the record has them, and the traceback of an error."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": _message(record),
        }
        carried = vars(record)
        line.update((name, carried[name]) for name in REQUEST_FIELDS if name in carried)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """The record's moment in UTC as ISO 8601 to the millisecond (``2026-11-26T09:55:28.942+00:00``)."""
        return datetime.datetime.fromtimestamp(record.created, tz=datetime.UTC).isoformat(timespec="milliseconds")


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
