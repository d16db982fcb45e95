"""Test-only routes that provoke each error path of the API toolkit."""

from django.urls import include, path, re_path
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import fallback
from apikit.errors import ErrorCode, not_found
from apikit.parsers import valid_data
from apikit.responses import success
from apikit.routing import api_path
from storefront.api.throttling import PublicWriteThrottle


class ItemSerializer(serializers.Serializer):
    reference = serializers.CharField(max_length=5)


class EchoSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=10)
    items = ItemSerializer(many=True)


class EchoView(APIView):
    throttle_classes = [PublicWriteThrottle]

    def get(self, request):
        return success({"hello": "world"})

    def post(self, request):
        return Response(valid_data(EchoSerializer, request), status=201)


class CrashView(APIView):
    def get(self, request):
        raise RuntimeError("secret database password leaked in traceback")


class MissingView(APIView):
    def get(self, request):
        raise not_found(ErrorCode.PRODUCT_NOT_FOUND, "Product 1 was not found.")


def plain_crash(request):
    raise ValueError("plain Django view crash with SELECT * FROM secrets")


api_patterns = [
    *api_path("echo", EchoView.as_view(), "echo"),
    *api_path("crash", CrashView.as_view(), "crash"),
    *api_path("missing", MissingView.as_view(), "missing"),
    path("plain-crash", plain_crash),
]

urlpatterns = [
    path("api/v3/", include(api_patterns)),
    path("", include(api_patterns)),
    re_path(r"^", fallback.unknown_url),
]
