"""The `scheduling` block of the APIs: an `infra.scheduling.Window` as `{startDate, endDate}`."""

from functools import cache
from typing import Any

from drf_spectacular.drainage import set_override
from rest_framework import serializers

from infra.scheduling import Window


class SchedulingSerializer(serializers.Serializer):
    startDate = serializers.DateTimeField(source="start", allow_null=True)
    endDate = serializers.DateTimeField(source="end", allow_null=True)


@cache
def _component(name: str) -> type[SchedulingSerializer]:
    """The serializer documented as the schema component `name` (one class per name)."""
    return type(f"{name}Serializer", (SchedulingSerializer,), {})


class SchedulingField(serializers.Field):
    """The window at `source` (default `window`) as `{startDate, endDate}` (null: an open
    end), or null when it has neither; documented as the nullable schema component
    `component` (each API keeps its own name for the same shape)."""

    def __init__(self, component: str, **kwargs: Any) -> None:
        kwargs.setdefault("source", "window")
        super().__init__(read_only=True, **kwargs)
        # What @extend_schema_field sets on a class, here per instance.
        set_override(self, "field", _component(component)(allow_null=True))

    def to_representation(self, window: Window) -> dict[str, Any] | None:
        return None if window.is_open else SchedulingSerializer(window).data
