"""Request and answer bodies of the password reset endpoints."""

from rest_framework import serializers

from apikit.fields import StrictCharField, StrictEmailField

from .customer_serializers import password_field


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
