from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("deck/", views.set_deck, name="set_deck"),
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/<int:pk>/", views.match_detail, name="match_detail"),
    path("matches/<int:pk>/games/", views.game_create, name="game_create"),
    path("matches/<int:pk>/preview/", views.game_preview, name="game_preview"),
    path("matches/<int:pk>/pass/", views.game_pass, name="game_pass"),
    path("matches/<int:pk>/games/<int:game_pk>/edit/", views.game_edit_view, name="game_edit"),
    path("matches/<int:pk>/games/<int:game_pk>/delete/", views.game_delete_view, name="game_delete"),
    path("matches/<int:pk>/undo/", views.match_undo_view, name="match_undo"),
    path("matches/<int:pk>/history/", views.match_history, name="match_history"),
    path("join/<str:token>/", views.match_join, name="match_join"),
    path("watch/<str:token>/", views.match_spectate, name="match_spectate"),
    path("players/", views.player_list, name="player_list"),
    path("players/<int:pk>/", views.player_detail, name="player_detail"),
    path("players/<int:pk>/vs/<int:other_pk>/", views.player_versus, name="player_versus"),
]
