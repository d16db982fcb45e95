"""The full product: contract 2.11 Upsell product, with Price, Price rule, Stock and description."""

from decimal import Decimal
from typing import Any

from django.db.models import Manager, Model
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from apikit.scheduling import scheduling_field
from infra.prefetch import prefetched
from storefront.api.payment_serializers import InstallmentSerializer

from ...models import ProductDescription, ProductReviewSummary
from ...selectors import FullProductFacts, ProductStatus
from ...selectors.merchandising import SealData
from .fields import MoneyField, NullableTextField, OptionalTextField, stored_file_url
from .summary import (
    AttributeSerializer,
    AttributeValueSerializer,
    CategoryNodeSerializer,
    MediaSerializer,
    ProductSummarySerializer,
    RenderedField,
)


@extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
class SortedIdsField(serializers.Field):
    """The ids of a (prefetched) to-many relation, sorted."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, related: Manager[Model]) -> list[int]:
        return sorted(row.pk for row in related.all())


class PriceRuleSerializer(serializers.Serializer):
    """The contract's Price rule (prefetch selectors.PRICE_RULE_RELATIONS)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    trigger = serializers.CharField()
    ruleTarget = serializers.CharField(source="rule_target")
    origin = serializers.CharField()
    applyInGroup = serializers.BooleanField(source="apply_in_group")
    updateComparisonPrice = serializers.CharField(source="update_comparison_price")
    basePriceField = serializers.CharField(source="base_price_field")
    code = NullableTextField()
    beginQuantity = serializers.IntegerField(source="begin_quantity")
    endQuantity = serializers.IntegerField(
        source="end_quantity", help_text="0 means no upper limit."
    )
    value = MoneyField()
    valueType = serializers.CharField(source="value_type")
    priority = serializers.IntegerField()
    active = serializers.BooleanField()
    scheduling = scheduling_field("PriceRuleScheduling")
    tradePolicies = SortedIdsField(source="trade_policies")
    productIds = SortedIdsField(source="products")
    productCategoryIds = SortedIdsField(source="categories")
    productBrandIds = SortedIdsField(source="brands")
    lastUpdateUserName = NullableTextField(source="last_update_user_name")
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")


class StockSerializer(serializers.Serializer):  # of a `catalog.selectors.StockFacts`
    productId = serializers.IntegerField(source="product_id")
    productStorageId = serializers.IntegerField(source="storage_id", help_text="The storage's id.")
    availableStock = serializers.IntegerField(source="available")
    reservedStock = serializers.IntegerField(source="reserved")
    updatedAt = serializers.DateTimeField(source="updated_at")


class ReviewScoreSerializer(serializers.Serializer):
    score = serializers.IntegerField(min_value=1, max_value=5)
    count = serializers.IntegerField(help_text="Approved reviews with this score.")


class ReviewSummarySerializer(serializers.Serializer):
    """The product's review summary: its approved reviews."""

    average = serializers.DecimalField(
        max_digits=2,
        decimal_places=1,
        min_value=Decimal("1"),
        max_value=Decimal("5"),
        coerce_to_string=False,
        help_text="Mean score of the approved reviews, rounded half-up to one decimal.",
    )
    count = serializers.IntegerField(help_text="Approved (public) reviews.")
    scores = serializers.SerializerMethodField(
        help_text="Approved reviews per score, for every score 1 to 5 in that order."
    )

    @extend_schema_field(ReviewScoreSerializer(many=True))
    def get_scores(self, summary: ProductReviewSummary) -> list[dict[str, int]]:
        return [{"score": score, "count": count} for score, count in summary.counts.items()]


class StatusSerializer(serializers.Serializer):
    """The product's publication status."""

    code = serializers.SerializerMethodField()

    @extend_schema_field(
        {
            "type": "string",
            "enum": [status.value for status in ProductStatus],
            "description": (
                "published: active and sellable now (units in stock, a service, or sold "
                "without stock); out-of-stock: active but no unit available in an active "
                "storage (a main product counts its active variations'); inactive: not "
                "sold (inactive, or a variation of an inactive product)."
            ),
        }
    )
    def get_code(self, status: ProductStatus) -> str:
        return status.value


class LinkedTradePolicySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()
    isDefault = serializers.BooleanField(source="is_default")


class PriceSerializer(serializers.Serializer):
    """The contract's Price, from a `catalog.pricing.Price`."""

    comparisonPrice = MoneyField(source="comparison_price")
    salePrice = MoneyField(source="sale_price")
    markup = serializers.DecimalField(
        max_digits=12, decimal_places=4, coerce_to_string=False, read_only=True
    )
    ruleId = serializers.IntegerField(source="rule_id", help_text="0 when no rule applies.")
    ruleTrigger = serializers.CharField(source="rule_trigger")
    ruleName = serializers.CharField(source="rule_name")
    availableForSale = serializers.BooleanField(source="available_for_sale")
    basePrice = serializers.BooleanField(
        source="base_price", help_text="True when the product's base price is used."
    )
    priceWithDiscount = MoneyField(
        source="price_with_discount", help_text="Sale price after the cash-payment discount."
    )
    installments = InstallmentSerializer(
        many=True, help_text="Installment plan of the sale price (default installment option)."
    )


class FlagsSerializer(serializers.Serializer):
    subscription = serializers.BooleanField()
    service = serializers.BooleanField()
    showInSite = serializers.BooleanField(source="show_in_site")
    saleWithoutStock = serializers.BooleanField(source="sale_without_stock")
    minimumStock = serializers.IntegerField(source="minimum_stock")


class TaxSerializer(serializers.Serializer):
    mpn = serializers.CharField()
    ean = serializers.CharField()
    ncm = serializers.CharField()
    exclusive = serializers.BooleanField(source="tax_exclusive")


class DimensionsSerializer(serializers.Serializer):
    shippingCargoTypeId = serializers.IntegerField(
        source="cargo_type_id",
        help_text="The product's cargo type (the store's default when it names none).",
    )
    additionalTime = serializers.IntegerField(source="additional_time")
    width = serializers.DecimalField(max_digits=10, decimal_places=2, coerce_to_string=False)
    height = serializers.DecimalField(max_digits=10, decimal_places=2, coerce_to_string=False)
    length = serializers.DecimalField(max_digits=10, decimal_places=2, coerce_to_string=False)
    weight = serializers.DecimalField(max_digits=10, decimal_places=3, coerce_to_string=False)


class BrandSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()


class ProductDescriptionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tradePolicyId = serializers.IntegerField(source="trade_policy_id")
    name = serializers.CharField()
    shortDescription = serializers.CharField(source="short_description")
    videoUrl = OptionalTextField(source="video_url")
    searchDescription = serializers.CharField(source="search_description")
    description = OptionalTextField()
    customDescription1 = OptionalTextField(source="custom_description_1")
    customDescription2 = OptionalTextField(source="custom_description_2")
    customDescription3 = OptionalTextField(source="custom_description_3")
    measureTable = OptionalTextField(source="measure_table")
    seoTitle = OptionalTextField(source="seo_title")
    seoDescription = OptionalTextField(source="seo_description")
    seoKeywords = OptionalTextField(source="seo_keywords")
    seoCanonical = OptionalTextField(source="seo_canonical")
    seoSocialTitle = OptionalTextField(source="seo_social_title")
    seoSocialDescription = OptionalTextField(source="seo_social_description")
    seoTwitterImageUrl = OptionalTextField(source="seo_twitter_image_url")
    seoGraphImageUrl = OptionalTextField(source="seo_graph_image_url")
    seoGoogleCategoryId = serializers.IntegerField(source="seo_google_category_id")
    seoIndexOnGoogle = serializers.BooleanField(source="seo_index_on_google", allow_null=True)
    seoGoogleCondition = serializers.CharField(source="seo_google_condition")
    seoGoogleAgeGroup = OptionalTextField(source="seo_google_age_group")
    seoGoogleGender = serializers.CharField(source="seo_google_gender")
    productId = serializers.IntegerField(source="product_id")
    productCategoryId = serializers.IntegerField(source="product.main_category_id", allow_null=True)
    productBrandId = serializers.IntegerField(source="product.brand_id", allow_null=True)
    productPageId = serializers.SerializerMethodField()

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_productPageId(self, description: ProductDescription) -> None:
        return None


class VariationValueSerializer(AttributeValueSerializer):
    attributeId = serializers.IntegerField(source="attribute_id")
    attributeName = serializers.CharField(source="attribute.name")


class VariationAttributeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    values = serializers.ListField(child=serializers.IntegerField(), help_text="Value ids.")


class VariationCombinationSerializer(serializers.Serializer):
    productId = serializers.IntegerField()
    sku = serializers.CharField()
    name = serializers.CharField()
    combination = serializers.ListField(child=serializers.IntegerField())
    active = serializers.BooleanField()
    stock = serializers.IntegerField()


class SealSerializer(serializers.Serializer):
    """A seal (badge) staff put on the product or one of its categories, live now."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    image = serializers.SerializerMethodField()
    width = serializers.IntegerField(allow_null=True, help_text="Pixels of `image`.")
    height = serializers.IntegerField(allow_null=True, help_text="Pixels of `image`.")
    scheduling = scheduling_field("SealScheduling")

    @extend_schema_field(serializers.URLField())
    def get_image(self, seal: SealData) -> str:
        return stored_file_url(seal.image, self.context.get("base_url")) or ""


class FilterSerializer(serializers.Serializer):
    """A filterable attribute and the values the product (or one of its active
    variations) has of it, in display order."""

    attributeId = serializers.IntegerField(source="attribute_id")
    name = serializers.CharField()
    values = AttributeValueSerializer(many=True)


class VariationsSerializer(serializers.Serializer):
    valueList = VariationValueSerializer(many=True, source="values")
    combinations = VariationCombinationSerializer(many=True)
    attributes = VariationAttributeSerializer(many=True)


@extend_schema_field(ProductSummarySerializer(many=True))
class SummariesField(RenderedField):
    """The rendered summaries (context `product_summaries`) of a tuple of product ids."""

    def to_representation(self, ids: tuple[int, ...]) -> list:
        summaries = self.context.get("product_summaries", {})
        return [summaries[product_id] for product_id in ids if product_id in summaries]


VARIATION_SUMMARIES = " A variation without its own shows its main product's."


class FullProductSerializer(serializers.Serializer):
    """The contract's Upsell product (2.11): renders a `catalog.selectors.FullProductFacts`
    (`full_product_facts_get` of a product of `product_full_queryset()`): the product's own
    columns from `facts.product`, the computed facts from `facts`. Context: `base_url`,
    `product_summaries` (rendered summaries by id) and `sections` (other apps' fields)."""

    id = serializers.IntegerField(source="product.id")
    type = serializers.CharField(source="product.type")
    sku = serializers.CharField(source="product.sku")
    name = serializers.CharField(source="product.name")
    priority = serializers.IntegerField(source="product.priority")
    basePrice = MoneyField(source="product.base_price")
    active = serializers.BooleanField(source="product.active")
    review = ReviewSummarySerializer(
        allow_null=True,
        help_text="The approved reviews' summary; null when the product has no approved review.",
    )
    isGiftCard = serializers.BooleanField(source="product.is_gift_card")
    stock = StockSerializer(
        help_text="Totals over active storages; `productStorageId` is the storage holding the "
        "most available units (0 when none)."
    )
    stocks = StockSerializer(many=True)
    originalPrice = PriceSerializer(source="original_price")
    price = PriceSerializer()
    priceRules = PriceRuleSerializer(
        many=True,
        allow_null=True,
        source="price_rules",
        help_text="The automatic price rules applying to the product now in the trade policy, "
        "whatever the quantity, highest priority first; null when none.",
    )
    brand = BrandSerializer(source="product.brand", allow_null=True)
    flags = FlagsSerializer(source="product")
    tax = TaxSerializer(source="product")
    indicatedProducts = SummariesField(
        source="indicated_ids",
        help_text="Products staff indicate with this one (bought together), in staff order; "
        "active ones only." + VARIATION_SUMMARIES,
    )
    relatedProducts = SummariesField(
        source="related_ids",
        help_text="Similar products staff relate to this one, in staff order; active ones only."
        + VARIATION_SUMMARIES,
    )
    filters = FilterSerializer(
        many=True,
        help_text="Values of the filterable attributes of the product and of its active "
        "variations, one entry per attribute.",
    )
    seals = SealSerializer(
        many=True,
        help_text="Seals live now on the product, its main product, or one of their "
        "categories or the categories' ancestors, in staff order.",
    )
    mainCategory = CategoryNodeSerializer(source="product.main_category", allow_null=True)
    categories = CategoryNodeSerializer(many=True, source="product.categories.all")
    categoryBreadcrumb = CategoryNodeSerializer(many=True, source="breadcrumb")
    dimensions = DimensionsSerializer(source="product")
    parentProductId = serializers.IntegerField(source="product.parent_id", allow_null=True)
    combination = serializers.SerializerMethodField()
    currentAttributes = AttributeSerializer(many=True, source="product.attribute_values.all")
    variations = VariationsSerializer()
    medias = MediaSerializer(many=True, source="product.medias.all")
    bannerGroups = serializers.SerializerMethodField()
    status = StatusSerializer()
    createdAt = serializers.DateTimeField(source="product.created_at")
    updatedAt = serializers.DateTimeField(source="product.updated_at")
    url = serializers.CharField(source="product.url")
    urls = serializers.SerializerMethodField()
    linkedTradePolicies = LinkedTradePolicySerializer(
        many=True,
        allow_null=True,
        source="linked_trade_policies",
        help_text="The active trade policies the product has a price in, default first; null "
        "when only the default one.",
    )
    description = ProductDescriptionSerializer(
        allow_null=True,
        help_text="The description of the trade policy, else of the default policy, else null.",
    )

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_combination(self, facts: FullProductFacts) -> list[int]:
        return [value.pk for value in prefetched(facts.product, "attribute_values")]

    @extend_schema_field(
        serializers.ListField(
            child=serializers.DictField(),
            help_text="Banner groups linked to the product or its categories (marketing).",
        )
    )
    def get_bannerGroups(self, facts: FullProductFacts) -> list:
        return self.context.get("sections", {}).get("bannerGroups", [])

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_urls(self, facts: FullProductFacts) -> list[str]:
        return [facts.product.url]


VERIFIED_REVIEWS = "verifiedReviews"  # opt-in: rendered only when `fields` names it


def verified_reviews_field() -> serializers.IntegerField:
    """The opt-in count beside `review` (output only; not read-only, so that the schema
    lists it as an optional key)."""
    return serializers.IntegerField(
        required=False,
        help_text="(Opt-in: only when `fields` names it.) Approved reviews whose author bought "
        "the product (the review list's `verifiedPurchase`); 0 without.",
    )


@extend_schema_serializer(component_name="FullProduct")  # the page's component, as before
class ProductPageSerializer(FullProductSerializer):
    """The product page: the full product, and the opt-in `verifiedReviews` (schema and
    `fields` names only: the page renders the full product's fragment)."""

    verifiedReviews = verified_reviews_field()
