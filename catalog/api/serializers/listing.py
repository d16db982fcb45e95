"""The catalogue listing: its registers (Product summary + price + review) and facets."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from .fields import MoneyField
from .full import PriceSerializer, ReviewSummarySerializer, verified_reviews_field
from .summary import ProductSummarySerializer


class ListedProductSerializer(ProductSummarySerializer):
    """A register of the listing: the Product summary, its Price and review summary
    (schema and `fields` names: the summary is rendered by catalog.api.fragments)."""

    price = PriceSerializer(
        help_text="The Price in the default trade policy, after the live price rules, for "
        "one unit (as the product page's `price`)."
    )
    review = ReviewSummarySerializer(
        allow_null=True,
        help_text="As the product page's `review`: null without approved reviews.",
    )
    verifiedReviews = verified_reviews_field()


class CountedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    count = serializers.IntegerField(help_text="Products listed under the other conditions.")


class AttributeValueFacetSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="An attribute value id (condition[attributeValueId]).")
    label = serializers.CharField()  # type: ignore[assignment]  # shadows Field.label (typing only)
    count = serializers.IntegerField(help_text="Products listed under the other conditions.")


class AttributeFacetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    values = AttributeValueFacetSerializer(many=True)


class PriceFacetSerializer(serializers.Serializer):
    min = MoneyField(allow_null=True, help_text="Lowest salePrice; null when none is listed.")
    max = MoneyField(allow_null=True, help_text="Highest salePrice; null when none is listed.")


class FacetsSerializer(serializers.Serializer):
    categories = CountedSerializer(
        many=True,
        help_text="The visible children of the filtered category (of one categoryId), else "
        "the root categories, in tree order; those counting a product only.",
    )
    brands = CountedSerializer(
        many=True, help_text="By name; those counting a product, or named by the condition."
    )
    attributes = AttributeFacetSerializer(
        many=True,
        help_text="Filterable attributes in display order, with their values counting a "
        "product or named by the condition.",
    )
    price = PriceFacetSerializer()


class PaginationSerializer(serializers.Serializer):
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    pages = serializers.IntegerField(help_text="ceil(registers / limit)")
    registers = serializers.IntegerField(help_text="Total number of records.")


class ProductListingPageSerializer(serializers.Serializer):
    registers = ListedProductSerializer(many=True)
    pagination = PaginationSerializer()
    facets = FacetsSerializer(
        help_text="Counts are disjunctive: each facet applies every condition but its own."
    )


@extend_schema_serializer(many=False)
class ProductListingSerializer(serializers.Serializer):
    status = serializers.BooleanField(help_text="Always true.")
    data = ProductListingPageSerializer()  # type: ignore[assignment]  # shadows Serializer.data


class NamedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ProductSuggestSerializer(serializers.Serializer):
    products = ListedProductSerializer(
        many=True, help_text="At most 6 listing registers, by relevance."
    )
    categories = NamedSerializer(
        many=True,
        help_text="At most 4 visible categories whose name the words find, holding the most "
        "products found first.",
    )
    brands = NamedSerializer(
        many=True,
        help_text="At most 4 brands whose name the words find, most products found first.",
    )
    searches = serializers.ListField(
        child=serializers.CharField(),
        help_text="At most 5 popular searches of the last 14 days (counted per week, "
        "that found a product) starting like `q` (folded: lower case, no accents).",
    )
