"""Production mode: the settings a server starts with (a real secret key, HSTS, secure cookies, persistent database
connections), Django's deployment checks, the security headers, and ``make serve`` for the phones at the table."""

import os
import re
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from csp.decorators import csp_exempt, csp_update
from csp.exceptions import CSPNonceError
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from matches.middleware import PagePoliciesMiddleware
from scorekeeper import serve

from .factories import make_match

ROOT = Path(__file__).resolve().parents[1]
# What a test run may have set that a server would not: the browser tests allow async-unsafe calls, for one.
SETTINGS_ENV = {
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "HTTPS",
    "CONN_MAX_AGE",
    "SECURE_HSTS_SECONDS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
PRODUCTION = {"DEBUG": "false", "ALLOWED_HOSTS": "scores.example.org"}


def environment(**env: str) -> dict[str, str]:
    kept = {key: value for key, value in os.environ.items() if key not in SETTINGS_ENV}
    return kept | {"DJANGO_SETTINGS_MODULE": "scorekeeper.settings"} | env


def run(arguments: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(arguments, cwd=ROOT, capture_output=True, text=True, env=environment(**env), check=False)


def setting(names: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The settings ``names`` (separated by spaces) as a process started with ``env`` reads them."""
    code = f"from django.conf import settings as s; print(*[repr(getattr(s, n, None)) for n in {names.split()!r}])"
    return run([sys.executable, "-c", code], **env)


def a_key() -> str:
    return secrets.token_urlsafe(50)


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("x" * 49, "at least 50 characters"),
        ("ab" * 30, "at least 50 characters"),
        ("django-insecure-development-only-key-do-not-use-in-production", "not be the development key"),
        ("django-insecure-" + "k3y" * 20, "not be the development key"),
    ],
    ids=["short", "four-characters", "development", "django-insecure"],
)
def test_production_refuses_a_weak_secret_key(key: str, reason: str) -> None:
    done = setting("SECRET_KEY", SECRET_KEY=key, **PRODUCTION)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert reason in done.stderr


def test_production_is_https_only_with_hsts_for_a_year() -> None:
    done = setting(
        "DEBUG SECURE_HSTS_SECONDS SECURE_HSTS_INCLUDE_SUBDOMAINS SECURE_HSTS_PRELOAD SESSION_COOKIE_SECURE "
        "CSRF_COOKIE_SECURE SECURE_SSL_REDIRECT SECURE_PROXY_SSL_HEADER",
        SECRET_KEY=a_key(),
        **PRODUCTION,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().split(maxsplit=7) == [
        "False",
        "31536000",
        "True",
        "False",
        "True",
        "True",
        "True",
        "('HTTP_X_FORWARDED_PROTO', 'https')",
    ]


def test_deployment_checks_pass_with_production_settings() -> None:
    done = run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], SECRET_KEY=a_key(), **PRODUCTION
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_deployment_checks_warn_without_hsts() -> None:
    """The check above can fail: with HSTS turned off, Django's own check says so."""
    done = run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        SECRET_KEY=a_key(),
        SECURE_HSTS_SECONDS="0",
        **PRODUCTION,
    )
    assert done.returncode != 0
    assert "security.W004" in done.stderr


@pytest.mark.parametrize(
    ("database", "kept"),
    [("postgres://scorekeeper:secret@127.0.0.1:5432/scorekeeper", "600"), ("sqlite:////tmp/somewhere.sqlite3", "600")],
    ids=["postgresql", "sqlite"],
)
def test_connections_are_kept_and_checked_on_either_engine(database: str, kept: str) -> None:
    done = setting("DATABASES", DATABASE_URL=database)
    assert done.returncode == 0, done.stderr
    assert f"'CONN_MAX_AGE': {kept}," in done.stdout
    assert "'CONN_HEALTH_CHECKS': True" in done.stdout


def test_every_page_has_a_content_security_policy_and_a_permissions_policy() -> None:
    response = Client().get(reverse("login"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy
    assert "camera=()" in response["Permissions-Policy"]
    # For browsers that know no frame-ancestors.
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_fragments_json_and_files_carry_no_page_policies() -> None:
    """A fragment runs under the policy of the page it is put into, and only a document can be framed: the headers
    would only weigh down every save."""
    browser = Client()
    browser.force_login(User.objects.create_user("anna", password="a-long-enough-password-1"))
    match = make_match(User.objects.get(username="anna"))
    fragment = browser.get(reverse("match_games", args=[match.public_id]), headers={"HX-Request": "true"})
    answers = {
        "htmx fragment": fragment,
        "JSON": browser.get(reverse("api:variants")),
        "health": browser.get(reverse("health")),
    }
    for what, response in answers.items():
        assert response.status_code == 200, what
        assert "Content-Security-Policy" not in response, what
        assert "Permissions-Policy" not in response, what
        assert "X-Frame-Options" not in response, what
    chart = browser.get(reverse("match_chart", args=[match.public_id]))
    assert "Content-Security-Policy" not in chart  # its own inline style draws it, opened on its own too
    assert "X-Frame-Options" not in chart  # a picture, with nothing to click on
    page = browser.get(reverse("match_detail", args=[match.public_id]))
    assert "Content-Security-Policy" in page
    assert "Permissions-Policy" in page
    assert page["X-Frame-Options"] == "DENY"


def test_the_api_documentation_runs_its_inline_setup_under_the_policy_by_nonce() -> None:
    response = Client().get(reverse("api:docs"))
    nonce = re.search(r"script-src 'self' 'nonce-([^']+)'", response["Content-Security-Policy"])
    assert nonce is not None
    page = response.content.decode()
    assert f'<script nonce="{nonce[1]}">' in page
    assert f'<style nonce="{nonce[1]}">' in page
    assert len(re.findall(r"<script(?![^>]*\b(?:src|nonce)=)", page)) == 0


def test_every_page_names_the_nonce_of_its_own_request() -> None:
    first, second = (Client().get(reverse("api:docs")) for _ in range(2))
    nonces = [re.search(r"'nonce-([^']+)'", page["Content-Security-Policy"]) for page in (first, second)]
    assert all(nonces)
    assert nonces[0][1] != nonces[1][1]  # type: ignore[index]
    assert f'<script nonce="{nonces[1][1]}">' in second.content.decode()  # type: ignore[index]


def test_an_answer_with_a_policy_of_its_own_keeps_it_and_an_exempt_page_goes_without() -> None:
    @csp_update({"img-src": ["https://tiles.example.org"]})
    def own(request: HttpRequest) -> HttpResponse:
        return HttpResponse("<p>map</p>")

    @csp_exempt()
    def exempt(request: HttpRequest) -> HttpResponse:
        return HttpResponse("<p>plain</p>")

    updated, plain = (PagePoliciesMiddleware(view)(RequestFactory().get("/")) for view in (own, exempt))
    assert isinstance(updated, HttpResponse)
    assert isinstance(plain, HttpResponse)
    assert "img-src 'self' data: https://tiles.example.org" in updated["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in updated["Content-Security-Policy"]
    assert "Content-Security-Policy" not in plain


# --- make serve ----------------------------------------------------------------------------------------------------


def serve_check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "scorekeeper.serve", "--check"], SECRET_KEY_FILE=str(tmp_path / "key"), **env)


@pytest.mark.slow
def test_make_serve_runs_production_settings_with_a_kept_secret_key(tmp_path: Path) -> None:
    first = serve_check(tmp_path, DEBUG="true")
    key = (tmp_path / "key").read_text()
    second = serve_check(tmp_path)

    assert first.returncode == 0, first.stdout + first.stderr
    assert "DEBUG False" in first.stdout
    assert "System check identified no issues" in first.stdout
    assert stat.S_IMODE((tmp_path / "key").stat().st_mode) == 0o600
    assert len(key.strip()) >= 50
    assert second.returncode == 0
    assert (tmp_path / "key").read_text() == key


def test_make_serve_allows_this_computers_names_and_addresses(tmp_path: Path) -> None:
    done = serve_check(tmp_path, ALLOWED_HOSTS="scores.local")
    hosts = next(line for line in done.stdout.splitlines() if line.startswith("ALLOWED_HOSTS"))
    assert "'scores.local'" in hosts
    assert "'localhost'" in hosts
    assert "'*'" not in hosts


def test_make_serve_says_what_it_does_before_preparing_the_static_files(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first start compresses every static file for a minute or two: it says so before, not silent."""
    steps: list[str] = []

    def manage(env: object, *arguments: str) -> None:
        steps.append(capsys.readouterr().out + arguments[0])

    monkeypatch.setattr(serve, "manage", manage)
    monkeypatch.setattr(serve, "run_beside_worker", lambda env, command, *worker: steps.append("serve"))
    serve.main([])
    assert steps[:2] == ["migrate", "createcachetable"]
    assert steps[2].startswith("Preparing the static files")
    assert steps[2].endswith("collectstatic")
    assert steps[3] == "serve"


def test_make_serve_is_the_serve_module() -> None:
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "serve"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1].endswith("python -m scorekeeper.serve")


def test_make_run_is_the_develop_module_which_starts_the_task_worker_beside_the_server() -> None:
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1].endswith("python -m scorekeeper.develop")


def test_a_nonce_asked_for_after_its_page_was_answered_is_refused() -> None:
    """The policy is written by then: a nonce made later would be one the browser refuses."""
    request = RequestFactory().get("/")
    PagePoliciesMiddleware(lambda request: HttpResponse("<p>a page without a script of its own</p>"))(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)  # type: ignore[attr-defined]
