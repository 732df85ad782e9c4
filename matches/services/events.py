"""What every kind of event checks alike in what its organisers type: the name of an event or a group of it (a club,
a season, a league, a tournament, a category), a federation number, and a player's name told apart by a bracketed
addition."""

from __future__ import annotations

from ..engine.messages import gettext_noop
from ..errors import Invalid
from ..names import MAX_NAME_LENGTH as MAX_PLAYER_NAME
from ..names import normalize_name

MAX_EVENT_NAME = 100
MAX_FEDERATION_NUMBER = 20


def one_line_name(raw: str, field: str = "name") -> str:
    """The name of a club, a season, a league, a tournament or a category: on one line with single spaces, refused
    (at ``field``) when empty or too long."""
    name = " ".join(raw.split())
    if not name:
        raise Invalid.on(field, gettext_noop("A name is needed."))
    if len(name) > MAX_EVENT_NAME:
        raise Invalid.on(field, gettext_noop("At most {count} characters."), count=MAX_EVENT_NAME)
    return name


def federation_number(raw: str, field: str = "federation_number") -> str:
    """A federation's number of a player as typed, without its spaces: letters, digits and ``-/.``, refused (at
    ``field``) when it is anything else or too long; empty for none."""
    number = "".join(raw.split())
    if len(number) > MAX_FEDERATION_NUMBER or not all(char.isalnum() or char in "-/." for char in number):
        raise Invalid.on(
            field,
            gettext_noop("A federation number has up to {count} letters and digits."),
            count=MAX_FEDERATION_NUMBER,
        )
    return number


def bracketed_name(name: str, addition: str) -> str:
    """``name (addition)`` within a player's name's length, to tell two players of one name apart (by their club,
    by a number): the addition cut to half of that length, the name to the rest."""
    addition = addition[: MAX_PLAYER_NAME // 2].strip()
    return normalize_name(f"{name[: MAX_PLAYER_NAME - len(addition) - 3].strip()} ({addition})")
