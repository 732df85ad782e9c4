"""A player's record: their points per variant and scheme, their latest matches, and two players' points in the
matches they played together; each read by the database in a few queries, however long the player's history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, Q, QuerySet, Sum

from .models import GameScore, Match, Player


@dataclass(frozen=True)
class VariantStats:
    """A player's record in one variant under one scheme: points of different schemes are never added up."""

    variant: str
    scheme: str
    total: int
    games: int
    declared: int
    won: int
    lost: int

    @property
    def average(self) -> Fraction:
        return Fraction(self.total, self.games) if self.games else Fraction(0)


def player_stats(players: Player | Sequence[Player]) -> list[VariantStats]:
    """Lifetime totals per variant and scheme of one player (or of several entries of one person): points, games
    played (not sitting out, not passed), declarer games won and lost, in one query. Points include what a seat got
    without playing (Seeger-Fabian pays the sitting-out dealer)."""
    chosen = [players] if isinstance(players, Player) else list(players)
    rows = (
        GameScore.objects.filter(player__in=chosen, game__deleted=False)
        .values("game__match__variant", "game__match__scheme")
        .annotate(
            total=Sum("points"),
            games=Count("id", filter=Q(played=True)),
            declared=Count("id", filter=Q(declarer=True)),
            won=Count("id", filter=Q(declarer=True, game__won=True)),
            lost=Count("id", filter=Q(declarer=True, game__won=False)),
        )
        .order_by("game__match__variant", "game__match__scheme")
    )
    return [
        VariantStats(
            variant=row["game__match__variant"],
            scheme=row["game__match__scheme"],
            total=row["total"] or 0,
            games=row["games"],
            declared=row["declared"],
            won=row["won"],
            lost=row["lost"],
        )
        for row in rows
    ]


def player_matches(player: Player, limit: int = 10) -> QuerySet[Match]:
    return Match.objects.filter(seats__player=player).order_by("-created_at")[:limit]


@dataclass(frozen=True)
class HeadToHead:
    """Two players' points in the matches they played together, of one variant under one scheme."""

    variant: str
    scheme: str
    matches: int
    games: int
    totals: dict[int, int]


def head_to_head(first: Player, second: Player) -> list[HeadToHead]:
    """Both players' points over every game of every match they played together, per variant and scheme (points of
    different schemes are never added up), in two queries."""
    shared = Match.objects.filter(seats__player=first).filter(seats__player=second)
    kinds = {
        (row["variant"], row["scheme"]): row["matches"]
        for row in shared.values("variant", "scheme").annotate(matches=Count("id", distinct=True))
    }
    rows = (
        GameScore.objects.filter(game__match__in=shared, game__deleted=False, player__in=[first, second])
        .values("game__match__variant", "game__match__scheme", "player")
        .annotate(total=Sum("points"), games=Count("id"))
    )
    totals: dict[tuple[str, str], dict[int, int]] = {kind: {first.pk: 0, second.pk: 0} for kind in kinds}
    games: dict[tuple[str, str], int] = dict.fromkeys(kinds, 0)
    for row in rows:
        kind = (row["game__match__variant"], row["game__match__scheme"])
        totals.setdefault(kind, {first.pk: 0, second.pk: 0})[row["player"]] = row["total"] or 0
        games[kind] = max(games.get(kind, 0), row["games"])
    return [
        HeadToHead(
            variant=variant,
            scheme=scheme,
            matches=kinds.get((variant, scheme), 0),
            games=games[(variant, scheme)],
            totals=totals[(variant, scheme)],
        )
        for variant, scheme in sorted(totals)
    ]
