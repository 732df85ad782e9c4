"""Officers' Schafkopf: two players, suit solo, Wenz or Bell Wenz, stakes in units, from a pot or paid by the loser."""

from __future__ import annotations

from .cards import Contract
from .common import (
    Context,
    apply_doubling,
    check_doubling,
    forbid,
    matadors_step,
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
from .options import Rules, Settlement
from .skat import ListMarks, Mark

# In a solo the 4 Obers, 4 Unters and the six other trumps of the suit (A 10 K 9 8 7) run unbroken; in a Wenz only
# the 4 Unters are trumps; in a Bell Wenz ("Unters and Bells", Schafkopf seed) the 4 Unters and the 7 bells
# (A 10 K O 9 8 7: the Obers are back in their suits).
MAX_LAUFENDE = {Contract.WENZ: 4, Contract.DIAMONDS_WENZ: 11}
MAX_LAUFENDE_SOLO = 14
# Schafkopf pays Laufende from 3 in a solo (three Obers) and from 2 where the Unters lead the trumps (a Wenz, and a
# Bell Wenz, whose run starts with the same two Unters).
LAUFENDE_FROM = {Contract.WENZ: 2, Contract.DIAMONDS_WENZ: 2}
LAUFENDE_FROM_SOLO = 3


def counted_laufende(rules: Rules, contract: Contract, laufende: int | None) -> int:
    """The units the Laufende ``laufende`` (signed: with or without) add to a game of ``contract``: one each under
    the tariff's ``laufende`` option from its least run on, none below it or without the option."""
    if not rules.laufende or laufende is None or abs(laufende) < LAUFENDE_FROM.get(contract, LAUFENDE_FROM_SOLO):
        return 0
    return abs(laufende)


def score_schafkopf(ctx: Context, game: GameEntry) -> Result:
    """1 unit for a win, 2 when the loser is Schneider, 3 when Schwarz; Laufende, Stoß and Re as the rules say; the
    winner takes it from the pot, or the loser pays it."""
    problems = Problems()
    contract = read_contract(ctx, game, problems)
    check_doubling(ctx, game, problems)
    forbid(
        game,
        problems,
        ("hand", "ouvert", "announced", "won", "bid", "conceded", "ramsch"),
        msg(gettext_noop("Officers' Schafkopf has no such thing: leave this out.")),
    )
    points = read_result(ctx, game, problems, required=True)
    if contract is None:
        problems.raise_if_any()
    assert contract is not None
    laufende = read_matadors(game, MAX_LAUFENDE.get(contract, MAX_LAUFENDE_SOLO), problems, required=False)
    problems.raise_if_any()
    assert points is not None
    steps: list[Message] = []
    won = points.declarer_reached
    schneider = points.opponents_schneider if won else points.declarer_schneider
    schwarz = points.opponents_schwarz if won else points.declarer_schwarz
    units = 1
    steps.append(
        msg(gettext_noop("won: {units}"), units=units) if won else msg(gettext_noop("lost: {units}"), units=units)
    )
    if schneider or schwarz:
        units += 1
        steps.append(msg(gettext_noop("{level} {count}"), level=msg(gettext_noop("Schneider")), count=units))
    if schwarz:
        units += 1
        steps.append(msg(gettext_noop("{level} {count}"), level=msg(gettext_noop("Schwarz")), count=units))
    counted = counted_laufende(ctx.rules, contract, laufende)
    if laufende is not None and counted:
        units += counted
        steps.append(msg(gettext_noop("Laufende, {run}: {count}"), run=matadors_step(laufende, counted), count=units))
    elif not ctx.rules.laufende:
        unused = not_counted(game, ("matadors",))
        if unused is not None:
            steps.append(unused)
    value = units * ctx.rules.stake
    if ctx.rules.stake != 1:
        steps.append(msg(gettext_noop("× stake {stake} = {value}"), stake=ctx.rules.stake, value=value))
    value = apply_doubling(ctx, value, game, steps)
    declarer = ctx.table.declarer
    if ctx.rules.settlement is Settlement.POT:
        # Schafkopf seed: both paid into the pot before the game and a win "earns" its units: the winner takes them
        # from the pot, and the loser, whose share is already in it, writes nothing.
        scores = only_seat(2, declarer if won else 1 - declarer, value)
        steps.append(
            msg(gettext_noop("the declarer takes {value} from the pot"), value=value)
            if won
            else msg(gettext_noop("the opponent takes {value} from the pot"), value=value)
        )
    else:
        score = value if won else -value
        scores = tuple(score if seat == declarer else -score for seat in range(2))
        steps.append(msg(gettext_noop("the declarer {score}, the opponent {other}"), score=score, other=-score))
    return Result(
        won=won,
        game_value=value,
        scores=scores,
        schneider=schneider or schwarz,
        schwarz=schwarz,
        breakdown=tuple(steps),
    )


def schafkopf_columns(rules: Rules) -> tuple[Mark, ...]:
    """The paper list's columns of what a game's value counts: Schneider and Schwarz, each a unit on the simple win,
    and with the tariff's ``laufende`` the Laufende."""
    return (Mark.SCHNEIDER, Mark.SCHWARZ, *((Mark.LAUFENDE,) if rules.laufende else ()))


def schafkopf_marks(rules: Rules, game: GameEntry, result: Result) -> ListMarks:
    """A scored game's marks on the paper list (``schafkopf_columns``): Schneider ticked for a Schwarz too, whose unit
    comes on top of Schneider's, and how many Laufende counted (none below the tariff's least)."""
    laufende = counted_laufende(rules, Contract(game.contract), game.matadors)
    return ListMarks(schneider=result.schneider, schwarz=result.schwarz, laufende=laufende or None)
