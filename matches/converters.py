"""The shape of a link's token in an address (``secrets.token_urlsafe``): anything else, a NUL for one, is a 404
before any view or database sees it."""

from __future__ import annotations


class LinkToken:
    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
