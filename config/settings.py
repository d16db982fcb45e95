"""Settings of the storefront service: every value comes from the environment, with a safe
default (`.env.example` and the README's configuration table describe them)."""

import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str, env_whole_patterns, git_commit
from infra.storage import storages_setting

BASE_DIR = Path(__file__).resolve().parent.parent


# --- Core -------------------------------------------------------------------
DEBUG = env_bool("DJANGO_DEBUG", False)
RUNNING_TESTS = "pytest" in sys.modules

# Part of every cached rendering's key: two releases side by side never share renderings.
RELEASE = env_str("RELEASE") or git_commit(str(BASE_DIR)) or "unreleased"

DATA_DIR = Path(env_str("DATA_DIR", str(BASE_DIR / "data")))
DATA_DIR.mkdir(parents=True, exist_ok=True)

# SECRET_KEY, else SECRET_KEY_FILE (`make` generates it); no default outside debug and tests.
SECRET_KEY_FILE = Path(env_str("SECRET_KEY_FILE", str(DATA_DIR / "secret_key")))
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY and SECRET_KEY_FILE.is_file():
    SECRET_KEY = SECRET_KEY_FILE.read_text().strip()
if not SECRET_KEY:
    if DEBUG:
        SECRET_KEY = "insecure-development-only-key-set-SECRET_KEY-in-production"  # noqa: S105
    elif RUNNING_TESTS:
        SECRET_KEY = "insecure-test-only-key-" + "x" * 40
    else:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set the SECRET_KEY environment variable to a long random "
            "string (for example: python -c 'import secrets; print(secrets.token_urlsafe(64))'), "
            f"or put one in {SECRET_KEY_FILE} (SECRET_KEY_FILE), "
            "or set DJANGO_DEBUG=1 for local development."
        )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "storefront.apps.StoreAdminConfig",  # django.contrib.admin with the project's site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "storefront.third_party.AxesConfig",  # django-axes, named in Portuguese
    "corsheaders",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "storefront",
    "catalog",
    "marketing",
    "shipping",
    "feedback",
    "django_tasks",
    "storefront.third_party.TaskResultsConfig",  # django-tasks-db, named in Portuguese
    "jobs",
    "webhooks",
    "demo",  # manage.py seed_demo and demo_admin_info
]

MIDDLEWARE = [
    "apikit.middleware.ReleaseHeaderMiddleware",
    "apikit.middleware.ApiErrorMiddleware",
    "apikit.context.request_context",  # per-request state and version snapshot
    # gzip / br for JSON answers of 1 KiB or more; kept answers' bytes made once (issue 33)
    "apikit.compression.compressed_answers",
    "infra.db_routing.ReplicaReadsMiddleware",
    "apikit.middleware.RequestGuardMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # Kept public answers leave here (docs/decisions.md, issue 19): what follows is per user.
    "apikit.caching.early_answers",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The admin's language: after sessions, before common.
    "storefront.admin_locale.AdminLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "storefront.api.throttling.RateLimitHeadersMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
# The URL patterns serve both forms (a redirected POST would lose its body).
APPEND_SLASH = False

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
            ]
        },
    }
]

# --- Database ---------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
_CONN_MAX_AGE = env_int("DB_CONN_MAX_AGE", 60)  # connections kept between requests


def _database(url: str) -> dj_database_url.DBConfig:
    return dj_database_url.parse(url, conn_max_age=_CONN_MAX_AGE, conn_health_checks=True)


DATABASES = {"default": _database(DATABASE_URL or "sqlite://")}
if not DATABASE_URL:
    DATABASES["default"] |= {
        "NAME": str(DATA_DIR / "db.sqlite3"),
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            # Readers never wait for the writer (several gunicorn workers on one file).
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Read replicas for public GET requests (infra/db_routing.py).
DATABASE_REPLICA_ALIASES: list[str] = []
for _number, _url in enumerate(env_list("DATABASE_REPLICA_URLS"), start=1):
    _replica = _database(_url)
    if _replica["ENGINE"].endswith("postgresql"):
        _timeout = env_int("DATABASE_REPLICA_CONNECT_TIMEOUT", 2)
        _replica.setdefault("OPTIONS", {})["connect_timeout"] = _timeout
    DATABASES[f"replica{_number}"] = {**_replica, "TEST": {"MIRROR": "default"}}
    DATABASE_REPLICA_ALIASES.append(f"replica{_number}")
if RUNNING_TESTS and not DATABASE_REPLICA_ALIASES:
    # For the routing tests.
    DATABASES["replica1"] = {**DATABASES["default"], "TEST": {"MIRROR": "default"}}
if DATABASE_REPLICA_ALIASES and not env_str("REDIS_URL"):
    raise ImproperlyConfigured(
        "DATABASE_REPLICA_URLS needs the shared cache: set REDIS_URL as well, so every "
        "process knows when the data changed and reads the primary until replicas have it."
    )
DATABASE_REPLICA_GRACE_SECONDS = env_int("DATABASE_REPLICA_GRACE_SECONDS", 5)
DATABASE_ROUTERS = ["infra.db_routing.ReplicaRouter"]
ADMIN_PATH_PREFIX = "/admin/"

# --- Cache ------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
# Short socket timeouts (ms) and a circuit breaker (infra/caching/backend.py; docs/caching.md).
CACHE_CONNECT_TIMEOUT_MS = env_int("CACHE_CONNECT_TIMEOUT_MS", 50)
CACHE_TIMEOUT_MS = env_int("CACHE_TIMEOUT_MS", 80)
CACHE_BREAKER_SECONDS = env_int("CACHE_BREAKER_SECONDS", 3)
CACHES: dict[str, dict[str, Any]] = {"default": {"TIMEOUT": env_int("CACHE_TIMEOUT", 300)}}
if REDIS_URL:
    CACHES["default"] |= {
        "BACKEND": "infra.caching.backend.BreakerRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "storefront"),
        "OPTIONS": {
            "CLIENT_CLASS": "django_redis.client.DefaultClient",
            "SOCKET_CONNECT_TIMEOUT": CACHE_CONNECT_TIMEOUT_MS / 1000,
            "SOCKET_TIMEOUT": CACHE_TIMEOUT_MS / 1000,
            "BREAKER_RESET_SECONDS": CACHE_BREAKER_SECONDS,
        },
    }
else:
    CACHES["default"] |= {
        "BACKEND": "infra.caching.backend.BoundedLocMemCache",
        "LOCATION": "storefront",
        # Room for a real store's catalogue, in bounded memory (bench/README.md).
        "OPTIONS": {
            "MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 10000),
            "MAX_BYTES": env_int("CACHE_MAX_BYTES", 12 * 1024 * 1024),
        },
    }
# Without Redis, the namespace versions shared by the machine's processes
# (infra/caching/versions.py).
CACHE_VERSIONS_FILE = Path(env_str("CACHE_VERSIONS_FILE", str(DATA_DIR / "cache-versions")))

# --- Internationalisation and time -----------------------------------------
# The public API speaks LANGUAGE_CODE, the admin ADMIN_LANGUAGE_CODE (empty: the browser's;
# storefront/admin_locale.py), customer e-mails CUSTOMER_LANGUAGE_CODE.
LANGUAGE_CODE = env_str("LANGUAGE_CODE", "en-us")
ADMIN_LANGUAGE_CODE = os.environ.get("ADMIN_LANGUAGE_CODE", "pt-br").strip()
CUSTOMER_LANGUAGE_CODE = env_str("CUSTOMER_LANGUAGE_CODE", "pt-br")
LANGUAGES = [("pt-br", "Português (Brasil)"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "America/Sao_Paulo")

# --- Static and media files ------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(DATA_DIR / "staticfiles")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise expects it to exist
MEDIA_URL = env_str("MEDIA_URL", "/media/")
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(DATA_DIR / "media")))
# "local" (MEDIA_ROOT, IMPORT_STAGING_DIR) or "s3" (infra/storage.py).
MEDIA_STORAGE = env_str("MEDIA_STORAGE", "local")
S3_ENDPOINT_URL = env_str("S3_ENDPOINT_URL")  # empty: AWS itself
S3_BUCKET = env_str("S3_BUCKET")
S3_REGION = env_str("S3_REGION")
S3_ACCESS_KEY_ID = env_str("S3_ACCESS_KEY_ID")  # empty (both): boto3's own credential chain
S3_SECRET_ACCESS_KEY = env_str("S3_SECRET_ACCESS_KEY")
S3_PUBLIC_URL = env_str("S3_PUBLIC_URL")  # the bucket's public base URL (a CDN in front)
SERVE_MEDIA = env_bool("SERVE_MEDIA", MEDIA_STORAGE == "local")
# Serve app static files even before `collectstatic` (collected, hashed files win).
WHITENOISE_USE_FINDERS = True
STORAGES = {
    **storages_setting(
        MEDIA_STORAGE,
        bucket=S3_BUCKET,
        endpoint_url=S3_ENDPOINT_URL,
        region=S3_REGION,
        access_key=S3_ACCESS_KEY_ID,
        secret_key=S3_SECRET_ACCESS_KEY,
        public_url=S3_PUBLIC_URL,
    ),
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if RUNNING_TESTS
            else "storefront.staticfiles.StaticFilesStorage"
        )
    },
}

# --- Security ---------------------------------------------------------------
# HTTPS=1: reached over TLS (directly or via a proxy); `make run` sets HTTPS=0.
HTTPS = env_bool("HTTPS", True)
SECURE_SSL_REDIRECT = SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
# Only when the reverse proxy sets (and strips client-sent) X-Forwarded-Proto.
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The health check must answer plain HTTP probes from the load balancer.
SECURE_REDIRECT_EXEMPT = [r"^health/?$"]

# Request body caps: API bodies are small JSON documents; admin uploads are larger.
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 1024 * 1024)
ADMIN_MAX_BODY_BYTES = env_int("ADMIN_MAX_BODY_BYTES", 50 * 1024 * 1024)
# API writes that carry images (review photos, base64) take a larger body.
API_UPLOAD_MAX_BODY_BYTES = env_int("API_UPLOAD_MAX_BODY_BYTES", 12 * 1024 * 1024)
API_UPLOAD_PATHS = [r"^/(api/v3/)?review/product/?$"]
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_BODY_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000
# Answered in the error envelope (414, 431); gunicorn's and the proxy's limits sit above them.
MAX_URL_BYTES = 8000
MAX_HEADER_BYTES = 8000
MAX_HEADER_FIELDS = 100

# --- Staff sign-in limit (django-axes: failures counted in the database) ----------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ONLY_ADMIN_SITE = True
AXES_FAILURE_LIMIT = env_int("ADMIN_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("ADMIN_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "infra.client_ip.client_ip"
AXES_LOCKOUT_CALLABLE = "storefront.admin_lockout.admin_lockout_response"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- CORS -------------------------------------------------------------------
# Browsers on other origins (docs/api.md, "Calling from a browser"): exact origins, comma
# separated, and regexes, space separated, each matching a whole origin (preview deployments,
# e.g. https://pr-[0-9]+\.preview\.shop\.example\.com). `make run` allows the usual local
# development origins (the Makefile's RUN_ENV); production allows none unless listed here.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS")
CORS_ALLOWED_ORIGIN_REGEXES = env_whole_patterns("CORS_ALLOWED_ORIGIN_REGEXES")
CORS_ALLOW_HEADERS = (
    "accept",
    "authorization",
    "content-type",
    "if-none-match",
    "idempotency-key",
    "origin",
    "service-cookie-name",
    "user-agent",
    "x-requested-with",
)
CORS_EXPOSE_HEADERS = [
    "ETag",
    "X-Release",
    "Retry-After",
    "Idempotent-Replayed",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
]
CORS_URLS_REGEX = r"^/(?!admin/).*$"

# --- E-mail -----------------------------------------------------------------
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
# The sender of every e-mail: a display name Brazilian shoppers read (STORE_EMAIL_NAME) and the
# address (STORE_EMAIL_ADDRESS), or DEFAULT_FROM_EMAIL whole.
STORE_EMAIL_NAME = env_str("STORE_EMAIL_NAME", "Loja")
STORE_EMAIL_ADDRESS = env_str("STORE_EMAIL_ADDRESS", "no-reply@store.example")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"{STORE_EMAIL_NAME} <{STORE_EMAIL_ADDRESS}>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
ADMINS = [("Operators", a) for a in env_list("ADMINS")]
ERROR_EMAILS = env_bool("ERROR_EMAILS", True)
ERROR_EMAIL_INTERVAL = env_int("ERROR_EMAIL_INTERVAL", 300)

# --- REST API ---------------------------------------------------------------
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_RENDERER_CLASSES": ["apikit.renderers.FastJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["apikit.parsers.JSONBodyParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["storefront.api.authentication.CustomerTokenAuthentication"],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "apikit.exception_handler.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "public_write": env_str("THROTTLE_PUBLIC_WRITE", "30/min"),
        "login": env_str("THROTTLE_LOGIN", "10/min"),
        "login_email": env_str("THROTTLE_LOGIN_EMAIL", "5/min"),
    },
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "COERCE_DECIMAL_TO_STRING": False,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Storefront API",
    "DESCRIPTION": (
        "Public (storefront) REST API of the store: card flags, payment conditions, "
        "categories, banners, product interests, postal codes, shipping quotes, upsell, "
        "reviews and comments. Every path is also served under /api/v3/ and with a "
        "trailing slash. Errors use the error envelope "
        '{"status": false, "data": {"code", "errorCode", "message"}}. '
        "On every path: a URL over 8,000 bytes is 414 URI_TOO_LONG, a header over 8,000 "
        "bytes or more than 100 headers 431 REQUEST_HEADER_FIELDS_TOO_LARGE, control "
        "characters in the path, the query or a JSON string 422 VALIDATION_ERROR, and an "
        "unreachable database 503 SERVICE_UNAVAILABLE with Retry-After. Public writes take "
        "an optional Idempotency-Key header for safe retries."
    ),
    "VERSION": "3.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["apikit.schema.preprocess_public_paths"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "apikit.schema.postprocess_add_health",
        "apikit.schema.postprocess_for_generators",
    ],
    "ENUM_NAME_OVERRIDES": {"QuoteTableRejectionEnum": "shipping.explain.Rejection"},
}

# --- Store behaviour ----------------------------------------------------------
STORE_COUNTRY = env_str("STORE_COUNTRY", "BRA")
CUSTOMER_TOKEN_MAX_AGE = env_int("CUSTOMER_TOKEN_MAX_AGE", 7 * 24 * 3600)
COMMENTS_REQUIRE_MODERATION = env_bool("COMMENTS_REQUIRE_MODERATION", True)
COMMENTS_EMAIL_REPLIES = env_bool("COMMENTS_EMAIL_REPLIES", True)
REVIEWS_REQUIRE_MODERATION = env_bool("REVIEWS_REQUIRE_MODERATION", True)
# Review photos: bytes each (decoded), source pixels, stored longer side.
REVIEW_IMAGE_MAX_BYTES = env_int("REVIEW_IMAGE_MAX_BYTES", 3 * 1024 * 1024)
# The key of the anonymous helpful-vote voter hash (feedback.votes); empty: SECRET_KEY.
REVIEW_VOTE_SECRET = env_str("REVIEW_VOTE_SECRET", "")
# The shared secret of the order system's signed webhook (POST /webhooks/orders); empty:
# the endpoint is off (404).
ORDERS_WEBHOOK_SECRET = env_str("ORDERS_WEBHOOK_SECRET", "")
ORDERS_WEBHOOK_MAX_BODY_BYTES = env_int("ORDERS_WEBHOOK_MAX_BODY_BYTES", 64 * 1024)
REVIEW_IMAGE_MAX_PIXELS = env_int("REVIEW_IMAGE_MAX_PIXELS", 40_000_000)
REVIEW_IMAGE_MAX_SIDE = env_int("REVIEW_IMAGE_MAX_SIDE", 1600)
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3600)
PASSWORD_RESET_URL = env_str(
    "PASSWORD_RESET_URL", "/account/password-reset?uid={uid}&token={token}"
)
# A page at /account/password-reset, so the e-mailed link works in `make run`.
PASSWORD_RESET_DEMO_PAGE = env_bool("PASSWORD_RESET_DEMO_PAGE", DEBUG or not HTTPS)
# The starter storefront (clients/storefront) at /demo/storefront/, served by the demo only.
STOREFRONT_DEMO_PAGE = env_bool("STOREFRONT_DEMO_PAGE", DEBUG or not HTTPS)
SHIPPING_CUBIC_DIVISOR = env_int("SHIPPING_CUBIC_DIVISOR", 6000)
# Postal codes missing from the database asked of a ViaCEP-compatible API (docs/decisions.md).
POSTAL_CODE_PROVIDER_ENABLED = env_bool("POSTAL_CODE_PROVIDER_ENABLED", False)
POSTAL_CODE_PROVIDER_URL = env_str(
    "POSTAL_CODE_PROVIDER_URL", "https://viacep.com.br/ws/{code}/json/"
)
POSTAL_CODE_PROVIDER_COUNTRIES = env_list("POSTAL_CODE_PROVIDER_COUNTRIES", "BRA")
POSTAL_CODE_PROVIDER_TIMEOUT_MS = env_int("POSTAL_CODE_PROVIDER_TIMEOUT_MS", 1500)
POSTAL_CODE_PROVIDER_BREAKER_SECONDS = env_int("POSTAL_CODE_PROVIDER_BREAKER_SECONDS", 30)
POSTAL_CODE_PROVIDER_MISS_SECONDS = env_int("POSTAL_CODE_PROVIDER_MISS_SECONDS", 3600)
# Live carrier quotes (shipping/carriers.py): one deadline for all of a quote's calls.
CARRIER_TIMEOUT_MS = env_int("CARRIER_TIMEOUT_MS", 1500)
CARRIER_BREAKER_SECONDS = env_int("CARRIER_BREAKER_SECONDS", 30)
CARRIER_CALL_LOG_DAYS = env_int("CARRIER_CALL_LOG_DAYS", 30)
CARRIER_USER_AGENT = env_str("CARRIER_USER_AGENT", "storefront (set CARRIER_USER_AGENT)")
# Keys of the secrets staff type in the admin (carrier tokens; shipping/secrets.py): one or more
# passphrases, comma-separated, the first encrypts. Empty: derived from SECRET_KEY.
SECRETS_KEY = env_str("SECRETS_KEY", "")
# Absolute links in e-mails and image URLs outside a request.
PUBLIC_BASE_URL = env_str("PUBLIC_BASE_URL", "http://127.0.0.1:8000")
PUBLIC_CACHE_SECONDS = env_int("PUBLIC_CACHE_SECONDS", 300)
# Admin imports: staged uploads, and the size (lines) above which postal imports run apart.
IMPORT_STAGING_DIR = Path(env_str("IMPORT_STAGING_DIR", str(DATA_DIR / "imports")))
IMPORT_STAGING_MINUTES = env_int("IMPORT_STAGING_MINUTES", 30)
POSTAL_IMPORT_INLINE_MAX_LINES = env_int("POSTAL_IMPORT_INLINE_MAX_LINES", 50_000)
# "job" (the workers), "command" (manage.py run_postal_import in a new process) or "none".
POSTAL_IMPORT_RUNNER = env_str("POSTAL_IMPORT_RUNNER", "job")
CDN_PURGE_URL = env_str("CDN_PURGE_URL")
CDN_PURGE_TIMEOUT_SECONDS = env_int("CDN_PURGE_TIMEOUT_SECONDS", 5)
PRODUCT_FRAGMENT_SECONDS = env_int("PRODUCT_FRAGMENT_SECONDS", 3600)
IDEMPOTENCY_KEY_TTL = env_int("IDEMPOTENCY_KEY_TTL", 24 * 3600)

# --- Background jobs (docs/decisions.md, "Background jobs and webhooks") --------------
# "database" (run by `manage.py jobs_worker`) or "immediate" (inside the request).
JOBS_BACKEND = env_str("JOBS_BACKEND", "immediate" if RUNNING_TESTS else "database")
TASKS = {
    "default": {
        "BACKEND": (
            "django_tasks.backends.immediate.ImmediateBackend"
            if JOBS_BACKEND == "immediate"
            else "django_tasks_db.DatabaseBackend"
        )
    }
}
JOBS_LEASE_SECONDS = env_int("JOBS_LEASE_SECONDS", 300)
# What a read records (the carrier call log, postal codes learned from the provider) is
# written by a thread of each process every DEFERRED_FLUSH_SECONDS, never inside the request
# (infra/deferred.py); 0: no thread (the tests flush themselves). At most DEFERRED_MAX_ITEMS
# wait per process; more are dropped and counted.
DEFERRED_FLUSH_SECONDS = env_int("DEFERRED_FLUSH_SECONDS", 0 if RUNNING_TESTS else 2)
DEFERRED_MAX_ITEMS = env_int("DEFERRED_MAX_ITEMS", 10_000)
EMAIL_MAX_ATTEMPTS = env_int("EMAIL_MAX_ATTEMPTS", 6)
# Back-in-stock waves (catalog/restocks.py): the worker's scan for restocks, how long stock
# stays at 0 before a restock episode ends (flapping is one episode), and after how many days
# an interest not renewed is never notified.
BACK_IN_STOCK_SCAN_SECONDS = env_int("BACK_IN_STOCK_SCAN_SECONDS", 20)
BACK_IN_STOCK_COOLDOWN_HOURS = env_int("BACK_IN_STOCK_COOLDOWN_HOURS", 24)
INTEREST_EXPIRY_DAYS = env_int("INTEREST_EXPIRY_DAYS", 90)

# Product pages rendered ahead by the jobs worker (catalog.api.ahead, docs/caching.md): for
# each origin storefront clients call (`https://api.example.com`; none: nothing rendered
# ahead), every PAGES_AHEAD_EVERY_SECONDS, for at most PAGES_AHEAD_PASS_SECONDS a pass.
PAGES_AHEAD_ORIGINS = env_list("PAGES_AHEAD_ORIGINS")
PAGES_AHEAD_EVERY_SECONDS = env_int("PAGES_AHEAD_EVERY_SECONDS", 30)
PAGES_AHEAD_PASS_SECONDS = env_int("PAGES_AHEAD_PASS_SECONDS", 20)

# --- Outbound webhooks (docs/webhooks.md) --------------------------------------------------
# Production (HTTPS=1) delivers only to https URLs whose every address is public.
WEBHOOKS_ALLOW_HTTP = env_bool("WEBHOOKS_ALLOW_HTTP", not HTTPS)
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", not HTTPS)
WEBHOOKS_TIMEOUT = env_int("WEBHOOKS_TIMEOUT", 5)
WEBHOOKS_RETRY_FIRST_SECONDS = env_int("WEBHOOKS_RETRY_FIRST_SECONDS", 30)
WEBHOOKS_RETRY_MAX_DELAY_SECONDS = env_int("WEBHOOKS_RETRY_MAX_DELAY_SECONDS", 4 * 3600)
WEBHOOKS_RETRY_FOR_SECONDS = env_int("WEBHOOKS_RETRY_FOR_SECONDS", 24 * 3600)
WEBHOOKS_PAUSE_AFTER_FAILURES = env_int("WEBHOOKS_PAUSE_AFTER_FAILURES", 15)
WEBHOOKS_DEMO_RECEIVER = env_bool("WEBHOOKS_DEMO_RECEIVER", DEBUG or not HTTPS)
MANAGERS = [("Managers", a) for a in env_list("MANAGERS")]

# --- Logging ----------------------------------------------------------------
LOG_LEVEL = env_str("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        "operator_email": {
            "level": "ERROR",
            "class": "infra.log_handlers.OperatorEmailHandler",
            "filters": ["require_debug_false"],
        },
    },
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        **{
            name: {"handlers": ["console", "operator_email"], "level": "ERROR", "propagate": False}
            for name in ("django.request", "storefront.database")
        },
        "django_redis": {"level": "WARNING"},
        # A Host not in ALLOWED_HOSTS (scanners) is answered 400; not an operator's error.
        "django.security.DisallowedHost": {"level": "CRITICAL"},
    },
}

# --- Error tracker (optional) ---------------------------------------------------
# Errors also go to Sentry (needs sentry-sdk[django]).
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    try:
        import sentry_sdk
        from sentry_sdk.integrations.django import DjangoIntegration
    except ImportError as exc:
        raise ImproperlyConfigured(
            'SENTRY_DSN is set but sentry-sdk is not installed: pip install "sentry-sdk[django]".'
        ) from exc
    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration()],
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        send_default_pii=False,  # no cookies, tokens or user data
        traces_sample_rate=0.0,
    )
