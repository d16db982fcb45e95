"""Settings for the load benchmark: the real settings plus a constant-JSON baseline view."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
HTTPS = False
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
LOGGING["root"]["level"] = "WARNING"  # noqa: F405
