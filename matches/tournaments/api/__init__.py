"""The API of open tournaments, on the core's API: what it reads of a tournament, its entries, tandems and teams,
series with their tables, rankings, prize list and cashier's list (``reads``), and the changes its organiser and
its entrants make (``writes``). The core's API serves them at the addresses ``urlpatterns`` gives, registered when
the app is ready."""

from . import reads, writes

urlpatterns = [*reads.urlpatterns, *writes.urlpatterns]
