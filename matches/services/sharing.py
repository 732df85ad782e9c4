"""Sharing a match: its co-scorers (joining by the invite link, or removed) and its links."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction

from ..engine import FieldError
from ..engine.messages import gettext_noop, msg
from ..errors import Invalid
from ..models import Keeper, Match, MatchEvent, new_link_token
from .changes import lock_match, record_match_change, refuse_closed


def match_links_claim(*, links: Mapping[str, str], user: User) -> None:
    """Invite links held without an account (by match public id) make the account a co-scorer of their matches,
    as long as each link still opens its match."""
    for public_id, token in links.items():
        match = (
            Match.objects.filter(public_id=public_id, invite_token=token, locked=False).select_related("keeper").first()
        )
        if match is not None and match.keeper.user_id != user.pk:
            match_scorer_join(match=match, user=user)


def match_link_renew(
    *, match: Match, link: str, revoke: bool = False, user: User | None = None, address: str | None = None
) -> Match:
    """Give the co-scorers' (``invite``) or the spectators' (``share``) link a new address, or turn it off: whoever
    holds the old one loses access; or turn it on at the ``address`` it had (a table's scoring link, which its paper
    list turned off). Recorded (whether the link is on, never its address; ``user`` did it), and the version moves
    on."""
    field = {"invite": "invite_token", "share": "share_token"}.get(link)
    if field is None:
        raise Invalid([FieldError("link", msg(gettext_noop("Must be one of: {choices}."), choices="invite, share"))])
    with transaction.atomic():
        locked = lock_match(match.pk)
        refuse_closed(locked)
        before = {link: getattr(locked, field) is not None}
        setattr(locked, field, None if revoke else address or new_link_token())
        locked.save(update_fields=[field, "updated_at"])
        record_match_change(locked, MatchEvent.Action.LINK, user, before=before, after={link: not revoke})
    setattr(match, field, getattr(locked, field))
    match.version = locked.version
    return match


def match_scorer_join(*, match: Match, user: User) -> Match:
    """``user`` scores the match beside its keeper (who scores it anyway): they joined by its invite link, or took
    the links this browser held before logging in along. Not on a closed list; recorded once."""
    with transaction.atomic():
        locked = lock_match(match.pk)
        refuse_closed(locked)
        own = Keeper.objects.filter(pk=locked.keeper_id, user_id=user.pk).exists()
        if not own and not locked.scorers.filter(pk=user.pk).exists():
            locked.scorers.add(user)
            record_match_change(locked, MatchEvent.Action.JOIN, user)
    match.version = locked.version
    return match


def match_scorer_remove(*, match: Match, scorer: User, user: User | None = None) -> Match:
    """A co-scorer no longer scores the match (their games and changes stay, with their name). A locked list keeps
    the co-scorers it had. ``user`` is who removed them (recorded)."""
    with transaction.atomic():
        locked = lock_match(match.pk)
        refuse_closed(locked)
        if locked.scorers.filter(pk=scorer.pk).exists():
            locked.scorers.remove(scorer)
            record_match_change(locked, MatchEvent.Action.LEAVE, user)
    match.version = locked.version
    return match
