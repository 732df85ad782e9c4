"""How often a client may call the API: by address without an account, by account with one. The rates are read
when a request comes (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, set from the environment), not when this module
is imported, so that a changed setting takes effect; the counts live in the default cache."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


def rate_of(scope: str | None) -> str | None:
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope or "")
    return rate if isinstance(rate, str) else None


class AnonymousRate(AnonRateThrottle):
    def get_rate(self) -> str | None:
        return rate_of(self.scope)


class AccountRate(UserRateThrottle):
    def get_rate(self) -> str | None:
        return rate_of(self.scope)
