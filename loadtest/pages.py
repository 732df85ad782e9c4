"""What a phone of the load test reads off the pages it acts on, as a browser would see them (the entry form's next
deal and the match's version, the undo form, the version a follow answer carries), and the game it enters."""

from __future__ import annotations

import re
import uuid

ENTRY = re.compile(
    r'name="token" value="([0-9a-f-]*)"><input type="hidden" name="version" value="(\d*)">'
    r'<input type="hidden" name="number" value="(\d*)">'
)
UNDO = re.compile(
    r'action="([^"]*/undo/)"[^>]*>.*?name="token" value="([^"]*)".*?name="change" value="([^"]*)"'
    r'.*?name="version" value="(\d+)"',
    re.S,
)
FOLLOW = re.compile(r"follow/\?version=(\d+)")


def entry_of(html: str) -> tuple[int, int] | None:
    """The next deal's number and the match's version, as the page's entry form holds them."""
    found = ENTRY.search(html)
    return (int(found[3]), int(found[2])) if found and found[2] and found[3] else None


def next_game(number: int, version: int) -> dict[str, str]:
    """The entry form as a phone sends it for deal ``number`` of a match at ``version``, with a key of its own: a
    clubs game with two matadors, won by the seat after the dealer (every table here is of four, where the dealer
    sits out)."""
    return {
        "token": str(uuid.uuid4()),
        "number": str(number),
        "version": str(version),
        "contract": "clubs",
        "declarer": str(number % 4),
        "matadors": "2",
        "declarer_card_points": "75",
    }
