"""The API's resources, one module per subject: ``tokens``, ``players``, ``people`` (records and ranking lists),
``matches``, ``games`` and ``history``;
``common`` holds what they share. The addresses (``urls.py``) name them from here."""

from .games import GameListView, GameView, game_data
from .history import ChangeListView, Newest, RedoView, StepView, UndoView
from .matches import MatchListView, MatchView, match_data, seats_data
from .people import OwnRecordView, PersonRecordView, RankingListView, RankingPublishView, RankingView
from .players import PlayerListView, PlayerView
from .tokens import CurrentTokenView, TokenListView, TokenView

__all__ = [
    "ChangeListView",
    "CurrentTokenView",
    "GameListView",
    "GameView",
    "MatchListView",
    "MatchView",
    "Newest",
    "OwnRecordView",
    "PersonRecordView",
    "PlayerListView",
    "PlayerView",
    "RankingListView",
    "RankingPublishView",
    "RankingView",
    "RedoView",
    "StepView",
    "TokenListView",
    "TokenView",
    "UndoView",
    "game_data",
    "match_data",
    "seats_data",
]
