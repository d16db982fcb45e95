"""The PriceContext of a request, and what a list of products sells at now."""

from datetime import datetime

from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

from storefront import payments
from storefront.models import PaymentOptionKind
from storefront.selectors import payment_terms_get

from .. import pricing
from ..models import PriceRule, Product
from .categories import category_index
from .prices import (
    PriceContext,
    active_price_rules,
    default_trade_policy_id,
    price_rule_data,
    product_price_get,
)


def price_context_get(
    *,
    trade_policy_id: int | None = None,
    moment: datetime | None = None,
    price_rule: PriceRule | None = None,
) -> PriceContext:
    """Price context of a trade policy (else the default) at `moment` (else now);
    `price_rule` wins whenever it applies (an upsell offer's)."""
    cash = payment_terms_get(option_id=None, kind=PaymentOptionKind.CASH_DISCOUNT)
    installments = payment_terms_get(option_id=None, kind=PaymentOptionKind.INSTALLMENTS)
    return PriceContext(
        trade_policy_id=default_trade_policy_id() if trade_policy_id is None else trade_policy_id,
        moment=moment or timezone.now(),
        rules=active_price_rules(),
        categories=category_index(),
        forced_rule=price_rule_data(price_rule) if price_rule is not None else None,
        # the store's default options (none: no discount, a single payment)
        cash_discount=cash or payments.NO_CASH_DISCOUNT,
        installment_terms=installments or payments.SINGLE_PAYMENT,
    )


def selling_prices_get(products: list[Product]) -> dict[int, pricing.Price]:
    """{product id: its price now in the default trade policy} (one item, no coupon), in a
    fixed number of queries."""
    prefetch_related_objects(
        products,
        # what product_price_get reads
        Prefetch("prices", to_attr="all_prices"),
        "categories",
        "parent__categories",
    )
    context = price_context_get()
    return {product.pk: product_price_get(product=product, context=context) for product in products}
