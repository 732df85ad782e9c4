"""Player names: one normal form everywhere, and one key to compare them by.

The form, the lookup and the database constraint all use ``normalize_name`` and ``name_key``, so a name is the same
name on every page and on every database: "Ärger" and "ärger", "ß" and "ẞ", "σ" and "ς", "K" and the Kelvin sign.
"""

from __future__ import annotations

import re
import unicodedata

from .engine.messages import Message, gettext_noop, msg

MAX_NAME_LENGTH = 60
# What the key of a name may take in the database (the column's length): compatibility forms can spread one
# character over many ("ﷺ" becomes eighteen), and such a name is refused rather than failing to be stored.
MAX_KEY_LENGTH = 240
# Control, format (zero-width and direction marks), surrogate, private-use and unassigned characters, and the line
# and paragraph separators: nothing a name is written with, and everything that makes two names look alike.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
SPACES = re.compile(r"\s+")
# What a decoder puts in place of bytes that are not UTF-8 (Django does, reading a form; the API's parser does too):
# nobody types it, and a name or title holding it would be stored garbled, so it is refused on the page and in the API.
REPLACEMENT = "\N{REPLACEMENT CHARACTER}"
UNREADABLE = gettext_noop("A character here could not be read (shown as {character}): type it again.")


class BadName(ValueError):
    """A name that cannot be a player's name, and why."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(str(message))


def normalize_name(raw: str) -> str:
    """The name as stored: NFC, spaces trimmed and single. Raises ``BadName`` for an empty or too long name, for
    invisible or control characters, and for a character that could not be read."""
    name = SPACES.sub(" ", unicodedata.normalize("NFC", raw)).strip()
    if not name:
        raise BadName(msg(gettext_noop("Enter a name.")))
    if REPLACEMENT in name:
        raise BadName(unreadable())
    if any(unicodedata.category(char) in REFUSED_CATEGORIES for char in name):
        raise BadName(msg(gettext_noop("Use letters, digits and spaces: no invisible or control characters.")))
    if len(name) > MAX_NAME_LENGTH or len(name_key(name)) > MAX_KEY_LENGTH:
        raise BadName(msg(gettext_noop("At most {count} characters."), count=MAX_NAME_LENGTH))
    return name


def unreadable() -> Message:
    """Why a text holding ``REPLACEMENT`` is refused."""
    return msg(UNREADABLE, character=REPLACEMENT)


def name_key(name: str) -> str:
    """What two names must share to be the same player's: the compatibility-normalised case fold (ẞ, ß → ss;
    ς → σ; Kelvin sign → k)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
