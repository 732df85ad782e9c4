import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
KEY = "a-production-key-of-fifty-characters-or-more-0123456789"


def _load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if key not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"}}
    return subprocess.run(
        [sys.executable, "-c", "import scorekeeper.settings as s; print(s.DEBUG, s.ALLOWED_HOSTS)"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean | env,
        check=False,
    )


def test_production_refuses_to_start_without_a_secret_key() -> None:
    done = _load_settings(DEBUG="false", ALLOWED_HOSTS="scores.example.org")
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_production_refuses_to_start_without_allowed_hosts() -> None:
    done = _load_settings(DEBUG="false", SECRET_KEY=KEY)
    assert done.returncode != 0
    assert "ALLOWED_HOSTS must be set" in done.stderr


def test_a_malformed_boolean_is_an_error_not_a_guess() -> None:
    done = _load_settings(DEBUG="maybe")
    assert done.returncode != 0
    assert "DEBUG must be a boolean" in done.stderr


def test_production_settings_load_when_configured() -> None:
    done = _load_settings(DEBUG="false", SECRET_KEY=KEY, ALLOWED_HOSTS="scores.example.org")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False ['scores.example.org']"


def test_csrf_protection_is_on() -> None:
    assert "django.middleware.csrf.CsrfViewMiddleware" in settings.MIDDLEWARE


def test_requests_are_not_wrapped_in_one_transaction() -> None:
    assert not settings.DATABASES["default"].get("ATOMIC_REQUESTS", False)


@pytest.mark.django_db
def test_it_runs_on_the_database_it_was_given() -> None:
    """CI sets SCOREKEEPER_EXPECT_DB=postgresql for its PostgreSQL run, so a fallback to SQLite cannot pass."""
    expected = os.environ.get("SCOREKEEPER_EXPECT_DB", "sqlite" if "DATABASE_URL" not in os.environ else "")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert connection.vendor == expected


def test_sqlite_runs_in_wal_mode_with_immediate_transactions() -> None:
    if connection.vendor != "sqlite":
        assert connection.vendor == "postgresql"
        return
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5
    assert "journal_mode=WAL" in options["init_command"]
