from typing import Any

from rest_framework import serializers

from apikit.fields import StrictCharField, StrictEmailField
from storefront.models import Customer
from storefront.services import CustomerSession

# Passwords are hashed on every sign-in: a generous cap keeps hashing cheap.
PASSWORD_MAX_LENGTH = 128


def password_field(**kwargs: Any) -> StrictCharField:
    return StrictCharField(
        max_length=PASSWORD_MAX_LENGTH,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
        **kwargs,
    )


class CustomerSerializer(serializers.ModelSerializer):
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)

    class Meta:
        model = Customer
        fields = ["id", "name", "email", "active", "createdAt", "updatedAt"]
        read_only_fields = fields


class CustomerRegisterSerializer(serializers.Serializer):
    name = StrictCharField(min_length=2, max_length=100)
    email = StrictEmailField(max_length=254)
    password = password_field(min_length=1)


class CustomerLoginSerializer(serializers.Serializer):
    # Not an EmailField: a malformed address simply fails to sign in (401), like any other.
    email = StrictCharField(max_length=254)
    password = password_field()


class CustomerSessionSerializer(serializers.Serializer):
    token = serializers.CharField(source="token.token")
    tokenType = serializers.SerializerMethodField()
    expiresAt = serializers.DateTimeField(source="token.expires_at")
    expiresIn = serializers.IntegerField(
        source="token.max_age", help_text="Lifetime of the token in seconds."
    )
    customer = CustomerSerializer()

    def get_tokenType(self, session: CustomerSession) -> str:
        return "Bearer"


class PasswordResetRequestSerializer(serializers.Serializer):
    email = StrictEmailField(max_length=254)


class PasswordResetConfirmSerializer(serializers.Serializer):
    uid = StrictCharField(max_length=64, help_text="The `uid` of the e-mailed link.")
    token = StrictCharField(max_length=128, help_text="The `token` of the e-mailed link.")
    password = password_field(
        min_length=1, help_text="The new password (checked by the store's password validators)."
    )


class PasswordResetAnswerSerializer(serializers.Serializer):
    message = serializers.CharField()
