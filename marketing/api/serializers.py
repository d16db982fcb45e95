"""Serializers of the marketing API (contract 2.6 Banner group, 2.7 Banner, 2.11 Upsell)."""

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from apikit.fields import StrictCharField
from apikit.scheduling import scheduling_field
from catalog.api.serializers import FullProductSerializer, PriceRuleSerializer, file_url
from infra.ids import is_db_id

from ..models import DEVICES, Banner, BannerGroup, Upsell

MAX_CODES = 100
MAX_CODE_LENGTH = 100


# --- Input -------------------------------------------------------------------------


class BannerListingQuerySerializer(serializers.Serializer):
    codes = serializers.ListField(
        child=StrictCharField(
            allow_null=True,
            allow_blank=True,
            max_length=MAX_CODE_LENGTH,
            error_messages={
                "invalid": "This field must be a string.",
                "max_length": "This field must not be greater than {max_length} characters.",
            },
        ),
        max_length=MAX_CODES,
        error_messages={
            "required": "The codes field is required.",
            "null": "The codes field is required.",
            "not_a_list": "The codes field must be an array of strings.",
            "max_length": "The codes field must not have more than {max_length} items.",
        },
        help_text="Banner group codes.",
    )

    def validate_codes(self, value: list) -> list[str]:
        """Drop empty elements and repeats, keeping the order the codes were given in."""
        codes = list(dict.fromkeys(code.strip() for code in value if code and code.strip()))
        if not codes:
            raise serializers.ValidationError("The codes field is required.")
        return codes


# --- Banner (2.7) --------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.URI)
class BannerImageField(serializers.Field):
    """Absolute URL of a device's fitted copy (`original=False`) or of its upload."""

    def __init__(self, device: str, *, original: bool = False, **kwargs: Any) -> None:
        self.device = device
        self.original = original
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, banner: Banner) -> str:
        source = banner.original_for(self.device)
        if not self.original:
            # Until the copy is generated, front ends get the upload rather than nothing.
            source = getattr(banner, f"{self.device}_image") or source
        return file_url(source, self.context["base_url"]) or ""


@extend_schema_field(OpenApiTypes.STR)
class PixelsField(serializers.Field):
    """A size in pixels as a string; a banner without a fitted copy reports its group's."""

    def __init__(self, device: str, side: str, **kwargs: Any) -> None:
        self.attribute = f"{device}_{side}"
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, instance: Banner | BannerGroup) -> str:
        value = getattr(instance, self.attribute)
        if value is None and isinstance(instance, Banner):
            value = getattr(instance.group, self.attribute)
        return str(value)


SIZE_FIELDS = [f"{device}{side}" for device in DEVICES for side in ("Width", "Height")]


# The fields banners share with their group (a comment: a docstring would describe Banner).
class SizedSerializer(serializers.ModelSerializer):
    desktopWidth = PixelsField("desktop", "width")
    desktopHeight = PixelsField("desktop", "height")
    tabletWidth = PixelsField("tablet", "width")
    tabletHeight = PixelsField("tablet", "height")
    mobileWidth = PixelsField("mobile", "width")
    mobileHeight = PixelsField("mobile", "height")
    createdAt = serializers.DateTimeField(source="created_at")
    additionalParameter = serializers.JSONField(source="additional_parameter")


class BannerSerializer(SizedSerializer):
    templateBannerGroupId = serializers.IntegerField(source="group_id")
    desktopImage = BannerImageField("desktop")
    desktopOriginalImage = BannerImageField("desktop", original=True)
    tabletImage = BannerImageField("tablet")
    tabletOriginalImage = BannerImageField("tablet", original=True)
    mobileImage = BannerImageField("mobile")
    mobileOriginalImage = BannerImageField("mobile", original=True)
    desktopUrl = serializers.CharField(source="desktop_url")
    tabletUrl = serializers.SerializerMethodField()
    mobileUrl = serializers.SerializerMethodField()
    scheduling = scheduling_field("BannerScheduling", source="effective_window")

    class Meta:
        model = Banner
        fields = [
            "id",
            "templateBannerGroupId",
            "name",
            "alt",
            *(f"{device}{kind}" for device in DEVICES for kind in ("Image", "OriginalImage")),
            *(f"{device}Url" for device in DEVICES),
            *SIZE_FIELDS,
            "active",
            "order",
            "scheduling",
            "createdAt",
            "additionalParameter",
        ]
        read_only_fields = fields

    def get_tabletUrl(self, banner: Banner) -> str:
        return banner.url_for("tablet")

    def get_mobileUrl(self, banner: Banner) -> str:
        return banner.url_for("mobile")


# --- Banner group (2.6) ------------------------------------------------------------


class BannerGroupSerializer(SizedSerializer):
    """Needs `context["base_url"]` (image URLs) and `context["channel_id"]` (the channel a
    group open to every channel reports), and `product_ids`, `brand_ids`, `category_ids`
    on each group (set by selectors.banner_groups_by_codes)."""

    salesChannelId = serializers.SerializerMethodField()
    locationId = serializers.SerializerMethodField()
    title = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    updatedAt = serializers.DateTimeField(source="updated_at")
    banners = BannerSerializer(many=True, help_text="Active banners live at the moment.")
    products = serializers.ListField(child=serializers.IntegerField(), source="product_ids")
    brands = serializers.ListField(child=serializers.IntegerField(), source="brand_ids")
    categories = serializers.ListField(child=serializers.IntegerField(), source="category_ids")
    showcases = serializers.ListField(child=serializers.CharField())
    pages = serializers.ListField(child=serializers.CharField())

    class Meta:
        model = BannerGroup
        fields = [
            "id",
            "salesChannelId",
            "code",
            "locationId",
            "name",
            "title",
            "description",
            *SIZE_FIELDS,
            "createdAt",
            "updatedAt",
            "additionalParameter",
            "banners",
            "products",
            "brands",
            "categories",
            "showcases",
            "pages",
        ]
        read_only_fields = fields

    def get_salesChannelId(self, group: BannerGroup) -> int | None:
        return group.sales_channel_id or self.context.get("channel_id")

    def get_locationId(self, group: BannerGroup) -> str | None:
        return group.location_id or None

    def get_title(self, group: BannerGroup) -> str | None:
        return group.title or None

    def get_description(self, group: BannerGroup) -> str | None:
        return group.description or None


# --- Upsell (2.11) ---------------------------------------------------------------------

MAX_CART_ENTRIES = 100
NO_VARIATION = (None, "", 0, "0", "null")  # a product without variation
VARIATION_MAP_MESSAGE = (
    "The variationMap field must map product ids to variation ids, "
    'e.g. variationMap[12]=34 or variationMap={"12": 34}.'
)


def _variation_map_error(message: str = VARIATION_MAP_MESSAGE) -> serializers.ValidationError:
    return serializers.ValidationError({"variationMap": [message]})


def _cart_id(value: object) -> int:
    """A positive id from an int or a digit string."""
    if isinstance(value, bool):
        raise ValueError
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    if not is_db_id(value):
        raise ValueError
    return value


def parse_variation_map(raw: Any) -> dict[int, int | None]:
    """{productId: variationId or None} from `variationMap` (an object, or a list of
    {"productId", "variationId"} objects)."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, list) and all(isinstance(item, dict) for item in raw):
        try:
            raw = {item["productId"]: item.get("variationId") for item in raw}
        except (KeyError, TypeError):
            raise _variation_map_error() from None
    if not isinstance(raw, dict):
        raise _variation_map_error()
    if len(raw) > MAX_CART_ENTRIES:
        raise _variation_map_error(
            f"The variationMap field may have at most {MAX_CART_ENTRIES} entries."
        )
    cart: dict[int, int | None] = {}
    for key, value in raw.items():
        try:
            cart[_cart_id(key)] = None if value in NO_VARIATION else _cart_id(value)
        except (ValueError, TypeError):
            raise _variation_map_error() from None
    return cart


class UpsellProductSerializer(FullProductSerializer):
    """The full product as the upsell renders it (schema only): `bannerGroups` is filled
    by marketing (api/sections.py), in the banners endpoint's shape."""

    bannerGroups = BannerGroupSerializer(  # type: ignore[assignment]  # schema of the section
        many=True,
        help_text=(
            "Banner groups linked to the product (a variation: or its main product) or to "
            "one of its categories or their ancestors, on the default sales channel; each "
            "with its banners live now."
        ),
    )


@extend_schema_field(UpsellProductSerializer)
class UpsellProductField(serializers.Field):
    """The offered product as the product read model renders it: `context["upsell_product"]`."""

    def to_representation(self, offer: Upsell) -> Any:
        return self.context["upsell_product"]


@extend_schema_serializer(many=False)  # one offer, though its view lists the candidates
class UpsellSerializer(serializers.Serializer):
    """The contract's Upsell. Context: `upsell_product`, the offered product's fragment
    (`catalog.api.fragments.product_full_answer` with the offer's rule and quantity)."""

    id = serializers.IntegerField()
    displayTitle = serializers.CharField(source="display_title")
    displayDescription = serializers.CharField(source="display_description")
    displayButtonText = serializers.CharField(source="display_button_text")
    quantity = serializers.IntegerField()
    upsellProduct = UpsellProductField(source="*", read_only=True)
    priceRule = PriceRuleSerializer(source="price_rule")
