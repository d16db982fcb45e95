"""Public catalog endpoints: the two category trees and product interests (bare responses)."""

from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.parsers import valid_data
from apikit.paths import path_id
from storefront.api.idempotency import idempotent
from storefront.api.throttling import PublicWriteThrottle

from ..selectors.categories import category_subtree_get, category_tree_get
from ..services import interest_register
from .interest_serializers import InterestCreateSerializer, InterestSerializer
from .schema import category_subtree_schema, category_tree_schema, product_interest_register_schema


class CategoryTreeView(APIView):
    @category_tree_schema
    def get(self, request: Request) -> HttpResponse:
        return conditional_response(request, category_tree_get())


class CategorySubtreeView(APIView):
    @category_subtree_schema
    def get(self, request: Request, categoryId: str) -> HttpResponse:
        missing = not_found(ErrorCode.CATEGORY_NOT_FOUND, f"Category {categoryId} was not found.")
        category_id = path_id(categoryId, invalid_field="categoryId", not_found=missing)
        tree = category_subtree_get(category_id=category_id)
        if tree is None:
            raise missing
        return conditional_response(request, tree)


class ProductInterestView(APIView):
    throttle_classes = [PublicWriteThrottle]
    throttle_scope = "product-interests"

    @product_interest_register_schema
    @idempotent
    def post(self, request: Request) -> Response:
        interest, created = interest_register(**valid_data(InterestCreateSerializer, request))
        payload = InterestSerializer(interest, context={"request": request}).data
        return Response(payload, status=201 if created else 200)
