"""GET /publics/products/quote?...&explain=true (issue 14 item 4): per group, every shipping
table of the country considered and why each gave no option; the items left out and why.
Without `explain` the answer is byte for byte what it was."""

import json
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.catalog.factories import CargoTypeFactory, StockFactory
from tests.helpers import assert_error

from .factories import CarrierFactory, ShippingRowFactory, ShippingTableFactory
from .test_api_quote import get_quote, priced_product, rio_storage, sao_paulo_storage

pytestmark = pytest.mark.django_db

TABLE_KEYS = {
    "shippingTableId",
    "label",
    "carrierId",
    "carrierName",
    "accepted",
    "rowId",
    "rowsCoveringZipCode",
    "reasons",
}


@pytest.fixture
def scene():
    """One São Paulo storage with 2 units of a 2 kg product, and one table per reason."""
    storage = sao_paulo_storage()
    other_storage = rio_storage()
    cargo, other_cargo = CargoTypeFactory(), CargoTypeFactory()
    product = priced_product("60.00", cargo_type=cargo, weight=Decimal("2.000"))
    StockFactory(product=product, storage=storage, available=2)
    tables = {}

    def table(name, rows=(), **kwargs):
        tables[name] = ShippingTableFactory(label=name, **kwargs)
        for row in rows:
            ShippingRowFactory(table=tables[name], **row)
        return tables[name]

    table("ok", [{}, {"shipping_value": Decimal("99.00"), "final_price": Decimal("90000.00")}])
    table("inactive", [{}], active=False)
    table("carrier-off", [{}], carrier=CarrierFactory(active=False))
    table("other-storage", [{}], storages=[other_storage])
    table("other-cargo", [{}], cargo_types=[other_cargo])
    table("no-row-for-rio", [{"initial_zipcode": "01000000", "final_zipcode": "19999999"}])
    table("too-heavy", [{"final_weight": Decimal("1.000")}])
    table("too-cheap", [{"initial_price": Decimal("500.00")}])
    table(
        "split",
        [
            {"final_weight": Decimal("1.000")},  # holds the value, not the weight
            {"initial_price": Decimal("500.00")},  # holds the weight, not the value
        ],
    )
    table("both", [{"final_weight": Decimal("1.000"), "initial_price": Decimal("500.00")}])
    table("argentina", [{}], country="ARG")
    return product, tables


def verdicts_by_label(group) -> dict:
    return {entry["label"]: entry for entry in group["explanation"]["tables"]}


def test_each_table_of_the_country_is_listed_with_why_it_gave_no_option(api_client, scene):
    product, tables = scene
    response = get_quote(api_client, [(product.pk, 1)], explain="true")
    assert response.status_code == 200
    (group,) = response.json()["quoteGroups"]
    verdicts = verdicts_by_label(group)
    assert set(verdicts) == set(tables) - {"argentina"}  # the country's tables only
    for entry in verdicts.values():
        assert set(entry) == TABLE_KEYS
    reasons = {label: entry["reasons"] for label, entry in verdicts.items()}
    assert reasons == {
        "ok": [],
        "inactive": ["table_inactive"],
        "carrier-off": ["table_inactive"],
        "other-storage": ["storage_not_served"],
        "other-cargo": ["cargo_type_not_served"],
        "no-row-for-rio": ["postal_code_out_of_every_row"],
        "too-heavy": ["weight_out_of_range"],
        "too-cheap": ["value_out_of_range"],
        "split": ["no_row_holds_weight_and_value"],
        "both": ["weight_out_of_range", "value_out_of_range"],
    }
    ok = verdicts["ok"]
    assert ok["accepted"] is True
    assert ok["rowId"] == group["shippingOptions"][0]["row"]["id"]  # the cheaper row
    assert ok["rowsCoveringZipCode"] == 2
    assert ok["shippingTableId"] == tables["ok"].pk
    assert ok["carrierId"] == tables["ok"].carrier_id
    assert ok["carrierName"] == tables["ok"].carrier.name
    assert verdicts["too-heavy"]["accepted"] is False
    assert verdicts["too-heavy"]["rowId"] is None
    assert verdicts["no-row-for-rio"]["rowsCoveringZipCode"] == 0
    # the options themselves are those of the plain quote
    assert [o["shippingTableId"] for o in group["shippingOptions"]] == [tables["ok"].pk]


def test_items_left_out_are_explained(api_client, scene):
    product, _ = scene
    unpriced = priced_product()
    unpriced.prices.update(available_for_sale=False)
    inactive = priced_product(active=False)
    response = get_quote(
        api_client,
        [(product.pk, 5), (unpriced.pk, 1), (inactive.pk, 2), (999999, 1)],
        explain="true",
    )
    body = response.json()
    assert body["quoteGroups"] == []
    assert body["explanation"] == {
        "excludedItems": [
            {"productId": product.pk, "quantity": 5, "reason": "product_out_of_stock"},
            {"productId": unpriced.pk, "quantity": 1, "reason": "no_price_in_trade_policy"},
            {"productId": inactive.pk, "quantity": 2, "reason": "product_inactive"},
            {"productId": 999999, "quantity": 1, "reason": "product_not_found"},
        ]
    }


def test_without_explain_the_answer_has_no_explanation(api_client, scene):
    product, _ = scene
    for params in ({}, {"explain": "false"}, {"explain": "0"}):
        body = get_quote(api_client, [(product.pk, 1)], **params).json()
        assert "explanation" not in body
        assert "explanation" not in body["quoteGroups"][0]


def test_explain_only_adds_keys(api_client, scene):
    product, _ = scene
    plain = get_quote(api_client, [(product.pk, 1)]).json()
    explained = get_quote(api_client, [(product.pk, 1)], explain="true").json()
    explanation = explained.pop("explanation")
    group_explanation = explained["quoteGroups"][0].pop("explanation")
    assert explanation == {"excludedItems": []}
    assert group_explanation["tables"]
    for body in (plain, explained):  # fresh per serving
        body["quoteGroups"][0].pop("quoteId")
    assert json.dumps(plain) == json.dumps(explained)


def test_a_group_of_services_considers_no_table(api_client, scene):
    service = priced_product("10.00", service=True)
    (group,) = get_quote(api_client, [(service.pk, 1)], explain="true").json()["quoteGroups"]
    assert group["explanation"] == {"tables": []}


@pytest.mark.parametrize("value", ["maybe", "2", "", "[]"])
def test_a_bad_explain_is_a_422(api_client, scene, value):
    product, _ = scene
    response = get_quote(api_client, [(product.pk, 1)], explain=value)
    data = assert_error(response, 422, "VALIDATION_ERROR")
    assert "explain" in json.dumps(data)


def test_explain_costs_one_more_query(api_client, scene):
    product, _ = scene
    get_quote(api_client, [(product.pk, 1)])  # warm the store-wide caches
    with CaptureQueriesContext(connection) as plain:
        get_quote(api_client, [(product.pk, 1)], tradePolicyId="")
    with CaptureQueriesContext(connection) as explained:
        get_quote(api_client, [(product.pk, 1)], explain="true")
    assert len(explained) == len(plain) + 1
