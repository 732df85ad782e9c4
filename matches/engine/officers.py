"""Officers' Skat and its relatives for two (Harlequin, Admirals'), under the seed text's four scoring schemes."""

from __future__ import annotations

from .cards import BASE_VALUES, Contract
from .common import (
    CardResult,
    Context,
    Points,
    apply_doubling,
    check_doubling,
    forbid,
    lost_step,
    matadors_step,
    max_matadors,
    not_counted,
    only_seat,
    read_contract,
    read_matadors,
    read_result,
)
from .entry import GameEntry
from .errors import Problems
from .game import Result
from .messages import Message, gettext_noop, msg
from .options import LevelRule, Rules
from .ramsch import read_ramsch, score_ramsch
from .skat import (
    NULL_VALUES,
    SKAT_COLUMNS,
    ListMarks,
    Mark,
    check_declarations,
    declarer_score,
    list_marks,
    value_declarer_game,
)
from .variants import Scheme, VariantSpec

BIDDING_FIELDS = ("hand", "ouvert", "announced", "bid")
SIMPLE_WIN, SIMPLE_SCHNEIDER, SIMPLE_SCHWARZ, SIMPLE_DRAW = 2, 3, 4, 1


def score_officers(ctx: Context, game: GameEntry) -> Result:
    """Score one two-player game of the Officers' Skat family under the table's scheme."""
    problems = Problems()
    contract = read_contract(ctx, game, problems)
    check_doubling(ctx, game, problems)
    if contract is None:
        problems.raise_if_any()
    assert contract is not None
    if contract is Contract.RAMSCH:
        if ctx.scheme is Scheme.SIMPLE:
            return _simple_ramsch(ctx, game, problems)
        return score_ramsch(ctx, game, problems)
    if ctx.scheme is Scheme.STANDARD and ctx.rules.levels is LevelRule.ISKO:
        valuation = value_declarer_game(ctx, game, contract, problems)
        assert valuation is not None
        game_value, score, explained = declarer_score(ctx, game, valuation)
        return Result(
            won=valuation.won,
            game_value=game_value,
            scores=only_seat(2, ctx.table.declarer, score),
            schneider=valuation.schneider,
            schwarz=valuation.schwarz,
            overbid=valuation.overbid,
            breakdown=tuple(explained),
        )
    check_declarations(ctx, game, contract, problems)
    forbid(game, problems, ("ramsch",), msg(gettext_noop("Only a Ramsch has Ramsch results.")))
    if game.conceded:
        problems.add("game.conceded", msg(gettext_noop("Conceding is counted only with the ISkO levels.")))
    if contract is Contract.NULL:
        return _null(ctx, game, problems)
    if game.won is not None:
        problems.add(
            "game.won",
            msg(gettext_noop("Suit and grand games are decided by card points: “won” is for null games only.")),
        )
    matadors = read_matadors(game, max_matadors(ctx, contract), problems, required=ctx.scheme is Scheme.STANDARD)
    points = read_result(ctx, game, problems, required=True, card_points=ctx.scheme is Scheme.CARD_POINTS)
    problems.raise_if_any()
    assert points is not None
    steps: list[Message] = []
    unused = not_counted(game, BIDDING_FIELDS if ctx.scheme is Scheme.STANDARD else ("matadors", *BIDDING_FIELDS))
    if unused is not None:
        steps.append(unused)
    if ctx.scheme is Scheme.STANDARD:
        assert matadors is not None
        return _standard(ctx, game, contract, matadors, points, steps)
    return _simplified(ctx, game, contract, points, steps)


def _standard(
    ctx: Context, game: GameEntry, contract: Contract, matadors: int, points: CardResult, steps: list[Message]
) -> Result:
    """The seed text: (matadors + 1) × base value, ×2 Schneider, ×4 Schwarz; lost: twice the value, negative.

    A declarer who loses in the Schneider or Schwarz himself pays at that level, as in Skat.
    """
    count = abs(matadors)
    base = BASE_VALUES[contract]
    value = (count + 1) * base
    steps.append(matadors_step(matadors, count))
    steps.append(
        msg(
            gettext_noop("{count} × {base} ({contract}) = {value}"),
            count=count + 1,
            base=base,
            contract=contract.label,
            value=value,
        )
    )
    won = points.declarer_reached
    schwarz = points.opponents_schwarz if won else points.declarer_schwarz
    schneider = points.opponents_schneider if won else points.declarer_schneider
    if schwarz:
        value *= 4
        steps.append(msg(gettext_noop("Schwarz × 4 = {value}"), value=value))
    elif schneider:
        value *= 2
        steps.append(msg(gettext_noop("Schneider × 2 = {value}"), value=value))
    game_value = apply_doubling(ctx, value, game, steps)
    if won:
        steps.append(msg(gettext_noop("won: {score}"), score=game_value))
        score = game_value
    else:
        steps.append(lost_step(game_value, 2))
        score = -2 * game_value
    return Result(
        won=won,
        game_value=game_value,
        scores=only_seat(2, ctx.table.declarer, score),
        schneider=schneider or schwarz,
        schwarz=schwarz,
        breakdown=tuple(steps),
    )


def _simplified(ctx: Context, game: GameEntry, contract: Contract, points: CardResult, steps: list[Message]) -> Result:
    """The seed's simplified forms: the winner, declarer or not, scores; the loser writes nothing."""
    declarer, opponent = ctx.table.declarer, 1 - ctx.table.declarer
    if ctx.scheme is Scheme.SIMPLE and points.draw:
        steps.append(msg(gettext_noop("60:60, a draw: {value} each"), value=SIMPLE_DRAW))
        value = apply_doubling(ctx, SIMPLE_DRAW, game, steps)
        return Result(won=None, game_value=value, scores=(value, value), breakdown=tuple(steps))
    won = points.declarer_reached
    winner = declarer if won else opponent
    schneider = points.opponents_schneider if won else points.declarer_schneider
    schwarz = points.opponents_schwarz if won else points.declarer_schwarz
    if ctx.scheme is Scheme.BASE_VALUE:
        value = BASE_VALUES[contract]
        steps.append(msg(gettext_noop("base value ({contract}): {value}"), contract=contract.label, value=value))
        if schneider or schwarz:
            value *= 2
            steps.append(msg(gettext_noop("Schneider × 2 = {value}"), value=value))
    elif ctx.scheme is Scheme.CARD_POINTS:
        assert isinstance(points, Points)  # this scheme reads the card points (read_result)
        value = points.declarer if won else points.opponents
        steps.append(msg(gettext_noop("the winner's card points: {value}"), value=value))
    else:
        value, step = _simple_value(schneider=schneider, schwarz=schwarz)
        steps.append(step)
    value = apply_doubling(ctx, value, game, steps)
    steps.append(_winner_step(won, value))
    return Result(
        won=won,
        game_value=value,
        scores=only_seat(2, winner, value),
        schneider=schneider or schwarz,
        schwarz=schwarz,
        breakdown=tuple(steps),
    )


def _simple_value(*, schneider: bool, schwarz: bool) -> tuple[int, Message]:
    if schwarz:
        return SIMPLE_SCHWARZ, msg(gettext_noop("Schwarz: {value}"), value=SIMPLE_SCHWARZ)
    if schneider:
        return SIMPLE_SCHNEIDER, msg(gettext_noop("Schneider: {value}"), value=SIMPLE_SCHNEIDER)
    return SIMPLE_WIN, msg(gettext_noop("won: {value}"), value=SIMPLE_WIN)


def _winner_step(declarer_won: bool, value: int) -> Message:
    if declarer_won:
        return msg(gettext_noop("to the declarer: {value}"), value=value)
    return msg(gettext_noop("to the opponent: {value}"), value=value)


def _null(ctx: Context, game: GameEntry, problems: Problems) -> Result:
    """Null by agreement: valued as in Skat (23); the simplified schemes give the winner their own amounts."""
    forbid(
        game,
        problems,
        ("matadors", "declarer_card_points", "outcome", "schwarz"),
        msg(gettext_noop("A null game is decided by tricks alone: no matadors or card points.")),
    )
    if ctx.scheme is Scheme.CARD_POINTS:
        problems.add("game.contract", msg(gettext_noop("The card-points scheme has no value for a null game.")))
    if game.won is None:
        problems.add("game.won", msg(gettext_noop("Say whether the null game was won.")))
    problems.raise_if_any()
    won = bool(game.won)
    unused = not_counted(game, BIDDING_FIELDS)
    steps = [] if unused is None else [unused]
    if ctx.scheme is Scheme.SIMPLE:
        value = SIMPLE_WIN
        steps.append(msg(gettext_noop("won: {value}"), value=value))
    else:
        value = NULL_VALUES[(False, False)]
        steps.append(msg(gettext_noop("{contract} = {value}"), contract=Contract.NULL.label, value=value))
    value = apply_doubling(ctx, value, game, steps)
    if ctx.scheme is Scheme.STANDARD:
        score = value if won else -2 * value
        steps.append(msg(gettext_noop("won: {score}"), score=value) if won else lost_step(value, 2))
        return Result(won=won, game_value=value, scores=only_seat(2, ctx.table.declarer, score), breakdown=tuple(steps))
    steps.append(_winner_step(won, value))
    winner = ctx.table.declarer if won else 1 - ctx.table.declarer
    return Result(won=won, game_value=value, scores=only_seat(2, winner, value), breakdown=tuple(steps))


def _simple_ramsch(ctx: Context, game: GameEntry, problems: Problems) -> Result:
    """Under the simple scheme a Ramsch goes to the fewer card points: 2, or 1 each at 60:60."""
    entry = read_ramsch(ctx, game, problems)
    problems.raise_if_any()
    assert entry is not None
    steps: list[Message] = []
    first, second = entry.card_points
    if first == second:
        steps.append(msg(gettext_noop("60:60, a draw: {value} each"), value=SIMPLE_DRAW))
        value = apply_doubling(ctx, SIMPLE_DRAW, game, steps)
        return Result(won=None, game_value=value, scores=(value, value), breakdown=tuple(steps))
    winner = 0 if first < second else 1
    steps.append(msg(gettext_noop("fewer card points win: {value}"), value=SIMPLE_WIN))
    value = apply_doubling(ctx, SIMPLE_WIN, game, steps)
    return Result(won=None, game_value=value, scores=only_seat(2, winner, value), breakdown=tuple(steps))


# What the value counts under each scheme, as the paper list's columns: the seed's standard (matadors + 1) × base
# value, ×2 Schneider, ×4 Schwarz; the base value doubled for Schneider; the winner's card points alone; 2, 3 with
# Schneider, 4 with Schwarz.
_COLUMNS: dict[Scheme, tuple[Mark, ...]] = {
    Scheme.STANDARD: (Mark.BASE, Mark.MATADORS, Mark.SCHNEIDER, Mark.SCHWARZ),
    Scheme.BASE_VALUE: (Mark.BASE, Mark.SCHNEIDER),
    Scheme.CARD_POINTS: (),
    Scheme.SIMPLE: (Mark.SCHNEIDER, Mark.SCHWARZ),
}
# The schemes where Schwarz takes the place of Schneider (×4 rather than ×2, 4 rather than 3) instead of adding to it.
_SCHWARZ_INSTEAD = (Scheme.STANDARD, Scheme.SIMPLE)


def _isko_levels(scheme: Scheme, rules: Rules) -> bool:
    return scheme is Scheme.STANDARD and rules.levels is LevelRule.ISKO


def officers_columns(spec: VariantSpec, scheme: Scheme, rules: Rules) -> tuple[Mark, ...]:
    """The paper list's columns of what a game's value counts under ``scheme``: with the ISkO's levels every column
    of Skat's list (where there is bidding: hand, the announcements and ouvert), otherwise only what the scheme
    counts; none under the card-points scheme, whose value is the winner's card points."""
    if _isko_levels(scheme, rules):
        return SKAT_COLUMNS if spec.bidding else _COLUMNS[Scheme.STANDARD]
    return _COLUMNS[scheme]


def officers_marks(spec: VariantSpec, scheme: Scheme, rules: Rules, game: GameEntry, result: Result) -> ListMarks:
    """A scored game's marks on the paper list, in the columns the scheme counts (``officers_columns``). With the
    ISkO's levels they are Skat's; otherwise a null is worth 23 whatever was declared besides, and where Schwarz takes
    the place of Schneider the game is marked Schwarz alone."""
    columns = officers_columns(spec, scheme, rules)
    if _isko_levels(scheme, rules):
        return list_marks(game, result).only(columns)
    if game.contract == Contract.NULL:
        return ListMarks(base=NULL_VALUES[(False, False)]).only(columns)
    base = BASE_VALUES.get(Contract(game.contract))
    if base is None:
        return ListMarks()
    schwarz_instead = result.schwarz and scheme in _SCHWARZ_INSTEAD
    marks = ListMarks(
        base=base,
        matadors=game.matadors,
        schneider=result.schneider and not schwarz_instead,
        schwarz=result.schwarz,
    )
    return marks.only(columns)
