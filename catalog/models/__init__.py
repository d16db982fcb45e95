"""Models of the catalog app (one module per area)."""

# ruff: noqa: F401  (this module re-exports the models other modules import)

from .ahead import ProductPageAhead
from .categories import Brand, Category
from .interests import InterestOrigin, InterestStatus, ProductInterest
from .inventory import CargoType, Stock, Storage
from .merchandising import ProductRelation, RelationKind, Seal
from .prices import PriceRule, ProductPrice, TradePolicy
from .products import (
    Attribute,
    AttributeValue,
    MediaType,
    Product,
    ProductDescription,
    ProductMedia,
    ProductType,
)
from .restocks import BackInStockOptOut, BackInStockSettings, Restock, RestockNotice
from .reviews import ProductReviewSummary
from .searches import SearchCount
