"""Settings for Scorekeeper, read from the environment.

Development defaults are safe to run on a laptop; with DEBUG off, a missing, short or development SECRET_KEY or a
missing ALLOWED_HOSTS stops the process at start-up instead of running with a guessable key, and the site is served as
HTTPS only (HSTS, secure cookies) unless HTTPS=false says it is reached over plain HTTP on a local network.
"""

import datetime
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
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


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


DEBUG = env_bool("DEBUG", True)

DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"
# Django's own deployment check asks as much of a key: 50 characters, 5 different ones, not a development key.
SECRET_KEY_MIN_LENGTH = 50


def production_secret_key(key: str) -> str:
    if not key:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < 5:
        raise ImproperlyConfigured(
            f"SECRET_KEY must be at least {SECRET_KEY_MIN_LENGTH} characters (of at least 5 different ones) when "
            "DEBUG is off; make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    if key == DEVELOPMENT_SECRET_KEY or key.startswith("django-insecure"):
        raise ImproperlyConfigured("SECRET_KEY must not be the development key when DEBUG is off")
    return key


if DEBUG:
    SECRET_KEY = os.environ.get("SECRET_KEY") or DEVELOPMENT_SECRET_KEY
else:
    SECRET_KEY = production_secret_key(os.environ.get("SECRET_KEY", ""))

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A member list's preview sends an answer for each of its doubts, up to one for each of the 5,000 rows a list may
# have (``matches/services/member_imports.py``): more fields than Django's 1,000, and still bounded.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 5_100

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
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "matches",
    "matches.clubs",
    "matches.interclub",
    "matches.tournaments",
]

MIDDLEWARE = [
    # First: an answer leaves without the headers it does not need, whatever the others below added.
    "matches.middleware.LeanHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "matches.middleware.PagePoliciesMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise, which answers static files itself (compressed ahead): pages and answers are compressed here.
    "matches.compression.CompressionMiddleware",
    "matches.middleware.RequestLogMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Django's, adding no slash to an address of the API.
    "matches.middleware.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "matches.middleware.LazyMessagesMiddleware",
    "matches.middleware.DeniedMiddleware",
    "matches.middleware.ExpiredSessionsMiddleware",
    # Last, as its documentation asks: it turns a login refused for too many failures into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    ["scorekeeper.template_loader.Loader", "django.template.loaders.app_directories.Loader"],
                )
            ],
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

DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{SQLITE_PATH}")}
# A connection is kept for CONN_MAX_AGE seconds (ten minutes unless told) and checked before it is reused, so a
# restarted database server costs one failed check, not a failed request: PostgreSQL's, and SQLite's too, whose
# connection sets up its journal and functions each time it opens.
ON_POSTGRESQL = DATABASES["default"]["ENGINE"].startswith("django.db.backends.postgresql")
DATABASES["default"]["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 600)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    # Tests use a file too, not memory: the browser tests' live server answers from several threads at once, and
    # only a file database gives each its own connection, with WAL and the busy timeout, as in production.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}

# The profile comes with the user; sessions made before keep working through the model backend they name.
# Axes first: it refuses a login for a user name or address with too many failures before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "matches.backends.AccountBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# After LOGIN_FAILURE_LIMIT wrong passwords for one user name from one address, logging in with that name from that
# address is refused (the right password included) until LOGIN_COOLOFF_MINUTES pass without another failure: the
# pair, so that neither a club room's shared address nor a stranger typing a member's name locks everyone out. On
# top, LOGIN_ADDRESS_FAILURE_LIMIT failures in an hour from one address, over any names, refuse that address
# (guessing one password over many names). The pages and the API's token endpoint alike, kept in the database so
# that every process sees the same count; a completed password reset lifts the lock on that user name.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [env_list("LOGIN_LOCKOUT_BY", ["username", "ip_address"])]
AXES_HANDLER = "matches.accounts.LoginLockoutHandler"
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 50)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "matches.accounts_views.locked_out"
# Failures are kept until their cool-off ends; a log of every successful login is not kept.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
# Behind PROXY_COUNT proxies (a TLS proxy: 1) the client's address is read from X-Forwarded-For, as the last proxy
# wrote it; with none, the connection's own address counts and the header is ignored (a client could forge it).
PROXY_COUNT = env_int("PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "matches.accounts_views.client_address"

# At most this many password-reset mails an hour for one address, and requests for them from one client.
PASSWORD_RESET_MAILS_PER_HOUR = env_int("PASSWORD_RESET_MAILS_PER_HOUR", 3)
PASSWORD_RESET_REQUESTS_PER_HOUR = env_int("PASSWORD_RESET_REQUESTS_PER_HOUR", 10)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The largest backup file restored from the backup page, in MB (a larger one is restored with manage.py restore):
# the task worker reads it whole, with several times its size in memory.
RESTORE_MAX_MB = env_int("RESTORE_MAX_MB", 200)

LANGUAGE_CODE = "en"
# British English is English with the dates and times written as a reader in Britain writes them (29 Nov 2026,
# 29/11/2026): the pages, the printed lists and the names of tables follow the browser's en-GB.
LANGUAGES = [("en", _("English")), ("en-gb", _("English (UK)")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

# A CDN's address (``https://cdn.example.org/static/``) if one serves the static files; see docs/deploying.md.
STATIC_URL = os.environ.get("STATIC_URL", "static/")
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "scorekeeper.storage.MinifiedStaticFilesStorage"
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

# In production the site is reached over HTTPS only, through a TLS proxy that sets X-Forwarded-Proto (and must
# overwrite one a client sends). HTTPS=false is for `make serve` on a local network, where phones reach the
# computer over plain HTTP: no redirect, no HSTS, cookies sent without TLS; never on the internet.
HTTPS = env_bool("HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Documents carry X-Frame-Options from the page policies (matches.middleware.PagePoliciesMiddleware) rather than from
# Django's clickjacking middleware, which this check asks for by name.
SILENCED_SYSTEM_CHECKS = ["security.W002"]
if HTTPS and not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # A year; subdomains of the site's own host included (they are the operator's); preloading into browsers is
    # the domain owner's decision, hard to take back, so it is off unless asked for (and its check is silenced).
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    SILENCED_SYSTEM_CHECKS += [] if SECURE_HSTS_PRELOAD else ["security.W021"]
elif not DEBUG:
    # Served over plain HTTP on purpose (HTTPS=false): the deployment checks about TLS say what was chosen.
    SILENCED_SYSTEM_CHECKS += ["security.W004", "security.W008", "security.W012", "security.W016"]

# Every script and style is a file of this site; the API documentation's inline setup carries the request's nonce.
# Images may be data: URLs (the documentation's icons). Requests, fonts and the manifest fall back to default-src,
# the service worker to script-src: this site only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Powerful features the pages do not use are off; keeping the screen awake and copying results are the site's own.
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), "
    "screen-wake-lock=(self), clipboard-write=(self)"
)

# Expired sessions are deleted by the running site itself, at most once a day per process.
SESSION_CLEANUP_SECONDS = 24 * 60 * 60


def env_rate(name: str, default: str) -> str | None:
    """A throttle rate such as ``60/minute`` (per second, minute, hour or day), or ``off``."""
    value = os.environ.get(name, "").strip() or default
    if value.lower() == "off":
        return None
    count, _slash, period = value.partition("/")
    if not count.isdigit() or period not in {"s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day"}:
        raise ImproperlyConfigured(f"{name} must be a rate like 60/minute, or off, not {value!r}")
    return value


# The counts behind the API's rates live in this cache, which every worker of every server shares: by default a
# table of the database (CACHE_LOCATION names it; `manage.py createcachetable` makes it, as `make run` and `make serve`
# do), or Redis or Valkey through Django's own backend (CACHE_BACKEND=django.core.cache.backends.redis.RedisCache,
# CACHE_LOCATION=redis://...). A cache in each process's memory would let an address have its rate once per worker.
CACHES = {
    "default": {
        "BACKEND": os.environ.get("CACHE_BACKEND", "django.core.cache.backends.db.DatabaseCache"),
        "LOCATION": os.environ.get("CACHE_LOCATION", "scorekeeper_cache"),
    },
    # What a process draws once and keeps for itself (the entry form's fields of a game): its own memory.
    "fragments": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "fragments"},
}

# Work that takes longer than a request should (a restore of a large backup) runs as a background task. The tasks
# wait in the database, so SQLite and PostgreSQL need nothing else; `manage.py db_worker` runs them (`make run` and
# `make serve` start it beside the web server; see docs/deploying.md for systemd).
TASKS = {"default": {"BACKEND": os.environ.get("TASKS_BACKEND", "django_tasks_db.DatabaseBackend")}}

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
    "DEFAULT_THROTTLE_CLASSES": ["matches.api.throttles.AnonymousRate", "matches.api.throttles.AccountRate"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_rate("API_RATE_ANONYMOUS", "60/minute"),
        "user": env_rate("API_RATE_ACCOUNT", "600/minute"),
    },
    # How many proxies in front of the server add to X-Forwarded-For: 0 counts the address the server sees (a
    # client's own X-Forwarded-For is ignored), 1 behind one TLS proxy.
    "NUM_PROXIES": PROXY_COUNT,
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
        "yours, 409 when the match moved on or its list is closed, 410 for a game deleted meanwhile, 413 for a body "
        "over 64 KB, 415 for one that is not JSON, 429 (with Retry-After) for too many requests. Send "
        "`Accept-Language: de` for German messages."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "matches.api.schema.common_answers"],
}

# Text for a person at a terminal, JSON (one object per line) for a log collector; see matches/logs.py.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json")
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
LOGGING_CONFIG = "matches.logs.configure"
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
        # fpdf2 subsets the fonts of every PDF list with fontTools, which reports each step at INFO.
        "fontTools": {"level": "WARNING"},
        # django-axes reports every successful login at INFO; a lockout is a WARNING and is kept.
        "axes": {"level": "WARNING"},
    },
}

# A load balancer's health check asks over plain HTTP, behind the proxy that terminates TLS.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
