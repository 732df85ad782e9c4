"""Every write of a league: the league, its divisions, groups and teams, rosters, match days and venues, the
check-ins of a series, its seating, paper lists, closing a venue, and its report confirmed, accepted and corrected.

Each table of a venue is started through the core's ``table_match`` in the league's book and locked, unlocked and
discarded through the core's services, so a league's match is checked like any other; games at the tables are
entered through the core's game services, which refuse every change to a locked list. Every refusal is a
``ServiceError`` naming the field that is wrong, raised before anything is written, so nothing is stored halfway.

One module per subject: ``league`` (its divisions, groups and managers), ``teams`` (and rosters), ``venues`` (and
match days), ``check_in``, ``seating`` (and the tables) and ``closing`` (a venue and its report); ``common`` holds what
they share (the league's and a venue's locks, the checks of a series and of a player of another club). What the
pages, the API, the backup and the other apps call is named here.
"""

from .check_in import series_check_in
from .closing import (
    group_standings_rescore,
    report_accept,
    report_confirm,
    venue_close,
    venue_kept_results_rescore,
    venue_reopen,
    venue_results_rescore,
)
from .common import MAX_SERIES, MIN_SERIES
from .league import (
    LEAGUE_SCHEME,
    LEAGUE_VARIANT,
    LeagueSettings,
    division_create,
    group_create,
    league_create,
    league_manager_set,
    league_managers_leave,
)
from .seating import series_seat, series_unseat, table_paper_enter
from .teams import roster_add, roster_remove, team_captain_set, team_enter
from .venues import match_day_create, venue_create, venue_team_add

__all__ = [
    "LEAGUE_SCHEME",
    "LEAGUE_VARIANT",
    "MAX_SERIES",
    "MIN_SERIES",
    "LeagueSettings",
    "division_create",
    "group_create",
    "group_standings_rescore",
    "league_create",
    "league_manager_set",
    "league_managers_leave",
    "match_day_create",
    "report_accept",
    "report_confirm",
    "roster_add",
    "roster_remove",
    "series_check_in",
    "series_seat",
    "series_unseat",
    "table_paper_enter",
    "team_captain_set",
    "team_enter",
    "venue_close",
    "venue_create",
    "venue_kept_results_rescore",
    "venue_reopen",
    "venue_results_rescore",
    "venue_team_add",
]
