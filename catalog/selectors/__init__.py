"""Reads of the catalog, and the read API other apps import (re-exported here).

- categories.py: the category tree (cached); products.py: prefetch recipes of the product
  shapes, e.g. for any model pointing at a product (a fixed number of queries)::

      select, prefetch = product_summary_related("product")   # "" for Product itself
      Review.objects.select_related(*select).prefetch_related(*prefetch)

- prices.py: `PriceContext` and the contract's Price object of a product (the rules are
  catalog/pricing.py's); price_context.py builds the PriceContext of a request.
- facts.py: what the full product computes; merchandising.py: seals, relations, filters.
"""

# ruff: noqa: F401  (this module re-exports the read API other apps import)

from .caches import CATEGORY_CACHE, PRICE_RULE_CACHE, PRODUCTS_CACHE, TRADE_POLICY_CACHE
from .categories import category_index, category_subtree_get, category_tree_get
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
