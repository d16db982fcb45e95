"""catalog/pricing.py: the Price object, rule by rule (pure, no database)."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from catalog.pricing import (
    PriceRequest,
    ProductData,
    RuleData,
    StoredPrice,
    compute_price,
)
from storefront.payments import CashDiscountTerms, InstallmentTerms

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PRODUCT = ProductData(id=1, base_price=Decimal("80.00"), brand_id=7, category_ids=frozenset({3, 4}))
STORED = StoredPrice(
    sale_price=Decimal("100.00"), comparison_price=Decimal("120.00"), markup=Decimal("1.8")
)
REQUEST = PriceRequest(trade_policy_id=1, moment=NOW)


def rule(**fields) -> RuleData:
    defaults = {"id": 1, "name": "Ten off", "value": Decimal("10")}
    return RuleData(**{**defaults, **fields})


def price(rules=(), stored=STORED, request=REQUEST, product=PRODUCT, **kwargs):
    return compute_price(product, stored, rules, request, **kwargs)


def test_without_rules_the_stored_price_is_returned():
    result = price()

    assert result.sale_price == Decimal("100.00")
    assert result.comparison_price == Decimal("120.00")
    assert result.markup == Decimal("1.8")
    assert (result.rule_id, result.rule_trigger, result.rule_name) == (0, "", "")
    assert result.base_price is False
    assert result.available_for_sale is True
    assert result.price_with_discount == Decimal("100.00")
    assert [i.installment for i in result.installments] == [1]


def test_without_a_price_in_the_trade_policy_the_base_price_is_used():
    result = price(stored=None)

    assert result.sale_price == Decimal("80.00")
    assert result.comparison_price == Decimal("0.00")
    assert result.base_price is True


def test_percentage_rule_discounts_the_sale_price():
    result = price([rule(value=Decimal("15"))])

    assert result.sale_price == Decimal("85.00")
    assert result.rule_id == 1 and result.rule_name == "Ten off"
    assert result.rule_trigger == "automatic"


def test_percentage_is_rounded_half_up_to_cents():
    stored = StoredPrice(sale_price=Decimal("10.05"))
    # 10.05 * 5% = 0.5025 -> 0.50 off
    assert price([rule(value=Decimal("5"))], stored=stored).sale_price == Decimal("9.55")
    # 0.15 * 50% = 0.075 -> 0.08 off (half-up)
    cheap = StoredPrice(sale_price=Decimal("0.15"))
    assert price([rule(value=Decimal("50"))], stored=cheap).sale_price == Decimal("0.07")


def test_fixed_rule_takes_an_amount_off():
    result = price([rule(value_type="fixed", value=Decimal("30.50"))])

    assert result.sale_price == Decimal("69.50")


def test_price_never_goes_negative():
    assert price([rule(value_type="fixed", value=Decimal("500"))]).sale_price == Decimal("0.00")
    assert price([rule(value=Decimal("100"))]).sale_price == Decimal("0.00")


def test_rule_on_the_comparison_price_never_raises_the_sale_price():
    # 5% off 120 = 114, above the sale price 100: the sale price stays
    small = rule(base_price_field="comparison-price", value=Decimal("5"))
    assert price([small]).sale_price == Decimal("100.00")
    # 25% off 120 = 90
    big = rule(base_price_field="comparison-price", value=Decimal("25"))
    assert price([big]).sale_price == Decimal("90.00")


def test_update_comparison_price_shows_the_price_before_the_rule():
    result = price([rule(update_comparison_price="sale-price")])

    assert result.comparison_price == Decimal("100.00")
    assert result.sale_price == Decimal("90.00")


def test_highest_priority_rule_wins_when_rules_overlap():
    low = rule(id=1, name="Low", priority=1, value=Decimal("50"))
    high = rule(id=2, name="High", priority=5, value=Decimal("10"))

    result = price([low, high])

    assert result.rule_id == 2
    assert result.sale_price == Decimal("90.00")


def test_equal_priority_prefers_the_lower_price():
    a = rule(id=1, value=Decimal("10"))
    b = rule(id=2, value=Decimal("20"))

    assert price([a, b]).rule_id == 2


def test_inactive_rule_is_ignored():
    assert price([rule(active=False)]).rule_id == 0


def test_expired_rule_is_ignored():
    expired = rule(start_at=NOW - timedelta(days=10), end_at=NOW - timedelta(seconds=1))
    assert price([expired]).rule_id == 0


def test_rule_not_yet_started_is_ignored():
    assert price([rule(start_at=NOW + timedelta(seconds=1))]).rule_id == 0


def test_rule_applies_inside_its_window_and_ends_exclusively():
    live = rule(start_at=NOW, end_at=NOW + timedelta(hours=1))
    assert price([live]).rule_id == 1
    ended = rule(start_at=NOW - timedelta(hours=1), end_at=NOW)
    assert price([ended]).rule_id == 0


def test_rule_of_another_trade_policy_is_ignored():
    assert price([rule(trade_policy_ids=frozenset({2}))]).rule_id == 0
    assert price([rule(trade_policy_ids=frozenset({1, 2}))]).rule_id == 1


def test_quantity_range_limits_the_rule():
    ranged = rule(begin_quantity=3, end_quantity=5)
    assert price([ranged]).rule_id == 0
    assert price([ranged], request=replace(REQUEST, quantity=3)).rule_id == 1
    assert price([ranged], request=replace(REQUEST, quantity=5)).rule_id == 1
    assert price([ranged], request=replace(REQUEST, quantity=6)).rule_id == 0
    open_ended = rule(begin_quantity=2, end_quantity=0)
    assert price([open_ended], request=replace(REQUEST, quantity=1000)).rule_id == 1


def test_rule_applied_in_group_counts_the_group_quantity():
    grouped = rule(id=9, begin_quantity=3, apply_in_group=True)
    request = replace(REQUEST, quantity=1, group_quantities={9: 4})

    assert price([grouped], request=request).rule_id == 9


def test_rule_targets_products_categories_and_brands():
    assert price([rule(rule_target="product", product_ids=frozenset({1}))]).rule_id == 1
    assert price([rule(rule_target="product", product_ids=frozenset({2}))]).rule_id == 0
    assert price([rule(rule_target="category", category_ids=frozenset({4}))]).rule_id == 1
    assert price([rule(rule_target="category", category_ids=frozenset({5}))]).rule_id == 0
    assert price([rule(rule_target="brand", brand_ids=frozenset({7}))]).rule_id == 1
    assert price([rule(rule_target="brand", brand_ids=frozenset({8}))]).rule_id == 0


def test_rule_on_a_main_product_applies_to_its_variations():
    variation = replace(PRODUCT, id=11, parent_id=1)

    result = price([rule(rule_target="product", product_ids=frozenset({1}))], product=variation)

    assert result.rule_id == 1


def test_coupon_rule_needs_its_code():
    coupon = rule(trigger="coupon", code="SAVE10")
    assert price([coupon]).rule_id == 0
    assert price([coupon], request=replace(REQUEST, coupon_code="nope")).rule_id == 0
    assert price([coupon], request=replace(REQUEST, coupon_code=" save10 ")).rule_id == 1


def test_upsell_rule_applies_only_when_forced_or_asked_for():
    upsell = rule(trigger="upsell", value=Decimal("20"))
    assert price([upsell]).rule_id == 0
    assert price([], forced_rule=upsell).sale_price == Decimal("80.00")
    asked = replace(REQUEST, triggers=frozenset({"automatic", "upsell"}))
    assert price([upsell], request=asked).rule_id == 1


def test_forced_rule_wins_over_a_higher_priority_automatic_rule():
    automatic = rule(id=1, priority=99, value=Decimal("50"))
    offer = rule(id=2, trigger="upsell", priority=0, value=Decimal("5"))

    result = price([automatic], forced_rule=offer)

    assert result.rule_id == 2 and result.sale_price == Decimal("95.00")


def test_forced_rule_that_does_not_apply_leaves_the_automatic_rules():
    automatic = rule(id=1, value=Decimal("50"))
    expired = rule(id=2, trigger="upsell", end_at=NOW - timedelta(days=1))

    assert price([automatic], forced_rule=expired).rule_id == 1


def test_price_with_discount_applies_the_cash_discount_to_the_final_price():
    request = replace(REQUEST, cash_discount=CashDiscountTerms(percentage=Decimal("5")))

    result = price([rule(value=Decimal("10"))], request=request)

    assert result.sale_price == Decimal("90.00")
    assert result.price_with_discount == Decimal("85.50")


def test_installments_are_the_plan_of_the_final_price():
    terms = InstallmentTerms(
        max_installments=3,
        min_installment_value=Decimal("40"),
        interest_free_installments=3,
        monthly_interest_rate=Decimal("0"),
    )
    request = replace(REQUEST, installment_terms=terms)

    result = price([rule(value=Decimal("10"))], request=request)

    # 90.00: 1x 90.00, 2x 45.00; 3x 30.00 is below the 40.00 minimum
    assert [(i.installment, i.installment_value) for i in result.installments] == [
        (1, Decimal("90.00")),
        (2, Decimal("45.00")),
    ]


def test_without_installment_terms_only_the_single_payment_is_offered():
    assert [i.installment for i in price().installments] == [1]


def test_unavailable_price_row_or_inactive_product_is_not_available_for_sale():
    assert price(stored=replace(STORED, available_for_sale=False)).available_for_sale is False
    assert price(product=replace(PRODUCT, active=False)).available_for_sale is False


money = st.decimals(min_value=0, max_value=Decimal("99999999.99"), places=2)


@given(
    sale=money,
    comparison=money,
    value=st.decimals(min_value=0, max_value=Decimal("100000"), places=2),
    value_type=st.sampled_from(["percentage", "fixed"]),
    base_field=st.sampled_from(["sale-price", "comparison-price"]),
    cash=st.decimals(min_value=0, max_value=100, places=2),
)
def test_final_price_is_between_zero_and_the_sale_price(
    sale, comparison, value, value_type, base_field, cash
):
    if value_type == "percentage":
        value = min(value, Decimal("100"))
    stored = StoredPrice(sale_price=sale, comparison_price=comparison)
    request = replace(REQUEST, cash_discount=CashDiscountTerms(percentage=cash))
    the_rule = rule(value=value, value_type=value_type, base_price_field=base_field)

    result = price([the_rule], stored=stored, request=request)

    assert Decimal("0") <= result.sale_price <= sale
    assert Decimal("0") <= result.price_with_discount <= result.sale_price
    assert result.sale_price == result.sale_price.quantize(Decimal("0.01"))
