"""The storefront's product page and catalogue listing (issue 32)."""

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone
from drf_spectacular.utils import extend_schema_view
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.filters import SparseFields
from apikit.generics import ListView
from apikit.paths import path_id
from apikit.renderers import Fragment, json_bytes
from apikit.responses import envelope, rendered_rows, request_base_url
from infra import deferred
from infra.caching.admission import Segments

from ..listing import RELEVANCE, Catalogue, CatalogueQuery, ListedProduct
from ..models import Product
from ..search import BadQuery, checked, normalized, parse
from ..selectors.listing import (
    catalogue_get,
    listed_prices,
    listed_review,
    product_page_visible,
)
from ..selectors.products import verified_reviews_count
from ..selectors.searches import popular_searches, search_total
from ..services import SEARCHES, SearchRecord
from .filters import (
    ListingConditions,
    ListingOrdering,
    ProductListingFilter,
    SearchText,
    required_search_text,
)
from .fragments import product_full_answer, summaries_rendered, with_stock
from .schema import product_listing_schema, product_page_schema, product_suggest_schema
from .serializers.full import (
    VERIFIED_REVIEWS,
    PriceSerializer,
    ProductPageSerializer,
    ReviewSummarySerializer,
)
from .serializers.listing import ListedProductSerializer

PRODUCT_NOT_FOUND_MESSAGE = "Product was not found."


def _sparse(body: Fragment, wanted: tuple[str, ...] | None) -> Any:
    """The rendered object, or only its `wanted` keys (in its own order)."""
    if not wanted:
        return body
    return {key: value for key, value in orjson.loads(json_bytes(body)).items() if key in wanted}


class ProductPageView(APIView):
    sparse_fields: tuple[str, ...] | None = None

    @classmethod
    @cache
    def output_fields(cls) -> frozenset[str]:
        return frozenset(ProductPageSerializer().fields)

    @product_page_schema
    def get(self, request: Request, productId: str) -> HttpResponse:
        missing = not_found(ErrorCode.PRODUCT_NOT_FOUND, PRODUCT_NOT_FOUND_MESSAGE)
        SparseFields().filter_queryset(request, Product.objects.none(), self)  # 422: unknown
        product_id = path_id(productId, not_found=missing)  # any text naming no product: 404
        if not product_page_visible(product_id=product_id):
            raise missing
        product = product_full_answer(product_id, base_url=request_base_url(request))
        if product is None:  # deleted between the two reads
            raise missing
        body = _sparse(product.body, self.sparse_fields)
        if VERIFIED_REVIEWS in (self.sparse_fields or ()):  # opt-in (clients not asking: as before)
            body[VERIFIED_REVIEWS] = verified_reviews_count(product_id=product_id)
        return conditional_response(request, body, max_age=0, valid_until=product.valid_until)


def listing_registers(
    rows: list[ListedProduct],
    *,
    request: Any,
    moment: datetime,
    catalogue: Catalogue,
    sparse_fields: tuple[str, ...] | None = None,
) -> list:
    """The listing's registers: each product's summary with its `price` and `review`, all
    made of the catalogue's entries (the answers follow LISTING_NAMESPACES: no product's own
    versions are noted)."""
    summaries = _listed_summaries(rows, catalogue, request_base_url(request))
    shown = [row for row in rows if row.id in summaries]  # (deleted since: left out)
    registers: list[Any] = []
    for row, (price, review) in zip(shown, _listed_extras(shown, catalogue, moment), strict=True):
        if sparse_fields:
            extra = {
                "price": Fragment(price),
                "review": None if review is None else Fragment(review),
                VERIFIED_REVIEWS: row.verified_reviews,  # opt-in: `fields` names it
            }
            summary = _sparse(Fragment(summaries[row.id]), sparse_fields)
            registers.append({**summary, **{k: v for k, v in extra.items() if k in sparse_fields}})
        else:  # {**summary, "price": ..., "review": ...} as JSON
            tail = b',"price":' + price + b',"review":' + (review or b"null") + b"}"
            registers.append(Fragment(summaries[row.id][:-1] + tail))
    return registers


BY_ENTRY_WARM = 200  # a miss also makes the catalogue's next products' (as `Warm` does)


@dataclass
class _ByEntry:
    """Values made of the catalogue's product entries, kept with the catalogue (so shared
    with the catalogues patched from it, which replace the entry of every product noted in
    the listing's journal): each with the entry it was made of. A miss also makes the
    catalogue's next BY_ENTRY_WARM products' values (in its order: a few misses fill it)."""

    values: dict[int, tuple[ListedProduct, Any]] = field(default_factory=dict)
    walked: int = 0  # positions of the catalogue warmed so far

    def of(
        self,
        catalogue: Catalogue,
        rows: list[ListedProduct],
        make: Callable[[list[ListedProduct]], dict[int, Any]],
    ) -> dict[int, Any]:
        """{id: value} of `rows` (those `make` makes a value for)."""
        found, missing = {}, []
        for row in rows:
            held = self.values.get(row.id)
            if held is not None and held[0] is row:
                found[row.id] = held[1]
            else:
                missing.append(row)
        if not missing:
            return found
        start = self.walked
        self.walked = stop = min(start + BY_ENTRY_WARM, catalogue.size)
        asked = {row.id for row in rows}
        for position in range(start, stop):
            entry = catalogue.products[position]
            held = self.values.get(entry.id)
            live = catalogue.everything >> position & 1
            if live and entry.id not in asked and (held is None or held[0] is not entry):
                missing.append(entry)
        made = make(missing)
        for row in missing:
            if row.id in made:
                self.values[row.id] = (row, made[row.id])
                if row.id in asked:
                    found[row.id] = made[row.id]
        return found


_SUMMARIES = "listing-summaries"


def _listed_summaries(
    rows: list[ListedProduct], catalogue: Catalogue, base_url: str
) -> dict[int, bytes]:
    """{id: the row's rendered summary} (a product deleted since: left out), its `stock` the
    entry's, kept with the catalogue per `base_url` and product entry: everything a summary
    shows is either read into the entry (noted in the journal: the product's row and values,
    its price, stock and media) or rebuilds the catalogue (brands, categories, attributes)."""
    key = f"{_SUMMARIES}:{base_url}"
    memo = catalogue.kept.get(key) or catalogue.kept.setdefault(key, _ByEntry())

    def make(missing: list[ListedProduct]) -> dict[int, bytes]:
        parts = summaries_rendered([row.id for row in missing], base_url=base_url)
        return {row.id: with_stock(parts[row.id], row.stock) for row in missing if row.id in parts}

    return memo.of(catalogue, rows, make)


_EXTRAS = "listing-extras"


def _listed_extras(
    rows: list[ListedProduct], catalogue: Catalogue, moment: datetime
) -> list[tuple[bytes, bytes | None]]:
    """Each row's `price` and `review` (None: no reviews) as JSON, kept with the catalogue
    per product entry: what else a price shows (the trade policy, the rules and their
    schedule, the store's payment terms) rebuilds the catalogue, which is never served past
    its next rule boundary (`Catalogue.valid_until`). A request older than the catalogue (a
    rule may have started in between) renders its own without keeping them."""
    held: tuple[_ByEntry, dict[bytes, bytes]]
    if catalogue.moment is not None and moment < catalogue.moment:
        held = (_ByEntry(walked=catalogue.size), {})  # (walked: nothing to warm)
    else:
        held = catalogue.kept.get(_EXTRAS) or catalogue.kept.setdefault(_EXTRAS, (_ByEntry(), {}))
    memo, shared = held

    def make(missing: list[ListedProduct]) -> dict[int, tuple[bytes, bytes | None]]:
        if len(shared) > 2 * len(memo.values) + BY_ENTRY_WARM:  # mostly replaced ones' bytes
            shared.clear()
        prices = listed_prices(missing, moment=moment)
        rendered_prices = rendered_rows(PriceSerializer, [prices[row.id] for row in missing])
        reviews = [listed_review(row) for row in missing]
        rendered_reviews = iter(rendered_rows(ReviewSummarySerializer, [r for r in reviews if r]))
        made = {}
        for row, price, review in zip(missing, rendered_prices, reviews, strict=True):
            review_json = json_bytes(next(rendered_reviews)) if review is not None else None
            made[row.id] = (
                _shared(shared, json_bytes(price)),
                None if review_json is None else _shared(shared, review_json),
            )
        return made

    found = memo.of(catalogue, rows, make)
    return [found[row.id] for row in rows]


def _shared(shared: dict[bytes, bytes], rendered: bytes) -> bytes:
    """One kept object per distinct JSON (many products show the same price or review), a
    copy of its exact size (orjson's output holds a buffer several times its length)."""
    found = shared.get(rendered)
    if found is None:
        found = shared[rendered] = bytes(memoryview(rendered))
    return found


_FACETS = "listing-facets"
FACETS_BYTES = 4 * 1024 * 1024  # rendered facets kept per catalogue (2.5 KB a listing's)


@dataclass
class _KeptFacets:
    """The rendered facets of one catalogue's recent queries (a patched catalogue counts
    again), at most FACETS_BYTES, the least recently used out first."""

    serial: int  # the catalogue's
    entries: dict[tuple[Any, ...], bytes] = field(default_factory=dict)
    order: Segments[tuple[Any, ...]] = field(default_factory=lambda: Segments(FACETS_BYTES))
    lock: threading.Lock = field(default_factory=threading.Lock)


def listing_facets(query: CatalogueQuery) -> Fragment:
    """`query.facets()` rendered, kept with the catalogue by the query's conditions and
    search: a category's pages and orders share one count (0.28 ms of a 2.7 ms listing
    miss on the bench store)."""
    catalogue = query.catalogue
    kept = catalogue.kept.get(_FACETS)
    if kept is None or kept.serial < catalogue.serial:  # (kept is shared with patched ones)
        kept = catalogue.kept[_FACETS] = _KeptFacets(catalogue.serial)
    mine, key = kept.serial == catalogue.serial, query.facets_key()
    if mine:
        with kept.lock:
            found = kept.entries.get(key)
            if found is not None:
                kept.order.used(key)
                return Fragment(found)
    rendered = bytes(memoryview(json_bytes(query.facets())))  # (orjson's buffer is larger)
    if mine:  # an older catalogue's request (finishing on it) keeps nothing
        with kept.lock:
            kept.entries[key] = rendered
            for dropped in kept.order.added(key, len(rendered)):
                kept.entries.pop(dropped, None)
    return Fragment(rendered)


# API name -> the catalogue's order keys (catalog/listing.py ORDER_KEYS)
LISTING_ORDER = {
    "name": "name",
    "price": "price",
    "createdAt": "created_at",
    "score": "score",
    "relevance": "relevance",
}


@extend_schema_view(get=product_listing_schema)
class ProductListView(ListView):
    filter_backends: tuple[type[BaseFilterBackend], ...] = (  # type: ignore[assignment]
        SparseFields,
        ListingConditions,
        SearchText,
        ListingOrdering,
    )
    serializer_class = ListedProductSerializer
    filterset_class = ProductListingFilter
    ordering_fields = LISTING_ORDER
    ordering = ("-priority", "name")

    def get_queryset(self) -> Any:
        self.moment = timezone.now()
        self.catalogue = catalogue_get(moment=self.moment)
        return self.catalogue.query()

    def registers(self, rows: list[ListedProduct]) -> list:
        return listing_registers(
            rows,
            request=self.request,
            moment=self.moment,
            catalogue=self.catalogue,
            sparse_fields=self.sparse_fields,
        )

    def list(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        # the list stack's parsing and 422s, over the catalogue's query (catalog/listing.py)
        query: CatalogueQuery = self.filter_queryset(self.get_queryset())  # type: ignore[assignment]
        rows = self.pages.paginate_queryset(query, request, self)  # sliced and counted
        registers = self.registers(rows) if rows else []
        page = {**self.pages.page(registers), "facets": listing_facets(query)}
        return conditional_response(
            request, envelope(page), max_age=0, valid_until=self.catalogue.valid_until
        )


SUGGESTED_PRODUCTS, SUGGESTED_LABELS, SUGGESTED_SEARCHES = 6, 4, 5


class ProductSuggestView(APIView):
    """Suggest as the shopper types: products, categories, brands and popular searches; the
    last word of `q` also matches the start of a word."""

    @product_suggest_schema
    def get(self, request: Request) -> HttpResponse:
        text = required_search_text(request)
        moment = timezone.now()
        catalogue = catalogue_get(moment=moment)
        query = catalogue.query().search(parse(text, prefix=True)).order_by(RELEVANCE, "id")
        labels = query.suggested(parse(text, prefix=True), limit=SUGGESTED_LABELS)
        popular, reread = popular_searches(moment=moment)
        start = normalized(text)
        searches = [found for found in popular if found.startswith(start)]
        answer = {
            "products": listing_registers(
                query[:SUGGESTED_PRODUCTS], request=request, moment=moment, catalogue=catalogue
            ),
            **labels,
            "searches": searches[:SUGGESTED_SEARCHES],
        }
        edges = [edge for edge in (catalogue.valid_until, reread) if edge is not None]
        return conditional_response(request, answer, max_age=0, valid_until=min(edges))


def searches_counted(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Count each listing answered with a valid `q` (a kept answer too) without writing:
    infra.deferred records it; catalog.services.searches_count adds it to its week."""

    @functools.wraps(view)
    def serve(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        values = request.GET.getlist("q")
        if request.method == "GET" and response.status_code == 200 and values:
            try:
                text = checked(values)
            except BadQuery:
                return response
            moment = timezone.now()
            total = search_total(text=text, moment=moment)
            deferred.record(SEARCHES, SearchRecord(normalized(text), total, moment.date()))
        return response

    return serve
