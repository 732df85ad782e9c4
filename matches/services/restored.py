"""The writes of a restore (``matches.restore``), as every write of a match goes through the services: a staging
book's players, matches and seats in one transaction; its games, score rows and history entries a step at a time,
each step its own short transaction; the undos linked to what they took back; then the book published into the
restoring account's or the section's book in one transaction (where an older file kept a match's ended link
elsewhere, the link given to the match there), or, where anything failed, removed again."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from ..models import Game, GameScore, Keeper, Match, MatchEvent, Player, Seat
from ..rows import Rows, rows_written

# Undo links written in one transaction at the most.
LINKS_A_STEP = 500
# Rows removed in one transaction at the most, when a staging book is removed.
REMOVED_A_STEP = 5000


def restored_book_write(
    *, staged: Keeper, players: Sequence[Player], matches: Sequence[tuple[Match, Sequence[Player]]]
) -> None:
    """Write a restore's new players and its matches with their seats (each match's players in seat order) into the
    staging book ``staged``, in one transaction."""
    for player in players:
        player.keeper = staged
    for match, _ in matches:
        match.keeper = staged
    with transaction.atomic():
        Player.objects.bulk_create(players)
        Match.objects.bulk_create([match for match, _ in matches])
        Seat.objects.bulk_create(
            Seat(match=match, position=position, player=player)
            for match, seated in matches
            for position, player in enumerate(seated)
        )


def restored_rows_write(rows: Rows) -> None:
    """Write a step of a restore's games, score rows or history entries (made ready), in a transaction of its own."""
    with transaction.atomic():
        rows_written(rows)


def restored_undos_link(links: Sequence[MatchEvent]) -> None:
    """Each restored undo and redo to the change it took back (``undo_of``), a few hundred a transaction."""
    for start in range(0, len(links), LINKS_A_STEP):
        with transaction.atomic():
            MatchEvent.objects.bulk_update(links[start : start + LINKS_A_STEP], ["undo_of"])


def restored_ended_link(*, match: Match, link: str) -> None:
    """Keep on a restored match the link its list had when it was closed (a club table's, in a file of before the
    core kept it), where the match keeps none of its own; inside the caller's transaction."""
    if Match.objects.filter(pk=match.pk, ended_link="").update(ended_link=link):
        match.ended_link = link


def staging_discard(staged: Keeper) -> None:
    """Remove what a restore wrote into its staging book, a step at a time, and the book itself."""
    matches = list(Match.objects.filter(keeper=staged).values_list("pk", flat=True))
    for match in matches:
        MatchEvent.objects.filter(match_id=match, undo_of__isnull=False).update(undo_of=None)
        for model in (MatchEvent, GameScore, Game):
            field_name = "game__match_id" if model is GameScore else "match_id"
            while True:
                with transaction.atomic():
                    found = model.objects.filter(**{field_name: match}).values_list("pk", flat=True)
                    batch = list(found[:REMOVED_A_STEP])
                    if not batch:
                        break
                    model.objects.filter(pk__in=batch).delete()
    with transaction.atomic():
        Seat.objects.filter(match__keeper=staged).delete()
        Match.objects.filter(keeper=staged).delete()
        Player.objects.filter(keeper=staged).delete()
        staged.delete()


def restored_publish(*, staged: Keeper, keeper: Keeper) -> None:
    """Move a restore's staging book into ``keeper`` (inside the caller's transaction, which publishes the restore
    as a whole)."""
    Player.objects.filter(keeper=staged).update(keeper=keeper)
    Match.objects.filter(keeper=staged).update(keeper=keeper)
    # By a query, so that the object keeps its id should the transaction roll back (and its rows be removed).
    Keeper.objects.filter(pk=staged.pk).delete()
