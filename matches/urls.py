from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("deck/", views.set_deck, name="set_deck"),
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/<uuid:match_id>/", views.match_detail, name="match_detail"),
    path("matches/<uuid:match_id>/list/", views.match_games, name="match_games"),
    path("matches/<uuid:match_id>/chart.svg", views.match_chart_svg, name="match_chart"),
    path("matches/<uuid:match_id>/games/", views.game_create, name="game_create"),
    path("matches/<uuid:match_id>/preview/", views.game_preview, name="game_preview"),
    path("matches/<uuid:match_id>/pass/", views.game_pass, name="game_pass"),
    path("matches/<uuid:match_id>/games/<uuid:game_id>/edit/", views.game_edit_view, name="game_edit"),
    path("matches/<uuid:match_id>/games/<uuid:game_id>/delete/", views.game_delete_view, name="game_delete"),
    path("matches/<uuid:match_id>/undo/", views.match_undo_view, name="match_undo"),
    path("matches/<uuid:match_id>/redo/", views.match_redo_view, name="match_redo"),
    path("matches/<uuid:match_id>/history/", views.match_history, name="match_history"),
    path("matches/<uuid:match_id>/links/", views.match_links, name="match_links"),
    path("matches/<uuid:match_id>/scorers/", views.match_scorer_remove_view, name="match_scorer_remove"),
    path("join/<str:token>/", views.match_join, name="match_join"),
    path("watch/<str:token>/", views.match_spectate, name="match_spectate"),
    path("watch/<str:token>/chart.svg", views.match_spectate_chart, name="match_spectate_chart"),
    path("watch/<str:token>/list/", views.match_spectate_games, name="match_spectate_games"),
    path("players/", views.player_list, name="player_list"),
    path("players/me/", views.player_me, name="player_me"),
    path("players/<uuid:player_id>/", views.player_detail, name="player_detail"),
    path("players/<uuid:player_id>/vs/<uuid:other_id>/", views.player_versus, name="player_versus"),
    path("players/<uuid:player_id>/link/", views.player_link_view, name="player_link"),
    path("players/<uuid:player_id>/merge/", views.player_merge_view, name="player_merge"),
    path("claim/<str:token>/", views.player_claim_view, name="player_claim"),
]
