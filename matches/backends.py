"""Accounts as Django's model backend keeps them, with the user's preferences read in the same statement: every page
asks for the deck, and the user is read on every signed-in request, by a statement written once (``rows_read``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User

from .rows import rows_read


class AccountBackend(ModelBackend):
    def get_user(self, user_id: Any) -> User | None:
        found = rows_read(User, "id", user_id, joined="profile")
        if not found:
            return None
        return found[0] if self.user_can_authenticate(found[0]) else None
