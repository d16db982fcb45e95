"""A webhook receiver for tests: an HTTP server on a free 127.0.0.1 port that checks the
X-Signature header the way docs/webhooks.md tells receivers to (401 when it does not)."""

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from webhooks.signing import verify


@dataclass
class Received:
    headers: dict
    body: bytes

    @property
    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class Receiver:
    secret: str
    statuses: list[int] = field(default_factory=list)  # answers in turn; then 200
    received: list[Received] = field(default_factory=list)
    rejected: int = 0
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks?x=1"

    def start(self) -> "Receiver":
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                ok = verify(
                    receiver.secret, self.headers.get("X-Signature", ""), body, now=int(time.time())
                )
                if not ok:
                    receiver.rejected += 1
                    status = 401
                else:
                    receiver.received.append(Received(dict(self.headers.items()), body))
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                if status == 302:
                    self.send_header("Location", "http://10.0.0.1/")
                self.end_headers()
                self.wfile.write(f"answer {status}".encode())

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
