"""A product's public shapes rendered once as JSON bytes, kept (summaries in process
memory, full products in the shared cache) and spliced into answers.

Keys live under the version of `PRODUCTS_CACHE` and of each product shown (so a change of
one product retires that product's fragments only; a summary keeps its `stock` apart),
noted (`infra.caching.records.depend_on`) for the answer that embeds them; `base_url` is
part of the key. A full product is never kept past the next start or end of a price rule,
seal or section (`FULL_PRODUCT_SECTIONS`) it shows. The whole layer: docs/caching.md.
"""

import hashlib
import math
import pickle
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from apikit.compiled import renderer
from apikit.renderers import Fragment, json_bytes
from apikit.responses import rendered_rows
from infra.caching.kept import Warm, kept_many
from infra.caching.records import depend_on, recording, still_current
from infra.caching.versions import namespace_versions

from .. import pricing
from ..models import PriceRule, Product
from ..selectors import (
    PRODUCTS_CACHE,
    available_stocks,
    catalogue_ids,
    full_product_facts_get,
    price_context_get,
    product_full_get,
    product_namespaces,
    product_own_namespaces,
    stock_namespaces,
    summary_products_get,
)
from ..selectors.ahead import answers_ahead
from .serializers import FullProductSerializer, ProductSummarySerializer

Key = Literal["id", "productId"]  # the summary's id key

_full_product = renderer(FullProductSerializer)  # FullProductSerializer(...).data, compiled


@dataclass(frozen=True)
class FullProductSection:
    """A field of the full product rendered by an app the catalog must not import.

    `render(product=, category_ids=, moment=, base_url=)` returns the value and the next
    moment it may change by itself (None: only a bump of one of `namespaces` does).
    """

    field: str
    namespaces: tuple[str, ...]
    render: Callable[..., tuple[Any, datetime | None]]


FULL_PRODUCT_SECTIONS: dict[str, FullProductSection] = {}


def register_full_product_section(section: FullProductSection) -> None:
    FULL_PRODUCT_SECTIONS[section.field] = section


def _prefix(kind: str, base_url: str, namespaces: tuple[str, ...] = ()) -> str:
    versions = namespace_versions((PRODUCTS_CACHE, *namespaces))
    base = hashlib.blake2b(base_url.encode(), digest_size=8).hexdigest()
    return f"{PRODUCTS_CACHE}:{settings.RELEASE}:{':'.join(map(str, versions))}:{kind}:{base}"


def _keyed(body: bytes, key: Key) -> bytes:
    """The summary with its first key renamed: `{"id":1,...}` -> `{"productId":1,...}`."""
    return body if key == "id" else b'{"' + key.encode() + body[len(b'{"id') :]


class _SummaryWithoutStock(ProductSummarySerializer):
    def get_stock(self, product: Product) -> int:
        return _STOCK_MARK


_STOCK_MARK = -7_359_164_821_937  # no stock reads so: where the kept summary's `stock` goes


def product_summaries(ids: Iterable[int], *, base_url: str, key: Key = "id") -> dict[int, Fragment]:
    """{product id: rendered summary} of the ids that name a product (any state); a miss
    reads the summaries rendered ahead (`summaries_ahead`) and renders the rest, with the
    catalogue's next products (infra.caching.kept.Warm). The summary is kept apart from its
    `stock`, so a stock change reads one number again."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    depend_on(product_namespaces(wanted))
    warm = Warm(PRODUCTS_CACHE, catalogue_ids)
    bodies = kept_many(
        f"summary:{base_url}",
        wanted,
        summary_namespaces,
        lambda pids: summaries_rendered(pids, base_url=base_url),
        warm=warm,
    )
    stocks = kept_many(
        "available-stock",
        bodies,
        lambda pid: (PRODUCTS_CACHE, *stock_namespaces([pid])),
        available_stocks,
        warm=warm,
    )
    return {
        pid: Fragment(_keyed(with_stock(parts, stocks[pid]), key)) for pid, parts in bodies.items()
    }


def summary_namespaces(product_id: int) -> tuple[str, ...]:
    """What a summary but its `stock` shows: any product's save, and its own records."""
    return (PRODUCTS_CACHE, *product_own_namespaces([product_id]))


def summaries_rendered(pids: list[int], *, base_url: str) -> dict[int, tuple[bytes, bytes]]:
    """`summary_parts` of the ids that name a product: those rendered ahead and current
    (`summaries_ahead`), the rest rendered now."""
    found = summaries_ahead(pids, base_url=base_url)
    rest = [pid for pid in pids if pid not in found]
    return {**found, **summary_parts(rest, base_url=base_url)} if rest else found


def with_stock(parts: tuple[bytes, bytes], stock: int) -> bytes:
    """The summary of `summary_parts`' (head, tail) with its `stock`."""
    return parts[0] + b'"stock":%d' % stock + parts[1]


def summary_parts(pids: list[int], *, base_url: str) -> dict[int, tuple[bytes, bytes]]:
    """{product id: the summary's JSON before and after its `stock` value} of the ids that
    name a product, rendered."""
    if not pids:
        return {}
    products = summary_products_get(pids)
    rows = rendered_rows(_SummaryWithoutStock, products, base_url=base_url)
    parts = {}
    for product, row in zip(products, rows, strict=True):
        head, tail = json_bytes(row).split(b'"stock":%d' % _STOCK_MARK)
        parts[product.pk] = (head, tail)
    return parts


def summary_ahead_keys(base_url: str, pids: Iterable[int]) -> dict[str, int]:
    """{key: product id} of the summaries rendered ahead for `base_url` (`ProductPageAhead`
    rows; catalog.api.ahead)."""
    base = hashlib.blake2b(base_url.encode(), digest_size=8).hexdigest()
    return {f"summary:{settings.RELEASE}:{base}:{pid}": pid for pid in pids}


def summaries_ahead(pids: list[int], *, base_url: str) -> dict[int, tuple[bytes, bytes]]:
    """The summaries of `pids` rendered ahead by upkeep whose versions are all current
    (`summary_parts`' values), in one SELECT (`answers_ahead`). A GET never writes a row."""
    keys = summary_ahead_keys(base_url, pids)
    rows = answers_ahead(list(keys))
    if not rows:
        return {}
    names = tuple({name for pid in keys.values() for name in summary_namespaces(pid)})
    versions = dict(zip(names, namespace_versions(names), strict=True))
    found = {}
    for key, answer in rows.items():
        pid = keys[key]
        try:  # (the versions of `summary_namespaces`, head, tail): catalog.api.ahead's
            stamp, head, tail = pickle.loads(answer)  # noqa: S301
        except Exception:  # noqa: S112  (a row another code version wrote: as if missing)
            continue
        if stamp == tuple(versions[name] for name in summary_namespaces(pid)):
            found[pid] = (head, tail)
    return found


@dataclass(frozen=True)
class FullProductAnswer:
    body: Fragment
    # The next moment the rendered product may change by itself.
    valid_until: datetime | None


def _earliest(*moments: datetime | None) -> datetime | None:
    return min((moment for moment in moments if moment is not None), default=None)


def product_full_answer(
    product_id: int, *, base_url: str, price_rule: PriceRule | None = None, quantity: int = 1
) -> FullProductAnswer | None:
    """The rendered full product, priced for `quantity` in the default trade policy with
    `price_rule` forced (an upsell offer's); None when the product does not exist."""
    moment = timezone.now()
    rule_id = price_rule.pk if price_rule is not None else 0
    sections = tuple(FULL_PRODUCT_SECTIONS.values())
    namespaces = tuple(sorted({ns for section in sections for ns in section.namespaces}))
    depend_on(namespaces)  # an answer embedding the product follows its sections too
    key = f"{_prefix('full', base_url, namespaces)}:{product_id}:{rule_id}:{quantity}"
    # (body, valid until, versions shown): the expiry is checked here, not by the cache
    body, valid_until, shown = cache.get(key) or (None, None, {})
    expired = valid_until is not None and valid_until <= moment.timestamp()
    if body is None or expired or not still_current(shown):
        with recording() as shown:
            depend_on(product_namespaces([product_id]))  # read before the product's rows
            built = _render_full(product_id, base_url, price_rule, quantity, moment, sections)
        if built is None:
            return None
        body, boundary = built
        valid_until = boundary and boundary.timestamp()
        timeout = settings.PRODUCT_FRAGMENT_SECONDS
        if boundary is not None:
            timeout = min(timeout, math.floor((boundary - moment).total_seconds()))
        if timeout > 0:
            cache.set(key, (body, valid_until, shown), timeout=timeout)
    until = datetime.fromtimestamp(valid_until, tz=moment.tzinfo) if valid_until else None
    return FullProductAnswer(body=Fragment(body), valid_until=until)


def _render_full(
    product_id: int,
    base_url: str,
    price_rule: PriceRule | None,
    quantity: int,
    moment: datetime,
    sections: tuple[FullProductSection, ...],
) -> tuple[bytes, datetime | None] | None:
    """The full product's JSON and the next moment it changes by itself."""
    product = product_full_get(product_id)
    if product is None:
        return None
    context = price_context_get(moment=moment, price_rule=price_rule)
    facts = full_product_facts_get(product=product, context=context, quantity=quantity)
    boundary = _earliest(pricing.next_rule_boundary(context.rules, moment), facts.valid_until)
    rendered_sections = {}
    for section in sections:
        value, section_until = section.render(
            product=product, category_ids=facts.category_ids, moment=moment, base_url=base_url
        )
        rendered_sections[section.field] = value
        boundary = _earliest(boundary, section_until)
    summaries = product_summaries((*facts.indicated_ids, *facts.related_ids), base_url=base_url)
    shown = {"base_url": base_url, "product_summaries": summaries, "sections": rendered_sections}
    return json_bytes(_full_product(facts, **shown)), boundary


def attach_product_summaries(rows: list, *, base_url: str, key: Key = "id") -> None:
    """Set `row.product_summary` (None for a missing product) on rows with a `product_id`."""
    summaries = product_summaries({row.product_id for row in rows}, base_url=base_url, key=key)
    for row in rows:
        row.product_summary = summaries.get(row.product_id)
