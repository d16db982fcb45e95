"""Serializers of the catalog API, and the read API other apps import (re-exported here).

- `ProductSummarySerializer(product)`: contract 2.2 Product summary. Feed it products
  loaded with `catalog.selectors.product_summary_related(prefix)` (fixed query count).
  `ReviewProductSummarySerializer` is the same with `productId` in place of `id`;
  `ProductSummaryField` / `ReviewProductSummaryField` pass a rendered one through.
- `FullProductSerializer(facts, context={...})`: contract 2.11 Upsell product, of the
  `catalog.selectors.FullProductFacts` of a product (see its docstring;
  catalog/api/fragments.py renders it).
- `PriceRuleSerializer` (contract Price rule; prefetch `selectors.PRICE_RULE_RELATIONS`);
  `MoneyField`, `OptionalTextField` and `file_url` for the other apps' shapes.

File URLs (medias, attribute images, seals) are absolute against the context's `base_url`,
else settings.PUBLIC_BASE_URL.
"""

# ruff: noqa: F401  (this module re-exports the read API other apps import)

from .fields import MoneyField, OptionalTextField, file_url
from .full import FullProductSerializer
from .price_rules import PriceRuleSerializer
from .summary import (
    FullTreeNodeSerializer,
    ProductSummaryField,
    ProductSummarySerializer,
    ReviewProductSummaryField,
    ReviewProductSummarySerializer,
    SpecificCategoryTreeSerializer,
)
