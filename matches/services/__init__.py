"""Every write, in one protocol: each change runs in one transaction under its match's lock, answers a retried token
first (before anything is checked, so a retry racing its first post gets the first answer), then checks the version
the request was made on, lets the engine decide, writes only the rows whose values change, records a ``MatchEvent``
and bumps the match's version. Every failure is a ``ServiceError`` (see ``errors.py``).

One module per subject: ``games``, ``matches``, ``sharing``, ``players``, ``books``; ``changes`` holds the protocol
they share. What the pages, the API and the apps on the core call is named here.
"""

from .books import guest_keeper, guest_keeper_drop, keeper_claim, keeper_for
from .changes import (
    DERIVED,
    GameGone,
    ListClosed,
    MatchConflict,
    StaleSubmission,
    game_derive,
    game_score_rows,
    join_messages,
)
from .closed_lists import closed_lists_report, closed_lists_rescore, record_months_rescore
from .games import (
    Added,
    Stepped,
    Submission,
    game_add,
    game_delete,
    game_edit,
    game_replay,
    match_redo,
    match_step,
    match_undo,
)
from .matches import (
    MAX_TITLE_LENGTH,
    ListPlayed,
    RescoreReport,
    SeatsKept,
    Started,
    account_matches_release,
    check_new_match,
    match_create,
    match_delete,
    match_discard,
    match_hand_over,
    match_lock,
    match_rescore,
    match_reseat,
    match_retitle,
    match_unlock,
)
from .paper import PaperTotals, TableVersion, paper_check, paper_enter, paper_restore, paper_to_phones
from .players import (
    check_player_names,
    player_claim,
    player_link,
    player_link_invite,
    player_merge,
    player_named,
    player_unlink,
)
from .sharing import match_link_renew, match_links_claim, match_scorer_join, match_scorer_remove

__all__ = [
    "DERIVED",
    "MAX_TITLE_LENGTH",
    "Added",
    "GameGone",
    "ListClosed",
    "ListPlayed",
    "MatchConflict",
    "PaperTotals",
    "RescoreReport",
    "SeatsKept",
    "StaleSubmission",
    "Started",
    "Stepped",
    "Submission",
    "TableVersion",
    "account_matches_release",
    "check_new_match",
    "check_player_names",
    "closed_lists_report",
    "closed_lists_rescore",
    "game_add",
    "game_delete",
    "game_derive",
    "game_edit",
    "game_replay",
    "game_score_rows",
    "guest_keeper",
    "guest_keeper_drop",
    "join_messages",
    "keeper_claim",
    "keeper_for",
    "match_create",
    "match_delete",
    "match_discard",
    "match_hand_over",
    "match_link_renew",
    "match_links_claim",
    "match_lock",
    "match_redo",
    "match_rescore",
    "match_reseat",
    "match_retitle",
    "match_scorer_join",
    "match_scorer_remove",
    "match_step",
    "match_undo",
    "match_unlock",
    "paper_check",
    "paper_enter",
    "paper_restore",
    "paper_to_phones",
    "player_claim",
    "player_link",
    "player_link_invite",
    "player_merge",
    "player_named",
    "player_unlink",
    "record_months_rescore",
]
