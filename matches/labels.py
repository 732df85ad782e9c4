"""Names the pages show for contracts and variants, in the player's language and deck."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from .engine import Contract, GameEntry, Message, RuleError, describe, game_from_data, headline
from .engine.bock import bock_multiplier
from .engine.entry import BY_VALUE
from .engine.league import SeriesLine, seeger_fabian_rates
from .engine.presets import PRESETS
from .engine.variants import SCHEME_LABELS, VARIANTS, Scheme, Variant
from .models import Deck, Match, MatchEvent

MINUS = "\N{MINUS SIGN}"
NO_BREAK_SPACE = "\N{NO-BREAK SPACE}"

SUIT_SYMBOLS = {
    Contract.CLUBS: "♣",
    Contract.SPADES: "♠",
    Contract.HEARTS: "♥",
    Contract.DIAMONDS: "♦",
    Contract.DIAMONDS_WENZ: "♦",
}

CONTRACT_NAMES = {
    Deck.FRENCH: {
        Contract.CLUBS: _("Clubs"),
        Contract.SPADES: _("Spades"),
        Contract.HEARTS: _("Hearts"),
        Contract.DIAMONDS: _("Diamonds"),
        Contract.DIAMONDS_WENZ: _("Diamonds Wenz"),
    },
    Deck.GERMAN: {
        Contract.CLUBS: _("Acorns"),
        Contract.SPADES: _("Leaves"),
        Contract.HEARTS: _("Hearts"),
        Contract.DIAMONDS: _("Bells"),
        Contract.DIAMONDS_WENZ: _("Bell Wenz"),
    },
}

OTHER_CONTRACTS = {
    Contract.GRAND: _("Grand"),
    Contract.NULL: _("Null"),
    Contract.RAMSCH: _("Ramsch"),
    Contract.WENZ: _("Wenz"),
}

OPTION_CHOICE_LABELS = {
    "30-or-fewer": _("the loser with 30 card points or fewer"),
    "under-30": _("the loser under 30 card points"),
    "uneven": _("the declarer with 30 or fewer, his opponent under 30"),
    "no-tricks": _("no trick"),
    "no-card-points": _("no card points"),
    "jacks": _("jacks only (1-4)"),
    "extended": _("as in Skat (up to 11)"),
    "doubling": _("×2 Schneider, ×4 Schwarz"),
    "isko": _("levels added as in Skat"),
    "card-points": _("the card points"),
    "fixed": _("a fixed amount"),
    "each-full": _("each tied player loses the whole amount"),
    "shared": _("the tied players share the loss"),
    "pot": _("the winner takes his winnings from the pot"),
    "zero-sum": _("the loser pays the winner"),
    "double": _("twice the value"),
    "single": _("once the value"),
}

# The engine names suits by the French deck; a German deck renames them in every breakdown.
GERMAN_SUIT_TEMPLATES = {
    "clubs": gettext_noop("acorns"),
    "spades": gettext_noop("leaves"),
    "diamonds": gettext_noop("bells"),
}


def contract_label(contract: str | None, deck: str = Deck.FRENCH) -> str:
    """ "♣ Clubs" or "Acorns", "Grand", "By value" (a game entered by its value), …; an empty string for a passed
    deal."""
    if contract is None:
        return ""
    if contract == BY_VALUE:
        return str(_("By value"))
    value = Contract(contract)
    if value in SUIT_SYMBOLS:
        name = str(CONTRACT_NAMES[Deck(deck)][value])
        return f"{SUIT_SYMBOLS[value]} {name}" if deck == Deck.FRENCH else name
    return str(OTHER_CONTRACTS[value])


def render_step(message: Message, deck: str = Deck.FRENCH) -> str:
    """A breakdown step in the active language, with suits named for the deck."""
    if deck == Deck.GERMAN:
        return message.render(lambda template: gettext(GERMAN_SUIT_TEMPLATES.get(template, template)), ngettext)
    return message.render(gettext, ngettext)


def result_label(
    game: GameEntry,
    *,
    won: bool | None,
    scores: Sequence[int],
    names: Sequence[str],
    breakdown: Sequence[Message],
    kontra: Message,
    sitting_out: int | None,
    deck: str = Deck.FRENCH,
) -> str:
    """How a game went, as the list says it after its declarer and contract: "won Schneider · Hand · Kontra" (its
    variant's word for Kontra, ``kontra``), "card points 30/72/18 · Ben lost" (``sitting_out``: the seat that sat the
    deal out); the page's list and the exports read the same words."""
    words = headline(
        game, won=won, scores=scores, names=names, breakdown=breakdown, kontra=kontra, sitting_out=sitting_out
    )
    return " · ".join(render_step(word, deck) for word in words)


def bock_label(rounds: int) -> str:
    """ "Bock ×2" for a game in one Bock round, "Bock ×4" in two overlapping ones (Doppelbock): the factor its value
    is multiplied by, as the engine applies it."""
    return gettext("Bock ×%(multiplier)s") % {"multiplier": bock_multiplier(rounds)}


def match_label(match: Match) -> str:
    """The match's title, or its variant and the day it started."""
    if match.title:
        return match.title
    return f"{variant_label(match.variant)} · {date_format(match.created_at, 'SHORT_DATE_FORMAT')}"


def variant_label(variant: str) -> str:
    return gettext(VARIANTS[Variant(variant)].label.template)


def scheme_label(scheme: str) -> str:
    return gettext(SCHEME_LABELS[Scheme(scheme)].template)


def preset_label(key: str) -> str:
    preset = PRESETS.get(key)
    return gettext(preset.label.template) if preset else ""


def rules_in_force(match: Match) -> list[tuple[str, str]]:
    """The match's rule options as a table reads them: each option's name (in the variant's word for Kontra) and its
    value, in the variant's order."""
    setup = match.setup()
    shown: list[tuple[str, str]] = []
    for name in setup.spec.options:
        value = getattr(setup.rules, name)
        if isinstance(value, bool):
            text = str(_("yes") if value else _("no"))
        else:
            raw = getattr(value, "value", value)
            text = str(OPTION_CHOICE_LABELS.get(str(raw), raw))
        shown.append((render_step(setup.spec.option(name).label), text))
    return shown


def total_label(value: int) -> str:
    """36, −96, 0: a total, with a real minus sign."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def rounded(value: Fraction | int, places: int) -> Decimal:
    """``value`` to ``places`` decimals, a half rounded away from zero (docs/rules.md): 2705/3 is 901.67 to two places
    and 901.7 to one, 1/4 is 0.3 and −1/4 −0.3 to one. Figures are kept exact and rounded only where they are shown or
    written to a file, always here (Django's ``number_format`` cuts the decimals off, Python's ``round`` rounds a half
    to the even digit of a binary fraction)."""
    exact = Fraction(value)
    units = int(abs(exact) * 10**places + Fraction(1, 2))
    shown = Decimal(units).scaleb(-places)
    return -shown if exact < 0 and units else shown


def figure_cell(value: Fraction | int) -> int | float:
    """A figure as a program takes it (the files and the API): a whole number as it is, any other to two places."""
    exact = Fraction(value)
    return exact.numerator if exact.denominator == 1 else float(rounded(exact, 2))


def euros(cents: int, *, unbroken: bool = False) -> str:
    """Cents as the reader writes money: ``1,012.50 €``, in German ``1.012,50 €``, with a real minus sign. ``unbroken``
    (a page's): a no-break space before the sign, so that a line never ends with the figure and starts with the €,
    as CLDR writes money in German. A file keeps a plain space: a no-break one is an odd character in a
    spreadsheet's cell or a text."""
    return f"{amount_label(cents)}{NO_BREAK_SPACE if unbroken else ' '}€"


def amount_label(cents: int) -> str:
    """Cents as a column headed in euros writes them: ``1,012.50``, in German ``1.012,50``, the thousands grouped as
    the reader's language groups them, with a real minus sign."""
    return number_format(rounded(Fraction(cents, 100), 2), 2, force_grouping=True).replace("-", MINUS)


def standing_label(value: Fraction | int) -> str:
    """A figure as a reader sees it (a standing, an average): a whole number as it is, any other to one decimal in
    the reader's language (rounded), a real minus sign."""
    exact = Fraction(value)
    shown = str(exact.numerator) if exact.denominator == 1 else number_format(rounded(exact, 1), 1)
    return shown.replace("-", MINUS)


def places(totals: Sequence[int]) -> list[tuple[int, int]]:
    """The seats by their totals, best first, as (place, seat): equal totals share a place."""
    ordered = sorted(range(len(totals)), key=lambda seat: -totals[seat])
    ranked: list[tuple[int, int]] = []
    for index, seat in enumerate(ordered):
        tied = index > 0 and totals[ordered[index - 1]] == totals[seat]
        ranked.append((ranked[-1][0] if tied else index + 1, seat))
    return ranked


def standings_text(title: str, rows: Sequence[tuple[int, str, str]]) -> str:
    """Results as a short text to send to a group chat: the title, then "1. Ben 312" per player, best first."""
    return "\n".join([title, *(f"{place}. {name} {points}" for place, name, points in rows)])


@dataclass(frozen=True)
class FooterRow:
    """A line of a list's footer: its title and each player's value (none on a blank list to fill in by hand)."""

    title: str
    values: list[int]
    total: bool = False


def footer_rows(lines: Sequence[SeriesLine], *, seeger_fabian: bool, players: int) -> list[FooterRow]:
    """The footer of a list as the paper list sums it up: under Seeger-Fabian the game points, games won and lost,
    the ±50 and the others' lost games up to the total; otherwise games won and lost and the game points as total.
    ``lines``: one per player, or none (a blank list)."""
    if not seeger_fabian:
        return [
            FooterRow(gettext("Games won"), [line.won for line in lines]),
            FooterRow(gettext("Games lost"), [line.lost for line in lines]),
            FooterRow(gettext("Total"), [line.game_points for line in lines], total=True),
        ]
    rates = seeger_fabian_rates(players)
    return [
        FooterRow(gettext("Game points"), [line.game_points for line in lines]),
        FooterRow(gettext("Games won"), [line.won for line in lines]),
        FooterRow(gettext("Games lost"), [line.lost for line in lines]),
        FooterRow(
            gettext("+ %(points)s × games won") % {"points": rates.declarer},
            [line.won_points for line in lines],
        ),
        FooterRow(
            gettext("− %(points)s × games lost") % {"points": rates.declarer},
            [-line.lost_points for line in lines],
        ),
        FooterRow(
            gettext("+ %(points)s × games the others lost") % {"points": rates.others_lost},
            [line.bonus for line in lines],
        ),
        FooterRow(gettext("Total"), [line.total for line in lines], total=True),
    ]


# --- The history's wording ---------------------------------------------------------------------------------------


def step_back_label(change: MatchEvent | None, *, redo: bool) -> str:
    """ "Undo game 5", "Redo game 5": the button names the game its change is about."""
    if change is None or change.number is None:
        return gettext("Redo") if redo else gettext("Undo last change")
    return (gettext("Redo game %(number)s") if redo else gettext("Undo game %(number)s")) % {"number": change.number}


def step_back_text(change: MatchEvent, *, redo: bool, names: list[str], deck: str, kontra: Message) -> str:
    """What an undo or a redo of ``change`` did to its game, with the game as it now stands (or stood, if it is off
    the list): "Game 5 restored: …" for an undone deletion, never the name of the change it took back alone
    (``kontra``: the variant's word for Kontra)."""
    added, deleted = change.action == MatchEvent.Action.ADD, change.action == MatchEvent.Action.DELETE
    if redo:
        if added:
            text = gettext("Game %(number)s entered again (redo): %(game)s")
        elif deleted:
            text = gettext("Game %(number)s deleted again (redo): %(game)s")
        else:
            text = gettext("Game %(number)s changed again (redo): %(game)s")
        state = change.before if deleted else change.after
    else:
        if added:
            text = gettext("Game %(number)s undone (no longer on the list): %(game)s")
        elif deleted:
            text = gettext("Game %(number)s restored: %(game)s")
        else:
            text = gettext("Game %(number)s undone (back as before the change): %(game)s")
        state = change.after if added else change.before
    return text % {"number": change.number or "–", "game": game_state_text(state, names, deck, kontra)}


def match_part_text(part: dict[str, Any] | None, seated: Mapping[str, str]) -> str:
    """What a change to the match itself changed, in a few words: "closed, co-scorers' link off", "Anna, Ben, Cleo",
    "3 values scored afresh", a paper list (``paper_list_text``)."""
    if not part:
        return "—"
    words = []
    if "locked" in part:
        words.append(gettext("closed") if part["locked"] else gettext("open"))
    if "link" in part:
        words.append(gettext("co-scorers' link on") if part["link"] else gettext("co-scorers' link off"))
    if "invite" in part:
        words.append(gettext("co-scorers' link on") if part["invite"] else gettext("co-scorers' link off"))
    if "share" in part:
        words.append(gettext("spectators' link on") if part["share"] else gettext("spectators' link off"))
    if "title" in part:
        words.append(str(part["title"]) or "—")
    if "seats" in part:
        words.append(", ".join(seated.get(str(player), "?") for player in part["seats"]))
    if "paper" in part:
        words.append(paper_list_text(part["paper"], seated))
    if "changed" in part:
        count = int(part["changed"])
        words.append(
            ngettext("%(count)s value scored afresh", "%(count)s values scored afresh", count) % {"count": count}
        )
    return ", ".join(words) or "—"


def paper_list_text(lines: Sequence[Mapping[str, Any]], seated: Mapping[str, str]) -> str:
    """A table's paper list as its history keeps it, in a few words: "Anna 455 (3 won, 1 lost); Ben −120 (1 won,
    2 lost)", or that there is none."""
    if not lines:
        return gettext("no paper list")
    return "; ".join(
        gettext("%(name)s %(points)s (%(won)s won, %(lost)s lost)")
        % {
            "name": seated.get(str(line["player"]), "?"),
            "points": total_label(int(line["game_points"])),
            "won": int(line["won"]),
            "lost": int(line["lost"]),
        }
        for line in lines
    )


def change_text(event: MatchEvent, names: list[str], deck: str, kontra: Message) -> str:
    """A change in a few words: "game 5 added: Ben: ♣ Clubs, with 2, 70 card points" (``kontra``: the variant's
    word for Kontra)."""
    state = event.before if event.action == MatchEvent.Action.DELETE else event.after
    return gettext("game %(number)s %(action)s: %(game)s") % {
        "number": event.number or "–",
        "action": action_label(event.action),
        "game": game_state_text(state, names, deck, kontra),
    }


def action_label(action: str) -> str:
    """What a change did, in words ("added", "undone"). One translation: Django's ``get_action_display`` translates
    the words of every action to find the one it wants, and a save's answer names its change."""
    try:
        return str(MatchEvent.Action(action).label)
    except ValueError:
        return action


def game_state_text(state: dict[str, Any] | None, names: list[str], deck: str, kontra: Message) -> str:
    """A stored game state in a few words: "Ben: ♣ Clubs, with 2, 70 card points" or "all passed" (``kontra``: the
    variant's word for Kontra)."""
    if state is None:
        return "—"
    if state.get("passed"):
        text = gettext("all passed")
    else:
        entry = state.get("entry") or {}
        words = [contract_label(entry.get("contract"), deck)]
        try:
            game = game_from_data(entry, version=int(state.get("v", 0)))
            words += [render_step(word, deck) for word in describe(game, names, kontra)]
        except RuleError:
            words.append(gettext("(not readable)"))
        text = ", ".join(word for word in words if word)
        declarer = state.get("declarer")
        if isinstance(declarer, int) and 0 <= declarer < len(names):
            text = f"{names[declarer]}: {text}"
    if state.get("deleted"):
        text += " " + gettext("(deleted)")
    return text


# The pairs that sit together again a seated series names; the rest it counts.
MET_AGAIN_NAMED = 5


def met_again_text(pairs: Sequence[tuple[str, str]]) -> str:
    """What a desk says of the ``pairs`` (by name) that a series seats together again, where the draw avoiding the
    pairings met before could not avoid them all."""
    named = ", ".join(f"{first} & {second}" for first, second in pairs[:MET_AGAIN_NAMED])
    more = len(pairs) - MET_AGAIN_NAMED
    text = ngettext(
        "%(count)s pair sits together again, as the draw could not avoid it: %(pairs)s.",
        "%(count)s pairs sit together again, as the draw could not avoid them all: %(pairs)s.",
        len(pairs),
    ) % {"count": len(pairs), "pairs": named}
    if more > 0:
        text += " " + ngettext("And %(count)s more.", "And %(count)s more.", more) % {"count": more}
    return text
