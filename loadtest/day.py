"""A federation's match day, seeded through the services for the load test: groups of four venues, each venue's
first series seated at four tables of four (and two games entered at each, as the benchmarks' match day has them);
beside it a club night of two tables and an open tournament whose third series is being played. What the load's
users need of it is written as a plan (``Plan``): every table's scoring link and match, the public pages, and a
signed-in session for each venue's captain."""

from __future__ import annotations

import datetime
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse

from bench.leagues import seed_league_day
from bench.tournaments import seed_tournament
from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.models import Match
from matches.tournaments.models import Table

VENUES_IN_A_GROUP = 4
CLUB_NIGHT_PLAYERS = 8
TOURNAMENT_PLAYERS = 36
NIGHT = datetime.date(2026, 9, 5)


@dataclass
class Plan:
    """What the load's users ask: each table (its kind, scoring link and match), the public pages by kind, and the
    captains' sessions (one a venue)."""

    tables: list[dict[str, str]] = field(default_factory=list)
    pages: dict[str, list[str]] = field(default_factory=dict)
    venues: list[str] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self)))


def _table(kind: str, match: Match) -> dict[str, str]:
    return {"kind": kind, "join": reverse("match_join", args=[match.invite_token]), "match": str(match.public_id)}


def _session(user: User) -> str:
    """A signed-in session of ``user``, as logging in makes one."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "matches.backends.AccountBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


def seed_day(venues: int) -> Plan:
    """The match day at ``venues`` venues (in groups of four), the club night and the tournament."""
    owner = User.objects.create_user("federation", password=None)
    plan = Plan(pages={"group": [], "venue": [], "screen": [], "live": [], "club screen": []})
    groups = [VENUES_IN_A_GROUP] * (venues // VENUES_IN_A_GROUP) + ([venues % VENUES_IN_A_GROUP] * bool(venues % 4))
    for number, count in enumerate(groups, start=1):
        day = seed_league_day(owner, f"Liga {number}", count)
        plan.pages["group"].append(reverse("interclub_group", args=[day.group.public_id]))
        for venue in day.venues:
            plan.venues.append(reverse("interclub_venue", args=[venue.public_id]))
            plan.pages["venue"].append(reverse("interclub_venue", args=[venue.public_id]))
            plan.pages["screen"].append(reverse("interclub_venue_screen", args=[venue.public_id]))
            captain = User.objects.create_user(f"captain-{len(plan.sessions) + 1}", password=None)
            plan.sessions.append(_session(captain))
        plan.tables += [_table("league", table.match) for table in day.tables]

    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=NIGHT)
    for number in range(1, CLUB_NIGHT_PLAYERS + 1):
        clubs.check_in(night=night, name=f"Mitglied {number}")
    clubs.night_draw(night=night, series=1, user=owner)
    plan.tables += [
        _table("club", table.match) for table in ClubTable.objects.filter(night=night).select_related("match")
    ]
    club = clubs.club_screen_link(club=club)
    plan.pages["club screen"].append(reverse("club_screen", args=[club.screen_token]))

    tournament = seed_tournament(owner, "Offenes Turnier", TOURNAMENT_PLAYERS).tournament
    playing = Table.objects.filter(series__tournament=tournament, match__locked=False).select_related("match")
    plan.tables += [_table("tournament", table.match) for table in playing]
    plan.pages["live"].append(reverse("tournaments:live", args=[tournament.public_id]))
    return plan
