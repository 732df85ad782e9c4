"""An event's tables summed, for every kind of event: each seated player's sums over the live games of the tables
scored game by game (``list_sums``), read by the database in one query however many games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from .engine.league import game_points_of_total
from .models import GameScore


@dataclass(frozen=True)
class ListSums:
    """One player's sums over the live games of one match, as a table's list sums them: the points the games gave
    them, the games they won and lost as declarer, and the games the others lost while they sat at the table (the
    Seeger-Fabian bonus counts them). ``players``: the table's size."""

    match: int
    player: int
    players: int
    points: int
    won: int
    lost: int
    others_lost: int

    def game_points(self, *, seeger_fabian: bool) -> int:
        """The list's game points: under Seeger-Fabian what is left of the total without its bonuses, otherwise the
        points themselves."""
        if not seeger_fabian:
            return self.points
        return game_points_of_total(
            self.points, won=self.won, lost=self.lost, others_lost=self.others_lost, table_size=self.players
        )


def list_sums(match_ids: Sequence[int]) -> list[ListSums]:
    """Every seated player's sums over the live games of the matches ``match_ids`` (the tables of a club night, a
    league's venue, a tournament's series), summed by the database in one query, however many games; a player with
    no game scored yet has no sums."""
    rows = (
        GameScore.objects.filter(game__match_id__in=match_ids, game__deleted=False)
        .values("game__match_id", "game__match__players", "player_id")
        .annotate(
            points=Sum("points"),
            won=Count("id", filter=Q(declarer=True, game__won=True)),
            lost=Count("id", filter=Q(declarer=True, game__won=False)),
            others_lost=Count("id", filter=Q(declarer=False, game__won=False, game__passed=False)),
        )
        .order_by()
    )
    return [
        ListSums(
            match=row["game__match_id"],
            player=row["player_id"],
            players=row["game__match__players"],
            points=row["points"] or 0,
            won=row["won"],
            lost=row["lost"],
            others_lost=row["others_lost"],
        )
        for row in rows
    ]
