"""`limit` and `offset` (strict: a bad value is refused, not clamped) and the contract's page
container, on DRF's LimitOffsetPagination."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from rest_framework.pagination import LimitOffsetPagination

from .values import INTEGER, InvalidValue, text_matching

DEFAULT_LIMIT = 10
MAX_LIMIT = 100
MAX_OFFSET = 10_000_000


class ListPagination(LimitOffsetPagination):
    limit: int
    offset: int
    count: int
    default_limit = DEFAULT_LIMIT
    max_limit = MAX_LIMIT
    max_offset = MAX_OFFSET

    def __init__(self, **attributes: int) -> None:
        # default_limit / max_limit per endpoint; limit / offset when already read
        self.__dict__.update(attributes)
        self.limit = attributes.get("limit", self.default_limit)
        self.offset = attributes.get("offset", 0)

    @staticmethod
    def _bounded_int(items: list | None, name: str, default: int, high: int, low: int = 0) -> int:
        """`name` from its `collect` items: one plain integer from `low` to `high`."""
        if not items:
            return default
        if any(key != name for key, _, _ in items):
            raise InvalidValue("must be a single integer, not a list or object")
        _, value, raw = items[0]
        if value is None:  # a plain dict's None, as if absent
            return default
        if not raw and isinstance(value, list):
            raise InvalidValue("must be given once")
        problem = f"must be an integer from {low} to {high}"
        number = int(text_matching(value, INTEGER, problem))
        if not low <= number <= high:
            raise InvalidValue(problem)
        return number

    def read_limit(self, items: list | None) -> None:
        self.limit = self._bounded_int(items, "limit", self.default_limit, self.max_limit, 1)

    def read_offset(self, items: list | None) -> None:
        self.offset = self._bounded_int(items, "offset", 0, self.max_offset)

    def paginate_queryset(  # request and view: unused, as the page is already read
        self, queryset: QuerySet[Any, Any] | Sequence[Any], request: Any = None, view: Any = None
    ) -> list[Any]:
        """The page's rows: one COUNT query, and one page query only when rows are left."""
        self.count = self.get_count(queryset)
        if self.offset >= self.count:
            return []
        return list(queryset[self.offset : self.offset + self.limit])

    def get_paginated_data(self, registers: list) -> dict:
        pages = math.ceil(self.count / self.limit) if self.count else 0
        pagination = {"limit": self.limit, "offset": self.offset, "pages": pages}
        return {"registers": registers, "pagination": {**pagination, "registers": self.count}}
