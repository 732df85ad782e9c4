"""The health check a load balancer, a container runtime or a monitoring service asks: is this process serving, and
does it reach its database?

It answers without a session, a login or a template, after one trivial query, so that asking it every few seconds
costs next to nothing: 200 ``{"status": "ok", "database": "ok"}``, or 503 with ``"database": "unavailable"`` when the
database does not answer (the process is up, but should get no traffic).
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .permissions import public

logger = logging.getLogger(__name__)


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return bool(cursor.fetchone() == (1,))
    except DatabaseError:
        logger.exception("health check: the database does not answer")
        return False


@public
@require_safe
@never_cache
def health(request: HttpRequest) -> JsonResponse:
    if database_answers():
        return JsonResponse({"status": "ok", "database": "ok"})
    return JsonResponse({"status": "unavailable", "database": "unavailable"}, status=503)
