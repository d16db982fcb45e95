"""gunicorn settings; every value can be overridden from the environment.

Run with: gunicorn -c config/gunicorn.conf.py config.wsgi
"""

import multiprocessing
import os


def _env(name: str, default: str) -> str:
    return os.environ.get(name) or default


bind = _env("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(_env("GUNICORN_WORKERS", str(multiprocessing.cpu_count() * 2 + 1)))
threads = int(_env("GUNICORN_THREADS", "1"))
worker_class = _env("GUNICORN_WORKER_CLASS", "sync")
timeout = int(_env("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(_env("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = int(_env("GUNICORN_KEEPALIVE", "5"))
max_requests = int(_env("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = int(_env("GUNICORN_MAX_REQUESTS_JITTER", "200"))
# Reject oversized request lines and headers before they reach Django.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = _env("GUNICORN_ACCESSLOG", "-")
errorlog = "-"
loglevel = _env("GUNICORN_LOGLEVEL", "info")
# Trust X-Forwarded-* only from the reverse proxy in front of this instance.
forwarded_allow_ips = _env("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
