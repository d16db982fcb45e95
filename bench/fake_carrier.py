"""A fake freight aggregator (Melhor Envio's shipment calculate) on a free local port, for
the live-carrier tests (tests/shipping) and the bench's live row: `mode` picks its behaviour,
`calls` records what it was asked (time, path, headers, body)."""

import json
import time

from bench.harness import Recorder

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


class FakeCarrier(Recorder):
    """Modes: ok (SERVICES), slow (sleeps `slow_seconds`, then ok), error (HTTP 500),
    garbage (a 200 that is not JSON)."""

    def __init__(self, mode: str = "ok", *, slow_seconds: float = 10.0, delay: float = 0.0):
        super().__init__(delay)  # seconds before every answer (the bench's 50 ms)
        self.mode = mode
        self.slow_seconds = slow_seconds

    def answer(self, handler) -> None:
        if self.mode == "slow":
            time.sleep(self.slow_seconds)
        if self.mode == "error":
            handler.send(500, b'{"message": "Server Error"}')
        elif self.mode == "garbage":
            handler.send(200, b"<html>not json")
        else:
            handler.send(200, json.dumps(SERVICES).encode())

    def calls_per_minute(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for call in self.calls:
            window = int(call["at"] // 60)
            counts[window] = counts.get(window, 0) + 1
        return counts
