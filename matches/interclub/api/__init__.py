"""The API of the leagues between clubs, on the core's API: what it reads of leagues, groups, teams, match days,
venues, reports, tables and rankings (``reads``), and the changes made at a venue (``writes``). The core's API
serves them at the addresses ``urlpatterns`` gives, registered when the app is ready."""

from . import reads, writes

urlpatterns = [*reads.urlpatterns, *writes.urlpatterns]
