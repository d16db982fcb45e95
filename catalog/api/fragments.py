"""The product read model's rendered fragments: a product's public shapes as JSON bytes,
kept in the shared cache and spliced into answers without being built again.

- `product_summaries(ids, base_url=..., key="id")`: {id: Fragment} of the contract's
  Product summary (2.2); `key="productId"` gives the review list's variant.
- `product_full(product_id, base_url=..., price_rule=..., quantity=...)`: the contract's
  Upsell product (2.11), priced in the default trade policy with the offer's rule.

A page of N products costs one `get_many` on the cache; the misses are loaded with a
fixed number of queries whatever N is (`catalog.selectors` prefetch recipes), rendered
once and stored. Keys live under the version of `PRODUCTS_CACHE`, which the signals of
every model a product shows bump (catalog/signals.py); a full product, whose price
follows the schedules of price rules, is never kept past the next rule start or end.
File URLs are absolute against `base_url`, which is part of the key.
"""

import hashlib
import math
from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from apikit.renderers import Fragment, json_bytes
from infra.cache import namespace_versions

from .. import pricing
from ..models import PriceRule
from ..selectors import (
    PRODUCTS_CACHE,
    full_product_facts_get,
    price_context_get,
    product_full_queryset,
    products_for_summary,
)
from .serializers import FullProductSerializer, ProductSummarySerializer

SUMMARY_KEYS = ("id", "productId")


def _prefix(kind: str, base_url: str) -> str:
    (version,) = namespace_versions((PRODUCTS_CACHE,))
    base = hashlib.blake2b(base_url.encode(), digest_size=8).hexdigest()
    return f"{PRODUCTS_CACHE}:{version}:{kind}:{base}"


def _summary_data(product, base_url: str, key: str) -> dict:
    data = ProductSummarySerializer(product, context={"base_url": base_url}).data
    if key == "id":
        return data
    return {key: data.pop("id"), **data}


def product_summaries(ids: Iterable[int], *, base_url: str, key: str = "id") -> dict[int, Fragment]:
    """{product id: rendered summary} of the ids that name a product (any state)."""
    if key not in SUMMARY_KEYS:
        raise ValueError(f"key must be one of {SUMMARY_KEYS}")
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    prefix = _prefix(f"summary-{key}", base_url)
    keys = {product_id: f"{prefix}:{product_id}" for product_id in wanted}
    found = cache.get_many(list(keys.values()))
    result = {pid: Fragment(found[k]) for pid, k in keys.items() if k in found}
    missing = [pid for pid in wanted if pid not in result]
    if missing:
        built = {
            product.pk: json_bytes(_summary_data(product, base_url, key))
            for product in products_for_summary().filter(pk__in=missing)
        }
        cache.set_many(
            {keys[pid]: body for pid, body in built.items()},
            timeout=settings.PRODUCT_FRAGMENT_SECONDS,
        )
        result.update((pid, Fragment(body)) for pid, body in built.items())
    return result


def product_full(
    product_id: int,
    *,
    base_url: str,
    price_rule: PriceRule | None = None,
    quantity: int = 1,
) -> Fragment | None:
    """The rendered full product, priced for `quantity` in the default trade policy with
    `price_rule` forced (an upsell offer's), or None when the product does not exist."""
    moment = timezone.now()
    rule_id = price_rule.pk if price_rule is not None else 0
    key = f"{_prefix('full', base_url)}:{product_id}:{rule_id}:{quantity}"
    # (body, valid until): the expiry is checked here too, not left to the cache's own clock
    body, valid_until = cache.get(key) or (None, None)
    if valid_until is not None and valid_until <= moment.timestamp():
        body = None
    if body is None:
        product = product_full_queryset().filter(pk=product_id).first()
        if product is None:
            return None
        context = price_context_get(moment=moment, price_rule=price_rule)
        facts = full_product_facts_get(product=product, context=context, quantity=quantity)
        data = FullProductSerializer(
            product, context={"base_url": base_url, "facts": {product.pk: facts}}
        ).data
        body = json_bytes(data)
        timeout = settings.PRODUCT_FRAGMENT_SECONDS
        boundary = pricing.next_rule_boundary(context.rules, moment)
        if boundary is not None:
            timeout = min(timeout, math.floor((boundary - moment).total_seconds()))
        if timeout > 0:
            cache.set(key, (body, boundary and boundary.timestamp()), timeout=timeout)
    return Fragment(body)


def attach_product_summaries(rows: list, *, base_url: str, key: str = "id") -> None:
    """Set `row.product_summary` (the rendered summary, None for a missing product) on rows
    that have a `product_id`, with one `product_summaries` call for all of them."""
    summaries = product_summaries({row.product_id for row in rows}, base_url=base_url, key=key)
    for row in rows:
        row.product_summary = summaries.get(row.product_id)
