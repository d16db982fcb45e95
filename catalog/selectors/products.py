"""Reads of products: prefetch recipes of the product shapes, active product, stock."""

from collections.abc import Iterable
from typing import Any

from django.db.models import F, Model, Prefetch, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from infra.caching.kept import kept
from infra.ids import is_db_id
from infra.queries import ID_BATCH_SIZES, Statements, fetched, id_batches, loaded

from ..models import (
    AttributeValue,
    Category,
    Product,
    ProductDescription,
    ProductMedia,
    ProductPrice,
    ProductRelation,
    ProductReviewSummary,
    Stock,
)
from ..models.products import ProductQuerySet
from .caches import PRODUCTS_CACHE
from .merchandising import visible_relations, visible_relations_prefetch


def product_own_namespaces(product_ids: Iterable[int]) -> list[str]:
    """The versions of single products' own records but their stock (catalog/signals.py)."""
    return [f"product:{product_id}" for product_id in product_ids]


def stock_namespaces(product_ids: Iterable[int]) -> list[str]:
    """The versions of single products' stock (a main product's: with its variations')."""
    return [f"stock:{product_id}" for product_id in product_ids]


def product_namespaces(product_ids: Iterable[int]) -> list[str]:
    """Everything a product shows: its own versions and its stock's."""
    ids = tuple(product_ids)
    return [*product_own_namespaces(ids), *stock_namespaces(ids)]


# The `to_attr` lists and `available_units` below are declared on Product, which the
# django-stubs plugin refuses to set (`no-redef`): the ignores name this note.

# Read models warm from the first CATALOGUE_LIMIT products (infra.caching.kept.Warm).
CATALOGUE_LIMIT = 5_000


def catalogue_ids(start: int, stop: int) -> tuple[int, ...]:
    """Product ids `start` to `stop` of the first CATALOGUE_LIMIT, in order (kept): each
    main product followed by its variations (what a quote, a cart or a page of it reads
    together), the mains by id."""
    every = kept(
        PRODUCTS_CACHE,
        "catalogue-ids",
        lambda: tuple(
            Product.objects.order_by(Coalesce("parent_id", "id"), "id").values_list(
                "pk", flat=True
            )[:CATALOGUE_LIMIT]
        ),
    )
    return every[start:stop]


def _attribute_values() -> QuerySet[AttributeValue]:
    return AttributeValue.objects.select_related("attribute").order_by(
        "attribute__position", "attribute_id", "order", "id"
    )


def _stocked_variations() -> ProductQuerySet[Product]:
    """Active variations (ids only) with their `available_units` over active storages."""
    return (
        Product.objects.active()
        .order_by()
        .annotate(  # type: ignore[no-redef]  # declared on Product: see the note above
            available_units=Coalesce(
                Sum("stocks__available", filter=Q(stocks__storage__active=True)), 0
            )
        )
        .only("pk", "parent_id")
    )


def products_for_summary(*, stock: bool = True) -> ProductQuerySet[Product]:
    """Products with everything the Product summary reads (without `stock`: all but its
    `stock` field)."""
    prefetch: list[Prefetch[Any] | str] = [
        # feeds `medias`
        "medias",
        # feeds `comparisonPrice` (price row of the default trade policy)
        Prefetch(
            "prices",
            queryset=ProductPrice.objects.filter(trade_policy__is_default=True),
            to_attr="default_prices",
        ),
        # feeds `combination` and `currentAttributes`
        Prefetch("attribute_values", queryset=_attribute_values()),
    ]
    if stock:
        prefetch += [
            # feeds `stock` (total available over active storages) and the Stock objects
            Prefetch(
                "stocks",
                queryset=Stock.objects.in_active_storages().order_by("storage_id"),
                to_attr="active_stocks",
            ),
            # feeds `stock` of a main product: its active variations' units (one query)
            Prefetch("variations", queryset=_stocked_variations(), to_attr="stocked_variations"),
        ]
    return Product.objects.select_related("brand", "main_category").prefetch_related(*prefetch)


def _variations() -> ProductQuerySet[Product]:
    return Product.objects.active().prefetch_related(  # type: ignore[no-redef]  # see the note above
        # feeds variations.combinations[].combination and variations.valueList/attributes
        Prefetch("attribute_values", queryset=_attribute_values()),
        # feeds variations.combinations[].stock
        Prefetch("stocks", queryset=Stock.objects.in_active_storages(), to_attr="active_stocks"),
    )


def product_full_queryset() -> ProductQuerySet[Product]:
    """Products with everything FullProductSerializer (the Upsell product) reads."""
    related = products_for_summary().select_related("cargo_type", "parent", "review_summary")
    return related.prefetch_related(  # type: ignore[no-redef]  # see the note above
        # feeds `categories` and category price rules
        "categories",
        # feeds category price rules of a variation (its parent's categories)
        "parent__categories",
        # feeds `price` and `originalPrice` (the row of the requested trade policy)
        Prefetch(
            "prices",
            queryset=ProductPrice.objects.select_related("trade_policy"),
            to_attr="all_prices",
        ),
        # feeds `description` (the one of the requested trade policy)
        "descriptions",
        # feeds `variations` of a main product
        Prefetch("variations", queryset=_variations(), to_attr="active_variations"),
        # feeds `variations` of a variation (its siblings)
        Prefetch("parent__variations", queryset=_variations(), to_attr="active_variations"),
        # feed `indicatedProducts` / `relatedProducts` (else the parent's)
        visible_relations_prefetch(),
        visible_relations_prefetch("parent__"),
    )


# What `product_full_get` reads, compiled once per read (infra.queries.loaded).
_FULL_STATEMENTS: dict[str, Statements] = {}


def _full_rows(read: str, model: type[Model], build: Any, operands: tuple[int, ...]) -> list[Any]:
    return loaded(model, build, operands, _FULL_STATEMENTS.setdefault(read, Statements(4)))


def _with_rows(instance: Product, relation: str, model: type[Model], rows: list[Any]) -> None:
    """Set `rows` as the prefetched rows of `instance.<relation>` (as prefetch_related does:
    `instance.<relation>.all()` and `prefetched` answer them)."""
    queryset = model._default_manager.all()
    queryset._result_cache = rows  # (no prefetch lookups: nothing more to run)
    instance.__dict__.setdefault("_prefetched_objects_cache", {})[relation] = queryset


def _grouped(rows: Iterable[Any], key: str, value: Any = None) -> dict[int, list[Any]]:
    """The rows by their `key` attribute (a product id), in their order: each row, or
    `value(row)`."""
    found: dict[int, list[Any]] = {}
    for row in rows:
        found.setdefault(getattr(row, key), []).append(row if value is None else value(row))
    return found


def _family(product_id: int, main_id: int) -> Q:
    """Rows of the product and of the active variations of it and of its main product."""
    variations = Q(active=True, parent_id__in=[product_id, main_id])
    family = Product.objects.order_by().filter(Q(pk=product_id) | variations).values("pk")
    return Q(product_id__in=family)


def product_full_get(product_id: int) -> Product | None:
    """The product as `product_full_queryset()` loads it (what FullProductSerializer and
    `full_product_facts_get` read, the same rows in the same order), in nine queries of
    SQL compiled once, whatever its variations and relations: None when it does not exist."""
    found = _full_rows(
        "product",
        Product,
        lambda pk: Product.objects.select_related(
            "brand", "main_category", "cargo_type", "parent", "review_summary"
        ).filter(pk=pk),
        (product_id,),
    )
    if not found:
        return None
    product: Product = found[0]
    parent = product.parent if product.parent_id is not None else None
    main_id = product.parent_id or product.pk
    operands = (product.pk, main_id)
    # the active variations of the product and of its main product (default order)
    variations = _full_rows(
        "variations",
        Product,
        lambda pk, main: Product.objects.active().filter(parent_id__in=[pk, main]),
        operands,
    )
    # active-storage stocks of the product and of those variations
    stocks: dict[int, list[Stock]] = _grouped(
        _full_rows(
            "stocks",
            Stock,
            lambda pk, main: (
                Stock.objects.in_active_storages()
                .filter(_family(pk, main))
                .order_by("product_id", "storage_id")
            ),
            operands,
        ),
        "product_id",
    )
    # their attribute values (the M2M rows, in `_attribute_values()` order per product)
    through = Product.attribute_values.through
    values: dict[int, list[AttributeValue]] = _grouped(
        _full_rows(
            "attribute-values",
            through,
            lambda pk, main: (
                through.objects.select_related("attributevalue__attribute")
                .filter(_family(pk, main))
                .order_by(
                    "product_id",
                    "attributevalue__attribute__position",
                    "attributevalue__attribute_id",
                    "attributevalue__order",
                    "attributevalue__id",
                )
            ),
            operands,
        ),
        "product_id",
        lambda link: link.attributevalue,
    )
    # the categories of the product and of its main product
    category_links = Product.categories.through
    categories: dict[int, list[Category]] = _grouped(
        _full_rows(
            "categories",
            category_links,
            lambda pk, main: (
                category_links.objects.select_related("category")
                .filter(product_id__in=[pk, main])
                .order_by("product_id", "category__position", "category__name", "category__id")
            ),
            operands,
        ),
        "product_id",
        lambda link: link.category,
    )
    # relations to sellable products of the product and of its main product
    relations: dict[int, list[ProductRelation]] = _grouped(
        _full_rows(
            "relations",
            ProductRelation,
            lambda pk, main: (
                visible_relations()
                .filter(product_id__in=[pk, main])
                .order_by("product_id", "kind", "position", "id")
            ),
            operands,
        ),
        "product_id",
    )
    # the product's own prices (with their policies), descriptions and medias
    prices = _full_rows(
        "prices",
        ProductPrice,
        lambda pk: ProductPrice.objects.select_related("trade_policy").filter(product_id=pk),
        (product.pk,),
    )
    descriptions = _full_rows(
        "descriptions",
        ProductDescription,
        lambda pk: ProductDescription.objects.filter(product_id=pk),
        (product.pk,),
    )
    medias = _full_rows(
        "medias",
        ProductMedia,
        lambda pk: ProductMedia.objects.filter(product_id=pk),
        (product.pk,),
    )
    for variation in variations:
        variation.active_stocks = stocks.get(variation.pk, [])
        _with_rows(variation, "attribute_values", AttributeValue, values.get(variation.pk, []))
    by_parent: dict[int, list[Product]] = _grouped(variations, "parent_id")
    for owner in (product, parent) if parent is not None else (product,):
        _with_rows(owner, "categories", Category, categories.get(owner.pk, []))
        owner.active_variations = by_parent.get(owner.pk, [])
        owner.visible_relations = relations.get(owner.pk, [])
        for variation in owner.active_variations:
            Product.parent.field.set_cached_value(variation, owner)
    product.active_stocks = stocks.get(product.pk, [])
    product.all_prices = prices
    product.default_prices = [row for row in prices if row.trade_policy.is_default]
    for variation in product.active_variations:
        variation.available_units = sum(stock.available for stock in variation.active_stocks)
    product.stocked_variations = product.active_variations
    _with_rows(product, "attribute_values", AttributeValue, values.get(product.pk, []))
    _with_rows(product, "descriptions", ProductDescription, descriptions)
    _with_rows(product, "medias", ProductMedia, medias)
    return product


# What `summary_products_get` reads, compiled once per read and batch size (infra.queries).
_SUMMARY_STATEMENTS: dict[str, Statements] = {}
# The columns each read loads (the summary's fields; no dates to convert): a field the
# summary comes to read must be added here, else each product reads it in a query of its own
# (tests/catalog/test_selectors.py pins the queries).
_SUMMARY_FIELDS = {
    "products": (
        *("type", "sku", "name", "slug", "base_price", "active", "parent"),
        *("brand", "brand__name", "main_category", "main_category__name"),
    ),
    "medias": (
        *("product", "type", "title", "alternative_text", "file", "original_file"),
        *("size", "original_size", "width", "height", "url"),
    ),
    "prices": ("product", "comparison_price", "sale_price"),
    "attribute-values": ("label", "image", "color", "order", "attribute__name"),
}


def _summary_rows(read: str, model: type[Model], build: Any, ids: tuple[int, ...]) -> list[Any]:
    return loaded(model, build, ids, _SUMMARY_STATEMENTS.setdefault(read, Statements(8)))


def summary_products_get(product_ids: Iterable[int]) -> list[Product]:
    """The products of `product_ids` (any state) with what `products_for_summary(stock=False)`
    loads (the same rows in the same order: all the Product summary reads but its `stock`),
    in four queries a batch of ids of SQL compiled once per batch size
    (infra.queries.id_batches), whatever their medias and attribute values."""
    wanted = tuple(dict.fromkeys(product_ids))
    products: list[Product] = []
    medias: list[ProductMedia] = []
    prices: list[ProductPrice] = []
    values: list[AttributeValue] = []
    for ids in id_batches(wanted) if wanted else ():
        products += _summary_rows(
            "products",
            Product,
            lambda *ids: (
                Product.objects.select_related("brand", "main_category")
                .only(*_SUMMARY_FIELDS["products"])
                .filter(pk__in=ids)
            ),
            ids,
        )
        medias += _summary_rows(
            "medias",
            ProductMedia,
            lambda *ids: (
                ProductMedia.objects.only(*_SUMMARY_FIELDS["medias"])
                .filter(product_id__in=ids)
                .order_by("product_id", "position", "id")
            ),
            ids,
        )
        prices += _summary_rows(
            "prices",
            ProductPrice,
            lambda *ids: ProductPrice.objects.only(*_SUMMARY_FIELDS["prices"]).filter(
                trade_policy__is_default=True, product_id__in=ids
            ),
            ids,
        )
        values += _summary_rows(
            "attribute-values",
            AttributeValue,
            lambda *ids: (
                _attribute_values()
                .only(*_SUMMARY_FIELDS["attribute-values"])
                .filter(products__in=ids)
                .annotate(for_product=F("products"))  # (the filter's join: one row a link)
                .order_by("for_product", *_attribute_values().query.order_by)
            ),
            ids,
        )
    media_of = _grouped(medias, "product_id")
    prices_of = _grouped(prices, "product_id")
    values_of = _grouped(values, "for_product")
    for product in products:
        _with_rows(product, "medias", ProductMedia, media_of.get(product.pk, []))
        product.default_prices = prices_of.get(product.pk, [])
        _with_rows(product, "attribute_values", AttributeValue, values_of.get(product.pk, []))
    return products


def verified_reviews_count(*, product_id: int) -> int:
    """The product's approved reviews by buyers (its review summary's count; 0 without)."""
    summary = ProductReviewSummary.objects.filter(product_id=product_id)
    return summary.values_list("verified", flat=True).first() or 0


def product_get_active(*, product_id: int) -> Product | None:
    """The active product (summary relations loaded), or None when unknown or inactive."""
    if not is_db_id(product_id):
        return None
    return products_for_summary().sellable().filter(pk=product_id).first()


_STOCK_STATEMENTS = Statements(8)  # `available_stocks`, one a batch size (infra.queries)


def _available_rows(*ids: int) -> QuerySet[Stock, tuple[int, int]]:
    stocks = Stock.objects.in_active_storages().order_by()
    own = stocks.filter(product_id__in=ids).values_list("product_id", "available")
    variations = stocks.filter(product__parent_id__in=ids, product__active=True)
    return own.union(variations.values_list("product__parent_id", "available"), all=True)


def available_stocks(product_ids: Iterable[int]) -> dict[int, int]:
    """{product id: `product_available_stock`} in one query (a variation has no variations),
    its SQL compiled once per batch size for up to 512 ids (infra.queries.id_batches)."""
    totals = dict.fromkeys(product_ids, 0)
    if not totals:
        return totals
    if len(totals) > ID_BATCH_SIZES[-1]:  # (the catalogue's build: one query, as it was)
        rows = list(_available_rows(*totals))
    else:
        rows = fetched(Stock, _available_rows, next(id_batches(tuple(totals))), _STOCK_STATEMENTS)
    for product_id, available in rows:
        totals[product_id] += available
    return totals


def product_available_stock(product: Product) -> int:
    """Units available over active storages, a main product's with its active variations'
    (prefetches of `products_for_summary`)."""
    own = sum(stock.available for stock in product.active_stocks)
    if product.parent_id is not None:
        return own
    return own + sum(variation.available_units for variation in product.stocked_variations)
