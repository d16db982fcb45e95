"""POST /publics/payments/conditions (contract 2.4, 4.2; issue 2, item 10)."""

import json
from decimal import ROUND_HALF_UP, Decimal, localcontext

import pytest
from rest_framework.renderers import JSONRenderer

from storefront.api.payment_serializers import PaymentConditionSerializer
from storefront.models import PaymentOption
from storefront.payments import (
    cash_discount,
    cash_discount_terms_of,
    installment_plan,
    installment_terms_of,
)
from tests.helpers import assert_error_envelope
from tests.storefront.factories import PaymentOptionFactory

URL = "/publics/payments/conditions"
NOT_FOUND = "SERVICE_STORE_PAYMENT_OPTION_NOT_FOUND"
CASH_ID = "cashDiscountPaymentOptionId"
PLAN_ID = "installmentPaymentOptionId"
ONE_ITEM = {"reference": "a", "value": 1}

pytestmark = pytest.mark.django_db


def post(client, body, *, url=URL):
    return client.post(url, data=json.dumps(body), content_type="application/json")


def money(value) -> Decimal:
    return Decimal(str(value))


@pytest.fixture
def cash_option():
    return PaymentOptionFactory(discount_percentage=Decimal("5.00"), is_default=True)


@pytest.fixture
def card_option():
    return PaymentOptionFactory(installments=True, is_default=True)


@pytest.fixture
def default_options(cash_option, card_option):
    return cash_option, card_option


def assert_validation_error(response, field: str) -> list[str]:
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert field in body["data"]["errors"], body["data"]["errors"]
    messages = body["data"]["errors"][field]
    assert all(field in message for message in messages), messages
    return messages


# --- Shape and worked examples ----------------------------------------------------------


def test_each_item_gets_its_conditions_with_every_contract_field(api_client, default_options):
    response = post(api_client, {"items": [{"reference": "sku-1", "value": 1000}]})

    assert response.status_code == 200
    body = response.json()
    assert body["status"] is True
    [result] = body["data"]
    assert set(result) == {"reference", "value", "cashDiscount", "installments"}
    assert result["reference"] == "sku-1"
    assert isinstance(result["value"], int | float)
    assert set(result["cashDiscount"]) == {
        "discountPercentage",
        "discountValue",
        "valueWithDiscount",
    }
    assert all(isinstance(v, int | float) for v in result["cashDiscount"].values())
    for entry in result["installments"]:
        assert set(entry) == {
            "installment",
            "installmentValue",
            "totalValue",
            "fee",
            "feeTotalValue",
        }
        assert isinstance(entry["installment"], int)
        for key in ("installmentValue", "totalValue", "fee", "feeTotalValue"):
            assert isinstance(entry[key], int | float) and not isinstance(entry[key], bool)


def test_worked_example_1000_with_the_default_options(api_client, default_options):
    response = post(api_client, {"items": [{"reference": "tv", "value": "1000.00"}]})

    [result] = response.json()["data"]
    assert money(result["value"]) == Decimal("1000.00")
    # Cash: 5% of 1000.00
    assert {k: money(v) for k, v in result["cashDiscount"].items()} == {
        "discountPercentage": Decimal("5"),
        "discountValue": Decimal("50.00"),
        "valueWithDiscount": Decimal("950.00"),
    }
    installments = result["installments"]
    assert [entry["installment"] for entry in installments] == list(range(1, 13))
    # 1x..3x interest-free: value / n, half up
    assert [money(entry["installmentValue"]) for entry in installments[:3]] == [
        Decimal("1000.00"),
        Decimal("500.00"),
        Decimal("333.33"),
    ]
    assert all(money(e["totalValue"]) == Decimal("1000.00") for e in installments[:3])
    assert all(e["fee"] == 0 and e["feeTotalValue"] == 0 for e in installments[:3])
    # 10x at 1.99%/month, Tabela Price: 1000 * 0.0199 / (1 - 1.0199 ** -10)
    with localcontext() as context:
        context.prec = 40
        i = Decimal("0.0199")
        expected = (1000 * i / (1 - (1 + i) ** -10)).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP
        )
    assert expected == Decimal("111.27")
    tenth = installments[9]
    assert money(tenth["installmentValue"]) == expected
    assert money(tenth["totalValue"]) == Decimal("1112.70")
    assert money(tenth["fee"]) == Decimal("1.99")
    assert money(tenth["feeTotalValue"]) == Decimal("112.70")


def test_money_goes_out_as_numbers_with_at_most_two_decimals(api_client, default_options):
    response = post(api_client, {"items": [{"reference": "x", "value": 59.7}]})

    raw = json.loads(response.content, parse_float=Decimal)
    [result] = raw["data"]
    amounts = [result["value"], *result["cashDiscount"].values()]
    for entry in result["installments"]:
        amounts += [entry["installmentValue"], entry["totalValue"], entry["feeTotalValue"]]
    assert all(-Decimal(amount).as_tuple().exponent <= 2 for amount in amounts)
    assert result["cashDiscount"]["discountValue"] == Decimal("2.99")  # 2.985 half up


def test_items_come_back_in_request_order(api_client, default_options):
    items = [
        {"reference": "c", "value": 30},
        {"reference": "a", "value": 10},
        {"reference": "b", "value": 20},
        {"reference": "a", "value": 10},
    ]
    response = post(api_client, {"items": items})

    assert [(r["reference"], money(r["value"])) for r in response.json()["data"]] == [
        (item["reference"], money(item["value"])) for item in items
    ]


def test_installments_stop_below_the_minimum_installment_value(api_client, default_options):
    # 20.00 with 5.00 minimum: 4x with interest is 5.25, 5x would be 4.24.
    response = post(api_client, {"items": [{"reference": "cheap", "value": 20}]})

    installments = response.json()["data"][0]["installments"]
    assert [entry["installment"] for entry in installments] == [1, 2, 3, 4]


def test_1x_is_offered_for_a_value_under_the_minimum(api_client, default_options):
    response = post(api_client, {"items": [{"reference": "pin", "value": 2.5}]})

    installments = response.json()["data"][0]["installments"]
    assert [(e["installment"], money(e["installmentValue"])) for e in installments] == [
        (1, Decimal("2.50"))
    ]


def test_zero_value_is_priced_as_zero(api_client, default_options):
    response = post(api_client, {"items": [{"reference": "gift", "value": 0}]})

    [result] = response.json()["data"]
    assert result["value"] == 0 and result["cashDiscount"]["valueWithDiscount"] == 0
    assert [e["installment"] for e in result["installments"]] == [1]


# --- Which options apply ----------------------------------------------------------------


def test_named_options_replace_the_defaults(api_client, default_options):
    pix = PaymentOptionFactory(discount_percentage=Decimal("10.00"))
    plan = PaymentOptionFactory(
        installments=True,
        max_installments=2,
        interest_free_installments=2,
        min_installment_value=Decimal("0"),
    )

    response = post(
        api_client,
        {
            "cashDiscountPaymentOptionId": pix.pk,
            "installmentPaymentOptionId": plan.pk,
            "items": [{"reference": "a", "value": 100}],
        },
    )

    [result] = response.json()["data"]
    assert money(result["cashDiscount"]["discountValue"]) == Decimal("10.00")
    assert [money(e["installmentValue"]) for e in result["installments"]] == [
        Decimal("100.00"),
        Decimal("50.00"),
    ]


def test_null_ids_mean_the_default_options(api_client, default_options):
    response = post(
        api_client,
        {
            "cashDiscountPaymentOptionId": None,
            "installmentPaymentOptionId": None,
            "items": [{"reference": "a", "value": 100}],
        },
    )

    [result] = response.json()["data"]
    assert money(result["cashDiscount"]["discountPercentage"]) == Decimal("5")
    assert len(result["installments"]) == 12


def test_without_any_option_there_is_no_discount_and_a_single_payment(api_client):
    response = post(api_client, {"items": [{"reference": "a", "value": "99.90"}]})

    assert response.status_code == 200
    [result] = response.json()["data"]
    assert {k: money(v) for k, v in result["cashDiscount"].items()} == {
        "discountPercentage": Decimal("0"),
        "discountValue": Decimal("0"),
        "valueWithDiscount": Decimal("99.90"),
    }
    assert [{k: money(v) for k, v in e.items()} for e in result["installments"]] == [
        {
            "installment": 1,
            "installmentValue": Decimal("99.90"),
            "totalValue": Decimal("99.90"),
            "fee": 0,
            "feeTotalValue": 0,
        }
    ]


def test_an_inactive_default_option_does_not_apply(api_client):
    PaymentOptionFactory(discount_percentage=Decimal("5.00"), is_default=True, active=False)
    PaymentOptionFactory(installments=True, is_default=True, active=False)

    response = post(api_client, {"items": [{"reference": "a", "value": 100}]})

    [result] = response.json()["data"]
    assert result["cashDiscount"]["discountValue"] == 0
    assert [e["installment"] for e in result["installments"]] == [1]


@pytest.mark.parametrize("field", ["cashDiscountPaymentOptionId", "installmentPaymentOptionId"])
def test_an_unknown_option_id_is_404(api_client, default_options, field):
    response = post(api_client, {field: 987654, "items": [{"reference": "a", "value": 1}]})

    body = assert_error_envelope(response, 404, NOT_FOUND)
    assert "987654" in body["data"]["message"]


@pytest.mark.parametrize("field", ["cashDiscountPaymentOptionId", "installmentPaymentOptionId"])
def test_an_inactive_option_id_is_404(api_client, field):
    inactive = {
        "cashDiscountPaymentOptionId": PaymentOptionFactory(active=False),
        "installmentPaymentOptionId": PaymentOptionFactory(installments=True, active=False),
    }[field]

    response = post(api_client, {field: inactive.pk, "items": [{"reference": "a", "value": 1}]})

    assert_error_envelope(response, 404, NOT_FOUND)


def test_an_option_id_of_the_other_kind_is_404(api_client, default_options):
    cash, card = default_options

    as_plan = post(
        api_client,
        {"installmentPaymentOptionId": cash.pk, "items": [{"reference": "a", "value": 1}]},
    )
    as_cash = post(
        api_client,
        {"cashDiscountPaymentOptionId": card.pk, "items": [{"reference": "a", "value": 1}]},
    )

    assert_error_envelope(as_plan, 404, NOT_FOUND)
    assert_error_envelope(as_cash, 404, NOT_FOUND)


def test_an_invalid_body_is_422_before_an_unknown_id_is_404(api_client):
    response = post(api_client, {"cashDiscountPaymentOptionId": 987654, "items": []})

    assert_validation_error(response, "items")


# --- Validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "items"),
        ({"items": None}, "items"),
        ({"items": "abc"}, "items"),
        ({"items": {"reference": "a", "value": 1}}, "items"),
        ({"items": []}, "items"),
        ({"items": [{"reference": "a", "value": 1}] * 501}, "items"),
        ({"items": ["abc"]}, "items.0"),
        ({"items": [None]}, "items.0"),
        ({"items": [[1, 2]]}, "items.0"),
        ({"items": [{"value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": None, "value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": 123, "value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": True, "value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": ["a"], "value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": "", "value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": "r" * 101, "value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": "r" * 10_000, "value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": "a\x00b", "value": 1}]}, "items.0.reference"),
        ({"items": [{"reference": "a"}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": None}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": True}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "abc"}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "1_000"}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": ""}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "NaN"}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "Infinity"}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "-Infinity"}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": -1}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": -0.01}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": 10.555}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "0.001"}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": 1e-7}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": 1_000_000_000}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": 1e300}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "1e400"}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": 10**40}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "9" * 10_000}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": [1]}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": {"amount": 1}}]}, "items.0.value"),
        ({"items": [{"reference": "a", "value": "\uff11\uff10"}]}, "items.0.value"),  # full-width
        ({"items": [ONE_ITEM, {"reference": "b", "value": -5}]}, "items.1.value"),
        ({CASH_ID: 0, "items": [ONE_ITEM]}, CASH_ID),
        ({CASH_ID: -3, "items": [ONE_ITEM]}, CASH_ID),
        ({CASH_ID: "abc", "items": [ONE_ITEM]}, CASH_ID),
        ({CASH_ID: 1.5, "items": [ONE_ITEM]}, CASH_ID),
        ({CASH_ID: True, "items": [ONE_ITEM]}, CASH_ID),
        ({PLAN_ID: 2**64, "items": [ONE_ITEM]}, PLAN_ID),
        ({PLAN_ID: [1], "items": [ONE_ITEM]}, PLAN_ID),
    ],
)  # fmt: skip
def test_invalid_input_is_422_naming_the_field(api_client, default_options, body, field):
    response = post(api_client, body)
    assert_validation_error(response, field)


def test_the_item_cap_is_500(api_client, default_options):
    items = [{"reference": f"sku-{n}", "value": n} for n in range(500)]

    response = post(api_client, {"items": items})

    assert response.status_code == 200
    assert len(response.json()["data"]) == 500


def test_the_message_of_a_missing_items_field_names_it(api_client):
    body = assert_error_envelope(post(api_client, {}), 422, "VALIDATION_ERROR")
    assert body["data"]["message"] == "The items field is required."


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (10, "10.00"),
        (10.5, "10.50"),
        ("10.50", "10.50"),
        (" 7.25 ", "7.25"),
        ("10.500", "10.50"),
        ("1000.000", "1000.00"),
        ("999999999.99", "999999999.99"),
        (-0.0, "0.00"),
    ],
)
def test_value_accepts_json_numbers_and_numeric_strings(api_client, value, expected):
    response = post(api_client, {"items": [{"reference": "a", "value": value}]})

    assert response.status_code == 200, response.json()
    assert money(response.json()["data"][0]["value"]) == Decimal(expected)


def test_reference_is_echoed_exactly(api_client):
    reference = "  Ünïcode <b>ref</b> ✓ " + "r" * 77
    assert len(reference) == 100

    response = post(api_client, {"items": [{"reference": reference, "value": 1}]})

    assert response.json()["data"][0]["reference"] == reference


def test_unknown_fields_are_ignored(api_client, default_options):
    response = post(
        api_client,
        {
            "coupon": "FREE",
            "items": [{"reference": "a", "value": 1, "quantity": 3, "productId": 9}],
        },
    )

    assert response.status_code == 200
    assert set(response.json()["data"][0]) == {"reference", "value", "cashDiscount", "installments"}


@pytest.mark.parametrize(
    "raw", [b"{", b"{'items': []}", b'{"items": [{"reference": "a", "value": NaN}]}']
)
def test_malformed_json_is_422(api_client, raw):
    response = api_client.post(URL, data=raw, content_type="application/json")

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert "body" in body["data"]["errors"]


@pytest.mark.parametrize("raw", [b"[]", b'"items"', b"42", b"null"])
def test_a_body_that_is_not_an_object_is_422(api_client, raw):
    response = api_client.post(URL, data=raw, content_type="application/json")

    assert_error_envelope(response, 422, "VALIDATION_ERROR")


def test_a_non_json_content_type_is_415(api_client):
    response = api_client.post(URL, data="items=1", content_type="text/plain")

    assert_error_envelope(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_form_encoded_bodies_are_415(api_client):
    response = api_client.post(URL, data={"items": "x"})  # multipart by default

    assert_error_envelope(response, 415, "UNSUPPORTED_MEDIA_TYPE")


@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
def test_other_methods_are_405(api_client, method):
    response = getattr(api_client, method)(URL)

    assert_error_envelope(response, 405, "METHOD_NOT_ALLOWED")


def test_a_body_over_the_size_cap_is_413(api_client, settings):
    settings.API_MAX_BODY_BYTES = 1000
    items = [{"reference": "r" * 50, "value": 1}] * 40

    response = post(api_client, {"items": items})

    assert_error_envelope(response, 413, "PAYLOAD_TOO_LARGE")


@pytest.mark.parametrize("url", [URL + "/", "/api/v3" + URL, "/api/v3" + URL + "/"])
def test_conditions_are_served_on_every_path_alias(api_client, default_options, url):
    response = post(api_client, {"items": [{"reference": "a", "value": 1}]}, url=url)

    assert response.status_code == 200
    assert response.json()["data"][0]["reference"] == "a"


def test_computing_conditions_writes_nothing(api_client, default_options):
    before = list(PaymentOption.objects.values())

    post(api_client, {"items": [{"reference": "a", "value": 1}]})
    post(api_client, {"items": [{"reference": "a", "value": -1}]})

    assert list(PaymentOption.objects.values()) == before


def test_conditions_are_not_throttled_like_public_writes(api_client, default_options):
    responses = [post(api_client, {"items": [{"reference": "a", "value": 1}]}) for _ in range(40)]

    assert {response.status_code for response in responses} == {200}


def test_query_count_does_not_grow_with_the_items(
    api_client, default_options, django_assert_max_num_queries
):
    items = [{"reference": f"sku-{n}", "value": n * 7.5} for n in range(500)]

    with django_assert_max_num_queries(2):  # one lookup per option kind
        response = post(api_client, {"items": items})

    assert response.status_code == 200


def test_the_response_is_exactly_what_the_documented_serializer_renders(
    api_client, default_options
):
    cash, card = default_options
    items = [{"reference": "a", "value": "1234.56"}, {"reference": "b", "value": 20}]

    response = post(api_client, {"items": items})

    conditions = [
        {
            "reference": i["reference"],
            "value": money(i["value"]),
            "cash_discount": cash_discount(money(i["value"]), cash_discount_terms_of(cash)),
            "installments": installment_plan(money(i["value"]), installment_terms_of(card)),
        }
        for i in items
    ]
    documented = JSONRenderer().render(PaymentConditionSerializer(conditions, many=True).data)
    assert response.json()["data"] == json.loads(documented)


# --- Stored answers --------------------------------------------------------------------


def test_a_change_to_the_options_is_in_the_next_answer(api_client, default_options, cash_option):
    body = {"items": [{"reference": "sku-1", "value": 100}]}
    first = post(api_client, body).json()["data"][0]
    assert first["cashDiscount"]["discountPercentage"] == 5.0
    assert post(api_client, body).json()["data"][0] == first  # the stored answer

    cash_option.discount_percentage = Decimal("8.00")
    cash_option.save()

    assert post(api_client, body).json()["data"][0]["cashDiscount"]["discountPercentage"] == 8.0


def test_a_stored_answer_is_never_served_to_a_body_of_another_media_type(
    api_client, default_options
):
    raw = json.dumps({"items": [{"reference": "sku-1", "value": 100}]})
    assert api_client.post(URL, raw, content_type="application/json").status_code == 200
    response = api_client.post(URL, raw, content_type="text/plain")
    assert_error_envelope(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_the_answer_of_a_post_carries_no_http_cache_validators(api_client, default_options):
    body = {"items": [{"reference": "sku-1", "value": 100}]}
    for _ in range(2):
        response = post(api_client, body)
        assert response.status_code == 200
        assert "ETag" not in response
        assert "Cache-Control" not in response
