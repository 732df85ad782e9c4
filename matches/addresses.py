"""Addresses that every save's answer and every row of a score sheet draw, reversed once per URL pattern rather than
for each request: Django's ``reverse`` walks the URL patterns and checks the address it built against them, which
costs several times writing an id into an address reversed before. And whether a request asks for an address of the
API's."""

from __future__ import annotations

import uuid
from functools import lru_cache

from django.http import HttpRequest
from django.urls import URLResolver, get_resolver, get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language

# Where the API's addresses are (``scorekeeper/urls.py``), whatever version.
API_PREFIX = "/api/"

# Stand-ins for the ids while an address is reversed: valid for Django's ``uuid`` converter, and no real id.
_SLOTS = tuple(str(uuid.UUID(f"00000000-0000-4000-8000-{index:012x}")) for index in range(1, 4))


def in_api(request: HttpRequest) -> bool:
    """Whether ``request`` asks for an address under the API's, whether or not one is there."""
    return request.path_info.startswith(API_PREFIX)


def address(name: str, *ids: uuid.UUID) -> str:
    """What ``reverse(name, args=ids)`` gives, for a view whose arguments are all ids taken by the ``uuid``
    converter. Kept per URL configuration, script prefix and language (the three a reversed address depends on).
    Only ids go in: an id is written as text, as that converter writes it, where ``reverse`` would check and quote
    other values."""
    pattern = _pattern(get_resolver(get_urlconf()), get_script_prefix(), get_language(), name, len(ids))
    for slot, value in zip(_SLOTS, ids, strict=False):
        if not isinstance(value, uuid.UUID):
            raise TypeError(f"{name}: {value!r} is not an id")
        pattern = pattern.replace(slot, str(value))
    return pattern


@lru_cache(maxsize=256)
def _pattern(resolver: URLResolver, prefix: str, language: str | None, name: str, count: int) -> str:
    """The address reversed with stand-ins for the ids, under the URL configuration, script prefix and language in
    force (``resolver``, ``prefix`` and ``language`` say which: they are the cache's key)."""
    if count > len(_SLOTS):
        raise ValueError(f"{name}: {count} ids, at most {len(_SLOTS)}")
    reversed_address = reverse(name, args=_SLOTS[:count])
    if any(reversed_address.count(slot) != 1 for slot in _SLOTS[:count]):
        raise ValueError(f"{name}: its address does not hold each id once as given")
    return reversed_address
