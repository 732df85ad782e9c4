"""Schemathesis over the whole OpenAPI schema, in process: for every operation, requests that fit the schema and
requests that do not, with a token of an account that keeps a match, a club, an event of every kind registered
(``event_things``) and their ids (and with made-up ids). No answer may be a server error, and every answer must be
documented: its status, its content type, its headers and its body. Derandomized and bounded in examples, so that a
run is the same every time and takes the same work."""

import re
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from knox.models import AuthToken
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from matches.models import Person

from .conftest import Table
from .event_things import event_things

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
APPLICATION = get_wsgi_application()
EXAMPLES = 50
# The operations are asked in parts (every PARTS-th in the schema's order), which the workers of a run share out.
PARTS = 4
# Revoking the tokens ends the run's credentials: these go last (in their part).
LAST = {"tokens_revoke", "token_revoke", "ranking_delete"}


def in_test_transaction(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    """The project's WSGI application, answering within the test's transaction: as Django's test client does, the
    connection is not closed when a request starts or finishes."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        response = APPLICATION(environ, start_response)
        try:
            return list(response)
        finally:
            response.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _ids(table: Table) -> dict[str, str]:
    # The token's account also runs an event of every kind registered (``event_things``): a league whose venue has a
    # series checked in to seat, a tournament of seven entries whose first series is drawn, and the others'.
    return {
        "series": "1",
        "number": "1",
        **{name: str(thing.public_id) for name, thing in event_things(table.owner).items()},  # type: ignore[attr-defined]
        "match_id": str(table.match.public_id),
        "game_id": str(table.game.public_id),
        "player_id": str(table.player.public_id),
        "club_id": str(table.club.public_id),
        "season_id": str(table.season.public_id),
        "night_id": str(table.night.public_id),
        "person_id": str(Person.objects.get(players=table.player).public_id),
        "ranking_id": str(table.ranking.public_id),
    }


@pytest.mark.parametrize("part", range(PARTS))
def test_every_operation_answers_as_its_schema_says(table: Table, part: int) -> None:
    generated = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    schema = schemathesis.openapi.from_dict(generated)
    _instance, token = AuthToken.objects.create(user=table.owner)
    headers = {"Authorization": f"Token {token}", "Accept-Encoding": "identity"}
    ids = _ids(table)
    loaded = list(schema.get_all_operations())
    assert all(isinstance(result, Ok) for result in loaded), loaded
    operations = sorted(
        [result.ok() for result in loaded if isinstance(result, Ok)][part::PARTS],
        key=lambda operation: operation.definition.raw.get("operationId") in LAST,
    )
    assert operations
    sent = 0
    for operation in operations:
        known = {name: ids[name] for name in re.findall(r"{(\w+)}", operation.path)}
        strategies = [
            operation.as_strategy(GenerationMode.POSITIVE, path_parameters=known),
            operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=known),
        ]
        if known:
            strategies.append(operation.as_strategy(GenerationMode.POSITIVE))

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=st.one_of(strategies))
        def run(case: Any) -> None:
            nonlocal sent
            response = case.call(app=in_test_transaction, headers=headers)
            case.validate_response(response, checks=CHECKS)
            sent += 1

        run()
    assert sent >= 1000 // PARTS
