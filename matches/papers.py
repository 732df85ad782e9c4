"""The lists of tables kept on paper, read for every kind of event: each player's Seeger-Fabian line summed from the
totals the paper list wrote (``PaperLine``), for an event's sums beside the tables scored game by game
(``selectors.list_sums``), a paper table's footer for its match page, its printed list and its exports, and its list as
it stands for a paper-list form refused because the table moved on."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from .engine import Scheme
from .engine.league import PaperLine as Paper
from .engine.league import SeriesLine, lines_from_paper
from .models import Match, MatchEvent, PaperLine, Seat


@dataclass(frozen=True)
class PaperList:
    """A match whose list was kept on paper and entered as its footer: each seat's line, in seat order.
    ``seeger_fabian``: the footer sums up by Seeger-Fabian; otherwise a player's game points are their total."""

    lines: tuple[SeriesLine, ...]
    seeger_fabian: bool

    @property
    def totals(self) -> list[int]:
        return [line.total if self.seeger_fabian else line.game_points for line in self.lines]


def paper_sums(match_ids: Iterable[int]) -> dict[tuple[int, int], SeriesLine]:
    """Each (match, player)'s line from the paper totals of the matches ``match_ids`` that were kept on paper (the
    others have none), in one query; a line's ``player`` is the player's id as text."""
    by_match: dict[int, list[Paper]] = {}
    rows = PaperLine.objects.filter(match_id__in=list(match_ids)).values_list(
        "match_id", "player_id", "game_points", "won", "lost"
    )
    for match, player, *totals in rows.order_by("id"):
        by_match.setdefault(match, []).append(Paper(str(player), *totals))
    return {(match, int(line.player)): line for match, papers in by_match.items() for line in lines_from_paper(papers)}


def paper_list(match: Match) -> PaperList | None:
    """The footer entered for ``match`` from its paper list, a line per seat in the seats' order; None for a match
    not kept on paper."""
    # A list entered from paper is locked and has no games (its games are on the paper): every other match is
    # answered here without asking the database, so that a match page costs no more for it.
    if not match.locked or match.deals:
        return None
    lines = paper_sums([match.pk])
    if not lines:
        return None
    seats = Seat.objects.filter(match=match).order_by("position").values_list("player_id", flat=True)
    in_order = tuple(lines[(match.pk, player)] for player in seats if (match.pk, player) in lines)
    return PaperList(in_order, seeger_fabian=match.scheme == Scheme.SEEGER_FABIAN)


class StandingLine(NamedTuple):
    """A player's totals on a table's paper list as it stands."""

    name: str
    game_points: int
    won: int
    lost: int


@dataclass(frozen=True)
class PaperStanding:
    """A table's paper list as it stands: each seat's totals in seat order (none: no list is entered), and the change
    of the match's history that entered it (``change``, with who and when), None where the history does not say (a
    list entered before it kept paper lists, or restored from a backup)."""

    lines: tuple[StandingLine, ...]
    change: MatchEvent | None


def paper_standing(match: Match) -> PaperStanding:
    """``match``'s paper list as it stands now, with the change that entered it where the history knows it."""
    lines = {line.player_id: line for line in PaperLine.objects.filter(match=match).select_related("player")}
    seats = Seat.objects.filter(match=match).order_by("position").values_list("player_id", flat=True)
    in_order = tuple(
        StandingLine(line.player.name, line.game_points, line.won, line.lost)
        for line in (lines.get(player) for player in seats)
        if line is not None
    )
    latest = match.events.filter(action=MatchEvent.Action.PAPER).select_related("user").first()
    entered = sorted((str(line.player.public_id), line.game_points, line.won, line.lost) for line in lines.values())
    # The latest change of the list is the one that made it only if it left the list as it stands (a list restored
    # from a backup, say, has no change of its own).
    kept = [] if latest is None or not isinstance(latest.after, dict) else latest.after.get("paper", [])
    made = sorted((line["player"], line["game_points"], line["won"], line["lost"]) for line in kept)
    return PaperStanding(in_order, latest if in_order and made == entered else None)
