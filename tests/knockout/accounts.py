"""What deleting an account makes of the knockouts it organises: nobody else runs one, so its organiser hands it
over first."""

from __future__ import annotations

from django.contrib.auth.models import User

from matches.accounts import Groups, GroupsOfAccounts
from matches.engine.messages import gettext_noop

from .models import Knockout
from .services import knockouts_organised_leave


def account_knockouts(user: User) -> Groups:
    organised = [knockout.name for knockout in Knockout.objects.filter(organiser=user).order_by("name")]
    return Groups(left=organised, kept=organised)


KNOCKOUTS_OF_ACCOUNTS = GroupsOfAccounts(
    of=account_knockouts,
    leave=lambda user: knockouts_organised_leave(user=user),
    left_says=gettext_noop("You no longer organise the knockouts {names}; their results stay."),
    kept_says=gettext_noop("Nobody but you runs the knockout {names}: hand it over to somebody else first."),
)
