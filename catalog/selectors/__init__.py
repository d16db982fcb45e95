"""Reads of the catalog, and the read API other apps import (re-exported here)."""

# ruff: noqa: F401  (this module re-exports the read API other apps import)

from .caches import CATALOGUE_CACHE, CATEGORY_CACHE, PRICE_RULE_CACHE, PRODUCTS_CACHE
from .categories import category_index, category_tree_get
from .facts import FullProductFacts, ProductStatus, StockFacts, full_product_facts_get
from .prices import (
    PRICING_FIELDS,
    STORED_PRICE_FIELDS,
    PriceContext,
    active_price_rule_records,
    active_price_rules,
    default_trade_policy_id,
    price_context_get,
    price_get,
    price_rules_with_targets,
    pricing_data_from_row,
    product_price_get,
    selling_prices_get,
    trade_policy_exists,
)
from .products import (
    available_stocks,
    catalogue_ids,
    product_full_get,
    product_full_queryset,
    product_get_active,
    product_namespaces,
    product_own_namespaces,
    products_for_summary,
    stock_namespaces,
    summary_products_get,
)
