"""Whole numbers as a person types them or a program sends them as text: one rule for the pages' forms and the API's
query parameters. A JSON body's number is a JSON number, never a text (``matches.api.serializers.StrictInput``).

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
