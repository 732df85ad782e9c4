from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InterclubConfig(AppConfig):
    """Leagues between clubs: divisions, groups, teams, their match days at venues and the tables played there, on
    the core of the matches app and the club app (a team's players come from its club's book)."""

    name = "matches.interclub"
    # Not "leagues": the club app holds that label, the one it was first installed under (its apps.py says why).
    label = "interclub"
    verbose_name = _("Leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The core never imports this app: it asks its registry, where the app says what it knows.
        from matches.backup import register_section
        from matches.permissions import register_book_role, register_subject
        from matches.registry import (
            MenuEntry,
            register_menu_entry,
            register_paper_reader,
            register_table_place_reader,
            register_urls,
        )

        from . import api, downloads, urls
        from .backup import LEAGUE_SECTION
        from .permissions import LEAGUE_SUBJECTS, league_book_role
        from .prints import venue_table_place
        from .selectors import venue_paper_list

        register_book_role(league_book_role)
        for name, subject in LEAGUE_SUBJECTS.items():
            register_subject(name, subject)
        register_section(LEAGUE_SECTION)
        register_paper_reader(venue_paper_list)
        register_table_place_reader(venue_table_place)
        register_menu_entry(MenuEntry("interclub_leagues", _("Leagues")))
        register_urls(pages=[*urls.urlpatterns, *downloads.download_urlpatterns], api=api.urlpatterns)
