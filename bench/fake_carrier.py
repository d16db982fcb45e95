"""A fake freight aggregator (Melhor Envio's shipment calculate) on a free local port, for
the live-carrier tests (tests/shipping) and the bench's live row: `mode` picks its behaviour,
`calls` records what it was asked (time, path, headers, body)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SERVICES = [
    {
        "id": 1,
        "name": "PAC",
        "price": "18.40",
        "custom_price": "18.40",
        "discount": "2.10",
        "currency": "R$",
        "delivery_time": 6,
        "delivery_range": {"min": 5, "max": 6},
        "custom_delivery_time": 6,
        "custom_delivery_range": {"min": 5, "max": 6},
        "company": {"id": 1, "name": "Correios", "picture": ""},
    },
    {
        "id": 2,
        "name": "SEDEX",
        "price": "31.20",
        "custom_price": "31.20",
        "delivery_time": 2,
        "delivery_range": {"min": 1, "max": 2},
        "company": {"id": 1, "name": "Correios", "picture": ""},
    },
    {
        "id": 3,
        "name": ".Package",
        "error": "Transportadora não atende este trecho.",
        "company": {"id": 2, "name": "Jadlog", "picture": ""},
    },
]


class FakeCarrier:
    """Modes: ok (SERVICES), slow (sleeps `slow_seconds`, then ok), error (HTTP 500),
    garbage (a 200 that is not JSON)."""

    def __init__(self, mode: str = "ok", *, slow_seconds: float = 10.0, delay: float = 0.0):
        self.mode = mode
        self.slow_seconds = slow_seconds
        self.delay = delay  # seconds before every answer (the bench's 50 ms)
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with fake._lock:
                    fake.calls.append(
                        {
                            "at": time.time(),
                            "path": self.path,
                            "headers": dict(self.headers),
                            "body": json.loads(body or b"null"),
                        }
                    )
                if fake.delay:
                    time.sleep(fake.delay)
                if fake.mode == "slow":
                    time.sleep(fake.slow_seconds)
                if fake.mode == "error":
                    self._send(500, b'{"message": "Server Error"}')
                elif fake.mode == "garbage":
                    self._send(200, b"<html>not json")
                else:
                    self._send(200, json.dumps(SERVICES).encode())

            def _send(self, status: int, body: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (the quote's deadline)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeCarrier:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def calls_per_minute(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for call in self.calls:
            window = int(call["at"] // 60)
            counts[window] = counts.get(window, 0) + 1
        return counts
