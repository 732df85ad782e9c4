"""Teams and rosters: a club's team in a group, its captain, and the players on its roster or substitution list,
each playing for one club in the league."""

from __future__ import annotations

import contextlib

from django.contrib.auth.models import User
from django.db import transaction

from matches.clubs.models import Club
from matches.clubs.permissions import runs_club
from matches.engine import FieldError
from matches.engine.messages import gettext_noop
from matches.errors import Conflict, Invalid
from matches.models import Player
from matches.names import BadName, name_key, normalize_name
from matches.services import player_named
from matches.services.events import bracketed_name, one_line_name
from matches.services.people import checked_federation_number, join_number, join_roster, roster_unpaired

from ..models import CheckIn, FormerPlayer, Group, League, RosterEntry, Team
from .common import entered_elsewhere, league_of_group, lock_league, named_already, other_club_refusal, same_number


def team_enter(*, group: Group, club: Club, name: str, captain: User | None = None) -> Team:
    """A club's team in a group ("Team I"), with its captain; refused where the group has a team of that name, in
    capitals or small letters alike."""
    name = one_line_name(name)
    with transaction.atomic():
        lock_league(league_of_group(group))
        if named_already(Team.objects.filter(group=group).values_list("name", flat=True), name):
            raise Invalid.on("name", gettext_noop("The group has a team of that name already."))
        return Team.objects.create(group=group, club=club, name=name, captain=captain)


def team_captain_set(*, team: Team, captain: User | None) -> Team:
    Team.objects.filter(pk=team.pk).update(captain=captain)
    team.captain = captain
    return team


def _league_player(league: League, club: Club, player: Player) -> Player:
    """Who ``player`` of ``club`` is in the league's book: the one their club's other teams have, the one they were
    when taken off the league's rosters, or a new one, named so that nobody else in the book has the name (the
    club's name added in brackets where two people of one name meet), since the core seats a table's players by
    name."""
    known = RosterEntry.objects.filter(team__group__division__league=league, player=player).first()
    if known is not None:
        return known.league_player
    former = FormerPlayer.objects.filter(league=league, player=player).select_related("league_player").first()
    if former is not None:
        return former.league_player
    taken = set(Player.objects.filter(keeper=league.keeper).values_list("name_key", flat=True))
    name = player.name
    if name_key(name) in taken:
        name = bracketed_name(player.name, club.name)
    number = 2
    while name_key(name) in taken:
        name = bracketed_name(player.name, f"{club.name} {number}")
        number += 1
    try:
        name = normalize_name(name)
    except BadName as bad:
        raise Invalid([FieldError("player", bad.message)]) from None
    return player_named(league.keeper, name)


NUMBER_OF_OTHER_CLUB = gettext_noop(
    "{number} is the federation number of {player}, on the roster of {team} ({club}): a player plays for one club in "
    "a league."
)
NUMBER_OF_OTHER_PLAYER = gettext_noop(
    "{number} is the federation number of {player}, on the roster of {team}: a number stands for one player."
)


def _number_holder(league: League, player: Player, number: str) -> RosterEntry | None:
    """The roster entry of another player of the league, of any club, that holds the federation number ``number``,
    however written."""
    if not number:
        return None
    return (
        RosterEntry.objects.filter(same_number(number), team__group__division__league=league)
        .exclude(player=player)
        .select_related("player", "team__club")
        .first()
    )


def roster_add(
    *, team: Team, player: Player, federation_number: str = "", substitute: bool = False, by: User | None = None
) -> RosterEntry:
    """Put a player of the team's club on its roster (or its substitution list); a player on it already stays as
    entered. Refused for somebody on the roster of another club's team in the league (known by the federation
    number or a linked account): a player plays for one club in a league; and for a number another player of the
    team's own club holds: a number stands for one player. Numbers are compared by their letters and digits
    (``same_number``) and kept as written. Where ``by`` runs the club, the roster
    says that its player and the league's are one person (``join_roster``): only the club's own people say who
    its players are."""
    if player.keeper_id != team.club.keeper_id:
        raise Invalid.on("player", gettext_noop("Not a player of this club."))
    number = checked_federation_number(federation_number)
    league = league_of_group(team.group)
    with transaction.atomic():
        lock_league(league)
        entered = RosterEntry.objects.filter(team=team, player=player).first()
        if entered is not None:
            if runs_club(by, team.club_id):
                with contextlib.suppress(Conflict):
                    join_roster(player=player, league_player=entered.league_player)
            return entered
        holder = _number_holder(league, player, number)
        if holder is not None:
            # Of another club, the player would play for two; of the team's own, the number would stand for two.
            raise Invalid.on(
                "federation_number",
                NUMBER_OF_OTHER_CLUB if holder.team.club_id != team.club_id else NUMBER_OF_OTHER_PLAYER,
                number=holder.federation_number,
                player=holder.player.name,
                team=holder.team.name,
                club=holder.team.club.name,
            )
        other = entered_elsewhere(league, team.club_id, player, number)
        if other is not None:
            raise other_club_refusal(player.name, other, "player")
        entry = RosterEntry.objects.create(
            team=team,
            player=player,
            league_player=_league_player(league, team.club, player),
            federation_number=number,
            substitute=substitute,
        )
        # The roster says who the league's player is, and its number whom else they are, where they may be joined
        # (``matches.services.people``: a number a person with an account holds is theirs to prove, with a code).
        if runs_club(by, team.club_id):
            with contextlib.suppress(Conflict):
                join_roster(player=player, league_player=entry.league_player)
        if number:
            with contextlib.suppress(Conflict):
                join_number(player=entry.league_player, number=number)
        return entry


def roster_remove(*, entry: RosterEntry) -> None:
    """Take a player off a team's roster, unless they have been checked in for it: what was played stays with
    who played it. Taken off the last roster of the league, the league keeps who they were in its book
    (``FormerPlayer``), for when they are put on again."""
    with transaction.atomic():
        league = lock_league(league_of_group(entry.team.group))
        if CheckIn.objects.filter(entry=entry).exists():
            raise Conflict.on(
                "entry",
                gettext_noop("{player} has played for {team}: the roster keeps them."),
                player=entry.player.name,
                team=entry.team.name,
            )
        entry.delete()
        if not RosterEntry.objects.filter(team__group__division__league=league, player=entry.player_id).exists():
            FormerPlayer.objects.update_or_create(
                league=league, player=entry.player, defaults={"league_player": entry.league_player}
            )
        if not RosterEntry.objects.filter(player=entry.player_id, league_player=entry.league_player_id).exists():
            roster_unpaired(player=entry.player, league_player=entry.league_player)
