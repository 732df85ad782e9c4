"""The core's pages, one module per subject: ``matches`` (the home page, starting a match, the match page and its
files), ``games`` (entering, fixing and deleting games, undo and redo), ``history``, ``sharing`` (invite and
spectators' links, co-scorers), ``players``, ``member_imports`` (a member list's numbers brought into a book) and
``accounts`` (signing up, a guest's matches taken along, the reader's preferences); ``common`` holds what they share.
The addresses (``urls.py``) name the views from here."""

from .accounts import preferences, set_deck, signup, take_along
from .games import (
    game_create,
    game_delete_view,
    game_edit_view,
    game_fix_preview,
    game_pass,
    game_preview,
    match_redo_view,
    match_undo_view,
)
from .history import match_history
from .matches import (
    home,
    match_chart_svg,
    match_detail,
    match_export,
    match_follow,
    match_games,
    match_new,
    match_picture_png,
    match_print,
    match_share,
)
from .member_imports import (
    member_import_apply_view,
    member_import_discard_view,
    member_import_page,
    member_import_undo_view,
    member_imports,
)
from .people import (
    person_chart,
    person_detail,
    player_join_undo,
    player_me,
    player_me_chart,
    player_me_joins,
    player_me_record,
    player_me_shown,
    player_number,
)
from .players import (
    player_claim_view,
    player_detail,
    player_export,
    player_link_view,
    player_list,
    player_merge_view,
    player_versus,
)
from .rankings import ranking_delete_view, ranking_detail, ranking_edit, ranking_list, ranking_publish_view
from .sharing import (
    match_join,
    match_links,
    match_scorer_remove_view,
    match_spectate,
    match_spectate_chart,
    match_spectate_games,
)

__all__ = [
    "game_create",
    "game_delete_view",
    "game_edit_view",
    "game_fix_preview",
    "game_pass",
    "game_preview",
    "home",
    "match_chart_svg",
    "match_detail",
    "match_export",
    "match_follow",
    "match_games",
    "match_history",
    "match_join",
    "match_links",
    "match_new",
    "match_picture_png",
    "match_print",
    "match_redo_view",
    "match_scorer_remove_view",
    "match_share",
    "match_spectate",
    "match_spectate_chart",
    "match_spectate_games",
    "match_undo_view",
    "member_import_apply_view",
    "member_import_discard_view",
    "member_import_page",
    "member_import_undo_view",
    "member_imports",
    "person_chart",
    "person_detail",
    "player_claim_view",
    "player_detail",
    "player_export",
    "player_join_undo",
    "player_link_view",
    "player_list",
    "player_me",
    "player_me_chart",
    "player_me_joins",
    "player_me_record",
    "player_me_shown",
    "player_merge_view",
    "player_number",
    "player_versus",
    "preferences",
    "ranking_delete_view",
    "ranking_detail",
    "ranking_edit",
    "ranking_list",
    "ranking_publish_view",
    "set_deck",
    "signup",
    "take_along",
]
