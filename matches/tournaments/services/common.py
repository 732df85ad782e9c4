"""What the tournament's services share: the tournament's lock (every change takes it first), and a line of text
and a choice checked."""

from __future__ import annotations

from matches.engine.messages import gettext_noop
from matches.errors import Invalid

from ..models import Tournament

MAX_TEXT_LENGTH = 100


def lock_tournament(tournament: Tournament) -> Tournament:
    """The tournament's row, locked for this change: entries, draws, paper lists and closings of one tournament wait
    for each other, so that a series drawn twice at once is drawn once and the second is refused."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def one_line(raw: str, field_name: str) -> str:
    """``raw`` on one line, its runs of white space one space each; refused (on ``field_name``) when too long."""
    text = " ".join(raw.split())
    if len(text) > MAX_TEXT_LENGTH:
        raise Invalid.on(field_name, gettext_noop("At most {count} characters."), count=MAX_TEXT_LENGTH)
    return text
