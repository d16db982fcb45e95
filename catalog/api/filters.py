"""What the catalogue listing accepts in `condition`: its FilterSet (apikit.filters), each
name with the operators the listing evaluates (catalog/listing.py)."""

from typing import Any

from django.db.models import Q
from rest_framework.filters import BaseFilterBackend

from apikit.filters import (
    BooleanFilter,
    ConditionFilter,
    DecimalFilter,
    Filter,
    FilterSet,
    InvalidValue,
    NumberFilter,
    StrictOrdering,
    schema_parameter,
)
from apikit.querystring import invalid

from ..listing import RELEVANCE, CatalogueQuery
from ..models import Product
from ..search import MAX_QUERY, BadQuery, checked, parse


class _Limited:
    """A filter taking only `operators` (others: 422 naming the field)."""

    operators: tuple[str, ...] = ()
    described = ""

    def q(self, operator: str, value: Any) -> Q:
        if operator not in self.operators:
            allowed = ", ".join(self.operators)
            raise InvalidValue(f"cannot use {operator} (use {allowed})")
        return super().q(operator, value)  # type: ignore[misc]  # the Filter it is mixed into


class IdFilter(_Limited, NumberFilter):
    operators = ("eq", "in")


class PriceFilter(_Limited, DecimalFilter):
    operators = ("eq", "gt", "gte", "lt", "lte")


class InStockFilter(_Limited, BooleanFilter):
    operators = ("eq",)


class ProductListingFilter(FilterSet):
    categoryId = IdFilter("category")
    brandId = IdFilter("brand")
    attributeValueId = IdFilter("attribute_value")
    price = PriceFilter("price")
    inStock = InStockFilter("in_stock")
    sealId = IdFilter("seal")

    class Meta:
        model = Product
        fields = ("categoryId", "brandId", "attributeValueId", "price", "inStock", "sealId")


CONDITION_DESCRIPTIONS = {
    "categoryId": "Products of the category or of any category below it (main or linked "
    "category); `in`: of any of them.",
    "brandId": "Products of the brand; `in`: of any of them.",
    "attributeValueId": "Products having the value (themselves or an active variation); "
    "values of one attribute are OR-ed, of different attributes AND-ed.",
    "price": "On `price.salePrice` (the trade policy's price after the live price rules).",
    "inStock": "true: units available in an active storage (a main product counts its "
    "active variations'), sold without stock, or a service; false: the others.",
    "sealId": "Products showing the seal now (on the product or one of its categories); "
    "`in`: any of them.",
}


def condition_operators(name: str) -> tuple[str, ...]:
    filter_: Filter = ProductListingFilter.filters[name]
    return getattr(filter_, "operators", ())


def _condition_description() -> str:
    lines = [
        'Filters: a JSON object (`condition={"brandId":{"in":[1,2]}}`) or brackets '
        "(`condition[categoryId]=3&condition[price][gte]=50`); a bare value means eq, a "
        "list in. Conditions on different names are AND-ed."
    ]
    for name, described in CONDITION_DESCRIPTIONS.items():
        lines.append(f"- `{name}` ({', '.join(condition_operators(name))}): {described}")
    lines.append("Another name or operator, or a value of the wrong type: 422.")
    return "\n".join(lines)


class ListingConditions(ConditionFilter):
    """The listing's `condition` documented with each name's own operators."""

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        properties = {}
        for name, item in view.filterset_class.filters.items():
            operators = {op: dict(item.schema) for op in condition_operators(name) if op != "in"}
            if "in" in condition_operators(name):
                operators["in"] = {"type": "array", "items": dict(item.schema), "maxItems": 100}
            properties[name] = {
                "oneOf": [
                    dict(item.schema),
                    {"type": "object", "properties": operators, "additionalProperties": False},
                ],
                "description": CONDITION_DESCRIPTIONS[name],
            }
        schema = {"type": "object", "properties": properties, "additionalProperties": False}
        return [
            schema_parameter(
                "condition", schema, _condition_description(), style="deepObject", explode=True
            )
        ]


class ListingOrdering(StrictOrdering):
    """`order` of the listing, documented with its default (the products' priority, which
    is not an order a client names)."""

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        enum = [f"{sign}{name}" for name in view.ordering_fields for sign in ("", "-")]
        described = (
            "Sort by relevance (with `q`: an exact SKU first, then more words found in the "
            "name, then no typo, then the default order; without `q` the default order), "
            "name, price (`price.salePrice`), createdAt or score (the review "
            "average; equal averages: more reviews first when descending): "
            '`order=-price`, `order=[{"field":"price","direction":"desc"}]` or '
            "`order[0][field]=price&order[0][direction]=desc`. Default: the products' "
            "priority (highest first), then name; with `q`, relevance; id is always the last "
            "tie-breaker."
        )
        schema = {"type": "array", "items": {"type": "string", "enum": enum}, "maxItems": 5}
        return [schema_parameter("order", schema, described, style="form", explode=False)]


Q_DESCRIPTION = (
    f"Search text (1-{MAX_QUERY} characters, at least one letter or digit): case and accents "
    "ignored, Portuguese plurals meet their singulars (`camisetas` finds Camiseta), one typo "
    "in a word of five letters or more (`camizeta`); every word must match the name, brand, "
    "a category name, the search description or an exact SKU. Facets apply it. With `q` "
    "the default order is `relevance` (an exact SKU first, then matches in the name). "
    "Too long, empty, only symbols or spaces, or a control character: 422."
)


def search_text(request: Any) -> str | None:
    """The request's `q` as the catalogue search checks it (catalog.search.checked), None
    when absent; a bad one is a 422 naming `q`."""
    values = request.query_params.getlist("q")
    if not values:
        return None
    try:
        return checked(values)
    except BadQuery as exc:
        raise invalid("q", f"field {exc}") from None


def required_search_text(request: Any) -> str:
    """`search_text`, where an absent `q` is a 422 too."""
    text = search_text(request)
    if text is None:
        raise invalid("q", "field is required")
    return text


class SearchText(BaseFilterBackend):
    """`q`: the products every word finds (catalog/search.py); with it, `relevance` is the
    default order (view.ordering)."""

    def filter_queryset(self, request: Any, queryset: Any, view: Any) -> Any:
        text = search_text(request)
        if text is None:
            return queryset
        view.search_text = text
        view.ordering = (RELEVANCE,)
        query: CatalogueQuery = queryset
        return query.search(parse(text))

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        schema = {"type": "string", "minLength": 1, "maxLength": MAX_QUERY}
        return [schema_parameter("q", schema, Q_DESCRIPTION)]
