"""The cache namespaces of the catalog's reads (infra/cache.py), bumped by the signals."""

CATEGORY_CACHE = "categories"
# Every public shape of a product, bumped by changes that reach many products.
PRODUCTS_CACHE = "products"
PRICE_RULE_CACHE = "price-rules"
TRADE_POLICY_CACHE = "trade-policies"
# Every listed product (the catalogue listing): bumped only by the listing journal's notes
# of the changed products (infra.caching.journal), which the catalogue patches.
LISTING_CACHE = "product-listing"
# What the whole catalogue listing reads besides single products (categories, brands,
# attributes, price rules, trade policies, seals, storages): a change rebuilds the catalogue.
CATALOGUE_CACHE = "catalogue"
