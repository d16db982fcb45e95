"""Serializers of POST /publics/products/interests (contract 4.6 and 2.8)."""

import re
from typing import Any

from rest_framework import serializers

from apikit.fields import PlainTextField, StrictEmailField, StrictIntegerField
from infra.ids import MAX_ID

from ..models import InterestOrigin
from .serializers import ProductSummarySerializer

PHONE_PATTERN = re.compile(r"^[0-9+()\-. ]*\Z")


class InterestCreateSerializer(serializers.Serializer):
    productId = StrictIntegerField(min_value=1, max_value=MAX_ID, source="product_id")
    origin = serializers.ChoiceField(choices=InterestOrigin.values)
    name = PlainTextField(max_length=50)
    email = StrictEmailField(max_length=50)
    phone = PlainTextField(max_length=30, required=False, allow_blank=True, default="")
    message = PlainTextField(max_length=300, required=False, allow_blank=True, default="")

    def validate_phone(self, value: str) -> str:
        if not PHONE_PATTERN.match(value):
            raise serializers.ValidationError(
                "The phone field may contain only digits, spaces and + ( ) - ."
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError(
                {name: [f"The {name} field is not accepted."] for name in unknown[:20]}
            )
        return attrs


class InterestSerializer(serializers.Serializer):
    """Contract 2.8 Product interest."""

    id = serializers.IntegerField()
    productId = serializers.IntegerField(source="product_id")
    origin = serializers.CharField()
    name = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    message = serializers.CharField()
    repliedAt = serializers.DateTimeField(source="replied_at", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")
    simpleProduct = ProductSummarySerializer(source="product")
