import os
from collections.abc import Generator
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

# Hashing at full strength costs a sizeable part of every sign-up and login; tests only need a password to match.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """With SCOREKEEPER_NO_SKIPS=1 (as in CI) a skipped test fails: every test must have what it needs."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("SCOREKEEPER_NO_SKIPS") == "1":
        report.outcome = "failed"
        report.longrepr = f"skipped where skipping is not allowed: {report.longrepr}"


@pytest.fixture(scope="session", autouse=True)
def fast_password_hasher() -> Generator[None, None, None]:
    """For the whole run, browser tests included: their live server answers from this process, so it hashes the
    passwords they sign up with the same way."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture
def api() -> APIClient:
    return APIClient()
