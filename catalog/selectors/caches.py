"""The cache namespaces of the catalog's reads (infra/cache.py), bumped by the signals."""

CATEGORY_CACHE = "categories"
# Every public shape of a product (summary, full product, quote item) and answers showing one:
# bumped by changes that reach many products (a category, a rule, a product's own row).
PRODUCTS_CACHE = "products"
PRICE_RULE_CACHE = "price-rules"
TRADE_POLICY_CACHE = "trade-policies"
