"""Checks and steps that several variants share: contracts, card points, matadors, declarations, doubling."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import (
    CARD_POINTS_TOTAL,
    DRAW_POINTS,
    MAX_MATADORS_JACKS_ONLY,
    MAX_MATADORS_SKAT,
    MAX_SKAT_POINTS,
    POSSIBLE_CARD_POINTS,
    POSSIBLE_SKAT_POINTS,
    WINNING_POINTS,
    Contract,
)
from .entry import DOUBLED, Announcement, GameEntry, Outcome, Schwarz
from .errors import Problems
from .game import Table
from .messages import Message, gettext_noop, msg
from .options import MatadorRule, Rules, SchneiderRule, SchwarzRule
from .variants import Scheme, VariantSpec

MAX_BOCK = 10


@dataclass(frozen=True)
class Context:
    """Everything about the table that is not the game itself."""

    spec: VariantSpec
    scheme: Scheme
    rules: Rules
    table: Table
    bock: int = 0


@dataclass(frozen=True)
class Points:
    """The card points of a point game, seen from the declarer, and who (if anybody) was schwarz."""

    declarer: int
    schwarz: Schwarz | None
    declarer_schneider_max: int
    opponents_schneider_max: int
    schwarz_by_points: bool

    @property
    def opponents(self) -> int:
        return CARD_POINTS_TOTAL - self.declarer

    @property
    def declarer_reached(self) -> bool:
        return self.declarer >= WINNING_POINTS

    @property
    def opponents_schneider(self) -> bool:
        return self.opponents <= self.opponents_schneider_max

    @property
    def declarer_schneider(self) -> bool:
        return self.declarer <= self.declarer_schneider_max

    @property
    def opponents_schwarz(self) -> bool:
        if self.schwarz_by_points:
            return self.opponents == 0
        return self.schwarz is Schwarz.OPPONENTS

    @property
    def declarer_schwarz(self) -> bool:
        if self.schwarz_by_points:
            return self.declarer == 0
        return self.schwarz is Schwarz.DECLARER

    @property
    def draw(self) -> bool:
        return self.declarer == DRAW_POINTS


@dataclass(frozen=True)
class Called:
    """The card play's result as the table called it instead of counting the card points."""

    outcome: Outcome

    @property
    def declarer_reached(self) -> bool:
        return self.outcome in (Outcome.WON, Outcome.WON_SCHNEIDER, Outcome.WON_SCHWARZ)

    @property
    def opponents_schneider(self) -> bool:
        return self.outcome in (Outcome.WON_SCHNEIDER, Outcome.WON_SCHWARZ)

    @property
    def declarer_schneider(self) -> bool:
        return self.outcome in (Outcome.LOST_SCHNEIDER, Outcome.LOST_SCHWARZ)

    @property
    def opponents_schwarz(self) -> bool:
        return self.outcome is Outcome.WON_SCHWARZ

    @property
    def declarer_schwarz(self) -> bool:
        return self.outcome is Outcome.LOST_SCHWARZ

    @property
    def draw(self) -> bool:
        return self.outcome is Outcome.DRAW


CardResult = Points | Called
RESULT_FACTS = (
    "declarer_reached",
    "opponents_schneider",
    "declarer_schneider",
    "opponents_schwarz",
    "declarer_schwarz",
)
IMPLIED_SCHWARZ = {Outcome.WON_SCHWARZ: Schwarz.OPPONENTS, Outcome.LOST_SCHWARZ: Schwarz.DECLARER}


def schneider_max(rule: SchneiderRule) -> int:
    """The most card points a loser holds and is Schneider: 30 (ISkO: "30 or fewer"), or 29 ("less than 30")."""
    return 30 if rule is SchneiderRule.AT_MOST_30 else 29


def schneider_limits(rule: SchneiderRule) -> tuple[int, int]:
    """The most card points at which the declarer, and at which his opponents, are Schneider."""
    if rule is SchneiderRule.UNEVEN:
        # Schafkopf: the declarer needs 61 and his opponents 60, so he is out of Schneider at 31 and they at 30.
        return 30, 29
    most = schneider_max(rule)
    return most, most


def read_contract(ctx: Context, game: GameEntry, problems: Problems) -> Contract | None:
    try:
        contract = Contract(game.contract)
    except ValueError:
        contract = None
    if contract is None or contract not in ctx.spec.contracts:
        allowed = ", ".join(c.value for c in ctx.spec.contracts)
        problems.add("game.contract", msg(gettext_noop("Must be one of: {choices}."), choices=allowed))
        return None
    if contract is Contract.NULL and not ctx.rules.null:
        problems.add("game.contract", msg(gettext_noop("Null is not played under these rules.")))
        return None
    if contract is Contract.RAMSCH and not ctx.rules.ramsch:
        problems.add("game.contract", msg(gettext_noop("Ramsch is not played under these rules.")))
        return None
    return contract


def read_result(
    ctx: Context, game: GameEntry, problems: Problems, *, required: bool, card_points: bool = False
) -> CardResult | None:
    """The card play's result: the declarer's card points, or the outcome the table called in their place where
    the scheme does not count the points themselves (``card_points``: it does, and they must be entered). When both
    are given they must say the same; a Schwarz the outcome names counts as the ``schwarz`` field would."""
    outcome = _read_outcome(game, problems)
    implied = IMPLIED_SCHWARZ.get(outcome) if outcome is not None else None
    if game.declarer_card_points is None and game.outcome is not None:
        if card_points:
            problems.add(
                "game.declarer_card_points",
                msg(gettext_noop("Enter the declarer's card points: this game counts them, not only who won.")),
            )
        elif game.schwarz is not None and (implied is None or game.schwarz != implied.value):
            problems.add("game.schwarz", msg(gettext_noop("The outcome says otherwise: leave Schwarz out.")))
        return Called(outcome) if outcome is not None and not card_points else None
    if game.declarer_card_points is None and required and not card_points:
        problems.add("game.declarer_card_points", msg(gettext_noop("Enter the outcome or the declarer's card points.")))
        required = False
    points = None
    if implied is not None and game.schwarz is None:
        # The Schwarz the outcome names, read as the field would be; card points that cannot go with it make the
        # two disagree (below), rather than a complaint about a field nobody filled in.
        trial = Problems()
        points = read_points(ctx, replace(game, schwarz=implied.value), trial, required=required)
        if trial.errors:
            points = None
    if points is None:
        points = read_points(ctx, game, problems, required=required)
    if points is not None and outcome is not None and not _agrees(outcome, points):
        problems.add("game.outcome", _disagreement(outcome, points))
    return points


def _read_outcome(game: GameEntry, problems: Problems) -> Outcome | None:
    if game.outcome is None:
        return None
    try:
        return Outcome(game.outcome)
    except ValueError:
        choices = ", ".join(outcome.value for outcome in Outcome)
        problems.add("game.outcome", msg(gettext_noop("Must be one of: {choices}."), choices=choices))
        return None


def _agrees(outcome: Outcome, points: Points) -> bool:
    called = Called(outcome)
    same = all(getattr(called, fact) == getattr(points, fact) for fact in RESULT_FACTS)
    return same and (points.draw or outcome is not Outcome.DRAW)


def _disagreement(outcome: Outcome, points: Points) -> Message:
    """Why card points and an outcome do not go together: what the points make of the game."""
    called = next(
        (other for other in Outcome if other is not Outcome.DRAW and _agrees(other, points)),
        Outcome.LOST,
    )
    return msg(
        gettext_noop("With {points} card points the declarer has {called}, not {outcome}."),
        points=points.declarer,
        called=called.label,
        outcome=outcome.label,
    )


def read_points(ctx: Context, game: GameEntry, problems: Problems, *, required: bool) -> Points | None:
    """Check the declarer's card points and the schwarz field against each other and the variant."""
    points = game.declarer_card_points
    if points is None:
        if required:
            problems.add("game.declarer_card_points", msg(gettext_noop("Enter the declarer's card points.")))
        if game.schwarz is not None:
            problems.add("game.schwarz", msg(gettext_noop("Schwarz needs the declarer's card points.")))
        return None
    if not 0 <= points <= CARD_POINTS_TOTAL:
        problems.add("game.declarer_card_points", msg(gettext_noop("Must be between 0 and 120.")))
        return None
    if points not in POSSIBLE_CARD_POINTS:
        problems.add("game.declarer_card_points", impossible_points(points))
        return None
    by_points = ctx.rules.schwarz is SchwarzRule.NO_CARD_POINTS
    schwarz = _read_schwarz(ctx, game, points, problems, by_points=by_points)
    declarer_most, opponents_most = schneider_limits(ctx.rules.schneider)
    return Points(points, schwarz, declarer_most, opponents_most, by_points)


def impossible_points(points: int) -> Message:
    """Why no deal gives a party ``points`` (1 or 119) card points."""
    return msg(
        gettext_noop(
            "No deal gives {points} card points: no card is worth 1, so no player or party ends with 1 or 119."
        ),
        points=points,
    )


def _read_schwarz(ctx: Context, game: GameEntry, points: int, problems: Problems, *, by_points: bool) -> Schwarz | None:
    if game.schwarz is None:
        return None
    try:
        schwarz = Schwarz(game.schwarz)
    except ValueError:
        problems.add("game.schwarz", msg(gettext_noop("Must be “opponents” or “declarer”.")))
        return None
    if schwarz is Schwarz.OPPONENTS and points != CARD_POINTS_TOTAL:
        problems.add(
            "game.schwarz",
            msg(gettext_noop("The opponents can only be schwarz when the declarer has all 120 card points.")),
        )
        return None
    if by_points:
        # Schwarz follows from the card points here; a field that says what they say is redundant, not wrong.
        if schwarz is Schwarz.DECLARER and points:
            problems.add(
                "game.schwarz",
                msg(
                    gettext_noop(
                        "Under these rules Schwarz means no card points at all: "
                        "a declarer with {points} card points is not Schwarz."
                    ),
                    points=points,
                ),
            )
            return None
        return schwarz
    most_without_trick = MAX_SKAT_POINTS if ctx.spec.skat_cards else 0
    if schwarz is Schwarz.DECLARER and points > most_without_trick:
        problems.add(
            "game.schwarz",
            msg(
                gettext_noop("A declarer who took no trick has at most {points} card points."),
                points=most_without_trick,
            ),
        )
        return None
    # A declarer without a trick holds only the two skat cards, and no two cards make 9 or 16-19.
    if schwarz is Schwarz.DECLARER and ctx.spec.skat_cards and points not in POSSIBLE_SKAT_POINTS:
        problems.add(
            "game.schwarz",
            msg(
                gettext_noop("A declarer who took no trick holds only the skat, and no two cards make {points}."),
                points=points,
            ),
        )
        return None
    return schwarz


def read_matadors(game: GameEntry, maximum: int, problems: Problems, *, required: bool) -> int | None:
    """The signed matadors (+n with, -n without), checked against the maximum for the contract."""
    matadors = game.matadors
    if matadors is None:
        if required:
            problems.add("game.matadors", msg(gettext_noop("Enter the matadors: with or without how many.")))
        return None
    if matadors == 0 or abs(matadors) > maximum:
        problems.add(
            "game.matadors",
            msg(gettext_noop("Must be with or without 1 to {maximum} (+n or −n)."), maximum=maximum),
        )
        return None
    return matadors


def matadors_step(matadors: int, count: int) -> Message:
    if matadors > 0:
        return msg(gettext_noop("with {n}"), n=count)
    return msg(gettext_noop("without {n}"), n=count)


def forbid(game: GameEntry, problems: Problems, names: tuple[str, ...], reason: Message) -> None:
    """Report each of ``names`` that the game sets, with the same reason."""
    defaults = GameEntry(contract=game.contract)
    for name in names:
        if getattr(game, name) != getattr(defaults, name):
            problems.add(f"game.{name}", reason)


def read_announcement(game: GameEntry, problems: Problems) -> Announcement | None:
    if game.announced is None:
        return None
    try:
        return Announcement(game.announced)
    except ValueError:
        problems.add("game.announced", msg(gettext_noop("Must be “schneider” or “schwarz”.")))
        return None


def check_doubling(ctx: Context, game: GameEntry, problems: Problems) -> None:
    """Kontra needs the Kontra/Re rule, Re needs a Kontra (each named in the variant's word), Bock needs the Bock
    rule and stays within reason."""
    if (game.kontra or game.re) and not ctx.rules.kontra_re:
        field = "game.kontra" if game.kontra else "game.re"
        problems.add(
            field, msg(gettext_noop("{kontra} and Re are not played under these rules."), kontra=ctx.spec.kontra)
        )
    elif game.re and not game.kontra:
        problems.add("game.re", msg(gettext_noop("Re answers a {kontra}: set kontra too."), kontra=ctx.spec.kontra))
    if ctx.bock and not ctx.rules.bock:
        problems.add("game.bock", msg(gettext_noop("Bock rounds are not played under these rules.")))
    elif not 0 <= ctx.bock <= MAX_BOCK:
        problems.add("game.bock", msg(gettext_noop("Must be between 0 and {maximum}."), maximum=MAX_BOCK))


def apply_doubling(ctx: Context, value: int, game: GameEntry, steps: list[Message]) -> int:
    """Multiply by Kontra (×2, in the variant's word), Re (×2 again) and each Bock round in force (×2), writing a
    step for each."""
    for applies, label in (
        (game.kontra, ctx.spec.kontra),
        (game.re, msg(gettext_noop("Re"))),
        *((True, msg(gettext_noop("Bock"))) for _ in range(ctx.bock)),
    ):
        if applies:
            value *= 2
            steps.append(msg(DOUBLED, what=label, value=value))
    return value


def only_seat(players: int, seat: int, value: int) -> tuple[int, ...]:
    """A score list with ``value`` for ``seat`` and zero for everyone else."""
    return tuple(value if index == seat else 0 for index in range(players))


def lost_step(value: int, factor: int) -> Message:
    if factor == 1:
        return msg(gettext_noop("lost: {score}"), score=-value)
    return msg(gettext_noop("lost: {factor} × {value} = {score}"), factor=factor, value=value, score=-factor * value)


def max_matadors(ctx: Context, contract: Contract) -> int:
    """At most 11 in a suit game and 4 in a grand; only the 4 jacks where the rules count jacks alone."""
    if ctx.rules.matadors is MatadorRule.JACKS:
        return MAX_MATADORS_JACKS_ONLY
    return MAX_MATADORS_SKAT[contract]


def not_counted(game: GameEntry, names: tuple[str, ...]) -> Message | None:
    """A step naming the entered fields that the scheme in force does not count, so nobody wonders where they went."""
    defaults = GameEntry(contract=game.contract)
    unused = [name for name in names if getattr(game, name) != getattr(defaults, name)]
    if not unused:
        return None
    return msg(gettext_noop("not counted under this scheme: {fields}"), fields=", ".join(unused))
