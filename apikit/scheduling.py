"""The `scheduling` block of the APIs: an `infra.scheduling.Window` as `{startDate, endDate}`."""

from functools import cache
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from infra.scheduling import Window


class SchedulingSerializer(serializers.Serializer):
    startDate = serializers.DateTimeField(source="start", allow_null=True)
    endDate = serializers.DateTimeField(source="end", allow_null=True)


class _SchedulingField(serializers.Field):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("source", "window")
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, window: Window) -> dict[str, Any] | None:
        return None if window.is_open else SchedulingSerializer(window).data


@cache
def _field_class(component: str) -> type[_SchedulingField]:
    documented = type(f"{component}Serializer", (SchedulingSerializer,), {})
    field_class = type(f"{component}Field", (_SchedulingField,), {})
    return extend_schema_field(documented(allow_null=True))(field_class)


def scheduling_field(component: str, **kwargs: Any) -> serializers.Field:
    """The window at `source` (default `window`) as `{startDate, endDate}` (null: an open
    end), or null when it has neither; documented as the nullable schema component
    `component` (each API keeps its own name for the same shape)."""
    return _field_class(component)(**kwargs)
