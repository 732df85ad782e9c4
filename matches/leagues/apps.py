from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    """Clubs, their seasons, club nights and tables: on the core of the matches app."""

    name = "matches.leagues"
    label = "leagues"
    verbose_name = _("Clubs")
    default_auto_field = "django.db.models.BigAutoField"
