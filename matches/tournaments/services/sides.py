"""Tandems and teams: a side entered in its ranking, for its fee, until the first series is drawn."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from matches.engine import RuleError
from matches.engine.messages import gettext_noop
from matches.engine.tournaments import Entrant, check_entrants
from matches.engine.tournaments import Side as SideRule
from matches.errors import Conflict, Invalid
from matches.services.events import one_line_name, one_of
from matches.services.tables import moved_on

from ..models import Entry, Series, Side, SideKind, SideMember, Tournament
from .common import lock_tournament


def side_enter(*, tournament: Tournament, kind: str, name: str, entries: Sequence[Entry]) -> Side:
    """A tandem (two entrants) or a team (four) entered in its side ranking for its fee, until the first series is
    drawn. Refused for the wrong number of players, a player in two tandems or two teams, a name taken, and a
    player who has not entered (or withdrew)."""
    one_of(kind, SideKind, "kind")
    name = one_line_name(name)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if Series.objects.filter(tournament=locked).exists():
            raise Conflict.on("name", gettext_noop("Series 1 is drawn: entries are closed."))
        present = {one.pk: one for one in Entry.objects.filter(tournament=locked, withdrawn_after__isnull=True)}
        sides = [
            SideRule(
                side.name,
                tuple(member.entry.player.name for member in side.members.select_related("entry__player")),
            )
            for side in Side.objects.filter(tournament=locked, kind=kind)
        ]
        stranger = next((entry for entry in entries if entry.tournament_id != locked.pk), None)
        if stranger is not None:
            raise Invalid.on(
                "entries", gettext_noop("{player} has not entered the tournament."), player=stranger.player.name
            )
        new = SideRule(name, tuple(entry.player.name for entry in entries))
        entrants = [Entrant(one.player.name) for one in present.values()]
        try:
            if kind == SideKind.TANDEM:
                check_entrants(entrants, tandems=[*sides, new])
            else:
                check_entrants(entrants, teams=[*sides, new])
        except RuleError as error:
            raise Invalid.from_rules(error) from error
        side = Side.objects.create(tournament=locked, kind=kind, name=name)
        SideMember.objects.bulk_create(
            SideMember(side=side, entry=entry, kind=kind, position=position) for position, entry in enumerate(entries)
        )
        moved_on(locked)
        return side
