"""The orjson renderer writes what DRF's JSONRenderer wrote: same JSON, byte for byte."""

import json
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer

from apikit.renderers import FastJSONRenderer, Fragment, json_bytes

SAO_PAULO = ZoneInfo("America/Sao_Paulo")

PAYLOADS = [
    {"status": True, "data": {"price": Decimal("10.50"), "zero": Decimal("0.00")}},
    {"big": Decimal("999999999.99"), "tiny": Decimal("0.01"), "int": Decimal("12")},
    {"when": datetime(2026, 11, 26, 10, 30, 15, 123456, tzinfo=SAO_PAULO)},
    {"utc": datetime(2026, 1, 1, tzinfo=UTC), "day": date(2026, 2, 3)},
    {"duration": timedelta(hours=2)},
    {"text": "Caneca de cerâmica — 350 ml", "emoji": "☕", "quote": 'a "b" \\ c'},
    {"lazy": gettext_lazy("Not found."), "none": None, "list": [1, 2.5, True, False]},
    [{"nested": [{"deep": [Decimal("1.10")]}]}],
    {"separators": "line\u2028paragraph\u2029", "key\u2028": ["\u2029"]},  # DRF escapes them
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_fast_renderer_writes_the_same_bytes_as_drf(payload):
    assert FastJSONRenderer().render(payload) == JSONRenderer().render(payload)


@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**53), max_value=2**53)
        | st.decimals(min_value=-(10**9), max_value=10**9, places=2)
        | st.text(),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=8), children, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_any_payload_renders_as_drf_renders_it(payload):
    assert FastJSONRenderer().render(payload) == JSONRenderer().render(payload)


def test_a_fragment_is_spliced_in_as_it_is():
    body = json_bytes({"a": Fragment(b'{"x":1}'), "b": [Fragment(b"[2]")]})
    assert json.loads(body) == {"a": {"x": 1}, "b": [[2]]}
