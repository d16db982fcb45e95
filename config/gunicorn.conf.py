"""gunicorn settings, each from the environment: gunicorn -c config/gunicorn.conf.py config.wsgi"""

import json
import multiprocessing

from gunicorn import util

# gunicorn puts its working directory (the project's root) on sys.path before reading this.
from config.env import env_bool, env_int, env_str

bind = env_str("GUNICORN_BIND", "127.0.0.1:8000")
workers = env_int("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1)
# Threaded workers accepting no more connections than threads: a slow client holds a thread,
# not a worker (bench/slow_clients.py, docs/decisions.md; deploy/nginx.conf buffers bodies).
worker_class = env_str("GUNICORN_WORKER_CLASS", "gthread")
threads = env_int("GUNICORN_THREADS", 4)
worker_connections = env_int("GUNICORN_WORKER_CONNECTIONS", threads)
timeout = env_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = env_int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = env_int("GUNICORN_KEEPALIVE", 5)
# Recycled rarely (against slow leaks): a recycled worker loses its cached answers.
max_requests = env_int("GUNICORN_MAX_REQUESTS", 100_000)
max_requests_jitter = env_int("GUNICORN_MAX_REQUESTS_JITTER", 20_000)
# Above the application's MAX_URL_BYTES, MAX_HEADER_BYTES and MAX_HEADER_FIELDS, which it
# answers in the error envelope (8190: gunicorn's largest short of "unlimited").
limit_request_line = 8190
limit_request_fields = 200
limit_request_field_size = 16384
accesslog = env_str("GUNICORN_ACCESSLOG", "-")
errorlog = "-"
loglevel = env_str("GUNICORN_LOGLEVEL", "info")

# The forwarded scheme is trusted like Django's SECURE_PROXY_SSL_HEADER: only with
# TRUST_X_FORWARDED_PROTO, only from the proxy, and only X-Forwarded-Proto (which it overwrites).
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    forwarded_allow_ips = env_str("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
    secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}
else:
    forwarded_allow_ips = ""
    secure_scheme_headers = {}
# No peer sets SCRIPT_NAME / PATH_INFO (gunicorn trusts unix-socket peers regardless).
forwarder_headers = ""


def write_error_envelope(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own refusals (a malformed or oversize request line or header, before the
    application runs) in the error envelope like every answer of the service, not as gunicorn's
    HTML page. Called in a worker, where the application (and Django) has loaded."""
    from apikit.errors import error_body

    message = f"{reason}: {mesg}" if mesg else reason
    body = json.dumps(error_body(status_code=status_int, message=message)).encode()
    head = f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
    head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    util.write_nonblock(sock, head.encode("latin-1") + body)


util.write_error = write_error_envelope
