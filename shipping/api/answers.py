"""The shipping quote's answer (contract 2.10) as plain dicts for `json_bytes`: key for key
and value for value what serializers.QuoteResponseSerializer declares, without DRF's
per-field machinery (docs/decisions.md, "The quote answer is rendered by plain functions").
A field added there is added here, in the same place.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Context, Decimal
from typing import Any

from apikit.caching import fresh_uuid_marker
from apikit.errors import ErrorCode
from apikit.renderers import Fragment

from .. import quote
from ..calendar import Estimate
from ..fetch import StorageInfo
from ..models import Pickup, ShippingTable, ShippingTableKind
from ..postal import format_postal_code
from ..results import ExplainedTable, QuotedGroup, QuotedItem, QuotedOption, QuoteOutcome

PROBLEMS: dict[str, tuple[ErrorCode, str]] = {
    quote.ItemProblem.NOT_FOUND: (ErrorCode.PRODUCT_NOT_FOUND, "Product {id} was not found."),
    quote.ItemProblem.INACTIVE: (ErrorCode.PRODUCT_NOT_FOUND, "Product {id} is not sold."),
    quote.ItemProblem.NOT_FOR_SALE: (
        ErrorCode.PRODUCT_UNAVAILABLE,
        "Product {id} is not for sale in this trade policy.",
    ),
    quote.ItemProblem.NO_STORAGE: (
        ErrorCode.STORAGE_NOT_FOUND,
        "No storage ships product {id} in this trade policy.",
    ),
    quote.ItemProblem.OUT_OF_STOCK: (
        ErrorCode.PRODUCT_OUT_OF_STOCK,
        "Product {id} is out of stock for the quantity requested ({quantity}).",
    ),
    quote.GroupProblem.NO_SHIPPING_OPTION: (
        ErrorCode.SHIPPING_OPTION_NOT_FOUND,
        "No shipping option serves these items to this postal code.",
    ),
}


EXCLUSION_REASONS = {
    quote.ItemProblem.NOT_FOUND: "product_not_found",
    quote.ItemProblem.INACTIVE: "product_inactive",
    quote.ItemProblem.NOT_FOR_SALE: "no_price_in_trade_policy",
    quote.ItemProblem.NO_STORAGE: "no_storage_serves_trade_policy",
    quote.ItemProblem.OUT_OF_STOCK: "product_out_of_stock",
}


_CENTS, _GRAMS = Decimal("0.01"), Decimal("0.001")
_MONEY, _NUMBER = Context(prec=14), Context(prec=24)  # the fields' max_digits


def _money(value: Decimal) -> Decimal:
    """As MoneyField: 2 decimals (half-even, at most 14 digits)."""
    return value.quantize(_CENTS, context=_MONEY)


def _number(value: Decimal | None, exponent: Decimal) -> Decimal | None:
    """As serializers._number: `exponent`'s decimals (half-even, at most 24 digits)."""
    return None if value is None else value.quantize(exponent, context=_NUMBER)


def _text(value: Any) -> str:
    """As TextField: the value as text, "" when None (coordinates)."""
    return "" if value is None else str(value)


def _problem(problem: quote.GroupProblem) -> dict[str, str]:
    code, message = PROBLEMS[problem]
    return {"errorCode": code.value, "message": message}


def _error_item(error: quote.ErrorItem) -> dict[str, Any]:
    code, message = PROBLEMS[error.problem]
    return {
        "productId": error.product_id,
        "quantity": error.quantity,
        "errorCode": code.value,
        "message": message.format(id=error.product_id, quantity=error.quantity),
    }


def _item(quoted: QuotedItem, summaries: Mapping[int, Fragment]) -> dict[str, Any]:
    item, info, product = quoted.item, quoted.info, quoted.info.product
    return {
        "productId": item.product_id,
        "upsellId": None,
        "productPairOfferId": None,
        "name": product.name,
        "sku": product.sku,
        "service": product.service,
        "saleWithoutStock": product.sale_without_stock,
        "quantity": item.quantity,
        "productPriceRuleId": info.price.rule_id,
        "productPriceRuleName": info.price.rule_name,
        "value": _money(item.unit_price),
        "code": None,
        "product": summaries[item.product_id],
        "productStorages": [
            {
                "productStorageId": stock.storage.storage.pk,
                "stock": stock.quantity,
                "zipCode": stock.storage.zip_code,
                "latitude": _text(stock.storage.storage.latitude),
                "longitude": _text(stock.storage.storage.longitude),
            }
            for stock in info.stocks
        ],
        "volume": {
            "height": _number(product.height, _CENTS),
            "width": _number(product.width, _CENTS),
            "length": _number(product.length, _CENTS),
            "weight": _number(product.weight, _GRAMS),
        },
        "category": (
            None
            if product.main_category_id is None
            else {"id": product.main_category_id, "name": product.main_category_name}
        ),
        "cargoTypeId": product.cargo_type_id,
        "additionalTime": product.additional_time,
        "cubicVolumeItem": _number(item.cubic_volume_item, _GRAMS),
        "totalCubicVolume": _number(item.total_cubic_volume, _GRAMS),
        "error": None,
    }


def _pickup(pickup: Pickup, selected_id: int | None) -> dict[str, Any]:
    return {
        "id": pickup.pk,
        "type": pickup.type,
        "selected": pickup.pk == selected_id,
        "name": pickup.name,
        "address": pickup.address,
        "number": pickup.number,
        "district": pickup.district,
        "city": pickup.city,
        "countryCode": pickup.country_code,
        "stateCode": pickup.state_code,
        "zipCode": pickup.display_zip_code,
        "complement": pickup.complement,
        "latitude": _text(pickup.latitude),
        "longitude": _text(pickup.longitude),
        "openingHours": pickup.opening_hours,
    }


def _variable(variable: quote.QuoteVariable) -> dict[str, Any]:
    per_kg = variable.kind == quote.VariableKind.PER_EXTRA_KG
    return {
        "type": str(variable.kind),
        "value": _number(variable.value, _CENTS),
        "threshold": _number(variable.threshold, _GRAMS) if per_kg else None,
    }


def _estimate(estimate: Estimate, table: ShippingTable) -> dict[str, Any]:
    pickup = table.kind == ShippingTableKind.PICKUP
    return {
        "shipsOn": estimate.ships_on.isoformat(),
        "minDate": estimate.min_date.isoformat(),
        "maxDate": estimate.max_date.isoformat(),
        "cutoffAt": estimate.cutoff_at.isoformat(),
        "businessDays": {"min": estimate.business_days[0], "max": estimate.business_days[1]},
        "readyOn": estimate.max_date.isoformat() if pickup else None,
    }


def _row(quoted: QuotedOption) -> dict[str, Any]:
    row, country = quoted.option.row, quoted.table.table.country
    return {
        "id": row.id,
        "initialZipcode": format_postal_code(country, row.initial_zipcode),
        "finalZipcode": format_postal_code(country, row.final_zipcode),
        "initialWeight": _number(row.initial_weight, _GRAMS),
        "finalWeight": _number(row.final_weight, _GRAMS),
        "initialPrice": _money(row.initial_price),
        "finalPrice": _money(row.final_price),
        "beginShippingTime": row.begin_days,
        "endShippingTime": row.end_days,
        "shippingValue": _money(row.shipping_value),
        "variables": [_variable(variable) for variable in row.variables],
    }


def _option(quoted: QuotedOption) -> dict[str, Any]:
    option, table, live = quoted.option, quoted.table.table, quoted.live
    if live is None:
        code, carrier, label = table.external_shipping_code, table.carrier.name, table.label
    else:  # a live table's carrier service (`row` null): the carrier's company and service
        code, carrier, label = str(live.id), live.company or table.carrier.name, live.name
    answer = {
        "shippingTableId": table.pk,
        "integrationCode": table.integration_code,
        "externalShippingCode": code,
        "carrierId": table.carrier_id,
        "carrierName": carrier,
        "label": label,
        "value": _money(option.value),
        "beginShippingTime": option.begin_days,
        "endShippingTime": option.end_days,
        "trackingUrl": table.carrier.tracking_url_template or None,
        "row": None if live else _row(quoted),
        "pickups": [_pickup(pickup, quoted.selected_pickup_id) for pickup in quoted.table.pickups],
        "error": None,
    }
    if quoted.estimate is not None:
        answer["deliveryEstimate"] = _estimate(quoted.estimate, table)
    return answer


def _storage(info: StorageInfo) -> dict[str, Any]:
    storage = info.storage
    return {
        "id": storage.pk,
        "name": storage.name,
        "code": storage.code,
        "corporateName": storage.corporate_name,
        "email": storage.email,
        "phone": storage.phone,
        "tradeName": storage.trade_name,
        "stateCode": storage.state_code,
        "countryCode": storage.country_code,
        "document": storage.document,
        "zipCode": info.zip_code,
        "city": storage.city,
        "address": storage.address,
        "district": storage.district,
        "number": storage.number,
        "complement": storage.complement,
        "latitude": _text(storage.latitude),
        "longitude": _text(storage.longitude),
        "active": storage.active,
        "observation": storage.observation or None,
        "tradePolicyExceptions": sorted(info.engine.excluded_trade_policy_ids),
    }


def _verdict(explained: ExplainedTable) -> dict[str, Any]:
    table, verdict = explained.table, explained.verdict
    return {
        "shippingTableId": table.pk,
        "label": table.label,
        "carrierId": table.carrier_id,
        "carrierName": table.carrier.name,
        "accepted": not verdict.reasons,
        "rowId": verdict.row_id,
        "rowsCoveringZipCode": verdict.rows_covering,
        "reasons": [str(reason) for reason in verdict.reasons],
        **({"detail": explained.detail} if explained.detail else {}),
    }


def _group(quoted: QuotedGroup, summaries: Mapping[int, Fragment]) -> dict[str, Any]:
    group = quoted.group
    answer = {
        "quoteId": fresh_uuid_marker(),
        "error": None if group.problem is None else _problem(group.problem),
        "tradePolicyId": quoted.trade_policy_id,
        "productStorageId": group.storage_id,
        "distance": float(group.distance_km),
        "originZipCode": quoted.storage.zip_code,
        "targetZipCode": quoted.target_code,
        "totalPrice": _money(group.total_price),
        "quantityItems": group.quantity_items,
        "totalCubicVolume": _number(group.total_cubic_volume, _GRAMS),
        "totalWeight": _number(group.total_weight, _GRAMS),
        "service": group.service,
        "cargoTypeCombination": list(group.cargo_type_ids),
        "additionalTimeGroup": group.additional_time,
        "storage": _storage(quoted.storage),
        "items": [_item(item, summaries) for item in quoted.items],
        "shippingOptions": [_option(option) for option in quoted.options],
    }
    if quoted.explanation is not None:
        answer["explanation"] = {"tables": [_verdict(table) for table in quoted.explanation]}
    return answer


def quote_answer(outcome: QuoteOutcome, summaries: Mapping[int, Fragment]) -> dict[str, Any]:
    """The answer of a quote; `summaries` are the rendered Product summaries of
    `outcome.product_ids` (catalog.api.fragments.product_summaries)."""
    answer: dict[str, Any] = {
        "quoteGroups": [_group(group, summaries) for group in outcome.groups],
        "errorItems": [_error_item(error) for error in outcome.error_items],
    }
    if outcome.explained:
        answer["explanation"] = {
            "excludedItems": [
                {
                    "productId": error.product_id,
                    "quantity": error.quantity,
                    "reason": EXCLUSION_REASONS[error.problem],
                }
                for error in outcome.error_items
            ]
        }
    return answer
