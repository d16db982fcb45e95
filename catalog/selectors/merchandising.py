"""Reads of seals, related and indicated products, and filters of a product."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from infra.caching.kept import kept
from infra.prefetch import prefetched
from infra.scheduling import Window, next_boundary

from ..models import AttributeValue, Category, Product, ProductRelation, RelationKind, Seal
from ..tree import CategoryIndex, with_ancestors
from .caches import PRODUCTS_CACHE


@dataclass(frozen=True)
class SealData:
    """A seal as the full product shows it (`image`: a storage name)."""

    id: int
    name: str
    image: str
    width: int | None
    height: int | None
    position: int
    start_at: datetime | None
    end_at: datetime | None
    product_ids: frozenset[int]
    category_ids: frozenset[int]

    @cached_property  # once per seal: the active seals are kept
    def window(self) -> Window:
        return Window(self.start_at, self.end_at)


def active_seals() -> tuple[SealData, ...]:
    """Every active seal with its targets, as plain data (kept; the schedule is applied by
    `product_seals_get`)."""

    def build() -> tuple[SealData, ...]:
        seals = Seal.objects.active().prefetch_related(
            Prefetch("products", queryset=Product.objects.only("id")),
            Prefetch("categories", queryset=Category.objects.only("id")),
        )
        return tuple(
            SealData(
                id=seal.pk,
                name=seal.name,
                # (a saved row's file name is a string: the stubs' None is an unsaved file's)
                image=(seal.image or seal.original_image).name or "",
                width=seal.width,
                height=seal.height,
                position=seal.position,
                start_at=seal.start_at,
                end_at=seal.end_at,
                product_ids=frozenset(p.pk for p in prefetched(seal, "products")),
                category_ids=frozenset(c.pk for c in prefetched(seal, "categories")),
            )
            for seal in seals
        )

    return kept(PRODUCTS_CACHE, "active-seals", build)


def product_category_ids(product: Product, index: CategoryIndex) -> frozenset[int]:
    """The product's categories (a variation's: its parent's too), with their ancestors."""
    ids = {category.pk for category in prefetched(product, "categories")}
    if product.main_category_id is not None:
        ids.add(product.main_category_id)
    parent = product.parent if product.parent_id else None
    if parent is not None:
        ids.update(category.pk for category in prefetched(parent, "categories"))
        if parent.main_category_id is not None:
            ids.add(parent.main_category_id)
    return with_ancestors(index, ids)


def product_seals_get(
    *, product: Product, category_ids: frozenset[int], moment: datetime, seals: Iterable[SealData]
) -> tuple[tuple[SealData, ...], datetime | None]:
    """The seals live on the product at `moment`, in display order, and the next moment
    that may change."""
    product_ids = {product.pk, *([product.parent_id] if product.parent_id else [])}
    mine = [
        seal for seal in seals if seal.product_ids & product_ids or seal.category_ids & category_ids
    ]
    live = sorted(
        (seal for seal in mine if seal.window.contains(moment)),
        key=lambda seal: (seal.position, seal.name, seal.id),
    )
    return tuple(live), next_boundary((seal.window for seal in mine), moment)


def visible_relations() -> QuerySet[ProductRelation]:
    """Relations to sellable products, in display order (of one product)."""
    sellable = Q(target__active=True) & (
        Q(target__parent__isnull=True) | Q(target__parent__active=True)
    )
    return ProductRelation.objects.filter(sellable).order_by("kind", "position", "id")


def visible_relations_prefetch(prefix: str = "") -> Prefetch[Any]:
    """Feeds `visible_relations` of the product at `prefix`: relations to sellable products."""
    return Prefetch(f"{prefix}relations", queryset=visible_relations(), to_attr="visible_relations")


def product_relation_ids(product: Product) -> dict[str, tuple[int, ...]]:
    """{kind: target ids in display order}: the product's own relations, else its parent's."""
    relations = product.visible_relations
    if not relations and product.parent is not None:
        relations = product.parent.visible_relations
    ids: dict[str, list[int]] = {kind.value: [] for kind in RelationKind}
    for relation in relations:
        ids[relation.kind].append(relation.target_id)
    return {kind: tuple(values) for kind, values in ids.items()}


@dataclass(frozen=True)
class FilterFacts:
    attribute_id: int
    name: str
    values: tuple[AttributeValue, ...]


def product_filters_get(
    product: Product, family_values: Iterable[AttributeValue]
) -> tuple[FilterFacts, ...]:
    """The product's and its family's (`family_values`) values of filterable attributes,
    by attribute in display order."""
    values = (*prefetched(product, "attribute_values"), *family_values)
    grouped = values_by_attribute(value for value in values if value.attribute.filterable)
    return tuple(
        FilterFacts(attribute_id=attribute_id, name=group[0].attribute.name, values=tuple(group))
        for attribute_id, group in grouped.items()
    )


def values_by_attribute(values: Iterable[AttributeValue]) -> dict[int, list[AttributeValue]]:
    """The distinct values grouped by attribute, attributes and values in display order."""
    ordered = sorted(
        {value.pk: value for value in values}.values(),
        key=lambda v: (v.attribute.position, v.attribute_id, v.order, v.label, v.pk),
    )
    grouped: dict[int, list[AttributeValue]] = {}
    for value in ordered:
        grouped.setdefault(value.attribute_id, []).append(value)
    return grouped
