from django.urls import path

from . import views

urlpatterns = [
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/<uuid:club_id>/", views.club_detail, name="club_detail"),
    path("clubs/<uuid:club_id>/members/", views.club_member, name="club_member"),
    path("clubs/<uuid:club_id>/players/", views.club_player, name="club_player"),
    path("clubs/<uuid:club_id>/screen/", views.club_screen_link, name="club_screen_link"),
    path("clubs/<uuid:club_id>/backup/", views.club_backup_download, name="club_backup"),
    path("clubs/<uuid:club_id>/roster/", views.club_roster, name="club_roster"),
    path("clubs/<uuid:club_id>/seasons/new/", views.season_new, name="season_new"),
    path("seasons/<uuid:season_id>/", views.season_detail, name="season_detail"),
    path("seasons/<uuid:season_id>/edit/", views.season_edit, name="season_edit"),
    path("seasons/<uuid:season_id>/nights/", views.night_new, name="night_new"),
    path("seasons/<uuid:season_id>/players/<uuid:member_id>/", views.season_player, name="season_player"),
    path("nights/<uuid:night_id>/", views.night_detail, name="night_detail"),
    path("nights/<uuid:night_id>/follow/", views.night_follow, name="night_follow"),
    path("nights/<uuid:night_id>/results.png", views.night_picture_png, name="night_picture"),
    path("nights/<uuid:night_id>/lists.pdf", views.night_lists, name="night_lists"),
    path("nights/<uuid:night_id>/check-in/", views.night_check_in, name="night_check_in"),
    path("nights/<uuid:night_id>/pot/", views.night_pot, name="night_pot"),
    path("nights/<uuid:night_id>/draw/", views.night_draw, name="night_draw"),
    path("nights/<uuid:night_id>/swap/", views.night_swap, name="night_swap"),
    path("nights/<uuid:night_id>/tables/<int:number>/paper/", views.night_paper, name="night_paper"),
    path("nights/<uuid:night_id>/close/", views.night_close, name="night_close"),
    path("nights/<uuid:night_id>/edit/", views.night_edit, name="night_edit"),
    path("nights/<uuid:night_id>/remove/", views.night_remove, name="night_remove"),
    path("nights/<uuid:night_id>/drop/", views.night_series_drop, name="night_series_drop"),
    path("nights/<uuid:night_id>/tables/<int:number>/phones/", views.night_table_phones, name="night_table_phones"),
    path("nights/<uuid:night_id>/reopen/", views.night_reopen, name="night_reopen"),
    path("screen/<link:token>/", views.club_screen, name="club_screen"),
]
