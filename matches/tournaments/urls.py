from django.urls import include, path

from . import live, views

app_name = "tournaments"

pages = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_new, name="new"),
    path("<uuid:tournament_id>/", views.tournament_detail, name="detail"),
    path("<uuid:tournament_id>/enter/", views.entry_new, name="enter"),
    path("<uuid:tournament_id>/my-entry/", views.entry_find, name="find"),
    path("<uuid:tournament_id>/claim/", views.entry_claim, name="claim"),
    path("<uuid:tournament_id>/results/", views.tournament_results_page, name="results"),
    path("<uuid:tournament_id>/live/", live.tournament_live, name="live"),
    path("<uuid:tournament_id>/prizes/", views.tournament_prizes, name="prizes"),
    path("<uuid:tournament_id>/cashier/", views.tournament_cashier, name="cashier"),
    path("<uuid:tournament_id>/desk/", views.tournament_desk, name="desk"),
    path("<uuid:tournament_id>/door/", views.desk_door, name="door"),
    path("<uuid:tournament_id>/payment/", views.desk_payment, name="payment"),
    path("<uuid:tournament_id>/hand-over/", views.desk_hand_over, name="hand_over"),
    path("<uuid:tournament_id>/sides/", views.desk_side, name="sides"),
    path("<uuid:tournament_id>/draw/", views.desk_draw, name="draw"),
    path("<uuid:tournament_id>/series/<int:series>/close/", views.series_close, name="close"),
    path("<uuid:tournament_id>/series/<int:series>/tables/<int:number>/paper/", views.table_paper, name="paper"),
    path("entries/<uuid:entry_id>/", views.entry_detail, name="entry"),
    path("entries/<uuid:entry_id>/pay/", views.entry_pay, name="entry_pay"),
    path("entries/<uuid:entry_id>/take-back/", views.entry_take_back, name="entry_take_back"),
    path("entries/<uuid:entry_id>/withdraw/", views.entry_withdraw, name="entry_withdraw"),
]

# Every page under one prefix and namespace ("tournaments:desk"), so that the app's names never meet another's.
urlpatterns = [path("tournaments/", include((pages, app_name)))]
