"""Who may do what at a knockout, as the core's one policy asks it: the organiser runs it and owns its book's matches
and players; everybody sees its results; its tables' phones score through their matches' links (the core's)."""

from __future__ import annotations

from django.urls import reverse

from matches.models import Keeper, Match
from matches.permissions import Action, Role, Subject, Visitor, found_in
from matches.registry import TablePlace

from .models import Knockout, KnockoutTable


def runs_knockout(visitor: Visitor, knockout: Knockout) -> bool:
    account = visitor.account
    return account is not None and knockout.organiser_id == account.pk


def knockout_book_role(visitor: Visitor, keeper: Keeper) -> Role:
    """The organiser owns what the knockout's book keeps; nobody else meets them there."""
    if visitor.account is None or keeper.user_id is not None or keeper.guest_key is not None:
        return Role.NOBODY
    knockout = Knockout.objects.filter(keeper_id=keeper.pk).first()
    return Role.OWNER if knockout is not None and runs_knockout(visitor, knockout) else Role.NOBODY


def _knockout_allows(visitor: Visitor, action: Action, knockout: Knockout) -> bool:
    if action is Action.VIEW:
        return True
    return action in {Action.SCORE, Action.SHARE, Action.MANAGE, Action.BACKUP} and runs_knockout(visitor, knockout)


KNOCKOUT_SUBJECTS = {
    "knockout": Subject(Knockout, found_in(lambda: Knockout.objects.all()), _knockout_allows),
}


def knockout_table_place(match: Match) -> TablePlace | None:
    """Where a knockout's table was played, for its printed list: the knockout, its series and table."""
    table = KnockoutTable.objects.filter(match=match).select_related("knockout").first()
    if table is None:
        return None
    knockout = table.knockout
    return TablePlace(
        knockout.name,
        knockout.created_at.date(),
        table.series,
        table.number,
        results_url=reverse("knockout", args=[knockout.public_id]),
    )
