"""Every write of an open tournament: announcing it, entries online and at the door, payments, withdrawals, the
tandems and teams of its side rankings, drawing a series, a table's paper list and closing a series.

Each table of a series is started through the core's ``table_match`` in the tournament's book and locked through
the core's ``match_lock``, so a tournament's match is checked like any other; games at the tables are entered
through the core's game services, which refuse every change to a locked list. Every change locks the tournament's
row first, so two draws (or an entry and a draw) wait for each other, and moves its version on. Every refusal is a
``ServiceError`` naming the field that is wrong, raised before anything is written, so nothing is stored halfway.

One module per subject: ``announcing``, ``entries``, ``sides`` (tandems and teams), ``drawing`` (a series) and
``closing`` (paper lists and closing a series); ``common`` holds what they share (the tournament's lock and the
checks of a text and a choice). What the pages, the API, the backup and the other apps call is named here.
"""

from .announcing import (
    TOURNAMENT_SCHEME,
    TOURNAMENT_VARIANT,
    Schedule,
    TournamentSettings,
    tournament_announce,
    tournament_hand_over,
    tournaments_organised_leave,
)
from .closing import (
    series_close,
    series_lists_rescore,
    series_lists_summed,
    standings_kept,
    table_paper_enter,
    tournament_standings_rescore,
)
from .common import MAX_TEXT_LENGTH
from .drawing import series_draw
from .entries import (
    EntryForm,
    entry_at_door,
    entry_claim,
    entry_pay,
    entry_payment_take_back,
    entry_register_online,
    entry_withdraw,
)
from .sides import side_enter

__all__ = [
    "MAX_TEXT_LENGTH",
    "TOURNAMENT_SCHEME",
    "TOURNAMENT_VARIANT",
    "EntryForm",
    "Schedule",
    "TournamentSettings",
    "entry_at_door",
    "entry_claim",
    "entry_pay",
    "entry_payment_take_back",
    "entry_register_online",
    "entry_withdraw",
    "series_close",
    "series_draw",
    "series_lists_rescore",
    "series_lists_summed",
    "side_enter",
    "standings_kept",
    "table_paper_enter",
    "tournament_announce",
    "tournament_hand_over",
    "tournament_standings_rescore",
    "tournaments_organised_leave",
]
