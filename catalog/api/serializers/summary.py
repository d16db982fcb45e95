"""Product summary (contract 2.2) and its parts; category nodes (2.5)."""

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from infra.prefetch import prefetched

from ...models import AttributeValue, MediaType, Product, ProductMedia
from ...selectors.products import product_available_stock
from .fields import MoneyField, NullableTextField, file_url


class MediaSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    type = serializers.CharField()
    title = serializers.CharField()
    alternativeText = NullableTextField(source="alternative_text")
    file = serializers.SerializerMethodField()
    originalFile = serializers.SerializerMethodField()
    size = serializers.IntegerField(allow_null=True)
    originalSize = serializers.IntegerField(source="original_size", allow_null=True)
    width = serializers.IntegerField(allow_null=True)
    height = serializers.IntegerField(allow_null=True)
    url = serializers.SerializerMethodField()

    def get_file(self, media: ProductMedia) -> str:
        return file_url(media.file or media.original_file, self.context.get("base_url")) or ""

    def get_originalFile(self, media: ProductMedia) -> str:
        return file_url(media.original_file or media.file, self.context.get("base_url")) or ""

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_url(self, media: ProductMedia) -> str | None:
        if media.type == MediaType.VIDEO:
            return media.url or None
        return self.get_file(media) or media.url or None


class AttributeValueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # shadows Field.label (typing only)
    image = serializers.SerializerMethodField()
    originalImage = serializers.SerializerMethodField(method_name="get_image")
    color = serializers.CharField(help_text="Hex colour, e.g. #1A2B3C ('' when none).")
    order = serializers.IntegerField()

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_image(self, value: AttributeValue) -> str | None:
        return file_url(value.image, self.context.get("base_url"))


class AttributeSerializer(serializers.Serializer):
    """An entry of `currentAttributes`: the attribute with the product's value of it."""

    id = serializers.IntegerField(source="attribute.id")
    name = serializers.CharField(source="attribute.name")
    value = AttributeValueSerializer(source="*")


class CategoryNodeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField()


@extend_schema_field({"type": "array", "items": {"$ref": "#/components/schemas/FullTreeNode"}})
class _FullTreeChildren(serializers.ListField):
    """A node's children, nodes themselves (a serializer cannot name itself as it is made)."""


class FullTreeNodeSerializer(CategoryNodeSerializer):
    """Full-tree node (schema only: the tree is built as plain dicts in catalog/tree.py)."""

    children = _FullTreeChildren(help_text="Full-tree nodes (empty at a leaf).")


class SpecificCategoryTreeSerializer(serializers.Serializer):
    current = CategoryNodeSerializer()
    children = CategoryNodeSerializer(many=True)
    sisters = CategoryNodeSerializer(many=True)
    parent = CategoryNodeSerializer(many=True, help_text="Ancestor chain, root first.")


class ProductSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    brandId = serializers.IntegerField(source="brand_id", allow_null=True)
    brandName = serializers.SerializerMethodField()
    mainCategoryId = serializers.IntegerField(source="main_category_id", allow_null=True)
    mainCategoryName = serializers.SerializerMethodField()
    type = serializers.CharField()
    name = serializers.CharField()
    sku = serializers.CharField()
    url = serializers.CharField()
    comparisonPrice = serializers.SerializerMethodField()
    stock = serializers.SerializerMethodField()
    medias = MediaSerializer(many=True, source="medias.all")
    combination = serializers.SerializerMethodField()
    currentAttributes = AttributeSerializer(many=True, source="attribute_values.all")
    active = serializers.BooleanField()

    def get_brandName(self, product: Product) -> str:
        return product.brand.name if product.brand is not None else ""

    def get_mainCategoryName(self, product: Product) -> str:
        return product.main_category.name if product.main_category is not None else ""

    @extend_schema_field(MoneyField())
    def get_comparisonPrice(self, product: Product) -> Decimal:
        """Default trade policy: its comparison price, else its sale price, else base price."""
        rows = product.default_prices
        if not rows:
            return product.base_price
        return rows[0].comparison_price if rows[0].comparison_price > 0 else rows[0].sale_price

    def get_stock(self, product: Product) -> int:
        return product_available_stock(product)

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_combination(self, product: Product) -> list[int]:
        return [value.pk for value in prefetched(product, "attribute_values")]


class ReviewProductSummarySerializer(ProductSummarySerializer):
    """The Product summary of the review list: `productId` in place of `id`."""

    # Schema only: catalog.api.fragments renames the rendered summary's first key.
    id = None  # type: ignore[assignment]  # DRF: None removes the inherited field
    productId = serializers.IntegerField(source="id")


class RenderedField(serializers.Field):
    """A value rendered elsewhere (catalog.api.fragments), passed through as it is."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(ProductSummarySerializer)
class ProductSummaryField(RenderedField):
    """A rendered Product summary."""


@extend_schema_field(ReviewProductSummarySerializer)
class ReviewProductSummaryField(RenderedField):
    """A rendered Product summary of the review list (`productId` in place of `id`)."""
