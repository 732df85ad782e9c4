"""What deleting an account makes of the tournaments it organises, for the core's account deletion: a club's
tournament stays with the club's owners and secretaries; one nobody else runs keeps the account until it is handed
over to somebody else."""

from __future__ import annotations

from django.contrib.auth.models import User

from matches.accounts import Groups, GroupsOfAccounts
from matches.engine.messages import gettext_noop

from .models import Tournament
from .services import tournaments_organised_leave


def account_tournaments(user: User) -> Groups:
    """The tournaments ``user`` organises, and those of them nobody else runs (no club's), by name."""
    organised = Tournament.objects.filter(organiser=user).order_by("-date", "name")
    return Groups(
        left=[tournament.name for tournament in organised],
        kept=[tournament.name for tournament in organised.filter(club__isnull=True)],
    )


TOURNAMENTS_OF_ACCOUNTS = GroupsOfAccounts(
    of=account_tournaments,
    leave=lambda user: tournaments_organised_leave(user=user),
    left_says=gettext_noop(
        "You no longer organise the tournaments {names}; their clubs' owners and secretaries run them, and their "
        "results stay."
    ),
    kept_says=gettext_noop(
        "Nobody but you runs the tournament {names}: hand it over to somebody else on its desk first."
    ),
)
