"""The declarations of a list endpoint (`ListSpec`) and the parsed query (`ListQuery`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from django.db.models import Q

FieldType = Literal["int", "str", "bool", "decimal", "datetime", "date"]

DEFAULT_LIMIT = 10
MAX_LIMIT = 100
MAX_OFFSET = 10_000_000
MAX_CONDITIONS = 20
MAX_ORDER_FIELDS = 5


@dataclass(frozen=True)
class ListField:
    path: str  # ORM path, e.g. "product_id", "created_at", "product__brand_id"
    type: FieldType
    filter: bool = True  # may appear in `condition`
    order: bool = False  # may appear in `order`


@dataclass(frozen=True)
class ListSpec:
    fields: Mapping[str, ListField]  # API name -> ListField (whitelist for condition and order)
    output_fields: frozenset[str]  # API keys allowed in `fields` (sparse fieldsets)
    default_order: tuple[str, ...] = ("-createdAt",)  # API names; "-" = descending

    def __post_init__(self):
        # A wrong declaration is a programming error: fail at import, not per request.
        for name, item in self.fields.items():
            if item.type not in get_args(FieldType):
                raise ValueError(f"Field {name!r} has an unknown type {item.type!r}.")
        for name in self.default_order:
            if name.lstrip("-") not in self.fields:
                raise ValueError(f"default_order names {name!r}, which is not in fields.")


@dataclass(frozen=True)
class ListQuery:
    limit: int
    offset: int
    fields: tuple[str, ...] | None  # None = all keys
    filter: Q = field(default_factory=Q)  # AND of all conditions (Q() when none)
    order_by: tuple[str, ...] = ("id",)  # ORM order_by arguments, ending with "id"
