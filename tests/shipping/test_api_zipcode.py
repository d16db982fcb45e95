"""GET /shipping/zipcode/consult/{countryCode}/{zipCode} (contract 2.9, 4.7)."""

from decimal import Decimal

import pytest
from django.core.management import call_command

from shipping.models import PostalCode
from tests.helpers import assert_error

from .factories import PostalCodeFactory

pytestmark = pytest.mark.django_db

ADDRESS_KEYS = {
    "zipCode",
    "publicPlace",
    "complement",
    "district",
    "city",
    "stateCode",
    "latitude",
    "longitude",
    "countryName",
    "countryCodeAlpha2",
    "countryCodeAlpha3",
    "ddi",
    "currency",
}


def consult(api_client, country: str, code: str, prefix: str = ""):
    return api_client.get(f"{prefix}/shipping/zipcode/consult/{country}/{code}")


def test_consult_answers_the_address_in_the_success_envelope_field_by_field(api_client):
    # given Avenida Paulista
    PostalCodeFactory()
    # when it is consulted with the hyphen
    response = consult(api_client, "BRA", "01310-100")
    # then every contract field is there with its JSON type
    assert response.status_code == 200
    body = response.json()
    assert body["status"] is True
    data = body["data"]
    assert set(data) == ADDRESS_KEYS
    assert data == {
        "zipCode": "01310-100",
        "publicPlace": "Avenida Paulista",
        "complement": "de 612 a 1510 - lado par",
        "district": "Bela Vista",
        "city": "São Paulo",
        "stateCode": "BR-SP",
        "latitude": -23.561684,
        "longitude": -46.655981,
        "countryName": "Brazil",
        "countryCodeAlpha2": "BR",
        "countryCodeAlpha3": "BRA",
        "ddi": "55",
        "currency": "BRL",
    }
    assert isinstance(data["latitude"], float) and isinstance(data["longitude"], float)


@pytest.mark.parametrize("code", ["01310100", "01310-100", "01310 100", "01.310-100"])
def test_the_code_is_accepted_with_or_without_separators(api_client, code):
    PostalCodeFactory()
    response = consult(api_client, "BRA", code)
    assert response.status_code == 200
    assert response.json()["data"]["zipCode"] == "01310-100"


@pytest.mark.parametrize("prefix", ["", "/api/v3"])
@pytest.mark.parametrize("slash", ["", "/"])
def test_the_endpoint_answers_under_every_prefix_and_slash_form(api_client, prefix, slash):
    PostalCodeFactory()
    response = api_client.get(f"{prefix}/shipping/zipcode/consult/BRA/01310-100{slash}")
    assert response.status_code == 200


def test_the_country_code_is_case_insensitive(api_client):
    PostalCodeFactory()
    assert consult(api_client, "bra", "01310100").status_code == 200


def test_a_us_zip_plus_4_finds_the_5_digit_code(api_client):
    PostalCodeFactory(
        country="USA",
        code="90210",
        public_place="",
        complement="",
        district="",
        city="Beverly Hills",
        state_code="US-CA",
        latitude=Decimal("34.090100"),
        longitude=Decimal("-118.406500"),
    )
    data = consult(api_client, "USA", "90210-1234").json()["data"]
    assert (data["zipCode"], data["ddi"], data["currency"]) == ("90210", "1", "USD")
    assert data["countryName"] == "United States"


def test_an_address_without_coordinates_has_null_latitude_and_longitude(api_client):
    PostalCodeFactory(latitude=None, longitude=None)
    data = consult(api_client, "BRA", "01310-100").json()["data"]
    assert data["latitude"] is None and data["longitude"] is None


def test_an_unknown_postal_code_is_404_zipcode_not_found(api_client):
    PostalCodeFactory()
    data = assert_error(
        consult(api_client, "BRA", "99999-999"), 404, "SERVICE_STORE_ZIPCODE_NOT_FOUND"
    )
    assert "99999-999" in data["message"]


def test_the_same_code_in_another_country_is_not_found(api_client):
    PostalCodeFactory(country="BRA", code="01310100")
    assert_error(consult(api_client, "PRT", "01310100"), 404, "SERVICE_STORE_ZIPCODE_NOT_FOUND")


@pytest.mark.parametrize("country", ["BR", "BRAZ", "B1A", "XYZ", "ÇÇÇ", "x" * 60])
def test_a_country_code_that_is_not_3_letters_of_a_country_is_422(api_client, country):
    data = assert_error(consult(api_client, country, "01310100"), 422, "VALIDATION_ERROR")
    assert list(data["errors"]) == ["countryCode"]
    assert "countryCode" in data["errors"]["countryCode"][0]


@pytest.mark.parametrize("code", ["123", "ABCDEFGH", "0131010O", "1" * 300])
def test_a_malformed_postal_code_is_422_naming_the_field(api_client, code):
    data = assert_error(consult(api_client, "BRA", code), 422, "VALIDATION_ERROR")
    assert list(data["errors"]) == ["zipCode"]
    assert "zipCode" in data["errors"]["zipCode"][0]


@pytest.mark.cache
def test_results_are_cached_and_invalidated_when_the_address_changes(
    api_client, django_assert_num_queries
):
    postal_code = PostalCodeFactory()
    consult(api_client, "BRA", "01310-100")
    with django_assert_num_queries(0):
        assert consult(api_client, "BRA", "01310-100").status_code == 200

    postal_code.city = "Sampa"
    postal_code.save()

    assert consult(api_client, "BRA", "01310-100").json()["data"]["city"] == "Sampa"


def test_an_unknown_code_becomes_known_after_an_import(api_client, tmp_path):
    assert consult(api_client, "BRA", "20040-002").status_code == 404
    path = tmp_path / "rj.txt"
    path.write_text("BR\t20040-002\tRio de Janeiro\tRio de Janeiro\tRJ\t\t\t\t\t-22.9\t-43.2\t4\n")
    call_command("import_postal_codes", "--format", "geonames", str(path), stdout=None)

    assert consult(api_client, "BRA", "20040-002").status_code == 200


def test_the_response_carries_an_etag_and_answers_304(api_client):
    PostalCodeFactory()
    first = consult(api_client, "BRA", "01310-100")
    assert first["Cache-Control"].startswith("public")
    again = api_client.get(
        "/shipping/zipcode/consult/BRA/01310-100", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert again.status_code == 304


def test_other_methods_are_405(api_client):
    response = api_client.post("/shipping/zipcode/consult/BRA/01310-100", {}, format="json")
    assert_error(response, 405, "METHOD_NOT_ALLOWED")
    assert PostalCode.objects.count() == 0
