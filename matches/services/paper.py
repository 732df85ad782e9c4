"""A table's list kept on paper, for every kind of event: each player's totals (game points, games won, games lost)
entered instead of the games, checked for what a series can produce, and the list locked so that no game is entered
on top of them; or the totals taken back, and the list open to the phones again.

The event's app calls these inside its own change (under its event's lock, with its own refusals: a closed series, a
closed night) and says how many games its series has and whether its game points are the ISkO's game values; a list
entered at one of its tables goes through ``table_paper_enter``, which marks the table and moves the event on."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model

from ..engine import FieldError, RuleError
from ..engine.league import PaperLine as Paper
from ..engine.league import check_paper
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict, Invalid
from ..models import Game, Match, MatchEvent, PaperLine, Player
from .changes import lock_match, record_match_change
from .matches import match_lock, match_unlock
from .sharing import match_link_renew
from .tables import moved_on

# The most games a series has, and the most game points a player's list can show, as the forms and the API take them.
MAX_SERIES_GAMES = 96
MOST_GAME_POINTS = 100_000
# Each player's totals, in any order: a ``PaperTotals`` or a plain tuple of the four.
Lines = Sequence[tuple[Player, int, int, int]]
GAMES_ENTERED = gettext_noop("This table has games entered; its list is those games.")
ONE_LINE_A_SEAT = gettext_noop("One line for each player at the table.")
# The changes of a list that bear on its scoring link: its closings and reopenings, and the link's own changes.
LINK_CHANGES = (MatchEvent.Action.LOCK, MatchEvent.Action.UNLOCK, MatchEvent.Action.LINK)
TABLE_MOVED_ON = gettext_noop(
    "This table was changed while you had this form open; your list was not entered. Look at its list as it stands "
    "now, then send yours again if it is the right one."
)


class TableVersion(NamedTuple):
    """A table as a paper-list form was made out on it: its match (public id), its players in seat order (public
    ids) and the match's version. A redrawn table is another match, whose version starts where the old one's did:
    the version alone does not tell them apart."""

    match: str
    players: tuple[str, ...]
    version: int


def table_version(match: Match) -> TableVersion:
    """``match``'s table as it stands, for a form to be made out on and a list sent from one to be checked against."""
    seated = match.seats.order_by("position").values_list("player__public_id", flat=True)
    return TableVersion(str(match.public_id), tuple(str(player) for player in seated), match.version)


class PaperMoved(Conflict):
    """A paper list sent from a form made out before the table changed (another list entered, the list taken back to
    the phones, two seats swapped, the series drawn again): entering it would replace a list its sender did not see,
    or give a player another's totals. ``version``: the match's version now, for the form made out anew."""

    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__([FieldError("match", msg(TABLE_MOVED_ON))])


class PaperTotals(NamedTuple):
    """A player's totals as the paper list wrote them (a plain tuple of the four will do)."""

    player: Player
    game_points: int
    won: int
    lost: int


def paper_check(*, match: Match, lines: Lines, games: int | None, skat_values: bool) -> None:
    """Refuse a table's paper list (``Invalid``) that is not one line for each player seated at ``match``, or whose
    totals no series of ``games`` games can produce (with ``skat_values``: no legal ISkO game values reach the game
    points); the paper-list pages, the API and a restored backup all check it here."""
    seated = set(match.seats.values_list("player_id", flat=True))
    if {player.pk for player, *_ in lines} != seated or len(lines) != len(seated):
        raise Invalid([FieldError("lines", msg(ONE_LINE_A_SEAT))])
    paper = [Paper(str(player.public_id), points, won, lost) for player, points, won, lost in lines]
    try:
        check_paper(paper, games=games, skat_values=skat_values)
    except RuleError as error:
        raise Invalid.from_rules(error) from error


def paper_enter(
    *,
    match: Match,
    lines: Lines,
    games: int | None,
    skat_values: bool,
    user: User | None,
    version: TableVersion | None = None,
) -> None:
    """Enter ``match``'s list from paper: refused while it has games entered, checked (``paper_check``), replacing
    totals entered before, the list before and after kept in the match's history; then the list is locked (the
    phones learn at once that it takes no games) and its scoring link turned off, its co-scorers scoring it no longer
    (``match_lock`` with ``end_scoring``). ``version`` is the table the form was made out on: if it is not ``match``
    with the same players in the same seats at the same version (a form for a table drawn again, or whose seats or
    list changed since), another list is not entered over the one its sender did not see, nor a player given
    another's totals (``PaperMoved``); the list it holds already (the same form sent twice) is no conflict."""
    with transaction.atomic():
        locked = lock_match(match.pk)
        if Game.objects.filter(match=locked, deleted=False).exists():
            raise Conflict.about_match(msg(GAMES_ENTERED))
        before = _kept(PaperLine.objects.filter(match=locked).select_related("player"))
        written = [
            PaperLine(match=locked, player=player, game_points=points, won=won, lost=lost)
            for player, points, won, lost in lines
        ]
        after = _kept(written)
        changed = _sorted(before) != _sorted(after)
        if changed and version is not None and version != table_version(locked):
            raise PaperMoved(locked.version)
        paper_check(match=locked, lines=lines, games=games, skat_values=skat_values)
        # The same list again (a form sent twice) changes nothing and writes no history.
        if changed:
            PaperLine.objects.filter(match=locked).delete()
            PaperLine.objects.bulk_create(written)
            record_match_change(locked, MatchEvent.Action.PAPER, user, before=before, after=after)
        # Its scoring link ends with it: the core keeps the link turned off, for the page a phone that opens it gets.
        match_lock(match=locked, user=user, end_scoring=True, paper=True)


def table_paper_enter(
    *,
    table: Model,
    event: Model,
    lines: Lines,
    games: int | None,
    skat_values: bool,
    user: User | None,
    version: TableVersion | None = None,
) -> None:
    """Enter the paper list of ``table``, a table row of ``event`` (its ``match``, and ``paper``: kept on paper), as
    each player's totals (game points, won, lost): inside the kind's change, under its event's lock and after its own
    refusals, the row locked, its match's list entered by ``paper_enter`` (checked for what a series of ``games`` can
    produce, replacing totals entered before unless the match moved on since ``version``; a table with games entered
    keeps its games), the table marked as kept on paper (it takes no games afterwards) and the event moved on."""
    # Django's documented manager for code that handles a model it does not know (every kind's table).
    rows = type(table)._default_manager.filter(pk=table.pk)
    with transaction.atomic():
        match_id = rows.select_for_update().values_list("match_id", flat=True).first()
        if match_id is None:  # the table was drawn anew (or its series dropped) since the list was read
            raise Conflict.on(
                "table", gettext_noop("This table is no longer drawn: its series was dropped or drawn anew.")
            )
        match = Match.objects.get(pk=match_id)
        # The table's list is its paper totals now: no game is entered on top of them (the phones learn at once).
        paper_enter(match=match, lines=lines, games=games, skat_values=skat_values, user=user, version=version)
        rows.update(paper=True)
        moved_on(event)


def paper_to_phones(*, match: Match, user: User | None) -> list[PaperTotals]:
    """Take ``match``'s paper totals back (kept in the match's history) and open its list to the phones again (its
    scoring link on: the one its paper list turned off, so that the table's QR card and the link its players have
    score again; a new one if the link was off before, turned off by hand or by a closing event, or if an event was
    closed since, as every other table's link stays off after it); answers the totals it had, for the event's own
    history."""
    with transaction.atomic():
        locked = lock_match(match.pk)
        link = _link_paper_ended(locked)
        lines = list(PaperLine.objects.filter(match=locked).select_related("player"))
        taken = [PaperTotals(line.player, line.game_points, line.won, line.lost) for line in lines]
        if lines:
            PaperLine.objects.filter(match=locked).delete()
            record_match_change(locked, MatchEvent.Action.PAPER, user, before=_kept(lines), after=_kept([]))
        match_unlock(match=locked, user=user)
        if Match.objects.filter(pk=locked.pk, invite_token__isnull=True).exists():
            match_link_renew(match=locked, link="invite", user=user, address=link)
    return taken


def paper_restore(*, match: Match, lines: Lines, games: int | None, skat_values: bool) -> None:
    """Write a restored table's paper totals as the backup kept them, checked as when they were entered; the match
    was restored locked, as it was kept."""
    paper_check(match=match, lines=lines, games=games, skat_values=skat_values)
    PaperLine.objects.bulk_create(
        PaperLine(match=match, player=player, game_points=points, won=won, lost=lost)
        for player, points, won, lost in lines
    )


def _link_paper_ended(match: Match) -> str | None:
    """The scoring link that ``match``'s paper list turned off (kept as its ended link), where nothing turned the
    link on, off or anew since: the last of the list's closings, reopenings and link changes is the closing that
    turned it off. None where the link was off when the list was entered (turned off by hand, a closing event's and
    kept off on reopening), or where an event closed the list since (its closing recorded on the list on paper,
    reopened or not): that one stays off."""
    last = (
        MatchEvent.objects.filter(match=match, action__in=LINK_CHANGES)
        .order_by("-version", "-pk")
        .values_list("action", "before", "after")
        .first()
    )
    if last is None or not match.ended_link:
        return None
    action, before, after = last
    turned_off = (before or {}).get("link") is True and (after or {}).get("link") is False
    return match.ended_link if action == MatchEvent.Action.LOCK and turned_off else None


def _kept(lines: Iterable[PaperLine]) -> dict[str, list[dict[str, Any]]]:
    """A paper list as the match's history keeps it, before and after a change: each player (by public id, in the
    order of the list) with their totals; an empty list for none."""
    return {
        "paper": [
            {"player": str(line.player.public_id), "game_points": line.game_points, "won": line.won, "lost": line.lost}
            for line in lines
        ]
    }


def _sorted(kept: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return sorted(kept["paper"], key=lambda line: line["player"])
