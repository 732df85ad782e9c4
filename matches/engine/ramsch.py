"""Ramsch: everybody for himself, the most card points lose (a Skat house rule; Officers' Skat when both pass)."""

from __future__ import annotations

from .cards import CARD_POINTS_TOTAL, POSSIBLE_CARD_POINTS
from .common import Context, apply_doubling, forbid, impossible_points
from .entry import DOUBLED, JUNGFRAU, PUSHED, GameEntry, RamschEntry
from .errors import Problems
from .game import Result
from .messages import Message, gettext_noop, msg
from .options import RamschLoss, RamschTies

DURCHMARSCH_POINTS = 120
DECLARER_FIELDS = (
    "matadors",
    "declarer_card_points",
    "outcome",
    "schwarz",
    "hand",
    "ouvert",
    "announced",
    "won",
    "bid",
    "kontra",
    "re",
    "conceded",
)


def active_seats(ctx: Context) -> list[int]:
    """The seats that play: all of them, except the dealer at a table of four."""
    table = ctx.table
    return [seat for seat in range(table.players) if not (table.players == 4 and seat == table.dealer)]


def read_ramsch(ctx: Context, game: GameEntry, problems: Problems) -> RamschEntry | None:
    """Check a Ramsch result: points per seat adding up to 120, Jungfrau, pushes and Durchmarsch as the rules allow."""
    forbid(game, problems, DECLARER_FIELDS, msg(gettext_noop("A Ramsch has no declarer: leave this out.")))
    entry = game.ramsch
    if entry is None:
        problems.add("game.ramsch", msg(gettext_noop("Enter the card points of every player.")))
        return None
    table, rules = ctx.table, ctx.rules
    if table.players == 4 and table.dealer is None:
        problems.add(
            "dealer", msg(gettext_noop("With four players, say who dealt: the dealer sits out of the Ramsch."))
        )
        return None
    playing = active_seats(ctx)
    field = "game.ramsch.card_points"
    if len(entry.card_points) != table.players:
        problems.add(field, msg(gettext_noop("Enter one number per seat ({players})."), players=table.players))
        return None
    if any(not 0 <= points <= CARD_POINTS_TOTAL for points in entry.card_points):
        problems.add(field, msg(gettext_noop("Each must be between 0 and 120.")))
        return None
    if sum(entry.card_points) != CARD_POINTS_TOTAL:
        problems.add(field, msg(gettext_noop("Must add up to 120, not {total}."), total=sum(entry.card_points)))
        return None
    impossible = next((points for points in entry.card_points if points not in POSSIBLE_CARD_POINTS), None)
    if impossible is not None:
        problems.add(field, impossible_points(impossible))
        return None
    for seat in range(table.players):
        if seat not in playing and entry.card_points[seat]:
            problems.add(field, msg(gettext_noop("The dealer sits out and takes no card points.")))
            return None
    _check_jungfrau(ctx, entry, playing, problems)
    _check_durchmarsch(ctx, entry, playing, problems)
    if entry.pushes and not rules.ramsch_schieben:
        problems.add("game.ramsch.pushes", msg(gettext_noop("Schieberamsch is not played under these rules.")))
    elif not 0 <= entry.pushes <= len(playing):
        problems.add("game.ramsch.pushes", msg(gettext_noop("Must be between 0 and {maximum}."), maximum=len(playing)))
    return entry


def _check_jungfrau(ctx: Context, entry: RamschEntry, playing: list[int], problems: Problems) -> None:
    field = "game.ramsch.jungfrau"
    if not entry.jungfrau:
        return
    if not ctx.rules.ramsch_jungfrau:
        problems.add(field, msg(gettext_noop("Jungfrau is not counted under these rules.")))
    elif len(set(entry.jungfrau)) != len(entry.jungfrau) or any(seat not in playing for seat in entry.jungfrau):
        problems.add(field, msg(gettext_noop("Name each playing seat at most once.")))
    elif any(entry.card_points[seat] for seat in entry.jungfrau):
        problems.add(field, msg(gettext_noop("A player who took no trick has no card points.")))
    elif len(entry.jungfrau) == len(playing) - 1 and not ctx.rules.ramsch_durchmarsch:
        # Every other player clean means one player took every trick: that is a Durchmarsch, not one Jungfrau
        # doubling per clean player (which would make −480). Without the Durchmarsch rule it is a plain loss.
        problems.add(
            field,
            msg(
                gettext_noop(
                    "When every other player took no trick, one player took them all: a Durchmarsch, which these "
                    "rules do not count. That player loses his 120 card points like any loser: leave Jungfrau out."
                )
            ),
        )


def _check_durchmarsch(ctx: Context, entry: RamschEntry, playing: list[int], problems: Problems) -> None:
    field = "game.ramsch.durchmarsch"
    if entry.durchmarsch is None:
        return
    if not ctx.rules.ramsch_durchmarsch:
        problems.add(field, msg(gettext_noop("Durchmarsch is not counted under these rules.")))
    elif entry.durchmarsch not in playing:
        problems.add(field, msg(gettext_noop("Must be a playing seat.")))
    elif entry.card_points[entry.durchmarsch] != CARD_POINTS_TOTAL:
        problems.add(field, msg(gettext_noop("A player who took every trick has all 120 card points.")))
    elif entry.jungfrau and set(entry.jungfrau) != set(playing) - {entry.durchmarsch}:
        # Naming some of the others as Jungfrau says the rest took a trick: then nobody took every trick. Naming
        # none leaves it to the Durchmarsch, which says they all took none.
        problems.add(
            field,
            msg(
                gettext_noop(
                    "A Durchmarsch means no other player took a trick: name every other player as Jungfrau, or none."
                )
            ),
        )


def _took_every_trick(ctx: Context, entry: RamschEntry) -> int | None:
    """The seat that made a Durchmarsch: the one named, or, where the Durchmarsch rule is on, the one seat left when
    every other player took no trick (two Jungfrauen are a Durchmarsch, not a double Jungfrau)."""
    if entry.durchmarsch is not None or not ctx.rules.ramsch_durchmarsch:
        return entry.durchmarsch
    playing = active_seats(ctx)
    others = [seat for seat in playing if seat not in entry.jungfrau]
    return others[0] if len(others) == 1 else None


def score_ramsch(ctx: Context, game: GameEntry, problems: Problems) -> Result:
    """The most card points lose them (or a fixed amount), doubled per Jungfrau, push and Bock; tied players each lose
    it all or share it, as the rules say."""
    entry = read_ramsch(ctx, game, problems)
    problems.raise_if_any()
    assert entry is not None
    steps: list[Message] = []
    scores = [0] * ctx.table.players
    pushes = [PUSHED] * entry.pushes
    durchmarsch = _took_every_trick(ctx, entry)
    if durchmarsch is not None:
        value = DURCHMARSCH_POINTS
        steps.append(msg(gettext_noop("Durchmarsch: {value}"), value=value))
        value = _double(value, pushes, steps)
        value = apply_doubling(ctx, value, game, steps)
        scores[durchmarsch] = value
        return Result(won=None, game_value=value, scores=tuple(scores), schwarz=True, breakdown=tuple(steps))
    playing = active_seats(ctx)
    most = max(entry.card_points[seat] for seat in playing)
    losers = [seat for seat in playing if entry.card_points[seat] == most]
    if ctx.rules.ramsch_loss is RamschLoss.FIXED:
        value = ctx.rules.ramsch_fixed_loss
        steps.append(msg(gettext_noop("most card points ({points}): fixed loss {value}"), points=most, value=value))
    else:
        value = most
        steps.append(msg(gettext_noop("most card points: {value}"), value=value))
    value = _double(value, [JUNGFRAU] * len(entry.jungfrau) + pushes, steps)
    value = apply_doubling(ctx, value, game, steps)
    loss = value
    if len(losers) == 1:
        steps.append(msg(gettext_noop("lost: {score}"), score=-value))
    elif ctx.rules.ramsch_ties is RamschTies.SHARED:
        # The digest's "shared loss" for a tie; the list keeps whole points, so a share is rounded up and the tied
        # players never lose less between them than the loss.
        loss = -(-value // len(losers))
        steps.append(
            msg(
                gettext_noop("tied: {count} players share {value}, each loses {share}"),
                count=len(losers),
                value=value,
                share=loss,
            )
        )
    else:
        steps.append(msg(gettext_noop("tied: each of {count} players loses {value}"), count=len(losers), value=value))
    for seat in losers:
        scores[seat] = -loss
    return Result(won=None, game_value=value, scores=tuple(scores), breakdown=tuple(steps))


def _double(value: int, reasons: list[Message], steps: list[Message]) -> int:
    for reason in reasons:
        value *= 2
        steps.append(msg(DOUBLED, what=reason, value=value))
    return value
