from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from ..permissions import public
from ..registry import app_api_routes
from . import resources
from .views import CalculateView, VariantListView

app_name = "api"

urlpatterns = [
    path("calculate/", public(CalculateView.as_view()), name="calculate"),
    path("variants/", public(VariantListView.as_view()), name="variants"),
    path("auth/token/", resources.TokenView.as_view(), name="token"),
    path("auth/tokens/", resources.TokenListView.as_view(), name="tokens"),
    path("auth/tokens/current/", resources.CurrentTokenView.as_view(), name="token_current"),
    path("players/", resources.PlayerListView.as_view(), name="players"),
    path("players/<uuid:player_id>/", resources.PlayerView.as_view(), name="player"),
    path("people/me/record/", resources.OwnRecordView.as_view(), name="own_record"),
    path("people/<uuid:person_id>/record/", resources.PersonRecordView.as_view(), name="person_record"),
    path("rankings/", resources.RankingListView.as_view(), name="rankings"),
    path("rankings/<uuid:ranking_id>/", resources.RankingView.as_view(), name="ranking"),
    path("rankings/<uuid:ranking_id>/publish/", resources.RankingPublishView.as_view(), name="ranking_publish"),
    path("matches/", resources.MatchListView.as_view(), name="matches"),
    path("matches/<uuid:match_id>/", resources.MatchView.as_view(), name="match"),
    path("matches/<uuid:match_id>/games/", resources.GameListView.as_view(), name="games"),
    path("matches/<uuid:match_id>/games/<uuid:game_id>/", resources.GameView.as_view(), name="game"),
    path("matches/<uuid:match_id>/undo/", resources.UndoView.as_view(), name="undo"),
    path("matches/<uuid:match_id>/redo/", resources.RedoView.as_view(), name="redo"),
    path("matches/<uuid:match_id>/changes/", resources.ChangeListView.as_view(), name="changes"),
    *app_api_routes(),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
