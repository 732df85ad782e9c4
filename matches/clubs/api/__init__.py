"""The API's clubs, seasons, nights and standings, on the core's API: what it reads of them (``reads``) and the
changes a secretary makes to a night (``writes``). The core's API serves them at the addresses ``urlpatterns``
gives, registered when the app is ready."""

from . import reads, writes

urlpatterns = [*reads.urlpatterns, *writes.urlpatterns]
