"""Lieutenant Skat: two players, a random trump, and a score table by card points alone."""

from __future__ import annotations

from .cards import CARD_POINTS_TOTAL, DRAW_POINTS
from .common import Context, Points, check_doubling, forbid, read_contract, read_result, schneider_max
from .entry import GameEntry
from .errors import Problems
from .game import Result
from .messages import gettext_noop, msg
from .options import SchneiderRule
from .skat import ListMarks, Mark

WIN, SCHNEIDER, SCHWARZ = 2, 3, 4


def lieutenant_score(winner_points: int, schneider: SchneiderRule = SchneiderRule.UNDER_30) -> int:
    """What the winner writes for ``winner_points`` (61-120) card points.

    The help text's table: 61-90 → 2, 91-119 → 3, 120 → 4: the loser is Schneider under 30. The program's own scoring
    gives the 3 from 90 card points: the loser is Schneider with 30 or fewer. ``schneider`` says which.
    """
    if winner_points == CARD_POINTS_TOTAL:
        return SCHWARZ
    if CARD_POINTS_TOTAL - winner_points <= schneider_max(schneider):
        return SCHNEIDER
    return WIN


def score_lieutenant(ctx: Context, game: GameEntry) -> Result:
    """Score one game of Lieutenant Skat: the winner, whoever declared, scores by the card points taken."""
    problems = Problems()
    read_contract(ctx, game, problems)
    check_doubling(ctx, game, problems)
    forbid(
        game,
        problems,
        ("matadors", "hand", "ouvert", "announced", "won", "bid", "conceded", "ramsch"),
        msg(gettext_noop("Lieutenant Skat scores by card points alone: leave this out.")),
    )
    # Schwarz is 120 card points here; a schwarz field is only checked against them (read_points) and adds nothing.
    points = read_result(ctx, game, problems, required=True, card_points=True)
    problems.raise_if_any()
    assert isinstance(points, Points)
    seat = ctx.table.declarer
    if points.declarer == DRAW_POINTS:
        step = msg(gettext_noop("60:60, a draw: {value} each"), value=1)
        return Result(won=None, game_value=1, scores=(1, 1), breakdown=(step,))
    won = points.declarer_reached
    winner_points = points.declarer if won else points.opponents
    value = lieutenant_score(winner_points, ctx.rules.schneider)
    winner = seat if won else 1 - seat
    scores = tuple(value if index == winner else 0 for index in range(2))
    steps = (
        msg(gettext_noop("{points} card points: {value}"), points=winner_points, value=value),
        msg(gettext_noop("to the declarer: {value}"), value=value)
        if won
        else msg(gettext_noop("to the opponent: {value}"), value=value),
    )
    return Result(
        won=won,
        game_value=value,
        scores=scores,
        schneider=value >= SCHNEIDER,
        schwarz=winner_points == CARD_POINTS_TOTAL,
        breakdown=steps,
    )


# What the value counts, as the paper list's columns: the winner's 3 when the loser is Schneider, 4 in its place at
# 120 card points.
LIEUTENANT_COLUMNS = (Mark.SCHNEIDER, Mark.SCHWARZ)


def lieutenant_marks(result: Result) -> ListMarks:
    """A scored game's marks on the paper list (``LIEUTENANT_COLUMNS``): Schneider, or Schwarz alone, which takes
    its place (4 rather than 3); none for a plain win or a draw."""
    return ListMarks(schneider=result.schneider and not result.schwarz, schwarz=result.schwarz)
