"""The cache namespaces of the catalog's reads (infra/cache.py), bumped by the signals."""

CATEGORY_CACHE = "categories"
# Every public shape of a product, bumped by changes that reach many products.
PRODUCTS_CACHE = "products"
PRICE_RULE_CACHE = "price-rules"
TRADE_POLICY_CACHE = "trade-policies"
# Every listed product's price, stock and review (the catalogue listing; with PRODUCTS_CACHE).
LISTING_CACHE = "product-listing"
