"""Fresh PostgreSQL databases for the tests that run the app in processes of their own (a backup moved between the
engines, the load test against gunicorn).

PostgreSQL is reached through ``SCOREKEEPER_TEST_POSTGRES_URL`` (a role that may create databases; CI sets it for
both of its runs), or through ``DATABASE_URL`` when the suite itself runs on PostgreSQL."""

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import dj_database_url
import psycopg
from django.conf import settings


def postgres_admin_url() -> str | None:
    url = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL")
    if url:
        return url
    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        return os.environ.get("DATABASE_URL")
    return None


def connect(url: str) -> psycopg.Connection[Any]:
    config = dj_database_url.parse(url)
    return psycopg.connect(
        host=config["HOST"],
        port=config["PORT"] or 5432,
        user=config["USER"],
        password=config["PASSWORD"],
        dbname="postgres",
        autocommit=True,
    )


@contextmanager
def fresh_database(admin: str, prefix: str) -> Iterator[str]:
    """A fresh, empty database of its own on the server ``admin`` reaches, dropped afterwards; its URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with connect(admin) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    config = dj_database_url.parse(admin)
    try:
        yield f"postgres://{config['USER']}:{config['PASSWORD']}@{config['HOST']}:{config['PORT'] or 5432}/{name}"
    finally:
        with connect(admin) as connection:
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
