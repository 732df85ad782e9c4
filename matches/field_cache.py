"""The game form's entry fields, built once per table and shared between requests.

A table enters game after game with the same fields; building them (labels, chips, choices in the reader's language)
is most of the cost of a form. The fields are kept here by the key of what they were built for, and every form takes
copies of them: a form may change its own fields (Django's forms do, as its own ``fields`` are meant to be), but never
the ones another request takes next.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from django import forms

Layout = TypeVar("Layout")
Fields = dict[str, forms.Field]


class SharedFields(Generic[Layout]):
    """The most recently used fields and their layout (which the forms only read, so it is shared as it is), up to
    ``size`` keys."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: OrderedDict[str, tuple[Fields, Layout]] = OrderedDict()
        self.lock = threading.Lock()  # a threaded server's requests share it

    def take(self, key: str, build: Callable[[], tuple[Fields, Layout]]) -> tuple[Fields, Layout]:
        """Copies of the fields kept for ``key`` (built first if none are kept), and their layout."""
        fields, layout = self._kept_or_built(key, build)
        return copy.deepcopy(fields), layout

    def look(self, key: str) -> Fields | None:
        """The fields kept for ``key`` themselves, to read and never to change (None if none are kept): what a
        request reads of them without a form of its own costs no copies."""
        with self.lock:
            found = self.kept.get(key)
        return None if found is None else found[0]

    def _kept_or_built(self, key: str, build: Callable[[], tuple[Fields, Layout]]) -> tuple[Fields, Layout]:
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
                return found
        # Built outside the lock: two requests may build the same fields at once, and either one is kept.
        built = build()
        with self.lock:
            self.kept[key] = built
            if len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return built
