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
        from matches.backup import register_section
        from matches.permissions import register_book_role, register_subject
        from matches.registry import (
            MenuEntry,
            register_file_maker,
            register_menu_entry,
            register_paper_reader,
            register_table_place_reader,
            register_urls,
        )

        from . import api, downloads, urls
        from .backup import TOURNAMENT_SECTION
        from .permissions import TOURNAMENT_SUBJECTS, tournament_book_role
        from .selectors import paper_list_of, tournament_table_place

        register_book_role(tournament_book_role)
        for name, subject in TOURNAMENT_SUBJECTS.items():
            register_subject(name, subject)
        register_paper_reader(paper_list_of)
        register_table_place_reader(tournament_table_place)
        register_section(TOURNAMENT_SECTION)
        register_menu_entry(MenuEntry("tournaments:list", _("Tournaments")))
        register_urls(pages=[*urls.urlpatterns, *downloads.download_urlpatterns], api=api.urlpatterns)
        for kind in downloads.PRINTS:
            register_file_maker(kind, downloads.make_print(kind))
