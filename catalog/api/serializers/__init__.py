"""Serializers of the catalog API, and the read API other apps import (re-exported here).

File URLs are absolute against the context's `base_url`, else settings.PUBLIC_BASE_URL.
"""

# ruff: noqa: F401  (this module re-exports the read API other apps import)

from .fields import MoneyField, OptionalTextField, file_url
from .full import FullProductSerializer, PriceRuleSerializer
from .summary import (
    FullTreeNodeSerializer,
    ProductSummaryField,
    ProductSummarySerializer,
    ReviewProductSummaryField,
    ReviewProductSummarySerializer,
    SpecificCategoryTreeSerializer,
)
