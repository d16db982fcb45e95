"""GET /publics/payments/card-flags (contract 2.3, 4.1)."""

import json
import re
import shutil
import subprocess

import pytest

from tests.helpers import assert_error_envelope

URL = "/publics/payments/card-flags"
BRANDS = ["visa", "master", "americanexpress", "elo", "hipercard", "aura"]

# (number, brand, where it is published). "constructed" numbers carry a BIN no sandbox
# publishes a number for, completed with zeros and a valid Luhn check digit.
BRAND_NUMBERS = [
    ("4111111111111111", "visa", "Stripe, Braintree, Adyen test cards"),
    ("4012888888881881", "visa", "Braintree test cards"),
    ("4222222222222", "visa", "PayPal/Braintree 13-digit test card"),
    ("4235647728025682", "visa", "e.Rede sandbox"),
    ("5555555555554444", "master", "Stripe test cards"),
    ("5105105105105100", "master", "Braintree test cards"),
    ("2223003122003222", "master", "Stripe 2-series test card"),
    ("2223020000000005", "master", "e.Rede sandbox (2-series)"),
    ("5448280000000007", "master", "e.Rede sandbox"),
    ("378282246310005", "americanexpress", "Stripe test cards"),
    ("371449635398431", "americanexpress", "Stripe test cards"),
    ("371341553758128", "americanexpress", "e.Rede sandbox"),
    ("340000000000009", "americanexpress", "Braintree test cards"),
    ("6362970000457013", "elo", "Cielo sandbox (BIN 6362 97)"),
    ("4389351648020055", "elo", "e.Rede sandbox (BIN 4389 35, inside Visa's 4)"),
    ("4389358876174389", "elo", "e.Rede sandbox (BIN 4389 35)"),
    ("5067224275805500", "elo", "Adiq sandbox (BIN 5067, inside Aura's 50)"),
    ("5066991111111118", "elo", "BIN 506699, first of 506699-506778"),
    ("6550000000000001", "elo", "3-D Secure test table (BIN 6550 00, inside Discover's 65)"),
    ("4011780000000006", "elo", "constructed: BIN 4011 78"),
    ("4011790000000005", "elo", "constructed: BIN 4011 79"),
    ("4576310000000009", "elo", "constructed: BIN 4576 31"),
    ("6504870000000004", "elo", "constructed: BIN 6504 87"),
    ("5090000000000000", "elo", "constructed: BIN 5090 00"),
    ("6062825624254001", "hipercard", "e.Rede and Cielo sandboxes (BIN 606282)"),
    ("6062828898541988", "hipercard", "Adiq sandbox (BIN 606282)"),
    ("6062826786276634", "hipercard", "BIN 606282"),
    ("6062820000000000002", "hipercard", "constructed: BIN 606282, 19 digits"),
    ("3841000000000000004", "hipercard", "constructed: BIN 3841 00, 19 digits"),
    ("3841400000000000000", "hipercard", "constructed: BIN 3841 40, 19 digits"),
    ("3841600000000000008", "hipercard", "constructed: BIN 3841 60, 19 digits"),
    ("5078601870000127985", "aura", "EBANX test cards"),
    ("5078601800003247449", "aura", "EBANX test cards"),
    ("5078600000000003", "aura", "constructed: BIN 5078 60, 16 digits"),
]

OTHER_BRAND_NUMBERS = [
    ("6011111111111117", "Discover"),
    ("6011000990139424", "Discover"),
    ("6011000991300009", "Discover"),
    ("6445644564456445", "Discover"),
    ("30569309025904", "Diners"),
    ("38520000023237", "Diners (38)"),
    ("36227206271667", "Diners (36)"),
    ("36490101441625", "Diners (36)"),
    ("3530111333300000", "JCB"),
    ("3566002020360505", "JCB"),
    ("3569990012290937", "JCB"),
]

# Just outside an Elo range: the number belongs to the wider brand (or to none).
BOUNDARY_NUMBERS = [
    ("4011770000000007", "visa"),
    ("4389360000000004", "visa"),
    ("5066980000000008", "aura"),
    ("5067790000000000000", "aura"),
    ("6500300000000000", None),
    ("6500340000000006", None),
]

NOT_CARD_NUMBERS = [
    "",
    "4111111111111111\n",
    "4111111111111111\r\n",
    "\n4111111111111111",
    " 4111111111111111",
    "4111111111111111 ",
    "4111 1111 1111 1111",
    "4111-1111-1111-1111",
    "411111111111111a",
    "\uff14" + "\uff11" * 15,  # full-width digits
    "٤١١١١١١١١١١١١١١١",  # Arabic-Indic digits
    "41111111111111111",  # 17 digits
    "411111111111",  # 12 digits
    "55555555555544",  # Mastercard, 14 digits
    "3782822463100055",  # Amex, 16 digits
    "63629700004570130",  # Elo, 17 digits
]


def luhn_valid(number: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(number)):
        digit = int(char)
        if position % 2:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return total % 10 == 0


@pytest.fixture
def patterns(api_client) -> dict[str, str]:
    return api_client.get(URL).json()["data"]


def matching(patterns: dict[str, str], number: str) -> list[str]:
    return [brand for brand, pattern in patterns.items() if re.search(pattern, number)]


def test_card_flags_answer_the_success_envelope_with_the_six_brands(api_client):
    response = api_client.get(URL)

    assert response.status_code == 200
    body = response.json()
    assert body["status"] is True
    assert list(body["data"]) == BRANDS
    assert all(isinstance(pattern, str) and pattern for pattern in body["data"].values())


@pytest.mark.parametrize("url", [URL + "/", "/api/v3" + URL, "/api/v3" + URL + "/"])
def test_card_flags_are_served_on_every_path_alias(api_client, url):
    response = api_client.get(url)
    assert response.status_code == 200
    assert list(response.json()["data"]) == BRANDS


def test_served_patterns_compile_in_python(patterns):
    for pattern in patterns.values():
        re.compile(pattern)


def test_test_numbers_are_well_formed():
    for number, _brand, _source in BRAND_NUMBERS:
        assert luhn_valid(number), number
    for number, _brand in OTHER_BRAND_NUMBERS:
        assert luhn_valid(number), number


@pytest.mark.parametrize(("number", "brand", "source"), BRAND_NUMBERS)
def test_a_published_number_matches_exactly_its_brand(patterns, number, brand, source):
    assert matching(patterns, number) == [brand]


def test_every_brand_has_at_least_three_test_numbers():
    for brand in BRANDS:
        assert sum(1 for _n, b, _s in BRAND_NUMBERS if b == brand) >= 3


@pytest.mark.parametrize(("number", "brand"), OTHER_BRAND_NUMBERS)
def test_numbers_of_other_brands_match_none(patterns, number, brand):
    assert matching(patterns, number) == []


@pytest.mark.parametrize(("number", "brand"), BOUNDARY_NUMBERS)
def test_numbers_just_outside_elo_ranges_are_not_elo(patterns, number, brand):
    assert matching(patterns, number) == ([brand] if brand else [])


@pytest.mark.parametrize("text", NOT_CARD_NUMBERS)
def test_anything_but_a_bare_digit_string_of_the_right_length_matches_none(patterns, text):
    assert matching(patterns, text) == []


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_evaluates_every_pattern_exactly_as_python(patterns):
    samples = (
        [number for number, _b, _s in BRAND_NUMBERS]
        + [number for number, _b in OTHER_BRAND_NUMBERS]
        + [number for number, _b in BOUNDARY_NUMBERS]
        + NOT_CARD_NUMBERS
    )
    script = (
        "const {patterns, samples} = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = {};"
        "for (const [brand, source] of Object.entries(patterns)) {"
        "  const re = new RegExp(source);"
        "  out[brand] = samples.map((s) => re.test(s));"
        "}"
        "process.stdout.write(JSON.stringify(out));"
    )
    result = subprocess.run(  # noqa: S603 (fixed program, no shell)
        [shutil.which("node"), "-e", script],
        input=json.dumps({"patterns": patterns, "samples": samples}),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    in_node = json.loads(result.stdout)
    in_python = {
        brand: [bool(re.search(pattern, sample)) for sample in samples]
        for brand, pattern in patterns.items()
    }
    assert in_node == in_python
    # and the JavaScript verdicts are the expected ones, not merely equal
    for index, (_number, brand, _source) in enumerate(BRAND_NUMBERS):
        assert [b for b in BRANDS if in_node[b][index]] == [brand]


@pytest.mark.cache
def test_card_flags_carry_an_etag_and_cache_control(api_client):
    response = api_client.get(URL)
    assert response["ETag"].startswith('"')
    assert response["Cache-Control"].startswith("public, max-age=")


def test_a_matching_if_none_match_gets_304_without_a_body(api_client):
    etag = api_client.get(URL)["ETag"]

    response = api_client.get(URL, HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag


def test_a_stale_etag_gets_the_full_response(api_client):
    response = api_client.get(URL, HTTP_IF_NONE_MATCH='"stale"')
    assert response.status_code == 200
    assert list(response.json()["data"]) == BRANDS


@pytest.mark.django_db
def test_card_flags_need_no_database_query(api_client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert api_client.get(URL).status_code == 200


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_writing_to_card_flags_is_405(api_client, method):
    response = getattr(api_client, method)(URL, data={}, format="json")
    assert_error_envelope(response, 405, "METHOD_NOT_ALLOWED")


@pytest.mark.django_db
def test_a_sign_in_token_is_not_looked_up(api_client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = api_client.get(URL, HTTP_AUTHORIZATION="Bearer some.customer.token")

    assert response.status_code == 200
