"""What deleting an account makes of its clubs, for the core's account deletion: the person leaves every club; a
club they are the last owner of keeps the account until somebody else owns it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Count, Q

from matches.accounts import Groups, GroupsOfAccounts
from matches.engine.messages import gettext_noop

from .models import Club, ClubRole, Membership


def account_clubs(user: User) -> Groups:
    """The clubs ``user`` leaves with the account, and those of them that have no other owner, by name."""
    owned = Membership.objects.filter(user=user, role=ClubRole.OWNER).values("club")
    clubs = Club.objects.filter(memberships__user=user).order_by("name")
    kept = Club.objects.filter(pk__in=owned).annotate(
        owners=Count("memberships", filter=Q(memberships__role=ClubRole.OWNER))
    )
    return Groups(
        left=[club.name for club in clubs],
        kept=[club.name for club in kept.filter(owners=1).order_by("name")],
    )


def account_clubs_leave(user: User) -> None:
    """End every membership of ``user``."""
    Membership.objects.filter(user=user).delete()


CLUBS_OF_ACCOUNTS = GroupsOfAccounts(
    of=account_clubs,
    leave=account_clubs_leave,
    left_says=gettext_noop("You leave your clubs: {names}. Their matches and players are the clubs' and stay."),
    kept_says=gettext_noop("You are the last owner of {names}: make somebody else owner on the club's page first."),
)
