"""Every write of a club: members, players, seasons, nights, check-in, the draw, paper lists, closing and reopening.

Each table of a night is started through the core's ``table_match``, so a club's match is checked like any other;
games at the tables are entered through the core's game services, which refuse every change to a closed list.

One module per subject: ``clubs`` (a club and its members), ``seasons``, ``nights`` (check-in, the draw, paper
lists, closing and the sums kept) and ``corrections`` (a secretary's); ``common`` holds what they share (the
night's lock, the dates a night may have). What the pages, the API, the backup and the other apps call is named here.
"""

from .clubs import club_create, club_player_add, club_screen_link, member_remove, member_set, roster_set
from .common import EARLIEST_NIGHT, NIGHT_DAYS_AHEAD, night_dates
from .corrections import night_redate, night_remove, paper_to_phones, series_drop
from .nights import (
    MAX_SERIES,
    Seating,
    check_in,
    check_out,
    night_close,
    night_create,
    night_draw,
    night_reopen,
    night_standings_rescore,
    paper_enter,
    paper_rules,
    pot_set,
    season_standings_rescore,
    seats_swap,
    table_short,
)
from .seasons import FIXED_ONCE_DRAWN, SeasonSettings, season_create, season_drawn, season_update

__all__ = [
    "EARLIEST_NIGHT",
    "FIXED_ONCE_DRAWN",
    "MAX_SERIES",
    "NIGHT_DAYS_AHEAD",
    "SeasonSettings",
    "Seating",
    "check_in",
    "check_out",
    "club_create",
    "club_player_add",
    "club_screen_link",
    "member_remove",
    "member_set",
    "night_close",
    "night_create",
    "night_dates",
    "night_draw",
    "night_redate",
    "night_remove",
    "night_reopen",
    "night_standings_rescore",
    "paper_enter",
    "paper_rules",
    "paper_to_phones",
    "pot_set",
    "roster_set",
    "season_create",
    "season_drawn",
    "season_standings_rescore",
    "season_update",
    "seats_swap",
    "series_drop",
    "table_short",
]
