"""Models of the catalog app.

Categories and brands, products (variations, medias, attributes, descriptions), trade
policies, prices and price rules, cargo types, storages and stock, product interests.
"""

from .categories import Brand, Category
from .interests import InterestOrigin, InterestStatus, ProductInterest
from .inventory import CargoType, Stock, Storage
from .merchandising import ProductRelation, RelationKind, Seal
from .prices import (
    PriceRule,
    PriceRuleOrigin,
    ProductPrice,
    TradePolicy,
)
from .products import (
    Attribute,
    AttributeValue,
    GoogleAgeGroup,
    GoogleCondition,
    GoogleGender,
    MediaType,
    Product,
    ProductDescription,
    ProductMedia,
    ProductType,
)
from .reviews import ProductReviewSummary

__all__ = [
    "Attribute",
    "AttributeValue",
    "Brand",
    "CargoType",
    "Category",
    "GoogleAgeGroup",
    "GoogleCondition",
    "GoogleGender",
    "InterestOrigin",
    "InterestStatus",
    "MediaType",
    "PriceRule",
    "PriceRuleOrigin",
    "Product",
    "ProductDescription",
    "ProductInterest",
    "ProductMedia",
    "ProductPrice",
    "ProductRelation",
    "ProductReviewSummary",
    "ProductType",
    "RelationKind",
    "Seal",
    "Stock",
    "Storage",
    "TradePolicy",
]
