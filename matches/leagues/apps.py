from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class LeaguesConfig(AppConfig):
    """Clubs, their seasons, club nights and tables: on the core of the matches app."""

    name = "matches.leagues"
    label = "leagues"
    verbose_name = pgettext_lazy("associations", "Clubs")
    default_auto_field = "django.db.models.BigAutoField"
