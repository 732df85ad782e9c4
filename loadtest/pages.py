"""What a phone of the load test reads off the pages it acts on, as a browser would see them: the entry form's next
deal and the match's version, the undo form, and the version a follow answer carries."""

from __future__ import annotations

import re

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
