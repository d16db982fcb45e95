"""Serializer fields of the API: strict input fields (DRF's turn 12 into "12" and take true as 1;
a wrong JSON type is refused instead) and computed output fields."""

import re
from collections.abc import Callable
from typing import Any

from rest_framework import serializers

CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class JsonStringOnly(serializers.Field):
    """Put first among the bases of a text field: anything but a JSON string is invalid."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(JsonStringOnly, serializers.CharField):
    default_error_messages = {"invalid": "This field must be a string."}


class StrictEmailField(JsonStringOnly, serializers.EmailField):
    pass


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer (or a string of digits); booleans, fractions and text are refused."""

    default_error_messages = {"invalid": "This field must be an integer."}

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        if isinstance(data, str) and not re.fullmatch(r"\s*-?[0-9]{1,30}\s*", data):
            self.fail("invalid")
        return super().to_internal_value(data)


class PlainTextField(StrictCharField):
    """Plain text: a JSON string without control characters (newlines and tabs allowed)."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if CONTROL_CHARACTERS.search(value):
            raise serializers.ValidationError("This field must not contain control characters.")
        return value


class JsonIntegerField(serializers.IntegerField):
    """A JSON integer only: strings ("5"), booleans and fractions are refused."""

    default_error_messages = {"invalid": "This field must be a JSON integer."}

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean only (DRF's BooleanField also takes "yes", 1 and "true")."""

    default_error_messages = {"invalid": "This field must be a JSON boolean."}

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class Computed:
    """Put first among the bases of a field: its value is `get(instance)` (documented as the
    field it is, unlike a SerializerMethodField)."""

    def __init__(self, get: Callable[[Any], Any], **kwargs: Any) -> None:
        self.get = get
        super().__init__(**kwargs)

    def get_attribute(self, instance: Any) -> Any:
        return self.get(instance)


class ComputedCharField(Computed, serializers.CharField):
    pass


class ComputedBooleanField(Computed, serializers.BooleanField):
    pass


class ComputedDecimalField(Computed, serializers.DecimalField):
    pass


class ComputedDateField(Computed, serializers.DateField):
    pass


class ComputedListField(Computed, serializers.ListField):
    pass
