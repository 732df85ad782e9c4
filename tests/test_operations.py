"""What an operator relies on: the health check, the log lines, and a backup of the live database."""

import datetime
import io
import json
import logging
import os
import secrets
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from knox.models import AuthToken
from rest_framework.test import APIClient

from matches.logs import JsonFormatter, TextFormatter

from .factories import make_match, make_user

ROOT = Path(settings.BASE_DIR)


# --- The health check -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_health_answers_ok_after_one_query_without_a_session(django_assert_num_queries: object) -> None:
    with django_assert_num_queries(1):  # type: ignore[operator]
        response = Client().get(reverse("health"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert not response.cookies
    assert response["Cache-Control"] == "no-store"  # no cache keeps it: every check reaches the database


@pytest.mark.django_db
def test_health_answers_503_when_the_database_does_not() -> None:
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("connection refused")):
        response = Client().get(reverse("health"))
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unavailable"}


@pytest.mark.django_db
def test_health_is_not_redirected_to_https_behind_the_proxy(settings: object) -> None:
    settings.SECURE_SSL_REDIRECT = True  # type: ignore[attr-defined]
    assert Client().get(reverse("health")).status_code == 200
    assert Client().get(reverse("home")).status_code == 301


# --- The log lines --------------------------------------------------------------------------------------------------


@pytest.fixture
def request_log() -> Iterator[io.StringIO]:
    """The request logger's lines as JSON, as production writes them."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    loggers = [logging.getLogger("scorekeeper.requests"), logging.getLogger("django.request")]
    for logger in loggers:
        logger.addHandler(handler)
    yield stream
    for logger in loggers:
        logger.removeHandler(handler)


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.mark.django_db
def test_a_request_leaves_one_json_line_with_its_user_and_without_its_query(request_log: io.StringIO) -> None:
    owner = make_user("olga")
    match = make_match(owner)
    browser = Client()
    browser.force_login(owner)
    browser.get(reverse("match_detail", args=[match.public_id]) + "?password=hunter2")
    (line,) = lines(request_log)
    assert line["logger"] == "scorekeeper.requests"
    assert line["level"] == "INFO"
    assert line["method"] == "GET"
    assert line["path"] == f"/matches/{match.public_id}/"
    assert line["status"] == 200
    assert isinstance(line["duration_ms"], float)
    assert line["user"] == owner.pk
    assert "hunter2" not in request_log.getvalue()


@pytest.mark.django_db
def test_a_request_with_a_token_is_logged_with_its_user_though_it_opens_no_session(request_log: io.StringIO) -> None:
    owner = make_user("olga")
    _, token = AuthToken.objects.create(owner)
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert script.get("/api/v1/leagues/").status_code == 200
    (line,) = lines(request_log)
    assert line["user"] == owner.pk


@pytest.mark.django_db
def test_an_anonymous_request_is_logged_as_anonymous_and_its_link_token_left_out(request_log: io.StringIO) -> None:
    match = make_match(make_user("olga"))
    Client().get(reverse("match_spectate", args=[match.share_token]))
    (line,) = lines(request_log)
    assert line["user"] == "anonymous"
    assert line["path"] == "/watch/<token>/"
    assert str(match.share_token) not in request_log.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "address", ["/watch/{token}/list", "/join/{token}", "/watch/{token}/extra/", "/accounts/reset/MQ/{token}"]
)
def test_a_token_in_an_address_answered_before_any_view_is_left_out_too(request_log: io.StringIO, address: str) -> None:
    token = "SECRETtoken789"
    Client().get(address.format(token=token))
    assert token not in request_log.getvalue()
    assert "<token>" in str(lines(request_log)[0]["path"])


@pytest.mark.django_db
def test_the_log_line_asks_no_query_of_its_own(request_log: io.StringIO, django_assert_num_queries: object) -> None:
    browser = Client()
    browser.force_login(make_user("olga"))
    with django_assert_num_queries(1):  # type: ignore[operator]
        assert browser.get(reverse("health")).status_code == 200
    (line,) = lines(request_log)
    assert line["user"] is None


@pytest.mark.django_db
def test_a_server_error_is_logged_with_its_traceback(request_log: io.StringIO) -> None:
    failing = mock.patch("matches.health.database_answers", side_effect=RuntimeError("the disk is on fire"))
    with failing:
        response = Client(raise_request_exception=False).get(reverse("health"))
    assert response.status_code == 500
    error, line = lines(request_log)
    assert error["logger"] == "django.request"
    assert error["level"] == "ERROR"
    assert "RuntimeError: the disk is on fire" in str(error["exception"])
    assert line["status"] == 500
    assert line["level"] == "ERROR"


def test_the_text_format_shows_the_same_line_for_a_person() -> None:
    record = logging.LogRecord("scorekeeper.requests", logging.INFO, __file__, 1, "GET %s", ("/health/",), None)
    assert TextFormatter().format(record).endswith("INFO scorekeeper.requests: GET /health/")


def settings_value(expression: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if key not in {"DEBUG", "LOG_FORMAT"}}
    return subprocess.run(
        [sys.executable, "-c", f"import scorekeeper.settings as s; print({expression})"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean | {"SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "scores.example.org"} | env,
        check=False,
    )


@pytest.mark.parametrize(
    ("env", "expected"),
    [({}, "text"), ({"DEBUG": "false"}, "json"), ({"DEBUG": "false", "LOG_FORMAT": "text"}, "text")],
)
def test_logs_are_text_in_development_and_json_in_production(env: dict[str, str], expected: str) -> None:
    done = settings_value("s.LOGGING['handlers']['console']['formatter']", **env)
    assert done.stdout.strip() == expected, done.stderr


def test_an_unknown_log_format_stops_the_process() -> None:
    done = settings_value("s.LOG_FORMAT", LOG_FORMAT="xml")
    assert done.returncode != 0
    assert "LOG_FORMAT must be text or json" in done.stderr


# --- A backup of the live database ----------------------------------------------------------------------------------


def manage(database: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database, "DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


class Writer(threading.Thread):
    """Another connection writing to the database all along, one committed row at a time."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.committed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        with sqlite3.connect(self.path, timeout=20) as database:
            while not self.stop.is_set():
                database.execute("INSERT INTO auth_group (name) VALUES (?)", (f"group {self.committed:08d}",))
                database.commit()
                self.committed += 1

    def wait_for(self, rows: int) -> None:
        deadline = time.monotonic() + 60
        while self.committed < rows and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.committed >= rows, "the writer stalled"


def groups(path: Path) -> int:
    with sqlite3.connect(path) as database:
        return int(database.execute("SELECT COUNT(*) FROM auth_group").fetchone()[0])


@pytest.mark.slow
def test_a_backup_of_a_live_sqlite_database_is_whole_while_another_connection_writes(tmp_path: Path) -> None:
    live, copy = tmp_path / "live.sqlite3", tmp_path / "backup.sqlite3"
    assert manage(f"sqlite:///{live}", "migrate", "--noinput", "-v", "0").returncode == 0
    with sqlite3.connect(live) as database:
        database.executemany("INSERT INTO auth_group (name) VALUES (?)", [(f"seed {n:06d}",) for n in range(20_000)])
    writer = Writer(live)
    writer.start()
    try:
        writer.wait_for(100)
        before = 20_000 + writer.committed
        done = manage(f"sqlite:///{live}", "dbbackup", str(copy))
        after = 20_000 + writer.committed
        writer.wait_for(writer.committed + 100)
    finally:
        writer.stop.set()
        writer.join()
    assert done.returncode == 0, done.stderr
    assert "0 matches, 0 games copied" in done.stdout
    assert before <= groups(copy) <= after
    assert groups(live) > after
    with sqlite3.connect(copy) as database:
        assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert database.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert database.execute("SELECT COUNT(*) FROM django_migrations").fetchone()[0] > 0
    assert sorted(path.name for path in tmp_path.glob("backup.sqlite3*")) == ["backup.sqlite3"]
    # The copy is a database the app runs on as it is.
    assert manage(f"sqlite:///{copy}", "migrate", "--check").returncode == 0


def test_a_database_backup_refuses_to_overwrite_the_database_itself(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    done = manage(f"sqlite:///{live}", "dbbackup", str(live))
    assert done.returncode != 0
    assert "cannot replace the database itself" in done.stderr


def test_a_postgresql_database_is_left_to_pg_dump() -> None:
    done = manage("postgres://scorekeeper@127.0.0.1:9/nowhere", "dbbackup", "copy.sqlite3")
    assert done.returncode != 0
    assert "back it up with pg_dump" in done.stderr


def test_a_record_leaves_out_the_thread_and_the_process_name_that_no_line_writes() -> None:
    logger = logging.getLogger("scorekeeper.requests")
    record = logger.makeRecord(logger.name, logging.INFO, __file__, 1, "GET /", (), None)
    assert (record.threadName, record.processName) == (None, None)
    assert record.process == os.getpid()


LOGGED_VALUES = st.one_of(
    st.text(), st.integers(), st.floats(), st.none(), st.booleans(), st.lists(st.integers(), max_size=3)
)


@given(
    message=st.text(), method=st.text(), path=st.text(), status=st.integers(), duration=st.floats(), user=LOGGED_VALUES
)
def test_a_json_line_is_what_the_json_module_writes_for_the_same_object(
    message: str, method: str, path: str, status: int, duration: float, user: object
) -> None:
    fields = {"method": method, "path": path, "status": status, "duration_ms": duration, "user": user}
    record = logging.LogRecord("scorekeeper.requests", logging.INFO, __file__, 1, "%s", (message,), None)
    record.__dict__.update(fields)
    line = JsonFormatter().format(record)
    whole = {"time": json.loads(line)["time"], "level": "INFO", "logger": "scorekeeper.requests", "message": message}
    assert line == json.dumps(whole | fields, ensure_ascii=False, default=str)


def test_a_json_line_carries_the_traceback_of_an_error() -> None:
    try:
        raise RuntimeError("the disk is on fire")
    except RuntimeError:
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "boom", None, sys.exc_info())
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "boom"
    assert line["exception"].endswith("RuntimeError: the disk is on fire")


@pytest.mark.parametrize("created", [0.0, 1764150928.9421, 1764150928.0004, 1764150929.9999, 4102444799.5])
def test_a_json_line_tells_its_moment_in_utc_to_the_millisecond(created: float) -> None:
    record = logging.LogRecord("scorekeeper.requests", logging.INFO, __file__, 1, "GET /", None, None)
    record.created, record.msecs = created, int((created - int(created)) * 1000) + 0.0
    expected = datetime.datetime.fromtimestamp(int(created), tz=datetime.UTC).replace(
        microsecond=int(record.msecs) * 1000
    )
    assert json.loads(JsonFormatter().format(record))["time"] == expected.isoformat(timespec="milliseconds")
