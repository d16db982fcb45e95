"""Public catalog endpoints: the two category trees and product interests (bare responses)."""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.paths import path_id
from apikit.responses import bare
from apikit.schema import error_responses
from infra.ids import MAX_ID
from storefront.api.idempotency import idempotency_key_parameter, idempotent
from storefront.api.throttling import PublicWriteThrottle

from ..selectors import category_subtree_get, category_tree_get
from ..services import interest_register
from .interest_serializers import InterestCreateSerializer, InterestSerializer
from .serializers import FullTreeNodeSerializer, SpecificCategoryTreeSerializer


class CategoryTreeView(APIView):
    @extend_schema(
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
    def get(self, request):
        return conditional_response(request, category_tree_get())


class CategorySubtreeView(APIView):
    @extend_schema(
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
    def get(self, request, categoryId: str):
        missing = not_found(ErrorCode.CATEGORY_NOT_FOUND, f"Category {categoryId} was not found.")
        category_id = path_id(categoryId, invalid_field="categoryId", not_found=missing)
        tree = category_subtree_get(category_id=category_id)
        if tree is None:
            raise missing
        return conditional_response(request, tree)


class ProductInterestView(APIView):
    throttle_classes = [PublicWriteThrottle]
    throttle_scope = "product-interests"

    @extend_schema(
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
        parameters=[idempotency_key_parameter()],
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
    @idempotent
    def post(self, request):
        body = InterestCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        registration = interest_register(
            product_id=data["productId"],
            origin=data["origin"],
            name=data["name"],
            email=data["email"],
            phone=data["phone"],
            message=data["message"],
        )
        payload = InterestSerializer(registration.interest, context={"request": request}).data
        return bare(payload, status=201 if registration.created else 200)
