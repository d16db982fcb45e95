"""Serializers of the catalog API, and the read API other apps import.

- `ProductSummarySerializer(product)`: contract 2.2 Product summary. Feed it products
  loaded with `catalog.selectors.product_summary_related(prefix)` (fixed query count).
  `ReviewProductSummarySerializer` is the same with `productId` in place of `id`.
- `MediaSerializer`, `AttributeSerializer` (entries of `currentAttributes`),
  `CategoryNodeSerializer` (id, name, url; from a Category or a dict).
- `FullProductSerializer(product, context={...})`: contract 2.11 Upsell product. Load the
  product with `catalog.selectors.product_full_queryset()`. Context (all optional):
  `request`; `price_context` (a `catalog.selectors.PriceContext`, e.g.
  `price_context_get(trade_policy_id=..., moment=..., price_rule=offer.price_rule)`:
  its trade policy picks prices and the description, its rule gives `price`); without
  one the default trade policy at the current moment is used.
- `PriceSerializer` (contract Price from a `catalog.pricing.Price`), `StockSerializer`,
  `PriceRuleSerializer` (contract Price rule; prefetch `selectors.PRICE_RULE_RELATIONS`).

File URLs (medias, attribute images) are absolute: built from the request when the
context has one, else from settings.PUBLIC_BASE_URL.
"""

from .fields import MoneyField, OptionalTextField, file_url
from .full import (
    FullProductSerializer,
    PriceSerializer,
    ProductDescriptionSerializer,
    StockSerializer,
    stock_payload,
    stock_total_payload,
)
from .price_rules import PriceRuleSerializer
from .summary import (
    AttributeSerializer,
    AttributeValueSerializer,
    CategoryNodeSerializer,
    FullTreeNodeSerializer,
    MediaSerializer,
    ProductSummaryField,
    ProductSummarySerializer,
    RenderedField,
    ReviewProductSummaryField,
    ReviewProductSummarySerializer,
    SpecificCategoryTreeSerializer,
)

__all__ = [
    "AttributeSerializer",
    "AttributeValueSerializer",
    "CategoryNodeSerializer",
    "FullProductSerializer",
    "FullTreeNodeSerializer",
    "MediaSerializer",
    "MoneyField",
    "OptionalTextField",
    "PriceRuleSerializer",
    "PriceSerializer",
    "ProductDescriptionSerializer",
    "ProductSummaryField",
    "ProductSummarySerializer",
    "RenderedField",
    "ReviewProductSummaryField",
    "ReviewProductSummarySerializer",
    "SpecificCategoryTreeSerializer",
    "StockSerializer",
    "file_url",
    "stock_payload",
    "stock_total_payload",
]
