"""The one definition of a game as entered: its fields, their defaults, and its stored form.

Everything that reads or writes what a table entered goes through this module: the calculator API, the entry form
(built from ``accepted_fields``), the store (``game_to_data`` / ``game_from_data``, sparse and versioned), and the
history (``describe``). The rules of each variant then decide, in the scorers, whether an entry can be scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import cached_property, lru_cache
from hashlib import blake2b
from typing import Any

from .cards import CARD_POINTS_TOTAL, MAX_MATADORS_JACKS_ONLY, MAX_MATADORS_SKAT, Contract
from .errors import FieldError, Problems, RuleError
from .messages import Message, gettext_noop, msg
from .options import KONTRA, NAMED_UNKNOWN, MatadorRule, Rules, SchwarzRule
from .table import Seating
from .variants import VARIANTS, Family, Scheme, Variant, VariantSpec

# The stored form of an entry. Version 1: sparse (a field at its default is left out); the legacy form (version 0)
# wrote every field, with nulls and falses, and is read the same way. Version 2 adds the game entered by its value
# (``BY_VALUE``); only such a game is written as version 2, so that every other entry stays readable by a release
# from before it, and one that cannot read a game by value refuses it by its version rather than misreading it.
ENTRY_VERSION = 1
VALUE_ENTRY_VERSION = 2
READABLE_VERSIONS = (0, ENTRY_VERSION, VALUE_ENTRY_VERSION)
# The contract of a game entered by its value alone: the table said which value, not which game, so none is named.
BY_VALUE = "value"


class Schwarz(StrEnum):
    """Which party was schwarz: took no trick at all."""

    OPPONENTS = "opponents"
    DECLARER = "declarer"


class Outcome(StrEnum):
    """How the card play ended, as a table says it: enough in place of the card points wherever a scheme counts
    only winning, Schneider and Schwarz. ``draw`` is 60:60, which some tables count apart (a lost game otherwise)."""

    WON = "won"
    WON_SCHNEIDER = "won-schneider"
    WON_SCHWARZ = "won-schwarz"
    LOST = "lost"
    LOST_SCHNEIDER = "lost-schneider"
    LOST_SCHWARZ = "lost-schwarz"
    DRAW = "draw"

    @property
    def label(self) -> Message:
        return OUTCOME_LABELS[self]


OUTCOME_LABELS = {
    Outcome.WON: msg(gettext_noop("won")),
    Outcome.WON_SCHNEIDER: msg(gettext_noop("won Schneider")),
    Outcome.WON_SCHWARZ: msg(gettext_noop("won Schwarz")),
    Outcome.LOST: msg(gettext_noop("lost")),
    Outcome.LOST_SCHNEIDER: msg(gettext_noop("lost Schneider")),
    Outcome.LOST_SCHWARZ: msg(gettext_noop("lost Schwarz")),
    Outcome.DRAW: msg(gettext_noop("60:60")),
}


class Announcement(StrEnum):
    SCHNEIDER = "schneider"
    SCHWARZ = "schwarz"


@dataclass(frozen=True)
class RamschEntry:
    """A Ramsch as entered: card points per seat, the seats that took no trick, how often the skat was pushed."""

    card_points: tuple[int, ...]
    jungfrau: tuple[int, ...] = ()
    pushes: int = 0
    durchmarsch: int | None = None

    def card_points_word(self, sitting_out: int | None) -> Message:
        """Every seat's card points in the order of the seats, as the list gives what the Ramsch was scored from:
        "card points 72/48/0", a dash for the dealer who sat out ("–/30/72/18")."""
        points = "/".join("–" if seat == sitting_out else str(p) for seat, p in enumerate(self.card_points))
        return msg(gettext_noop("card points {points}"), points=points)

    def named(self, scores: Sequence[int]) -> tuple[int, ...]:
        """The seats the lists name for this Ramsch once scored (``scores``, by seat): the player of its Durchmarsch
        (named, or the one seat it scored for where every other player was entered as a Jungfrau), or else every
        seat that lost it."""
        if self.durchmarsch is not None and 0 <= self.durchmarsch < len(scores):
            return (self.durchmarsch,)
        losers = tuple(seat for seat, score in enumerate(scores) if score < 0)
        return losers or tuple(seat for seat, score in enumerate(scores) if score > 0)


@dataclass(frozen=True)
class GameEntry:
    """One game exactly as the players entered it; every field is raw input, nothing is derived.

    ``matadors`` is signed: +n for "with n", -n for "without n". ``declarer_card_points`` includes the skat;
    ``outcome`` (an ``Outcome``) may stand in for them, or say the same. A game entered by its value (contract
    ``BY_VALUE``) has only ``value``, ``won``, ``kontra`` and ``re``.
    """

    contract: str
    matadors: int | None = None
    declarer_card_points: int | None = None
    outcome: str | None = None
    schwarz: str | None = None
    hand: bool = False
    ouvert: bool = False
    announced: str | None = None
    won: bool | None = None
    bid: int | None = None
    kontra: bool = False
    re: bool = False
    conceded: bool = False
    ramsch: RamschEntry | None = None
    value: int | None = None


@dataclass(frozen=True)
class DealEntry:
    """What the table enters for one deal: a game and its declarer (a Ramsch has none), or nothing: all passed."""

    game: GameEntry | None = None
    declarer: int | None = None

    @property
    def passed(self) -> bool:
        return self.game is None

    @property
    def contract(self) -> str | None:
        return None if self.game is None else self.game.contract


PASSED = DealEntry()
# The breakdown step of a game worth less than its bid (see ``skat.apply_overbid``); the list names such games.
OVERBID = gettext_noop("overbid: bid {bid}, game worth {value}; valued at {raised}")
# The breakdown step of every doubling (Kontra, Re, Bock, a Ramsch's Jungfrau and push); the lists read a Ramsch's
# back from it (``ramsch_doublings``).
DOUBLED = gettext_noop("{what} × 2 = {value}")
# What doubles a Ramsch before Kontra and Bock: each player who took no trick, each push of the skat.
JUNGFRAU = msg(gettext_noop("Jungfrau"))
PUSHED = msg(gettext_noop("pushed"))


class Kind(StrEnum):
    """How a field is entered; the form picks a widget by it, the codec a type."""

    CONTRACT = "contract"
    SEAT = "seat"
    MATADORS = "matadors"
    NUMBER = "number"
    FLAG = "flag"
    CHOICE = "choice"
    RESULT = "result"
    OUTCOME = "outcome"
    POINTS_PER_SEAT = "points-per-seat"
    SEATS = "seats"
    VALUE = "value"


@dataclass(frozen=True)
class EntryField:
    """One field of an entry: what it is, what it takes, and for which contracts it is asked.

    ``name`` is the path in the entry's data (``ramsch.jungfrau``); ``contracts`` None means every contract.
    ``default`` is what a form preselects; the stored form leaves a field out when it holds the empty value.
    """

    name: str
    kind: Kind
    label: Message
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    choice_labels: tuple[Message, ...] = ()
    contracts: frozenset[Contract] | None = None
    default: Any = None
    required: bool = False

    @property
    def path(self) -> str:
        """The field's path in error reports: the declarer sits beside the game, everything else inside it."""
        return self.name if self.name == "declarer" else f"game.{self.name}"


NOT_RAMSCH = frozenset(Contract) - {Contract.RAMSCH}
POINT_GAMES = frozenset(Contract) - {Contract.RAMSCH, Contract.NULL}
ONLY_NULL = frozenset({Contract.NULL})
ONLY_RAMSCH = frozenset({Contract.RAMSCH})
MAX_BID = 264  # grand with 4, game, hand, Schneider, announced, Schwarz, announced, ouvert: 11 × 24
MAX_MATADORS = 14  # Schafkopf's Laufende in a solo; Skat's suit games stop at 11

FLAGS = ("hand", "ouvert", "kontra", "re", "conceded")
OPTIONAL_TEXT = ("outcome", "schwarz", "announced")
OPTIONAL_INT = ("matadors", "declarer_card_points", "bid", "value")


# Every field a game can have, in the order a table fills them in. ``accepted_fields`` narrows this to a table.
FIELDS: tuple[EntryField, ...] = (
    EntryField(
        "contract",
        Kind.CONTRACT,
        msg(gettext_noop("Game")),
        choices=(*(c.value for c in Contract), BY_VALUE),
        required=True,
    ),
    EntryField("declarer", Kind.SEAT, msg(gettext_noop("Declarer")), contracts=NOT_RAMSCH),
    EntryField(
        "matadors",
        Kind.MATADORS,
        msg(gettext_noop("Matadors")),
        minimum=1,
        maximum=MAX_MATADORS,
        contracts=POINT_GAMES,
        default=1,
    ),
    EntryField(
        "outcome",
        Kind.OUTCOME,
        msg(gettext_noop("Outcome")),
        choices=tuple(o.value for o in Outcome),
        choice_labels=tuple(o.label for o in Outcome),
        contracts=POINT_GAMES,
    ),
    EntryField(
        "declarer_card_points",
        Kind.NUMBER,
        msg(gettext_noop("Declarer's card points")),
        minimum=0,
        maximum=CARD_POINTS_TOTAL,
        contracts=POINT_GAMES,
    ),
    EntryField(
        "won",
        Kind.RESULT,
        msg(gettext_noop("Null result")),
        choice_labels=(msg(gettext_noop("won")), msg(gettext_noop("lost"))),
        contracts=ONLY_NULL,
    ),
    EntryField("hand", Kind.FLAG, msg(gettext_noop("Hand")), contracts=NOT_RAMSCH, default=False),
    EntryField("ouvert", Kind.FLAG, msg(gettext_noop("Ouvert")), contracts=NOT_RAMSCH, default=False),
    EntryField("kontra", Kind.FLAG, KONTRA, contracts=NOT_RAMSCH, default=False),
    EntryField("re", Kind.FLAG, msg(gettext_noop("Re")), contracts=NOT_RAMSCH, default=False),
    EntryField("conceded", Kind.FLAG, msg(gettext_noop("Conceded")), contracts=NOT_RAMSCH, default=False),
    EntryField(
        "announced",
        Kind.CHOICE,
        msg(gettext_noop("Announced")),
        choices=("", *(a.value for a in Announcement)),
        choice_labels=(msg(gettext_noop("nothing")), msg(gettext_noop("Schneider")), msg(gettext_noop("Schwarz"))),
        contracts=POINT_GAMES,
        default="",
    ),
    EntryField(
        "schwarz",
        Kind.CHOICE,
        msg(gettext_noop("Schwarz")),
        choices=("", *(s.value for s in Schwarz)),
        choice_labels=(
            msg(gettext_noop("nobody")),
            msg(gettext_noop("declarer took every trick")),
            msg(gettext_noop("declarer took no trick")),
        ),
        contracts=POINT_GAMES,
        default="",
    ),
    EntryField(
        "bid", Kind.NUMBER, msg(gettext_noop("Bid (optional)")), minimum=0, maximum=MAX_BID, contracts=NOT_RAMSCH
    ),
    EntryField(
        "ramsch.card_points",
        Kind.POINTS_PER_SEAT,
        msg(gettext_noop("Ramsch: card points per player")),
        minimum=0,
        maximum=CARD_POINTS_TOTAL,
        contracts=ONLY_RAMSCH,
    ),
    EntryField("ramsch.jungfrau", Kind.SEATS, msg(gettext_noop("Jungfrau (took no trick)")), contracts=ONLY_RAMSCH),
    EntryField("ramsch.pushes", Kind.NUMBER, msg(gettext_noop("Pushes")), minimum=0, maximum=4, contracts=ONLY_RAMSCH),
    EntryField("ramsch.durchmarsch", Kind.SEAT, msg(gettext_noop("Durchmarsch")), contracts=ONLY_RAMSCH),
    # The value entry's own field: no contract of the full entry asks for it (see ``EntryShape.by_value``).
    EntryField("value", Kind.VALUE, msg(gettext_noop("Game value")), minimum=0, maximum=MAX_BID, contracts=frozenset()),
)

FIELDS_BY_NAME = {f.name: f for f in FIELDS}
GAME_KEYS = frozenset(f.name for f in fields(GameEntry))
RAMSCH_KEYS = frozenset(f.name for f in fields(RamschEntry))


# --- The stored form -----------------------------------------------------------------------------------------------


def game_to_data(game: GameEntry) -> dict[str, Any]:
    """The sparse stored form: the contract and every field that differs from its empty value."""
    empty = GameEntry(contract=game.contract)
    data: dict[str, Any] = {"contract": game.contract}
    for name in (f.name for f in fields(GameEntry)):
        value = getattr(game, name)
        if name in ("contract", "ramsch") or value == getattr(empty, name):
            continue
        data[name] = value
    if game.ramsch is not None:
        ramsch: dict[str, Any] = {"card_points": list(game.ramsch.card_points)}
        if game.ramsch.jungfrau:
            ramsch["jungfrau"] = list(game.ramsch.jungfrau)
        if game.ramsch.pushes:
            ramsch["pushes"] = game.ramsch.pushes
        if game.ramsch.durchmarsch is not None:
            ramsch["durchmarsch"] = game.ramsch.durchmarsch
        data["ramsch"] = ramsch
    return data


def game_from_data(data: object, *, prefix: str = "game", version: int = ENTRY_VERSION) -> GameEntry:
    """Read a game from its data (the stored form, an API request, a form's fields); nulls and values at their
    default count as left out. Raises ``RuleError`` naming every field of the wrong type or unknown.

    Whether the game can be scored is for the rules to say; this checks only the shape."""
    if version not in READABLE_VERSIONS:
        raise RuleError([FieldError(prefix, msg(gettext_noop("Unknown entry version {version}."), version=version))])
    problems = Problems()
    if not isinstance(data, Mapping):
        problems.add(prefix, msg(gettext_noop("Must be an object.")))
        problems.raise_if_any()
    assert isinstance(data, Mapping)
    _report_unknown(data, GAME_KEYS, prefix, problems)
    contract = data.get("contract")
    if not isinstance(contract, str) or not contract:
        problems.add(f"{prefix}.contract", msg(gettext_noop("Must be one of: {choices}."), choices=_contracts()))
    values: dict[str, Any] = {}
    for name in FLAGS:
        values[name] = _read_flag(data, name, prefix, problems)
    for name in OPTIONAL_INT:
        values[name] = _read_int(data.get(name), f"{prefix}.{name}", problems)
    for name in OPTIONAL_TEXT:
        value = data.get(name)
        if value in (None, ""):
            values[name] = None
        elif isinstance(value, str):
            values[name] = value
        else:
            problems.add(f"{prefix}.{name}", msg(gettext_noop("Must be a text.")))
    won = data.get("won")
    if won is not None and not isinstance(won, bool):
        problems.add(f"{prefix}.won", msg(gettext_noop("Must be true, false or null.")))
        won = None
    values["won"] = won
    values["ramsch"] = _read_ramsch(data.get("ramsch"), f"{prefix}.ramsch", problems)
    problems.raise_if_any()
    assert isinstance(contract, str)
    return GameEntry(contract=contract, **values)


def deal_from_data(
    *, passed: bool, declarer: object, entry: object, version: int = ENTRY_VERSION, prefix: str = "game"
) -> DealEntry:
    """A deal from its stored or submitted parts (as ``deal_state`` gives them): all passed, or the game's data
    (``entry``) with its declarer's seat (None in a Ramsch). A deal all passed with a declarer or a game is
    refused: which one the table meant cannot be told."""
    problems = Problems()
    if passed:
        if declarer is not None:
            problems.add("declarer", msg(gettext_noop("A deal all passed has no declarer.")))
        if entry is not None:
            problems.add(prefix, msg(gettext_noop("A deal all passed has no game.")))
        problems.raise_if_any()
        return PASSED
    seat = _read_int(declarer, "declarer", problems)
    parsed: GameEntry | None = None
    try:
        parsed = game_from_data(entry, prefix=prefix, version=version)
    except RuleError as error:
        problems.extend(error.errors)
    problems.raise_if_any()
    assert parsed is not None
    return DealEntry(game=parsed, declarer=seat)


def stored_version(deal: DealEntry) -> int:
    """The version a deal is written in: the oldest that holds it (see ``ENTRY_VERSION``)."""
    return VALUE_ENTRY_VERSION if deal.contract == BY_VALUE else ENTRY_VERSION


def deal_state(deal: DealEntry) -> dict[str, Any]:
    """A deal as the store keeps it: passed, the declarer's seat and the sparse game."""
    return {
        "passed": deal.passed,
        "declarer": deal.declarer,
        "entry": None if deal.game is None else game_to_data(deal.game),
    }


def _report_unknown(data: Mapping[str, Any], known: frozenset[str], prefix: str, problems: Problems) -> None:
    """Names the first few unknown fields (``NAMED_UNKNOWN``) and counts the rest, so that the report stays short."""
    unknown = [key for key in data if key not in known]
    for key in unknown[:NAMED_UNKNOWN]:
        problems.add(f"{prefix}.{key}", msg(gettext_noop("Unknown field.")))
    if len(unknown) > NAMED_UNKNOWN:
        more = len(unknown) - NAMED_UNKNOWN
        problems.add(prefix, msg(gettext_noop("… and {count} more unknown fields."), count=more))


def _read_flag(data: Mapping[str, Any], name: str, prefix: str, problems: Problems) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    problems.add(f"{prefix}.{name}", msg(gettext_noop("Must be true or false.")))
    return False


def _read_int(value: object, path: str, problems: Problems) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    problems.add(path, msg(gettext_noop("Must be a whole number.")))
    return None


def _read_ints(value: object, path: str, problems: Problems) -> tuple[int, ...] | None:
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or any(
        not isinstance(item, int) or isinstance(item, bool) for item in value
    ):
        problems.add(path, msg(gettext_noop("Must be a list of whole numbers.")))
        return None
    return tuple(value)


def _read_ramsch(value: object, path: str, problems: Problems) -> RamschEntry | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        problems.add(path, msg(gettext_noop("Must be an object.")))
        return None
    _report_unknown(value, RAMSCH_KEYS, path, problems)
    if "card_points" not in value:
        problems.add(f"{path}.card_points", msg(gettext_noop("Enter the card points of every player.")))
        return None
    points = _read_ints(value["card_points"], f"{path}.card_points", problems)
    jungfrau = _read_ints(value.get("jungfrau"), f"{path}.jungfrau", problems)
    pushes = _read_int(value.get("pushes"), f"{path}.pushes", problems)
    durchmarsch = _read_int(value.get("durchmarsch"), f"{path}.durchmarsch", problems)
    if points is None or jungfrau is None:
        return None
    return RamschEntry(card_points=points, jungfrau=jungfrau, pushes=pushes or 0, durchmarsch=durchmarsch)


def _contracts() -> str:
    return ", ".join(c.value for c in Contract)


# --- Which fields a table has ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryShape:
    """What a table asks for one deal: the contracts it offers and the fields, fitted to its variant and rules.
    ``by_value``: a game may be entered by its value instead (declarer, value, won or lost, Kontra and Re)."""

    contracts: tuple[Contract, ...]
    fields: tuple[EntryField, ...]
    by_value: bool = False

    def get(self, name: str) -> EntryField | None:
        return next((f for f in self.fields if f.name == name), None)

    @cached_property
    def key(self) -> str:
        """A short digest of everything the shape holds, the same for equal shapes: what is built from a shape can be
        kept by it."""
        return blake2b(repr(self).encode(), digest_size=16).hexdigest()


def accepted_fields(spec: VariantSpec, scheme: Scheme, rules: Rules, seating: Seating) -> EntryShape:
    """The fields a table of ``spec`` scoring by ``scheme`` under ``rules`` enters for the deal seated as
    ``seating``: only what the variant has and the rules count, with the seats that play as choices.

    Worked out once and then shared: a table asks for the same shape game after game (a variant has one spec, the
    registry's, so its name stands for it)."""
    return _accepted(spec.variant, scheme, rules, seating)


@lru_cache(maxsize=256)
def _accepted(variant: Variant, scheme: Scheme, rules: Rules, seating: Seating) -> EntryShape:
    spec = VARIANTS[variant]
    contracts = tuple(c for c in spec.contracts if _offered(c, rules))
    playing = tuple(sorted(seating.playing))
    kept: list[EntryField] = []
    for base in FIELDS:
        fitted = _fit(base, spec, scheme, rules, contracts, playing, seating)
        if fitted is not None:
            kept.append(fitted)
    return EntryShape(contracts=contracts, fields=tuple(kept), by_value=spec.family is Family.SKAT)


def _offered(contract: Contract, rules: Rules) -> bool:
    if contract is Contract.NULL:
        return rules.null
    if contract is Contract.RAMSCH:
        return rules.ramsch
    return True


def counts_card_points(spec: VariantSpec, scheme: Scheme) -> bool:
    """Whether the score of a point game depends on the card points themselves, not only on who won and how:
    then the card points must be entered, and an outcome alone is not enough."""
    return spec.family is Family.LIEUTENANT or scheme is Scheme.CARD_POINTS


def counts_draw(scheme: Scheme, rules: Rules) -> bool:
    """Whether 60:60 counts apart from a lost game: a Bock round starts after it, or the simple scheme scores it."""
    return (rules.bock and rules.bock_on_draw) or scheme is Scheme.SIMPLE


def _fit(
    base: EntryField,
    spec: VariantSpec,
    scheme: Scheme,
    rules: Rules,
    contracts: tuple[Contract, ...],
    playing: tuple[int, ...],
    seating: Seating,
) -> EntryField | None:
    """``base`` as this table asks it, or None where the table does not have it."""
    name = base.name
    if name == "outcome":
        if counts_card_points(spec, scheme):
            return None
        if counts_draw(scheme, rules):
            return base
        plain = tuple(o for o in Outcome if o is not Outcome.DRAW)
        return replace(base, choices=tuple(o.value for o in plain), choice_labels=tuple(o.label for o in plain))
    if name == "declarer_card_points" and counts_card_points(spec, scheme):
        return replace(base, required=True)
    seat_choices = tuple(str(seat) for seat in playing)
    if base.contracts is not None and not base.contracts & set(contracts):
        return None  # the value field too: the value entry asks for it (``EntryShape.by_value``)
    if name == "contract":
        return replace(base, choices=tuple(c.value for c in contracts), default=contracts[0].value)
    if name == "declarer":
        # In the two-player games forehand chooses the game; in Skat the auction decides, so nobody is preselected.
        return replace(base, choices=seat_choices, default=seating.forehand if spec.forehand_declares else None)
    if name == "matadors":
        return _fit_matadors(base, spec, rules, contracts)
    if name == "schwarz" and (
        rules.schwarz is SchwarzRule.NO_CARD_POINTS
        or spec.family is Family.LIEUTENANT
        or not counts_card_points(spec, scheme)  # the outcome says it
    ):
        return None
    if name in ("hand", "ouvert", "announced", "bid", "conceded") and not spec.bidding:
        return None
    if name in ("kontra", "re") and not rules.kontra_re:
        return None
    if name == "kontra":
        return replace(base, label=spec.kontra)
    if name == "ramsch.card_points":
        return replace(base, choices=seat_choices)
    if name == "ramsch.jungfrau":
        return replace(base, choices=seat_choices) if rules.ramsch_jungfrau else None
    if name == "ramsch.pushes":
        return replace(base, maximum=len(playing)) if rules.ramsch_schieben else None
    if name == "ramsch.durchmarsch":
        return replace(base, choices=seat_choices) if rules.ramsch_durchmarsch else None
    return base


def _fit_matadors(
    base: EntryField, spec: VariantSpec, rules: Rules, contracts: tuple[Contract, ...]
) -> EntryField | None:
    if spec.family is Family.LIEUTENANT:
        return None
    if spec.family is Family.SCHAFKOPF:
        # Laufende are optional: fewer than the tariff's minimum count nothing, so 0 stands for "none".
        if not rules.laufende:
            return None
        return replace(base, label=msg(gettext_noop("Laufende")), minimum=0, maximum=MAX_MATADORS, default=0)
    if rules.matadors is MatadorRule.JACKS:
        return replace(base, maximum=MAX_MATADORS_JACKS_ONLY, required=True)
    top = max((MAX_MATADORS_SKAT.get(c, 0) for c in contracts), default=0)
    return replace(base, maximum=top, required=True)


def headline(
    game: GameEntry,
    *,
    won: bool | None,
    scores: Sequence[int],
    names: Sequence[str],
    breakdown: Sequence[Message],
    kontra: Message,
    sitting_out: int | None,
) -> list[Message]:
    """How a scored game reads in the list, after its declarer and contract: won or lost (Schneider and Schwarz as
    entered), hand, ouvert, announcements, Kontra (in the variant's word, ``kontra``) and Re, conceded, overbid; for
    a Ramsch, every seat's card points (the dealer who sat out, ``sitting_out``, has none), what doubled it besides
    Bock (``ramsch_doublings``) and who lost it."""
    if game.ramsch is not None:
        ramsch = [game.ramsch.card_points_word(sitting_out), *ramsch_doublings(breakdown)]
        named = [seat for seat in game.ramsch.named(scores) if seat < len(names)]
        # A Ramsch scores only for the player of its Durchmarsch.
        if len(named) == 1 and (named[0] == game.ramsch.durchmarsch or scores[named[0]] > 0):
            return [*ramsch, msg(gettext_noop("Durchmarsch: {name}"), name=names[named[0]])]
        losers = ", ".join(names[seat] for seat in named)
        return [*ramsch, msg(gettext_noop("{names} lost"), names=losers)] if losers else ramsch
    words: list[Message] = []
    called = Outcome(game.outcome) if game.outcome in set(Outcome) else None
    if called is not None and not (won is False and called.value.startswith("won")):
        words.append(called.label)
    elif won is not None:
        # A game won on the cards is lost all the same when it was overbid or an announcement was missed.
        words.append(msg(gettext_noop("won")) if won else msg(gettext_noop("lost")))
    for name in ("hand", "ouvert", "kontra", "re"):
        if getattr(game, name):
            words.append(kontra if name == "kontra" else FIELDS_BY_NAME[name].label)
    if game.announced == Announcement.SCHNEIDER:
        words.append(msg(gettext_noop("Schneider announced")))
    elif game.announced == Announcement.SCHWARZ:
        words.append(msg(gettext_noop("Schwarz announced")))
    if game.conceded:
        words.append(msg(gettext_noop("conceded")))
    if any(step.template == OVERBID for step in breakdown):
        words.append(msg(gettext_noop("overbid")))
    return words


def ramsch_doublings(breakdown: Sequence[Message]) -> tuple[Message, ...]:
    """What doubled a scored Ramsch before Bock, as its steps (``breakdown``) say and the lists write it: "Jungfrau"
    for each player who took no trick, "pushed 2×" for the pushes (a Durchmarsch doubles for its pushes only, whoever
    it names as Jungfrau); nothing for any other game."""
    reasons = [step.params.get("what") for step in breakdown if step.template == DOUBLED]
    words = [JUNGFRAU] * reasons.count(JUNGFRAU)
    pushes = reasons.count(PUSHED)
    if pushes:
        words.append(msg(gettext_noop("pushed {count}×"), count=pushes))
    return tuple(words)


def describe(game: GameEntry, names: Sequence[str], kontra: Message) -> list[Message]:
    """What was entered besides the contract, in a few words: "with 1", "70 card points", "Hand", …, a Kontra in
    the variant's word (``kontra``)."""
    words: list[Message] = []
    if game.value is not None:
        words.append(msg(gettext_noop("value {value}"), value=game.value))
    if game.matadors is not None:
        template = gettext_noop("with {n}") if game.matadors > 0 else gettext_noop("without {n}")
        words.append(msg(template, n=abs(game.matadors)))
    if game.declarer_card_points is not None:
        words.append(msg(gettext_noop("{points} card points"), points=game.declarer_card_points))
    if game.outcome in set(Outcome):
        words.append(Outcome(game.outcome).label)
    for name in FLAGS:
        if not getattr(game, name):
            continue
        if name == "kontra":
            words.append(kontra)
        elif name == "conceded":
            words.append(msg(gettext_noop("conceded")))
        else:
            words.append(FIELDS_BY_NAME[name].label)
    if game.announced == Announcement.SCHNEIDER:
        words.append(msg(gettext_noop("Schneider announced")))
    elif game.announced == Announcement.SCHWARZ:
        words.append(msg(gettext_noop("Schwarz announced")))
    if game.schwarz == Schwarz.OPPONENTS:
        words.append(msg(gettext_noop("the opponents Schwarz")))
    elif game.schwarz == Schwarz.DECLARER:
        words.append(msg(gettext_noop("the declarer Schwarz")))
    if game.won is not None:
        words.append(msg(gettext_noop("won")) if game.won else msg(gettext_noop("lost")))
    if game.bid is not None:
        words.append(msg(gettext_noop("bid {bid}"), bid=game.bid))
    if game.ramsch is not None:
        words.extend(_describe_ramsch(game.ramsch, names))
    return words


def _describe_ramsch(ramsch: RamschEntry, names: Sequence[str]) -> list[Message]:
    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else str(seat + 1)

    words = [
        msg(gettext_noop("{name} {points}"), name=name(seat), points=value)
        for seat, value in enumerate(ramsch.card_points)
    ]
    if ramsch.jungfrau:
        words.append(msg(gettext_noop("Jungfrau: {names}"), names=", ".join(name(s) for s in ramsch.jungfrau)))
    if ramsch.pushes:
        words.append(msg(gettext_noop("pushed {count}×"), count=ramsch.pushes))
    if ramsch.durchmarsch is not None:
        words.append(msg(gettext_noop("Durchmarsch: {name}"), name=name(ramsch.durchmarsch)))
    return words
