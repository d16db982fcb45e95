"""gunicorn settings; every value can be overridden from the environment.

Run with: gunicorn -c config/gunicorn.conf.py config.wsgi
"""

import multiprocessing

# gunicorn puts its working directory (the project's root) on sys.path before reading this.
from config.env import env_bool, env_int, env_str

bind = env_str("GUNICORN_BIND", "127.0.0.1:8000")
workers = env_int("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1)
# Threaded workers, each accepting no more connections than it has threads: a client that
# sends its body slowly (or never finishes it) holds one thread, not a whole worker, and a
# worker whose threads are all held stops accepting, so the others take new connections.
# Measured with bench/slow_clients.py (docs/decisions.md): 2 sync workers stop serving with
# 2 slow clients; 2 gthread workers x 4 threads keep serving with 7. The real defence is a
# proxy that buffers request bodies (deploy/nginx.conf): gunicorn then only sees whole ones.
worker_class = env_str("GUNICORN_WORKER_CLASS", "gthread")
threads = env_int("GUNICORN_THREADS", 4)
worker_connections = env_int("GUNICORN_WORKER_CONNECTIONS", threads)
timeout = env_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = env_int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = env_int("GUNICORN_KEEPALIVE", 5)
# Recycle a worker now and then (a safety net against slow leaks), but rarely: cached answers
# run at 1,000+ requests/s per worker, and a recycled worker loses its recent answers and pays a
# boot. The jitter keeps workers from restarting together.
max_requests = env_int("GUNICORN_MAX_REQUESTS", 100_000)
max_requests_jitter = env_int("GUNICORN_MAX_REQUESTS_JITTER", 20_000)
# Above the application's own limits (MAX_URL_BYTES, MAX_HEADER_BYTES and
# MAX_HEADER_FIELDS in config/settings.py: 8000 bytes, 8000 bytes, 100 fields), so the
# application answers those in the error envelope; gunicorn only stops what lies beyond
# (8190 is the largest request line gunicorn accepts short of "unlimited").
limit_request_line = 8190
limit_request_fields = 200
limit_request_field_size = 16384
accesslog = env_str("GUNICORN_ACCESSLOG", "-")
errorlog = "-"
loglevel = env_str("GUNICORN_LOGLEVEL", "info")

# --- Forwarded scheme ---------------------------------------------------------
# gunicorn sets wsgi.url_scheme to https when a trusted peer sends one of
# secure_scheme_headers, and Django then treats the request as secure (no HTTPS
# redirect, secure cookies sent). That trust follows TRUST_X_FORWARDED_PROTO, like
# Django's SECURE_PROXY_SSL_HEADER: off, no peer is trusted and no header counts (a
# client's `X-Forwarded-Ssl: on` changes nothing); on, only the proxy's addresses
# (GUNICORN_FORWARDED_ALLOW_IPS) are trusted, and only for X-Forwarded-Proto, the one
# header the proxy overwrites (deploy/nginx.conf).
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    forwarded_allow_ips = env_str("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
    secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}
else:
    forwarded_allow_ips = ""
    secure_scheme_headers = {}
# No peer sets SCRIPT_NAME / PATH_INFO through headers (gunicorn trusts unix-socket
# peers whatever forwarded_allow_ips says).
forwarder_headers = ""
