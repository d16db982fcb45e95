"""OpenAPI declarations of the marketing endpoints, one per operation (applied to the views)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from apikit.errors import ErrorCode
from apikit.schema import error_responses, success_envelope
from infra.ids import MAX_ID

from .serializers import MAX_CART_ENTRIES, BannerGroupSerializer, UpsellSerializer

banner_groups_list_schema = extend_schema(
    operation_id="banner_groups_list",
    summary="Banner groups by code, with their live banners",
    description=(
        "Banner groups for the given codes, in the order the codes were given (unknown "
        "codes and groups of other sales channels are left out; none found: 404). Each "
        "group lists only its active banners whose scheduling contains the current moment "
        "(start inclusive, end exclusive; a banner's scheduling is its own start and end "
        "within its group's schedule: an empty start or end is the group's), ordered by "
        "`order` then id, with a desktop, "
        "tablet and mobile image (`...Image` is a copy fitted to the group's size, "
        "`...OriginalImage` the upload), link and size.\n\n"
        "`codes` may be sent as a JSON body on this GET "
        '(`Content-Type: application/json`, `{"codes": ["home-main"]}`) or in the query '
        "string: `codes[]=a&codes[]=b`, `codes=a&codes=b` or `codes=a,b`. Without "
        "`Content-Type: application/json` the query string is read. Missing or empty: 422 "
        '"The codes field is required.".\n\n'
        "Responses carry `ETag` and a `Cache-Control` max-age that never reaches past the "
        "next scheduling start or end."
    ),
    tags=["banners"],
    parameters=[
        OpenApiParameter(
            "codes",
            {"type": "array", "items": {"type": "string", "maxLength": 100}, "maxItems": 100},
            style="form",
            explode=True,
            description=(
                "Banner group codes (required here or in the JSON body). The URL (path "
                "and query string) may be at most 8,000 bytes (414 URI_TOO_LONG above): "
                "100 codes of about 60 characters fit; send longer lists in the JSON body."
            ),
            examples=[OpenApiExample("Home page", value=["home-main"])],
        ),
        OpenApiParameter(
            "service-cookie-name",
            OpenApiTypes.STR,
            location=OpenApiParameter.HEADER,
            required=False,
            description="Accepted and never required.",
        ),
    ],
    responses={
        200: success_envelope("BannerGroupListResponse", BannerGroupSerializer, many=True),
        **error_responses(404, 422, not_found_code=ErrorCode.BANNER_GROUP_NOT_FOUND),
    },
)


cart_upsell_get_schema = extend_schema(
    operation_id="cart_upsell_get",
    summary="The upsell offer for a cart location",
    description=(
        "The highest-priority active offer for the location, live at the current moment, "
        "whose triggers match the cart (an offer without triggers always matches; product "
        "triggers match a product or variation in the cart, category triggers a category "
        "of a cart product or one of its ancestors) and whose product is not already in "
        "the cart. `upsellProduct.price` is the price after the offer's price rule, for "
        "the offer's quantity, in the default trade policy.\n\n"
        "`variationMap` describes the cart (productId -> variationId, 0 or null for a "
        "product without variation): `variationMap[12]=34&variationMap[15]=0` or "
        '`variationMap={"12":34}`. `condition` and `order` filter and sort the candidate '
        "offers (default order: -priority, then id), `offset` skips candidates; `fields` "
        "keeps only those top-level keys. None left: 404."
    ),
    tags=["upsell"],
    parameters=[
        OpenApiParameter(
            "locationId",
            OpenApiTypes.STR,
            location=OpenApiParameter.PATH,
            description="Location of the offer, e.g. cart or checkout.",
            examples=[OpenApiExample("Cart", value="cart")],
        ),
        OpenApiParameter(
            "variationMap",
            {
                "type": "object",
                "additionalProperties": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": MAX_ID,
                    "nullable": True,
                },
                "maxProperties": MAX_CART_ENTRIES,
            },
            style="deepObject",
            explode=True,
            description="The cart: productId -> variationId (JSON object also accepted).",
        ),
    ],
    responses={
        200: UpsellSerializer,
        **error_responses(404, 422, not_found_code=ErrorCode.UPSELL_NOT_FOUND),
    },
)
