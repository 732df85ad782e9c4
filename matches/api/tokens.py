"""API tokens end with the password they were made under: a new password (changed, or reset by mail) revokes every
token of the account, as it ends the account's other sessions."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from knox.models import get_token_model


def revoke_tokens_on_new_password(
    sender: type[User], instance: User, raw: bool = False, update_fields: Any = None, **kwargs: Any
) -> None:
    """Connected to ``pre_save`` of the user model: one read, only when the password may have changed."""
    if raw or instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = User.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        get_token_model().objects.filter(user_id=instance.pk).delete()
