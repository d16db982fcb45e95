"""gunicorn settings; every value can be overridden from the environment.

Run with: gunicorn -c config/gunicorn.conf.py config.wsgi
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "200"))
# Reject oversized request lines and headers before they reach Django.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-")
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
# Trust X-Forwarded-* only from the reverse proxy in front of this instance.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
