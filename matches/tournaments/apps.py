from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Open tournaments ("Preisskat"): entries, series drawn and seated, tables as matches, the prize list and the
    cashier's list, on the core of the matches app (an organiser may be a club of the club app)."""

    name = "matches.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The core never imports this app: it asks its registry, where the app says what it knows.
        from matches.accounts import register_groups
        from matches.backup import register_section
        from matches.permissions import register_book_role, register_subject
        from matches.registry import (
            MenuEntry,
            register_file_maker,
            register_menu_entry,
            register_table_place_reader,
            register_urls,
        )
        from matches.standings import KeptStandings, register_kept_standings

        from . import api, downloads, urls
        from .accounts import TOURNAMENTS_OF_ACCOUNTS
        from .backup import TOURNAMENT_SECTION
        from .models import Tournament
        from .permissions import TOURNAMENT_SUBJECTS, tournament_book_role
        from .selectors import tournament_table_place
        from .services import series_lists_rescore, tournament_standings_rescore

        register_book_role(tournament_book_role)
        for name, subject in TOURNAMENT_SUBJECTS.items():
            register_subject(name, subject)
        register_table_place_reader(tournament_table_place)
        register_section(TOURNAMENT_SECTION)
        # The lists each closed series keeps, then the places, ranked from them.
        tournaments = Tournament.objects.all()
        register_kept_standings(
            KeptStandings("tournament", "players' kept series lists", tournaments, series_lists_rescore)
        )
        register_kept_standings(
            KeptStandings("tournament", "entrants' kept places", tournaments, tournament_standings_rescore)
        )
        register_groups(TOURNAMENTS_OF_ACCOUNTS)
        register_menu_entry(MenuEntry("tournaments:list", _("Tournaments")))
        register_urls(pages=[*urls.urlpatterns, *downloads.download_urlpatterns], api=api.urlpatterns)
        for kind in downloads.PRINTS:
            register_file_maker(kind, downloads.make_print(kind))
