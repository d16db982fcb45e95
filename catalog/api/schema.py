"""OpenAPI declarations of the catalog endpoints, one per operation (applied to the views)."""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from apikit.errors import ErrorCode
from apikit.schema import error_responses
from infra.ids import MAX_ID
from storefront.api.idempotency import idempotency_key_parameter
from storefront.api.throttling import rate_limit_headers

from .interest_serializers import InterestCreateSerializer, InterestSerializer
from .serializers import FullTreeNodeSerializer, SpecificCategoryTreeSerializer

category_tree_schema = extend_schema(
    operation_id="category_tree",
    summary="The whole category tree",
    description=(
        "Every active category as nested nodes, ordered by position then name. A "
        "category under an inactive one is hidden; leaves have `children: []`. Bare "
        "response; cached, with ETag and Cache-Control."
    ),
    tags=["categories"],
    responses={200: FullTreeNodeSerializer(many=True), **error_responses()},
)


category_subtree_schema = extend_schema(
    operation_id="category_subtree",
    summary="The tree around one category",
    description=(
        "`current`, its active `children`, its `sisters` (active siblings, not itself) "
        "and `parent` (the ancestor chain, root first). Bare response."
    ),
    tags=["categories"],
    parameters=[
        OpenApiParameter(
            "categoryId",
            {"type": "integer", "minimum": 1, "maximum": MAX_ID},
            OpenApiParameter.PATH,
            description="Category id.",
        )
    ],
    responses={
        200: SpecificCategoryTreeSerializer,
        **error_responses(404, 422, not_found_code=ErrorCode.CATEGORY_NOT_FOUND),
    },
)


product_interest_register_schema = extend_schema(
    operation_id="product_interest_register",
    summary="Register interest in a product",
    description=(
        "`notify-me`: e-mail me when the product is back in stock; `on-request`: staff "
        "answer by e-mail. 201 with the new interest; 200 with the existing one when the "
        "same e-mail already has a pending interest of that origin in the product. "
        "Unknown fields are refused. Throttled per client IP. Bare response. "
        "`Idempotency-Key` makes a retry return the first answer."
    ),
    tags=["products"],
    parameters=[idempotency_key_parameter(), *rate_limit_headers()],
    request=InterestCreateSerializer,
    responses={
        201: InterestSerializer,
        200: InterestSerializer,
        **error_responses(404, 409, 422, 429, not_found_code=ErrorCode.PRODUCT_NOT_FOUND),
    },
    examples=[
        OpenApiExample(
            "Notify me",
            request_only=True,
            value={
                "productId": 12,
                "origin": "notify-me",
                "name": "Maria Silva",
                "email": "maria@example.com",
                "phone": "+55 11 99999-0000",
                "message": "",
            },
        )
    ],
)
