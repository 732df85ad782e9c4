from django.urls import path

from . import views

urlpatterns = [
    path("leagues/", views.league_new, name="interclub_leagues"),
    path("leagues/<uuid:league_id>/", views.league_detail, name="interclub_league"),
    path("leagues/<uuid:league_id>/managers/", views.league_manager_new, name="interclub_manager_new"),
    path("leagues/<uuid:league_id>/divisions/", views.division_new, name="interclub_division_new"),
    path("leagues/<uuid:league_id>/groups/", views.group_new, name="interclub_group_new"),
    path("leagues/groups/<uuid:group_id>/", views.group_detail, name="interclub_group"),
    path("leagues/groups/<uuid:group_id>/teams/", views.team_new, name="interclub_team_new"),
    path("leagues/groups/<uuid:group_id>/match-days/", views.match_day_new, name="interclub_match_day_new"),
    path("leagues/match-days/<uuid:match_day_id>/venues/", views.venue_new, name="interclub_venue_new"),
    path("leagues/teams/<uuid:team_id>/", views.team_detail, name="interclub_team"),
    path("leagues/teams/<uuid:team_id>/roster/", views.team_roster, name="interclub_roster"),
    path("leagues/teams/<uuid:team_id>/captain/", views.team_captain, name="interclub_captain"),
    path("leagues/venues/<uuid:venue_id>/", views.venue_detail, name="interclub_venue"),
    path("leagues/venues/<uuid:venue_id>/check-in/", views.venue_check_in, name="interclub_check_in"),
    path("leagues/venues/<uuid:venue_id>/seat/", views.venue_seat, name="interclub_seat"),
    path("leagues/venues/<uuid:venue_id>/unseat/", views.venue_unseat, name="interclub_unseat"),
    path("leagues/venues/<uuid:venue_id>/tables/<int:number>/paper/", views.venue_paper, name="interclub_paper"),
    path("leagues/venues/<uuid:venue_id>/close/", views.venue_close, name="interclub_close"),
    path("leagues/venues/<uuid:venue_id>/screen/", views.venue_screen, name="interclub_venue_screen"),
    path("leagues/venues/<uuid:venue_id>/report/", views.venue_report_page, name="interclub_report"),
    path("leagues/venues/<uuid:venue_id>/confirm/", views.venue_confirm, name="interclub_confirm"),
    path("leagues/venues/<uuid:venue_id>/accept/", views.venue_accept, name="interclub_accept"),
    path("leagues/venues/<uuid:venue_id>/reopen/", views.venue_reopen, name="interclub_reopen"),
]
