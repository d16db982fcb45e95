"""Reads of the catalog, and the read API other apps import (re-exported here).

- categories.py: `category_tree_get(*, channel=None)`, `category_subtree_get(*, category_id)`,
  `category_index()`: the category tree (cached; one query on a miss).
- products.py: prefetch recipes of the product shapes. Product summary (contract 2.2), for
  any model that points at a product::

      select, prefetch = product_summary_related("product")   # "" for Product itself
      Review.objects.select_related(*select).prefetch_related(*prefetch)

  a fixed number of queries whatever the number of rows, medias or attributes;
  `products_for_summary()`, `product_full_queryset()` (everything the full product, contract
  2.11, reads), `product_get_active(*, product_id)`.
- caches.py: the cache namespaces the signals bump.
- prices.py: `PriceContext` (what the prices of one request share), trade policies, price
  rules as plain data (cached), and
  `product_price_get(*, product, context, quantity)`: the contract's Price object of a
  product (see catalog/pricing.py for the rules); of a plain row (`.values(*PRICING_FIELDS)`)
  `price_get(pricing_data_from_row(row, category_ids, context), stored, context=...)`.
- price_context.py: `price_context_get(...)` builds the PriceContext of a request;
  `selling_prices_get(products)`, what a list of products sells at now.
- facts.py: `full_product_facts_get(...)`, what the full product computes.
- merchandising.py: seals (`active_seals()`, cached plain data), related and indicated
  products (a prefetch recipe), the product's filters.
"""

# ruff: noqa: F401  (this module re-exports the read API other apps import)

from .caches import CATEGORY_CACHE, PRICE_RULE_CACHE, PRODUCTS_CACHE, TRADE_POLICY_CACHE
from .categories import (
    category_index,
    category_subtree_get,
    category_tree_get,
)
from .facts import FullProductFacts, ProductStatus, StockFacts, full_product_facts_get
from .merchandising import FilterFacts, SealData
from .price_context import price_context_get, selling_prices_get
from .prices import (
    PRICE_RULE_RELATIONS,
    PRICING_FIELDS,
    STORED_PRICE_FIELDS,
    PriceContext,
    active_price_rule_records,
    active_price_rules,
    default_trade_policy_id,
    price_get,
    price_rules_with_targets,
    pricing_data_from_row,
    product_price_get,
    trade_policy_exists,
)
from .products import (
    catalogue_ids,
    product_available_stock,
    product_full_queryset,
    product_get_active,
    product_namespaces,
    product_summary_related,
    products_for_summary,
)
