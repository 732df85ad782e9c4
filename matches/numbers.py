"""Whole numbers as a person types them or a program sends them as text: one rule for the pages' forms and the API's
query parameters (a JSON body's number is a JSON number, never a text: ``matches.api.serializers.StrictInput``); and
amounts of money as a person types them into a form, in either language's way.

A whole number is written with the digits 0 to 9, perhaps with a sign and spaces around it. Python's ``int`` (and so
Django's and DRF's integer fields) would also read any script's decimal digits (Arabic-Indic, fullwidth), "4_8" and
"48.0"; the API's JSON has none of them in its numbers, so the pages do not take them either.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

# At most as many digits as DRF reads in a text (its MAX_STRING_LENGTH), far below what ``int`` refuses to read.
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,1000}")
# The spaces a form or a paste may bring around a number: ASCII only, as the digits are.
SPACES = " \t\r\n"
NOT_A_WHOLE_NUMBER = _("Enter a whole number, with the digits 0 to 9.")


class NotAWholeNumber(ValueError):
    """A text that is not a whole number written with the digits 0 to 9."""


def whole_number(text: str) -> int:
    """``text`` as a whole number; raises ``NotAWholeNumber`` unless it is written with the digits 0 to 9."""
    number = text.strip(SPACES)
    if not WHOLE_NUMBER.fullmatch(number):
        raise NotAWholeNumber(text)
    return int(number)


# An amount as people type it, in either language's way: 12 · 12.5 · 12,50 · 1.000 · 1.000,50 · 1,000.50 (a group
# of three digits after a separator is thousands, one or two are cents). Thousands follow a figure other than 0:
# "0,500" is no amount (half a euro written with a digit too many), never 500.
AMOUNT = re.compile(r"(?P<whole>[1-9]\d{0,2}(?:[.,]\d{3})+|\d+)(?:[.,](?P<cents>\d{1,2}))?")
# The largest amount read (10 000 €, or 100 % of a share): more is a typing slip ("20,160" for 20 and 160).
MOST = 1_000_000
# Tiers of a fee per lost game are separated by semicolons or line breaks ("1: 0,50; 4: 1"), or by a comma that a
# space follows ("1: 0.50, 4: 1"): a comma between digits is the decimal comma.
TIER_SEPARATORS = re.compile(r"[;\n]|,(?=\s)")


class TooMuch(ValueError):
    """An amount written as one but larger than ``MOST``: a form says "at most", not how to write an amount."""


def hundredths(text: str) -> int:
    """``"12,50 €"`` → 1250: an amount in cents (or a percentage in basis points); ``ValueError`` if it is none,
    ``TooMuch`` (a ``ValueError`` too) if it is more than ``MOST``."""
    found = AMOUNT.fullmatch(text.replace("€", "").replace("%", "").strip())
    if found is None:
        raise ValueError(text)
    value = int(re.sub(r"[.,]", "", found["whole"])) * 100 + int((found["cents"] or "0").ljust(2, "0"))
    if value > MOST:
        raise TooMuch(text)
    return value


def lost_game_tiers(text: str) -> tuple[tuple[int, int], ...]:
    """``"1: 0,50; 4: 1"`` or ``"1: 0.50, 4: 1 €"`` → ((1, 50), (4, 100)): from which lost game of a list, how many
    cents a game (a club's season and a tournament charge by such tiers); ``ValueError`` if a tier is none, or is
    written in percent (never read as euros)."""
    tiers = []
    for part in filter(None, (piece.strip() for piece in TIER_SEPARATORS.split(text))):
        start, colon, euros = part.partition(":")
        if not colon or not start.strip().isdigit() or "%" in euros:
            raise ValueError(part)
        tiers.append((int(start), hundredths(euros)))
    return tuple(tiers)
