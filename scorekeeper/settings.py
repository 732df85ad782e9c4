"""Settings for Scorekeeper, read from the environment.

Development defaults are safe to run on a laptop; with DEBUG off, a missing SECRET_KEY or ALLOWED_HOSTS stops the
process at start-up instead of running with a guessable key.
"""

import datetime
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "matches",
    "matches.leagues",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise, which answers static files itself (compressed ahead): pages and answers are compressed here.
    "django.middleware.gzip.GZipMiddleware",
    "matches.middleware.RequestLogMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "matches.middleware.DeniedMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "matches.context_processors.deck",
            ],
        },
    },
]

WSGI_APPLICATION = "scorekeeper.wsgi.application"

SQLITE_PATH = BASE_DIR / "db.sqlite3"
# WAL, a busy timeout and IMMEDIATE transactions keep concurrent writers from failing with "database is locked";
# ATOMIC_REQUESTS stays off for the same reason (deferred transactions upgrade to writes and deadlock).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{SQLITE_PATH}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    # Tests use a file too, not memory: the browser tests' live server answers from several threads at once, and
    # only a file database gives each its own connection, with WAL and the busy timeout, as in production.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}

# The profile comes with the user; sessions made before keep working through the model backend they name.
AUTHENTICATION_BACKENDS = ["matches.backends.AccountBackend", "django.contrib.auth.backends.ModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

# A CDN's address (``https://cdn.example.org/static/``) if one serves the static files; see the README's Deploying.
STATIC_URL = os.environ.get("STATIC_URL", "static/")
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Password reset mails go to the console unless a mail server is configured.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "scorekeeper@localhost")

SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))

REST_FRAMEWORK = {
    # A token first, so that a request without credentials is answered 401 with the scheme to use.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["matches.api.parsing.JSONBody"],
    "EXCEPTION_HANDLER": "matches.api.errors.api_exception_handler",
}

# API tokens are stored as SHA-512 hashes only; each lasts API_TOKEN_DAYS from its last use, a year at most, and
# ends with a new password.
REST_KNOX = {
    "TOKEN_TTL": datetime.timedelta(days=int(os.environ.get("API_TOKEN_DAYS", "30"))),
    "AUTO_REFRESH": True,
    "AUTO_REFRESH_MAX_TTL": datetime.timedelta(days=365),
    "USER_SERIALIZER": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Scorekeeper API",
    "DESCRIPTION": (
        "Scores for Skat and its two-player relatives: the calculator, your players and matches with their games, "
        "and your clubs' seasons, nights and tables.\n\n"
        "**Authentication**: a session (the browser you are logged in with) or a token from "
        "`POST /api/v1/auth/token/`, sent as `Authorization: Token …`. Tokens are stored hashed and last "
        "API_TOKEN_DAYS (30) days from their last use.\n\n"
        "**Changes** go through the same rules and services as the pages. Send an `Idempotency-Key` (a UUID you "
        "make) with each change: a retry with the same key gets the first answer and changes nothing more. Send "
        "`If-Match` with the match's version (the `ETag` of every match and game answer) to fix or delete a game "
        "safely (409 with the current `version` if that game changed since), or to undo and redo (409 if anything "
        "in the match changed since).\n\n"
        "**Lists** come in pages (`?page_size=`, up to 200) with `next` and `previous` links; a page costs the same "
        "however long the list.\n\n"
        "**Errors** are 400 with messages by field, 401 without credentials, 404 for what is not there or not "
        "yours, 409 when the match moved on or its list is closed, 410 for a game deleted meanwhile. Send "
        "`Accept-Language: de` for German messages."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Text for a person at a terminal, JSON (one object per line) for a log collector; see matches/logs.py.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json")
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"()": "matches.logs.TextFormatter"},
        "json": {"()": "matches.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Every request has its line from matches.middleware.RequestLogMiddleware; Django's own adds the traceback
        # of a server error, and its line for every 4xx would say the same twice.
        "django.request": {"level": "ERROR"},
    },
}

# A load balancer's health check asks over plain HTTP, behind the proxy that terminates TLS.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
