"""What deleting an account makes of its leagues, for the core's account deletion: the person's roles at leagues
end; a league they are the last owner of keeps the account until somebody else owns it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Count, Q

from matches.accounts import Groups, GroupsOfAccounts
from matches.engine.messages import gettext_noop

from .models import League, LeagueManager, LeagueRole
from .services import league_managers_leave


def account_leagues(user: User) -> Groups:
    """The leagues ``user`` helps run, and those of them that have no other owner, by name."""
    run = League.objects.filter(managers__user=user).order_by("name")
    owned = LeagueManager.objects.filter(user=user, role=LeagueRole.OWNER).values("league")
    kept = League.objects.filter(pk__in=owned).annotate(
        owners=Count("managers", filter=Q(managers__role=LeagueRole.OWNER))
    )
    return Groups(
        left=[league.name for league in run],
        kept=[league.name for league in kept.filter(owners=1).order_by("name")],
    )


LEAGUES_OF_ACCOUNTS = GroupsOfAccounts(
    of=account_leagues,
    leave=lambda user: league_managers_leave(user=user),
    left_says=gettext_noop("You no longer run the leagues {names}. Their tables, match days and results stay."),
    kept_says=gettext_noop(
        "You are the last owner of the league {names}: make somebody else its owner on the league's page first."
    ),
)
