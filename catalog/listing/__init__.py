"""The catalogue listing in process memory (pure: plain data in and out, no ORM, no clock):
the catalogue's data (`catalogue`) and one request's query over it (`query`)."""

from .catalogue import AttributeFacet, Catalogue, Labels, ListedProduct
from .query import DEFAULT_ORDER, RELEVANCE, CatalogueQuery, UnknownCondition

__all__ = [
    "DEFAULT_ORDER",
    "RELEVANCE",
    "AttributeFacet",
    "Catalogue",
    "CatalogueQuery",
    "Labels",
    "ListedProduct",
    "UnknownCondition",
]
