"""The postal-code provider fallback (issue 14 item 3), against a local fake ViaCEP that the
tests start on a free port: the zipcode consult and the quote ask it for a code that is
not in the database, store the answer and serve it from the database next time; a slow,
failing or nonsensical provider is a 404 as without one, never a 5xx."""

import json
import threading
import time
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from shipping import provider
from shipping.models import PostalCode
from tests.helpers import assert_error

from .factories import PostalCodeFactory

ZIP_404 = "SERVICE_STORE_ZIPCODE_NOT_FOUND"

pytestmark = pytest.mark.django_db

SE = {
    "cep": "01001-000",
    "logradouro": "Praça da Sé",
    "complemento": "lado ímpar",
    "bairro": "Sé",
    "localidade": "São Paulo",
    "uf": "SP",
    "ibge": "3550308",
    "ddd": "11",
}


class FakeProvider:
    """Answers GET /ws/<cep>/json/ from `answers` {cep: (status, body bytes, delay s)}."""

    def __init__(self):
        self.answers: dict[str, tuple[int, bytes, float]] = {}
        self.hits: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = self.path.strip("/").split("/")
                code = parts[1] if len(parts) == 3 else ""
                fake.hits.append(code)
                status, body, delay = fake.answers.get(code, (200, b'{"erro": "true"}', 0))
                time.sleep(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (timeout test)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/ws/{{code}}/json/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def answer(self, code: str, payload, *, status: int = 200, delay: float = 0.0):
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.answers[code] = (status, body, delay)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake_provider(settings):
    fake = FakeProvider()
    settings.POSTAL_CODE_PROVIDER_ENABLED = True
    settings.POSTAL_CODE_PROVIDER_URL = fake.url
    settings.POSTAL_CODE_PROVIDER_TIMEOUT_MS = 300
    provider.breaker.reset()
    yield fake
    provider.breaker.reset()
    fake.stop()


def consult(api_client, code: str, country: str = "BRA"):
    return api_client.get(f"/shipping/zipcode/consult/{country}/{code}")


def test_off_by_default_an_unknown_code_is_a_404_and_the_provider_is_not_asked(
    api_client, fake_provider, settings
):
    settings.POSTAL_CODE_PROVIDER_ENABLED = False
    fake_provider.answer("01001000", SE)
    response = consult(api_client, "01001-000")
    assert_error(response, 404, ZIP_404)
    assert fake_provider.hits == []
    assert not PostalCode.objects.exists()


def test_an_unknown_code_is_asked_stored_and_served_from_the_database_next_time(
    api_client, fake_provider
):
    fake_provider.answer("01001000", SE)
    first = consult(api_client, "01001-000")
    assert first.status_code == 200
    data = first.json()["data"]
    assert data["zipCode"] == "01001-000"
    assert data["publicPlace"] == "Praça da Sé"
    assert data["complement"] == "lado ímpar"
    assert data["district"] == "Sé"
    assert data["city"] == "São Paulo"
    assert data["stateCode"] == "BR-SP"
    assert data["latitude"] is None and data["longitude"] is None
    stored = PostalCode.objects.get(country="BRA", code="01001000")
    assert stored.city == "São Paulo"
    # the next request (another spelling) is answered from the database
    again = consult(api_client, "01001000")
    assert again.status_code == 200
    assert again.json()["data"] == data
    assert fake_provider.hits == ["01001000"]


def test_a_known_code_never_asks_the_provider(api_client, fake_provider):
    PostalCodeFactory()  # Avenida Paulista, 01310-100
    assert consult(api_client, "01310-100").status_code == 200
    assert fake_provider.hits == []


def test_a_code_the_provider_does_not_know_is_a_404_and_is_not_asked_again(
    api_client, fake_provider
):
    fake_provider.answer("99999999", {"erro": True})
    assert_error(consult(api_client, "99999-999"), 404, ZIP_404)
    assert_error(consult(api_client, "99999999"), 404, ZIP_404)
    assert fake_provider.hits == ["99999999"]
    assert not PostalCode.objects.exists()


def test_a_4xx_of_the_provider_is_an_unknown_code(api_client, fake_provider):
    fake_provider.answer("12345678", b'{"message": "bad request"}', status=400)
    assert_error(consult(api_client, "12345-678"), 404, ZIP_404)
    assert provider.breaker.state == "closed"


def test_other_countries_are_not_sent_to_a_brazilian_provider(api_client, fake_provider):
    assert_error(consult(api_client, "90210", "USA"), 404, ZIP_404)
    assert fake_provider.hits == []


def test_coordinates_of_a_compatible_provider_are_stored(api_client, fake_provider):
    fake_provider.answer("01001000", {**SE, "lat": "-23.5503", "lng": -46.6339})
    data = consult(api_client, "01001-000").json()["data"]
    assert data["latitude"] == -23.5503
    assert data["longitude"] == -46.6339
    stored = PostalCode.objects.get(code="01001000")
    assert stored.latitude == Decimal("-23.550300")


@pytest.mark.parametrize(
    "payload, status",
    [
        (b"<html>busy</html>", 200),  # not JSON
        (b"[1, 2]", 200),  # not an object
        (json.dumps({**SE, "cep": "01002-000"}).encode(), 200),  # another code
        (json.dumps({**SE, "bairro": 7}).encode(), 200),  # wrong type
        (b'{"cep": "01001-000", "x": "' + b"a" * 20_000 + b'"}', 200),  # too long
        (json.dumps(SE).encode(), 500),
        (json.dumps(SE).encode(), 503),
    ],
    ids=["html", "array", "other-code", "wrong-type", "huge", "500", "503"],
)
def test_a_failing_provider_is_a_404_stores_nothing_and_opens_the_breaker(
    api_client, fake_provider, payload, status
):
    fake_provider.answer("01001000", payload, status=status)
    assert_error(consult(api_client, "01001-000"), 404, ZIP_404)
    assert not PostalCode.objects.exists()
    assert provider.breaker.state == "open"
    # while open, nobody waits for the provider
    assert_error(consult(api_client, "01001-000"), 404, ZIP_404)
    assert fake_provider.hits == ["01001000"]


def test_a_slow_provider_costs_one_timeout_then_is_skipped(api_client, fake_provider):
    fake_provider.answer("01001000", SE, delay=2.0)
    started = time.monotonic()
    assert_error(consult(api_client, "01001-000"), 404, ZIP_404)
    assert time.monotonic() - started < 1.5  # the 300 ms timeout, not the provider's 2 s
    assert provider.breaker.state == "open"
    started = time.monotonic()
    assert_error(consult(api_client, "01001-000"), 404, ZIP_404)
    assert time.monotonic() - started < 0.25
    assert fake_provider.hits == ["01001000"]


def test_the_breaker_probes_again_after_its_pause_and_closes(api_client, fake_provider, settings):
    settings.POSTAL_CODE_PROVIDER_BREAKER_SECONDS = 0
    fake_provider.answer("01001000", b"oops", status=500)
    assert_error(consult(api_client, "01001-000"), 404, ZIP_404)
    fake_provider.answer("01001000", SE)
    assert consult(api_client, "01001-000").status_code == 200
    assert provider.breaker.state == "closed"


def test_control_characters_from_the_provider_are_dropped(api_client, fake_provider):
    fake_provider.answer("01001000", {**SE, "logradouro": "Praça\x00 da\x1b Sé\u0085"})
    assert consult(api_client, "01001-000").json()["data"]["publicPlace"] == "Praça da Sé"


def test_a_code_stored_meanwhile_by_another_request_is_served(api_client, fake_provider):
    fake_provider.answer("01001000", SE)
    PostalCodeFactory(code="01001000", city="Sé (imported)", latitude=None, longitude=None)
    # the database copy wins; the provider is not asked
    assert consult(api_client, "01001-000").json()["data"]["city"] == "Sé (imported)"
    assert fake_provider.hits == []


def test_the_quote_learns_the_destination_from_the_provider(api_client, fake_provider):
    fake_provider.answer("20040002", {**SE, "cep": "20040-002", "uf": "RJ", "lat": "-22.9"})
    response = api_client.get(
        "/publics/products/quote",
        {
            "targetZipCode": "20040-002",
            "targetCountryCode": "BRA",
            "items": json.dumps([{"productId": 999999, "quantity": 1}]),
        },
    )
    assert response.status_code == 200
    assert response.json()["errorItems"][0]["productId"] == 999999
    stored = PostalCode.objects.get(code="20040002")
    assert stored.state_code == "BR-RJ"
    assert stored.latitude is None  # a lone latitude is no point
    assert fake_provider.hits == ["20040002"]
