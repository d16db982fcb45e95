"""A stand-in Redis for outage tests: a TCP server on 127.0.0.1 (free port) that accepts
connections and never answers (a hung Redis: SIGSTOP, packets dropped), and can later be
switched to pass connections through to a real Redis (the outage ends).
"""

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from urllib.parse import urlsplit

import pytest


class HungRedis:
    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)
        self.port = self._listener.getsockname()[1]
        self._upstream: tuple[str, int] | None = None
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self.accepted = 0
        self._thread = threading.Thread(target=self._accept_loop, daemon=True)
        self._thread.start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def answer_from(self, host: str, port: int) -> None:
        """End the outage: drop the hung connections, pass new ones through to host:port."""
        with self._lock:
            self._upstream = (host, port)
            hung, self._sockets = self._sockets, []
        for sock in hung:
            with contextlib.suppress(OSError):
                sock.close()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=2)
        self._listener.close()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()

    def _accept_loop(self) -> None:
        while not self._stopped.is_set():
            try:
                client, _ = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            with self._lock:
                upstream = self._upstream
                self._sockets.append(client)
            if upstream is not None:
                self._pass_through(client, upstream)

    def _pass_through(self, client: socket.socket, upstream: tuple[str, int]) -> None:
        try:
            server = socket.create_connection(upstream, timeout=2)
        except OSError:
            client.close()
            return
        server.settimeout(None)
        client.settimeout(None)
        with self._lock:
            self._sockets.append(server)
        for source, target in ((client, server), (server, client)):
            threading.Thread(target=self._pipe, args=(source, target), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def real_redis():
    """(host, port, db) of a Redis that answers: REDIS_URL's server when set (CI's cache
    run), else a redis-server started here on a free port (skipped, naming it, when the
    binary is missing)."""
    url = os.environ.get("REDIS_URL")
    if url:
        parts = urlsplit(url)
        yield parts.hostname or "127.0.0.1", parts.port or 6379, int(parts.path.strip("/") or 0)
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed and REDIS_URL is not set")
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(  # noqa: S603
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                    break
                time.sleep(0.05)
            else:
                pytest.fail("redis-server did not start within 10 s")
            yield "127.0.0.1", port, 0
        finally:
            process.terminate()
            process.wait(timeout=10)


@contextlib.contextmanager
def real_redis_cache(
    key_prefix: str,
    backend: str = "infra.caching.backend.BreakerRedisCache",
    options: dict | None = None,
):
    """The default cache on a real Redis (`real_redis`), under `key_prefix` (with the backend's
    `options`), emptied before and after: yields (the cache, (host, port, db))."""
    from django.core.cache import cache
    from django.test import override_settings

    with real_redis() as (host, port, db):
        caches = {
            "default": {
                "BACKEND": backend,
                "LOCATION": f"redis://{host}:{port}/{db}",
                "KEY_PREFIX": key_prefix,
                "OPTIONS": options or {},
            }
        }
        with override_settings(CACHES=caches):
            cache.clear()
            try:
                yield cache, (host, port, db)
            finally:
                cache.clear()
