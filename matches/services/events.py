"""What every kind of event checks alike in what its organisers type: the name of an event or a group of it (a club,
a season, a league, a tournament, a category), its tables' rules and its series' lengths, a choice among a rule's
values, a federation number, a player's name told apart by a bracketed addition, and the account a person names to
give it a role."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from ..engine import MatchSetup, RuleError, setup_match
from ..engine.messages import gettext_noop
from ..errors import Invalid
from ..names import MAX_NAME_LENGTH as MAX_PLAYER_NAME
from ..names import normalize_name
from .paper import MAX_SERIES_GAMES

MAX_EVENT_NAME = 100


def one_line_name(raw: str, field: str = "name") -> str:
    """The name of a club, a season, a league, a tournament or a category: on one line with single spaces, refused
    (at ``field``) when empty or too long."""
    name = " ".join(raw.split())
    if not name:
        raise Invalid.on(field, gettext_noop("A name is needed."))
    if len(name) > MAX_EVENT_NAME:
        raise Invalid.on(field, gettext_noop("At most {count} characters."), count=MAX_EVENT_NAME)
    return name


def account_named(raw: str, field: str = "username") -> User:
    """The active account a person typed the name of to give it a role (a club's member, a league's manager or a
    team's captain, a tournament's organiser): in any case, "Anna" finding "anna"; of accounts that differ only in
    case, the one written as named. Refused (at ``field``) for no account of that name, and for several of it in
    other cases, so that a role never falls to one of them by chance.

    The name is read as Django keeps usernames, its letters composed (an "o" and a combining diaeresis typed apart
    are one "ö"). As written, it is looked up by the usernames' index; only a name written otherwise is compared in
    any case, which reads every account. Any letter's case: "jörg" finds "JÖRG" on SQLite too, whose own comparison
    (``iexact``) folds the case of A to Z alone: a name with another letter is compared by a regular expression,
    which either engine matches in any case (SQLite through Python's ``re``)."""
    name = User.normalize_username(raw.strip())
    as_written = User.objects.filter(username=name, is_active=True).first()
    if as_written is not None:
        return as_written
    in_any_case = Q(username__iexact=name) if name.isascii() else Q(username__iregex=rf"\A{re.escape(name)}\Z")
    found = list(User.objects.filter(in_any_case, is_active=True)) if name else []
    if not found:
        raise Invalid.on(field, gettext_noop("There is no account of that name."))
    if len(found) > 1:
        raise Invalid.on(
            field,
            gettext_noop(
                "Several accounts have that name in other capital letters: write it exactly as the account you mean "
                "does."
            ),
        )
    return found[0]


def tables_rules(variant: str, scheme: str, rules: Mapping[str, Any], players: int) -> MatchSetup:
    """The rules of an event's tables as a match of ``players`` of theirs checks them, each refusal at its rule."""
    try:
        return setup_match(variant, scheme=scheme, rules=dict(rules), players=players)
    except RuleError as error:
        raise Invalid.from_rules(error) from error


def series_lengths(lengths: Mapping[str, int]) -> None:
    """Each series' length in games (by its field: at a table of four, of three), between 1 and
    ``MAX_SERIES_GAMES``; refused at the first that is not."""
    for field, games in lengths.items():
        if not 1 <= games <= MAX_SERIES_GAMES:
            raise Invalid.on(field, gettext_noop("Between 1 and {most}."), most=MAX_SERIES_GAMES)


def one_of(value: str, choices: type[StrEnum], field: str) -> str:
    """``value``, one of ``choices``; refused at ``field``, naming them, when it is none."""
    if value not in {choice.value for choice in choices}:
        raise Invalid.on(field, gettext_noop("Must be one of: {choices}."), choices=", ".join(choices))
    return value


def bracketed_name(name: str, addition: str) -> str:
    """``name (addition)`` within a player's name's length, to tell two players of one name apart (by their club,
    by a number): the addition cut to half of that length, the name to the rest."""
    addition = addition[: MAX_PLAYER_NAME // 2].strip()
    return normalize_name(f"{name[: MAX_PLAYER_NAME - len(addition) - 3].strip()} ({addition})")
