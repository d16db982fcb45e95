"""apikit.compiled renders what the serializer's `.data` holds (same keys, order, values and
types) for every kind it supports, and refuses the others when the class is compiled."""

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from rest_framework import serializers

from apikit.compiled import Unsupported, render_many, renderer


def plain(value: Any) -> Any:
    """DRF's ReturnDict/ReturnList as plain dicts and lists, to compare with repr."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def assert_same(serializer_class: type[serializers.Serializer], row: Any, **context: Any) -> None:
    """The same answer, or the same exception (e.g. a decimal over its max_digits)."""
    try:
        expected = repr(plain(serializer_class(row, context=context).data))
    except Exception as exc:
        with pytest.raises(type(exc)):
            renderer(serializer_class)(row, **context)
        return
    assert repr(renderer(serializer_class)(row, **context)) == expected


class Upper(serializers.CharField):
    def to_representation(self, value: Any) -> str:
        return str(value).upper()


class SkippedWhenEmpty(serializers.CharField):
    def get_attribute(self, instance: Any) -> Any:
        value = super().get_attribute(instance)
        if not value:
            raise serializers.SkipField
        return value


class Leaf(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(source="label")


class Kinds(serializers.Serializer):
    number = serializers.IntegerField()
    big = serializers.IntegerField(source="number")
    text = serializers.CharField()
    ratio = serializers.FloatField()
    flag = serializers.BooleanField()
    flag_text = serializers.BooleanField(source="text")  # DRF's "yes"/"0"/... mapping
    money = serializers.DecimalField(max_digits=14, decimal_places=2, coerce_to_string=False)
    weight = serializers.DecimalField(max_digits=24, decimal_places=3, source="money")
    money_text = serializers.DecimalField(max_digits=30, decimal_places=1, source="ratio")
    when = serializers.DateTimeField()
    day = serializers.DateField()
    kind = serializers.ChoiceField(choices=[("a", "A"), ("b", "B")])
    numbers = serializers.ListField(child=serializers.IntegerField())
    names = serializers.DictField(child=serializers.CharField(allow_null=True))
    leaf = Leaf(allow_null=True)
    leaves = Leaf(many=True)
    deep = serializers.IntegerField(source="leaf.id", allow_null=True)
    whole = Leaf(source="*")
    shouted = Upper(source="text")
    note = SkippedWhenEmpty(required=False)
    maybe = serializers.IntegerField(required=False)  # absent: no key
    nullable = serializers.IntegerField(allow_null=True)  # absent: null
    defaulted = serializers.IntegerField(default=7)  # absent: the default
    secret = serializers.CharField(write_only=True)
    method = serializers.SerializerMethodField()

    def get_method(self, row: Any) -> str:
        number = row["number"] if isinstance(row, dict) else row.number
        return f"{number}:{self.context.get('suffix', '-')}"


leaf = st.fixed_dictionaries({"id": st.integers(), "label": st.text(max_size=5)})
decimals = st.decimals(min_value=-(10**9), max_value=10**9, allow_nan=False, places=4)
moments = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)
)
rows = st.fixed_dictionaries(
    {
        "number": st.integers(min_value=-(2**70), max_value=2**70),
        "text": st.sampled_from(["yes", "no", "0", "1", "x", ""]) | st.text(max_size=8),
        "ratio": st.floats(allow_nan=False, allow_infinity=False, width=32),
        "flag": st.booleans() | st.sampled_from([0, 1, "true", "off", None]),
        "money": decimals | st.none(),
        "when": moments,
        "day": st.dates(),
        "kind": st.sampled_from(["a", "b", "c", None]),
        "numbers": st.lists(st.integers() | st.none(), max_size=3),
        "names": st.dictionaries(st.integers(), st.text(max_size=3) | st.none(), max_size=3),
        "leaf": leaf | st.none(),
        "leaves": st.lists(leaf, max_size=3),
        "id": st.integers(),
        "label": st.text(max_size=4),
        "note": st.sampled_from(["", "note"]),
        "secret": st.text(max_size=3),
    },
    optional={"maybe": st.integers(), "nullable": st.integers(), "defaulted": st.integers()},
)


@given(rows, st.sampled_from([{}, {"suffix": "s"}]))
def test_every_supported_kind_renders_as_drf_does(row, context):
    assert_same(Kinds, row, **context)


@given(rows)
def test_objects_are_read_by_attribute_as_dicts_are_by_key(row):
    def namespace(values):
        return None if values is None else SimpleNamespace(**values)

    as_object = {
        **row,
        "leaf": namespace(row["leaf"]),
        "leaves": list(map(namespace, row["leaves"])),
    }
    assert_same(Kinds, SimpleNamespace(**as_object))


@dataclass
class Owner:
    name: str

    def shout(self) -> str:
        return self.name.upper()


@dataclass
class Thing:
    owner: Owner | None
    tags: list[str]


class ThingSerializer(serializers.Serializer):
    owner = serializers.CharField(source="owner.name", allow_null=True)
    shout = serializers.CharField(source="owner.shout", allow_null=True)  # a method: called
    tags = serializers.ListField(child=serializers.CharField())


def test_dotted_sources_call_methods_and_a_missing_link_is_null():
    assert_same(ThingSerializer, Thing(owner=Owner("ana"), tags=["a"]))
    assert_same(ThingSerializer, Thing(owner=None, tags=[]))
    assert renderer(ThingSerializer)(Thing(owner=None, tags=[]))["owner"] is None


def test_a_missing_required_attribute_fails_as_drf_does():
    class Strict(serializers.Serializer):
        absent = serializers.IntegerField()

    with pytest.raises(AttributeError) as drf:
        Strict(SimpleNamespace()).data  # noqa: B018
    with pytest.raises(AttributeError) as compiled:
        renderer(Strict)(SimpleNamespace())
    assert str(compiled.value) == str(drf.value)


def test_many_renders_each_row_and_a_manager_through_all():
    class Manager:  # the shape of a related manager: called through .all() by DRF
        def __init__(self, items):
            self.items = items

        def all(self):
            return self.items

    class Holder(serializers.Serializer):
        leaves = Leaf(many=True, source="leaves.all")

    holder = SimpleNamespace(leaves=Manager([SimpleNamespace(id=1, label="a")]))
    assert_same(Holder, holder)
    assert render_many(Leaf, [{"id": 1, "label": "a"}, {"id": 2, "label": "b"}]) == [
        {"id": 1, "name": "a"},
        {"id": 2, "name": "b"},
    ]


def test_date_times_are_in_the_current_time_zone_as_drf_renders_them():
    class Moment(serializers.Serializer):
        at = serializers.DateTimeField()
        fixed = serializers.DateTimeField(source="at", format="%Y-%m-%d %H:%M")

    moment = datetime(2026, 3, 1, 15, 30, tzinfo=UTC)
    assert renderer(Moment)({"at": moment})["at"] == "2026-03-01T12:30:00-03:00"  # the store's
    with timezone.override("UTC"):
        assert renderer(Moment)({"at": moment})["at"] == "2026-03-01T15:30:00Z"
        assert_same(Moment, {"at": moment})
    assert_same(Moment, {"at": moment + timedelta(days=200)})
    assert_same(Moment, {"at": datetime(2026, 3, 1, 15, 30)})  # naive: made aware by DRF


def test_the_context_is_the_calls_own():
    class Context(serializers.Serializer):
        method = serializers.SerializerMethodField()

        def get_method(self, row: Any) -> Any:
            return self.context.get("value")

    render = renderer(Context)
    assert [render({}, value=1), render({}, value=2), render({})] == [
        {"method": 1},
        {"method": 2},
        {"method": None},
    ]


def test_a_serializer_with_its_own_to_representation_is_called_as_drf_calls_it():
    class Own(serializers.Serializer):
        id = serializers.IntegerField()

        def to_representation(self, instance: Any) -> dict:
            data = super().to_representation(instance)
            data["twice"] = data["id"] * 2
            return data

    class Outer(serializers.Serializer):
        own = Own()
        owns = Own(many=True)

    assert_same(Outer, {"own": {"id": 2}, "owns": [{"id": 3}]})
    assert renderer(Outer)({"own": {"id": 2}, "owns": []})["own"] == {"id": 2, "twice": 4}


@pytest.mark.parametrize(
    ("field", "kind"),
    [
        (serializers.FileField(), "FileField"),
        (serializers.TimeField(), "TimeField"),
        (serializers.UUIDField(), "UUIDField"),
        (serializers.PrimaryKeyRelatedField(read_only=True), "PrimaryKeyRelatedField"),
        (serializers.HyperlinkedIdentityField(view_name="x"), "HyperlinkedIdentityField"),
    ],
)
def test_an_unsupported_kind_is_refused_when_compiled_naming_the_field(field, kind):
    serializer_class = type("Refused", (serializers.Serializer,), {"odd": field})

    with pytest.raises(Unsupported, match=rf"^Refused\.odd: {kind} is not supported"):
        renderer(serializer_class)


def test_an_unsupported_kind_in_a_nested_serializer_names_the_path_to_it():
    inner = type("Inner", (serializers.Serializer,), {"at": serializers.DurationField()})
    outer = type("Outer", (serializers.Serializer,), {"inner": inner(many=True)})

    with pytest.raises(
        Unsupported, match=r"^Outer\.inner: Inner\.at: DurationField is not supported"
    ):
        renderer(outer)


def test_a_serializer_with_its_own_to_representation_is_refused_not_skipped():
    # the compiled function renders the fields: an override of the whole row would be skipped
    class Trimmed(serializers.Serializer):
        id = serializers.IntegerField()
        secret = serializers.CharField()

        def to_representation(self, instance):
            row = super().to_representation(instance)
            row.pop("secret")
            return row

    with pytest.raises(Unsupported, match=r"^Trimmed has its own to_representation"):
        renderer(Trimmed)


def test_decimals_keep_drfs_rounding_and_precision():
    class Money(serializers.Serializer):
        value = serializers.DecimalField(max_digits=5, decimal_places=2, coerce_to_string=False)
        text = serializers.DecimalField(
            max_digits=5, decimal_places=2, source="value", coerce_to_string=True
        )

    for value in (Decimal("1.005"), Decimal("1.015"), Decimal("-2.5"), 3, "4.125", 1.1, 10**6):
        assert_same(Money, {"value": value})
    assert renderer(Money)({"value": Decimal("1.005")}) == {
        "value": Decimal("1.00"),  # half-even
        "text": "1.00",
    }


def test_dates_render_iso():
    class Day(serializers.Serializer):
        day = serializers.DateField()

    assert renderer(Day)({"day": date(2026, 1, 2)}) == {"day": "2026-01-02"}
