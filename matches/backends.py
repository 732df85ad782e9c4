"""Accounts as Django's model backend keeps them, with the user's preferences read in the same query: every page
asks for the deck, and the user is read on every signed-in request anyway."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User


class AccountBackend(ModelBackend):
    def get_user(self, user_id: Any) -> User | None:
        try:
            user = User._default_manager.select_related("profile").get(pk=user_id)
        except User.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
