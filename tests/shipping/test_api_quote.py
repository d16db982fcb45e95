"""GET /publics/products/quote (contract 2.10, 4.8) through HTTP."""

import json
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from catalog.models import TradePolicy
from shipping.models import ShippingRow
from tests.catalog.factories import (
    CargoTypeFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    TradePolicyFactory,
)
from tests.helpers import PRODUCT_SUMMARY_KEYS, assert_error, cold_caches

from .factories import (
    CarrierFactory,
    PickupFactory,
    PostalCodeFactory,
    ShippingRowFactory,
    ShippingTableFactory,
)

pytestmark = pytest.mark.django_db

URL = "/publics/products/quote"
RIO = {"code": "20040002", "latitude": Decimal("-22.903539"), "longitude": Decimal("-43.209587")}

GROUP_KEYS = {
    "quoteId",
    "error",
    "tradePolicyId",
    "productStorageId",
    "distance",
    "originZipCode",
    "targetZipCode",
    "totalPrice",
    "quantityItems",
    "totalCubicVolume",
    "totalWeight",
    "service",
    "cargoTypeCombination",
    "additionalTimeGroup",
    "storage",
    "items",
    "shippingOptions",
}
STORAGE_KEYS = {
    "id",
    "name",
    "code",
    "corporateName",
    "email",
    "phone",
    "tradeName",
    "stateCode",
    "countryCode",
    "document",
    "zipCode",
    "city",
    "address",
    "district",
    "number",
    "complement",
    "latitude",
    "longitude",
    "active",
    "observation",
    "tradePolicyExceptions",
}
ITEM_KEYS = {
    "productId",
    "upsellId",
    "productPairOfferId",
    "name",
    "sku",
    "service",
    "saleWithoutStock",
    "quantity",
    "productPriceRuleId",
    "productPriceRuleName",
    "value",
    "code",
    "product",
    "productStorages",
    "volume",
    "category",
    "cargoTypeId",
    "additionalTime",
    "cubicVolumeItem",
    "totalCubicVolume",
    "error",
}
OPTION_KEYS = {
    "shippingTableId",
    "integrationCode",
    "externalShippingCode",
    "carrierId",
    "carrierName",
    "label",
    "value",
    "beginShippingTime",
    "endShippingTime",
    "trackingUrl",
    "row",
    "pickups",
    "error",
}
ROW_KEYS = {
    "id",
    "initialZipcode",
    "finalZipcode",
    "initialWeight",
    "finalWeight",
    "initialPrice",
    "finalPrice",
    "beginShippingTime",
    "endShippingTime",
    "shippingValue",
    "variables",
}
PICKUP_KEYS = {
    "id",
    "type",
    "selected",
    "name",
    "address",
    "number",
    "district",
    "city",
    "countryCode",
    "stateCode",
    "zipCode",
    "complement",
    "latitude",
    "longitude",
    "openingHours",
}
NUMBER = (int, float)


def sao_paulo_storage(**kwargs):
    return StorageFactory(**kwargs)


def rio_storage(**kwargs):
    defaults = {
        "zip_code": "20040-002",
        "city": "Rio de Janeiro",
        "state_code": "BR-RJ",
        "latitude": Decimal("-22.903539"),
        "longitude": Decimal("-43.209587"),
    }
    return StorageFactory(**{**defaults, **kwargs})


def priced_product(price="50.00", **kwargs):
    product = ProductFactory(**kwargs)
    ProductPriceFactory(product=product, sale_price=Decimal(price))
    return product


def brackets(items, **params) -> dict:
    query = {"targetCountryCode": "BRA", "targetZipCode": "20040-002", **params}
    for index, (product_id, quantity) in enumerate(items):
        query[f"items[{index}][productId]"] = product_id
        query[f"items[{index}][quantity]"] = quantity
    return query


def get_quote(api_client, items, **params):
    return api_client.get(URL, brackets(items, **params))


# --- Shape ------------------------------------------------------------------------------


def test_quote_answers_every_contract_field_with_its_json_type(api_client):
    # given a São Paulo storage with stock, a delivery and a pickup table, Rio's address
    PostalCodeFactory(country="BRA", city="Rio de Janeiro", state_code="BR-RJ", **RIO)
    storage = sao_paulo_storage(additional_time=1)
    cargo = CargoTypeFactory()
    product = priced_product(
        "49.90",
        cargo_type=cargo,
        additional_time=2,
        weight=Decimal("1.200"),
        height=Decimal("10"),
        width=Decimal("20"),
        length=Decimal("30"),
    )
    StockFactory(product=product, storage=storage, available=10, reserved=3)
    delivery = ShippingTableFactory(label="SEDEX", storages=[storage], cargo_types=[cargo])
    row = ShippingRowFactory(table=delivery, shipping_value=Decimal("30.00"), fixed_fee=Decimal(2))
    pickup_table = ShippingTableFactory(label="Pickup", kind="pickup")
    ShippingRowFactory(table=pickup_table, shipping_value=Decimal("0"))
    pickup = PickupFactory(table=pickup_table)

    # when quoting 2 units to Rio
    response = get_quote(api_client, [(product.pk, 2)])

    # then the bare quote carries every field of the contract
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"quoteGroups", "errorItems"}
    assert body["errorItems"] == []
    (group,) = body["quoteGroups"]
    assert set(group) == GROUP_KEYS
    assert isinstance(group["quoteId"], str) and len(group["quoteId"]) == 36
    assert group["error"] is None
    assert group["tradePolicyId"] == TradePolicy.objects.default().pk
    assert group["productStorageId"] == storage.pk
    assert group["distance"] == pytest.approx(361, abs=5)
    assert group["originZipCode"] == "01310-100"
    assert group["targetZipCode"] == "20040-002"
    assert group["totalPrice"] == 99.8
    assert group["quantityItems"] == 2
    assert group["totalCubicVolume"] == 12000
    assert group["totalWeight"] == 2.4
    assert group["service"] is False
    assert group["cargoTypeCombination"] == [cargo.pk]
    assert group["additionalTimeGroup"] == 3

    assert set(group["storage"]) == STORAGE_KEYS
    assert group["storage"]["id"] == storage.pk
    assert group["storage"]["name"] == storage.trade_name
    assert group["storage"]["zipCode"] == "01310-100"
    assert group["storage"]["latitude"] == "-23.561414"
    assert group["storage"]["tradePolicyExceptions"] == []
    assert group["storage"]["countryCode"] == "BRA"

    (item,) = group["items"]
    assert set(item) == ITEM_KEYS
    assert item["productId"] == product.pk
    assert (item["upsellId"], item["productPairOfferId"], item["code"], item["error"]) == (
        None,
        None,
        None,
        None,
    )
    assert (item["name"], item["sku"]) == (product.name, product.sku)
    assert (item["service"], item["saleWithoutStock"]) == (False, False)
    assert item["quantity"] == 2
    assert (item["productPriceRuleId"], item["productPriceRuleName"]) == (0, "")
    assert item["value"] == 49.9
    assert set(item["product"]) == set(PRODUCT_SUMMARY_KEYS)
    assert item["product"]["id"] == product.pk
    assert item["productStorages"] == [
        {
            "productStorageId": storage.pk,
            "stock": 7,
            "zipCode": "01310-100",
            "latitude": "-23.561414",
            "longitude": "-46.655881",
        }
    ]
    assert item["volume"] == {"height": 10, "width": 20, "length": 30, "weight": 1.2}
    assert item["category"] == {"id": product.main_category_id, "name": product.main_category.name}
    assert item["cargoTypeId"] == cargo.pk
    assert item["additionalTime"] == 2
    assert (item["cubicVolumeItem"], item["totalCubicVolume"]) == (6000, 12000)

    options = group["shippingOptions"]
    assert [o["label"] for o in options] == ["Pickup", "SEDEX"]  # by value
    sedex = options[1]
    assert set(sedex) == OPTION_KEYS
    assert sedex["shippingTableId"] == delivery.pk
    assert sedex["integrationCode"] == delivery.integration_code
    assert sedex["externalShippingCode"] == delivery.external_shipping_code
    assert (sedex["carrierId"], sedex["carrierName"]) == (
        delivery.carrier_id,
        delivery.carrier.name,
    )
    assert sedex["value"] == 32.0
    assert (sedex["beginShippingTime"], sedex["endShippingTime"]) == (2 + 3, 5 + 3)
    assert sedex["trackingUrl"] == "https://tracking.example.com/?code={code}"
    assert sedex["pickups"] == [] and sedex["error"] is None
    assert set(sedex["row"]) == ROW_KEYS
    assert sedex["row"] == {
        "id": row.pk,
        "initialZipcode": "00000-000",
        "finalZipcode": "99999-999",
        "initialWeight": 0.0,
        "finalWeight": 30.0,
        "initialPrice": 0.0,
        "finalPrice": 100000.0,
        "beginShippingTime": 2,
        "endShippingTime": 5,
        "shippingValue": 30.0,
        "variables": [{"type": "fixed_fee", "value": 2.0, "threshold": None}],
    }
    (pickup_payload,) = options[0]["pickups"]
    assert set(pickup_payload) == PICKUP_KEYS
    assert pickup_payload["id"] == pickup.pk
    assert pickup_payload["selected"] is True  # the only one: the nearest
    assert pickup_payload["zipCode"] == "01304-001"
    assert pickup_payload["latitude"] == "-23.557000"
    assert isinstance(pickup_payload["openingHours"], str)


def test_items_may_be_sent_as_a_json_array(api_client):
    storage = sao_paulo_storage()
    product = priced_product()
    StockFactory(product=product, storage=storage)
    items = json.dumps([{"productId": product.pk, "quantity": 3}])
    response = api_client.get(
        URL, {"targetCountryCode": "BRA", "targetZipCode": "20040002", "items": items}
    )
    assert response.status_code == 200
    assert response.json()["quoteGroups"][0]["items"][0]["quantity"] == 3


@pytest.mark.parametrize("prefix", ["", "/api/v3"])
@pytest.mark.parametrize("slash", ["", "/"])
def test_quote_answers_under_every_prefix_and_slash_form(api_client, prefix, slash):
    storage = sao_paulo_storage()
    product = priced_product()
    StockFactory(product=product, storage=storage)
    response = api_client.get(f"{prefix}{URL}{slash}", brackets([(product.pk, 1)]))
    assert response.status_code == 200


# --- Storage choice ---------------------------------------------------------------------


def test_items_ship_from_the_nearest_storage_with_stock(api_client):
    PostalCodeFactory(country="BRA", **RIO)
    sao_paulo = sao_paulo_storage()
    rio = rio_storage()
    product = priced_product()
    StockFactory(product=product, storage=sao_paulo)
    StockFactory(product=product, storage=rio)

    group = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"][0]

    assert group["productStorageId"] == rio.pk
    assert group["distance"] == 0


def test_items_are_split_when_no_storage_has_them_all(api_client):
    PostalCodeFactory(country="BRA", **RIO)
    sao_paulo = sao_paulo_storage()
    rio = rio_storage()
    first, second = priced_product(), priced_product()
    StockFactory(product=first, storage=rio)
    StockFactory(product=second, storage=sao_paulo)

    body = get_quote(api_client, [(first.pk, 1), (second.pk, 1)]).json()

    groups = {
        g["productStorageId"]: [i["productId"] for i in g["items"]] for g in body["quoteGroups"]
    }
    assert groups == {rio.pk: [first.pk], sao_paulo.pk: [second.pk]}
    assert len({g["quoteId"] for g in body["quoteGroups"]}) == 2


def test_each_answer_has_new_quote_ids_and_no_cache_keeps_it(api_client):
    product = priced_product()
    StockFactory(product=product, storage=sao_paulo_storage())

    first, second = (get_quote(api_client, [(product.pk, 1)]) for _ in range(2))

    assert first.json()["quoteGroups"][0]["quoteId"] != second.json()["quoteGroups"][0]["quoteId"]
    for response in (first, second):
        assert response["Cache-Control"] == "no-store" and "ETag" not in response


def test_reserved_units_do_not_count_as_stock(api_client):
    storage = sao_paulo_storage()
    product = priced_product()
    StockFactory(product=product, storage=storage, available=5, reserved=4)
    body = get_quote(api_client, [(product.pk, 2)]).json()
    assert body["quoteGroups"] == []
    assert body["errorItems"][0]["errorCode"] == "SERVICE_STORE_PRODUCT_OUT_OF_STOCK"


def test_inactive_storages_and_storages_excluding_the_policy_are_skipped(api_client):
    PostalCodeFactory(country="BRA", **RIO)
    policy = TradePolicy.objects.default()
    rio_inactive = rio_storage(active=False)
    rio_excluding = rio_storage()
    rio_excluding.trade_policy_exceptions.add(policy)
    sao_paulo = sao_paulo_storage()
    product = priced_product()
    for storage in (rio_inactive, rio_excluding, sao_paulo):
        StockFactory(product=product, storage=storage)

    group = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"][0]

    assert group["productStorageId"] == sao_paulo.pk


def test_an_unknown_postal_code_still_quotes_by_storage_priority_and_row_ranges(api_client):
    # no PostalCode record for 20040-002: distance 0, highest priority storage
    low = rio_storage(priority=1)
    high = sao_paulo_storage(priority=9)
    product = priced_product()
    StockFactory(product=product, storage=low)
    StockFactory(product=product, storage=high)
    table = ShippingTableFactory()
    ShippingRowFactory(table=table, initial_zipcode="20000000", final_zipcode="28999999")
    ShippingRowFactory(table=table, initial_zipcode="01000000", final_zipcode="19999999")

    group = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"][0]

    assert (group["productStorageId"], group["distance"]) == (high.pk, 0)
    assert [o["row"]["initialZipcode"] for o in group["shippingOptions"]] == ["20000-000"]


# --- Error items ------------------------------------------------------------------------


def test_unknown_inactive_unpriced_and_unavailable_products_go_to_error_items(api_client):
    storage = sao_paulo_storage()
    good = priced_product()
    StockFactory(product=good, storage=storage)
    inactive = priced_product(active=False)
    StockFactory(product=inactive, storage=storage)
    no_stock = priced_product()
    unavailable = priced_product()
    unavailable.prices.update(available_for_sale=False)
    StockFactory(product=unavailable, storage=storage)

    body = get_quote(
        api_client,
        [(good.pk, 1), (inactive.pk, 1), (no_stock.pk, 2), (unavailable.pk, 1), (999999, 3)],
    ).json()

    assert [i["productId"] for g in body["quoteGroups"] for i in g["items"]] == [good.pk]
    errors = {e["productId"]: e for e in body["errorItems"]}
    assert set(errors[999999]) == {"productId", "quantity", "errorCode", "message"}
    assert errors[999999]["quantity"] == 3
    assert errors[999999]["errorCode"] == "SERVICE_STORE_PRODUCT_NOT_FOUND"
    assert errors[inactive.pk]["errorCode"] == "SERVICE_STORE_PRODUCT_NOT_FOUND"
    assert errors[no_stock.pk]["errorCode"] == "SERVICE_STORE_PRODUCT_OUT_OF_STOCK"
    assert errors[unavailable.pk]["errorCode"] == "SERVICE_STORE_PRODUCT_UNAVAILABLE"
    assert all(str(pid) in e["message"] for pid, e in errors.items())


def test_every_item_in_error_gives_an_empty_quote_not_an_error(api_client):
    response = get_quote(api_client, [(123, 1)])
    assert response.status_code == 200
    assert response.json()["quoteGroups"] == []


def test_without_storages_serving_the_policy_items_say_so(api_client):
    storage = sao_paulo_storage(active=False)
    product = priced_product()
    StockFactory(product=product, storage=storage)
    (error,) = get_quote(api_client, [(product.pk, 1)]).json()["errorItems"]
    assert error["errorCode"] == "SERVICE_STORE_STORAGE_NOT_FOUND"


def test_a_group_without_shipping_options_carries_an_error(api_client):
    storage = sao_paulo_storage()
    product = priced_product()
    StockFactory(product=product, storage=storage)
    ShippingRowFactory(initial_zipcode="90000000", final_zipcode="99999999")

    group = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"][0]

    assert group["shippingOptions"] == []
    assert group["error"]["errorCode"] == "SERVICE_STORE_SHIPPING_OPTION_NOT_FOUND"
    assert group["error"]["message"]


# --- Prices and options -----------------------------------------------------------------


def test_a_trade_policy_given_prices_the_items_with_its_prices(api_client):
    policy = TradePolicyFactory()
    storage = sao_paulo_storage()
    product = priced_product("50.00")
    ProductPriceFactory(product=product, trade_policy=policy, sale_price=Decimal("40.00"))
    StockFactory(product=product, storage=storage)

    group = get_quote(api_client, [(product.pk, 2)], tradePolicyId=policy.pk).json()["quoteGroups"][
        0
    ]

    assert group["tradePolicyId"] == policy.pk
    assert group["items"][0]["value"] == 40.0
    assert group["totalPrice"] == 80.0


def test_an_automatic_price_rule_shows_on_the_item(api_client):
    storage = sao_paulo_storage()
    product = priced_product("100.00")
    StockFactory(product=product, storage=storage)
    rule = PriceRuleFactory(name="Ten off", value=Decimal("10"))

    item = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"][0]["items"][0]

    assert (item["productPriceRuleId"], item["productPriceRuleName"]) == (rule.pk, "Ten off")
    assert item["value"] == 90.0


def test_an_unknown_or_inactive_trade_policy_is_404(api_client):
    inactive = TradePolicyFactory(active=False)
    for policy_id in (inactive.pk, 987654):
        response = get_quote(api_client, [(1, 1)], tradePolicyId=policy_id)
        assert_error(response, 404, "SERVICE_STORE_TRADE_POLICY_NOT_FOUND")


def test_options_apply_variables_and_come_sorted_by_value_then_days(api_client):
    storage = sao_paulo_storage()
    product = priced_product("200.00", weight=Decimal("7.2"))
    StockFactory(product=product, storage=storage)
    slow = ShippingRowFactory(
        table=ShippingTableFactory(label="Slow"),
        shipping_value=Decimal("20"),
        begin_shipping_time=5,
        end_shipping_time=9,
    )
    fast = ShippingRowFactory(
        table=ShippingTableFactory(label="Fast"),
        shipping_value=Decimal("20"),
        begin_shipping_time=1,
        end_shipping_time=2,
    )
    ShippingRowFactory(
        table=ShippingTableFactory(label="Variable"),
        shipping_value=Decimal("10.00"),
        extra_kg_value=Decimal("2.50"),
        extra_kg_threshold=Decimal("5"),
        order_value_percentage=Decimal("1.5"),
        fixed_fee=Decimal("3.99"),
    )

    options = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"][0]["shippingOptions"]

    assert [(o["label"], o["value"]) for o in options] == [
        ("Fast", 20.0),
        ("Slow", 20.0),
        ("Variable", 24.49),  # 10 + 3 started kg x 2.50 + 1.5% of 200 + 3.99
    ]
    assert options[0]["row"]["id"] == fast.pk and options[1]["row"]["id"] == slow.pk
    assert options[2]["row"]["variables"] == [
        {"type": "per_extra_kg", "value": 2.5, "threshold": 5.0},
        {"type": "order_value_percentage", "value": 1.5, "threshold": None},
        {"type": "fixed_fee", "value": 3.99, "threshold": None},
    ]


def test_tables_for_other_storages_cargo_types_countries_or_inactive_are_not_offered(
    api_client,
):
    storage = sao_paulo_storage()
    other_storage = rio_storage()
    cargo, other_cargo = CargoTypeFactory(), CargoTypeFactory()
    product = priced_product(cargo_type=cargo)
    StockFactory(product=product, storage=storage)
    ShippingRowFactory(table=ShippingTableFactory(label="Ok", storages=[storage]))
    ShippingRowFactory(table=ShippingTableFactory(label="Other storage", storages=[other_storage]))
    ShippingRowFactory(table=ShippingTableFactory(label="Other cargo", cargo_types=[other_cargo]))
    ShippingRowFactory(table=ShippingTableFactory(label="Inactive", active=False))
    ShippingRowFactory(
        table=ShippingTableFactory(label="Carrier off", carrier=CarrierFactory(active=False))
    )
    ShippingRowFactory(
        table=ShippingTableFactory(label="Portugal", country="PRT"),
        initial_zipcode="0000000",
        final_zipcode="9999999",
    )

    options = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"][0]["shippingOptions"]

    assert [o["label"] for o in options] == ["Ok"]


def test_the_billable_weight_uses_the_cubic_divisor_setting(api_client, settings):
    # 0.1 kg in 30 x 30 x 30 cm = 27000 cm3: 4.5 kg at 6000, 2.7 kg at 10000
    storage = sao_paulo_storage()
    product = priced_product(
        weight=Decimal("0.1"), height=Decimal(30), width=Decimal(30), length=Decimal(30)
    )
    StockFactory(product=product, storage=storage)
    table = ShippingTableFactory()
    ShippingRowFactory(table=table, final_weight=Decimal("3"), shipping_value=Decimal("10"))
    ShippingRowFactory(
        table=table,
        initial_weight=Decimal("3.001"),
        final_weight=Decimal("5"),
        shipping_value=Decimal("20"),
    )

    def quoted_value():
        group = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"][0]
        return group["shippingOptions"][0]["value"]

    assert quoted_value() == 20.0
    settings.SHIPPING_CUBIC_DIVISOR = 10000
    assert quoted_value() == 10.0


def test_products_sold_without_stock_are_quoted(api_client):
    sao_paulo_storage()
    product = priced_product(sale_without_stock=True)
    group = get_quote(api_client, [(product.pk, 5)]).json()["quoteGroups"][0]
    assert group["items"][0]["saleWithoutStock"] is True
    assert group["items"][0]["productStorages"] == []


def test_repeated_products_are_quoted_once_with_the_quantities_summed(api_client):
    storage = sao_paulo_storage()
    product = priced_product()
    StockFactory(product=product, storage=storage, available=5)
    group = get_quote(api_client, [(product.pk, 2), (product.pk, 3)]).json()["quoteGroups"][0]
    assert [(i["productId"], i["quantity"]) for i in group["items"]] == [(product.pk, 5)]


# --- Validation -------------------------------------------------------------------------


def test_items_are_required(api_client):
    response = api_client.get(URL, {"targetCountryCode": "BRA", "targetZipCode": "20040002"})
    data = assert_error(response, 422, "VALIDATION_ERROR")
    assert data["errors"] == {"items": ["The items field is required."]}


@pytest.mark.parametrize("missing", ["targetZipCode", "targetCountryCode"])
def test_target_parameters_are_required(api_client, missing):
    query = brackets([(1, 1)])
    del query[missing]
    data = assert_error(api_client.get(URL, query), 422, "VALIDATION_ERROR")
    assert data["errors"] == {missing: [f"The {missing} field is required."]}


@pytest.mark.parametrize("country", ["BR", "BRAZ", "123", "XYZ"])
def test_the_target_country_must_be_3_letters_of_a_country(api_client, country):
    data = assert_error(
        get_quote(api_client, [(1, 1)], targetCountryCode=country), 422, "VALIDATION_ERROR"
    )
    assert list(data["errors"]) == ["targetCountryCode"]


@pytest.mark.parametrize("code", ["123", "ABCDEFGH", "x" * 5_000])
def test_a_malformed_target_postal_code_is_422(api_client, code):
    data = assert_error(
        get_quote(api_client, [(1, 1)], targetZipCode=code), 422, "VALIDATION_ERROR"
    )
    assert list(data["errors"]) == ["targetZipCode"]


def test_more_than_100_items_is_422(api_client):
    data = assert_error(
        get_quote(api_client, [(n, 1) for n in range(1, 102)]), 422, "VALIDATION_ERROR"
    )
    assert "items" in data["errors"]


@pytest.mark.parametrize(
    ("product_id", "quantity", "field"),
    [
        (1, 0, "items.0.quantity"),
        (1, -3, "items.0.quantity"),
        (1, 1.5, "items.0.quantity"),
        (1, "two", "items.0.quantity"),
        (1, "1_0", "items.0.quantity"),  # Python's int() reads 10
        (1, "2.0", "items.0.quantity"),
        ("1_2", 1, "items.0.productId"),
        (1, 10_001, "items.0.quantity"),
        (1, 10**30, "items.0.quantity"),
        ("abc", 1, "items.0.productId"),
        (0, 1, "items.0.productId"),
        (-1, 1, "items.0.productId"),
        (2**63, 1, "items.0.productId"),
    ],
)
def test_bad_item_values_are_422_naming_the_field(api_client, product_id, quantity, field):
    data = assert_error(get_quote(api_client, [(product_id, quantity)]), 422, "VALIDATION_ERROR")
    assert field in data["errors"]


@pytest.mark.parametrize(
    "items",
    [
        "not json",
        "[1, 2]",
        '{"productId": 1}',
        '[{"productId": 1}]',
        '[{"productId": true, "quantity": 1}]',
        "[]",
        "[" * 2000,  # deep nesting, within the 8,000-byte URL cap
    ],
)
def test_malformed_items_are_422(api_client, items):
    response = api_client.get(
        URL, {"targetCountryCode": "BRA", "targetZipCode": "20040002", "items": items}
    )
    assert_error(response, 422, "VALIDATION_ERROR")


def test_a_non_integer_trade_policy_is_422(api_client):
    data = assert_error(
        get_quote(api_client, [(1, 1)], tradePolicyId="abc"), 422, "VALIDATION_ERROR"
    )
    assert list(data["errors"]) == ["tradePolicyId"]


def test_post_is_405(api_client):
    assert_error(api_client.post(URL, {}, format="json"), 405, "METHOD_NOT_ALLOWED")


# --- Queries ----------------------------------------------------------------------------


def test_query_count_does_not_grow_with_items_storages_and_rows(
    api_client, django_assert_max_num_queries
):
    # given 20 products in 10 storages and 5,000 rows over 5 tables
    PostalCodeFactory(country="BRA", **RIO)
    storages = [sao_paulo_storage() for _ in range(10)]
    products = [priced_product() for _ in range(20)]
    for index, product in enumerate(products):
        StockFactory(product=product, storage=storages[index % 10])
    tables = [ShippingTableFactory(storages=storages) for _ in range(4)]
    tables.append(ShippingTableFactory(kind="pickup"))
    PickupFactory(table=tables[-1])
    PickupFactory(table=tables[-1])
    rows = []
    for table in tables:
        for band in range(1000):
            low = band * 100_000
            rows.append(
                ShippingRowFactory.build(
                    table=table,
                    initial_zipcode=f"{low:08d}",
                    final_zipcode=f"{low + 99_999:08d}",
                )
            )
    from shipping.models import ShippingRow

    ShippingRow.objects.bulk_create(rows)
    items = [(product.pk, 1) for product in products]
    get_quote(api_client, items)  # warms the shared caches (price rules, categories, ...)

    # when quoting again, then at most 10 queries
    with django_assert_max_num_queries(10):
        response = get_quote(api_client, items)
    body = response.json()
    assert sum(len(g["items"]) for g in body["quoteGroups"]) == 20
    assert all(len(g["shippingOptions"]) == 5 for g in body["quoteGroups"])


@pytest.mark.cache
def test_query_count_on_cold_caches_is_bounded_too(api_client, django_assert_max_num_queries):
    storages = [sao_paulo_storage() for _ in range(10)]
    products = [priced_product() for _ in range(20)]
    for index, product in enumerate(products):
        StockFactory(product=product, storage=storages[index % 10])
    ShippingRowFactory(table=ShippingTableFactory(storages=storages))
    with django_assert_max_num_queries(18):
        response = get_quote(api_client, [(product.pk, 1) for product in products])
    assert response.status_code == 200


@hypothesis_settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    params=st.dictionaries(
        st.sampled_from(
            [
                "items",
                "items[0][productId]",
                "items[0][quantity]",
                "items[]",
                "items[0]",
                "targetZipCode",
                "targetCountryCode",
                "tradePolicyId",
            ]
        ),
        st.text(max_size=40),
        max_size=6,
    )
)
def test_any_query_string_is_answered_without_a_server_error(api_client, params):
    response = api_client.get(URL, params)
    assert response.status_code in (200, 404, 422), response.content
    assert "Traceback" not in response.content.decode()


# --- Queries -------------------------------------------------------------------------------


def test_a_quote_of_20_items_over_10_storages_and_5000_rows_costs_a_fixed_few_queries(
    api_client, django_assert_max_num_queries
):
    # given 10 storages, 20 priced products with stock spread over them, 5,000 rows
    PostalCodeFactory(country="BRA", **RIO)
    storages = [sao_paulo_storage() for _ in range(10)]
    products = [priced_product() for _ in range(20)]
    for index, product in enumerate(products):
        StockFactory(product=product, storage=storages[index % 10], available=50)
    table = ShippingTableFactory(storages=storages)
    ShippingRow.objects.bulk_create(
        ShippingRow(
            table=table,
            initial_zipcode=f"{20000000 + n * 10:08d}",
            final_zipcode=f"{20000000 + n * 10 + 9:08d}",
            initial_weight=Decimal("0"),
            final_weight=Decimal("30"),
            initial_price=Decimal("0"),
            final_price=Decimal("100000"),
            shipping_value=Decimal("10"),
            begin_shipping_time=1,
            end_shipping_time=3,
        )
        for n in range(5000)
    )
    items = [(product.pk, 1) for product in products]

    def count(quoted) -> int:
        with CaptureQueriesContext(connection) as queries:
            response = get_quote(api_client, quoted)
        assert response.status_code == 200
        assert sum(len(g["items"]) for g in response.json()["quoteGroups"]) == len(quoted)
        return len(queries)

    # every cache cold: as many queries for 1 item as for 20
    cold_caches()
    one = count(items[:1])
    cold_caches()
    assert count(items) == one

    # store-wide data cached (policy, rules, categories, storages, tables, the address),
    # the products and their rows not: at most 11 queries (the product summaries include
    # the main products' active variations, whose units are theirs)
    cache.clear()
    count(items[:1])
    with django_assert_max_num_queries(11):
        count(items)

    # then the same quote again is served from the cache of answers, without a query
    with django_assert_max_num_queries(0):
        assert get_quote(api_client, items).status_code == 200
