"""Who may do what in a league: the league's answers to the core's one policy (``matches.permissions``), registered
when the app is ready, and the questions a match day's pages ask.

The league's managers manage everything of it; a team's captain checks their team in and confirms its match
reports; the host club's secretaries (and owners) check in every team of their venue and seat its series; a club's
secretaries keep their teams' rosters. A league is public, as the federations publish their tables: everybody may
view it. The tables' phones score through their match's link, as at a club night: the core answers for that.
"""

from __future__ import annotations

from django.db.models import Q

from matches.clubs.models import Membership
from matches.clubs.permissions import CLUB_RUNNERS, runs_club
from matches.models import Keeper
from matches.permissions import Action, Role, Subject, Visitor, found_in

from .models import Group, League, LeagueManager, LeagueRole, MatchDay, Team, Venue


def league_role(visitor: Visitor, league: League) -> LeagueRole | None:
    """The role ``visitor`` holds at ``league``, if any."""
    if visitor.account is None:
        return None
    held = LeagueManager.objects.filter(league=league, user=visitor.account).values_list("role", flat=True).first()
    return LeagueRole(held) if held else None


def manages_league(visitor: Visitor, league: League) -> bool:
    return league_role(visitor, league) is not None


def league_book_role(visitor: Visitor, keeper: Keeper) -> Role:
    """What a person is at the matches and players of a league's book: its managers own them; the captains and the
    club secretaries of its teams see them; nobody else meets them there (``NOBODY`` for a book that is not a
    league's)."""
    account = visitor.account
    if account is None or keeper.user_id is not None or keeper.guest_key is not None:
        return Role.NOBODY
    if LeagueManager.objects.filter(league__keeper_id=keeper.pk, user=account).exists():
        return Role.OWNER
    teams = Team.objects.filter(group__division__league__keeper_id=keeper.pk)
    runs = Membership.objects.filter(user=account, role__in=CLUB_RUNNERS).values("club_id")
    if teams.filter(Q(captain=account) | Q(club_id__in=runs)).exists():
        return Role.SPECTATOR
    return Role.NOBODY


def runs_club_of(visitor: Visitor, club_id: int | None) -> bool:
    """Whether ``visitor`` is an owner or secretary of the club of that id."""
    return runs_club(visitor.account, club_id)


def captains(visitor: Visitor, team: Team) -> bool:
    return visitor.account is not None and team.captain_id == visitor.account.pk


def league_of_venue(venue: Venue) -> League:
    return venue.match_day.group.division.league


def hosts(visitor: Visitor, venue: Venue) -> bool:
    """Whether ``visitor`` runs the club hosting ``venue``."""
    return runs_club_of(visitor, venue.host_club_id)


def may_keep_roster(visitor: Visitor, team: Team) -> bool:
    """The league's managers and the team's club's owners and secretaries keep a team's roster and captain."""
    return manages_league(visitor, team.group.division.league) or runs_club_of(visitor, team.club_id)


def may_check_in(visitor: Visitor, venue: Venue, team: Team) -> bool:
    """The league's managers and the host's secretaries check in every team of the venue; a captain their own."""
    if not venue.teams.filter(team=team).exists():
        return False
    return manages_league(visitor, league_of_venue(venue)) or hosts(visitor, venue) or captains(visitor, team)


def may_seat(visitor: Visitor, venue: Venue) -> bool:
    """Seating a series, dropping an unplayed seating, entering a table's paper list and closing the venue: the
    league's managers and the host's secretaries."""
    return manages_league(visitor, league_of_venue(venue)) or hosts(visitor, venue)


def may_confirm(visitor: Visitor, venue: Venue, team: Team) -> bool:
    """Only a team's captain confirms the venue's report for it."""
    return captains(visitor, team) and venue.teams.filter(team=team).exists()


def may_accept(visitor: Visitor, venue: Venue) -> bool:
    """Accepting a report, and correcting one accepted: the league's managers."""
    return manages_league(visitor, league_of_venue(venue))


def _league_allows(visitor: Visitor, action: Action, league: League) -> bool:
    if action is Action.VIEW:
        return True
    role = league_role(visitor, league)
    # A whole league in one file, as a club's: its owner's, as giving roles is.
    if action in (Action.ROLES, Action.BACKUP):
        return role is LeagueRole.OWNER
    return role is not None and action in {Action.SCORE, Action.SHARE, Action.MANAGE}


def _group_allows(visitor: Visitor, action: Action, group: Group) -> bool:
    return _league_allows(visitor, action, group.division.league)


def _match_day_allows(visitor: Visitor, action: Action, match_day: MatchDay) -> bool:
    return _league_allows(visitor, action, match_day.group.division.league)


def _team_allows(visitor: Visitor, action: Action, team: Team) -> bool:
    if action is Action.VIEW:
        return True
    return action is Action.MANAGE and may_keep_roster(visitor, team)


def _venue_allows(visitor: Visitor, action: Action, venue: Venue) -> bool:
    """Everybody views a venue; scoring it (check-ins, seating, paper lists) is for the managers, the host's
    secretaries and the captains of its teams (each for their own team, as ``may_check_in`` says); managing it
    (accepting its report) for the managers."""
    if action is Action.VIEW:
        return True
    if action is Action.SCORE:
        return may_seat(visitor, venue) or (
            visitor.account is not None and venue.teams.filter(team__captain=visitor.account).exists()
        )
    return _league_allows(visitor, action, league_of_venue(venue))


# The league's things that a rule can be about, each answered by the roles held at its league, club or team.
LEAGUE_SUBJECTS: dict[str, Subject] = {
    "league": Subject(League, found_in(lambda: League.objects.all()), _league_allows),
    "group": Subject(Group, found_in(lambda: Group.objects.select_related("division__league")), _group_allows),
    "match_day": Subject(
        MatchDay, found_in(lambda: MatchDay.objects.select_related("group__division__league")), _match_day_allows
    ),
    "team": Subject(Team, found_in(lambda: Team.objects.select_related("group__division__league")), _team_allows),
    # A venue comes with the account that accepted its report, which its report names on the page, in print and in
    # the API.
    "venue": Subject(
        Venue,
        found_in(lambda: Venue.objects.select_related("match_day__group__division__league", "accepted_by")),
        _venue_allows,
    ),
}
