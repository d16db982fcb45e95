"""The Product summary as the answers embed it (catalog.api.fragments renders it through
apikit.compiled, via apikit.responses.rendered_rows) is byte for byte what
ProductSummarySerializer's `.data` holds, on generated products: with and without brand,
main category, prices, comparison price, stock, image and video medias (with and without
files), attribute values (with and without images), variations and inactive ones."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from apikit.renderers import json_bytes
from apikit.responses import rendered_rows
from catalog.api.fragments import product_summaries
from catalog.api.serializers import ProductSummarySerializer
from catalog.models import MediaType
from catalog.selectors import products_for_summary
from infra.caching.kept import kept_clear

from .factories import (
    AttributeValueFactory,
    ProductFactory,
    ProductMediaFactory,
    ProductPriceFactory,
    StockFactory,
    VariationFactory,
)

BASE_URL = "http://shop.example/"

product_specs = st.fixed_dictionaries(
    {
        "brand": st.booleans(),
        "category": st.booleans(),
        "variation": st.booleans(),
        "active": st.booleans(),
        "price": st.none() | st.tuples(st.integers(0, 3), st.integers(1, 900)),
        "stock": st.integers(0, 3),
        "medias": st.lists(st.sampled_from(["image", "video", "video-url", "bare"]), max_size=3),
        "values": st.lists(st.booleans(), max_size=3),
    }
)


def make(spec: dict):
    extra = {} if spec["brand"] else {"brand": None}
    if not spec["category"]:
        extra["main_category"] = None
    factory = VariationFactory if spec["variation"] else ProductFactory
    product = factory(active=spec["active"], base_price=Decimal("12.34"), **extra)
    if spec["price"] is not None:
        comparison, sale = spec["price"]
        ProductPriceFactory(
            product=product, comparison_price=Decimal(comparison), sale_price=Decimal(sale) / 7
        )
    if spec["stock"]:
        StockFactory(product=product, available=spec["stock"])
    for kind in spec["medias"]:
        if kind == "image":
            ProductMediaFactory(product=product)
        else:
            url = "https://video.example/v" if kind == "video-url" else ""
            video = kind.startswith("video")
            ProductMediaFactory(
                product=product,
                type=MediaType.VIDEO if video else MediaType.IMAGE,
                original_file=None,
                file=None,
                url=url,
                width=None,
                height=None,
            )
    for with_image in spec["values"]:
        value = AttributeValueFactory(image="values/red.png" if with_image else "")
        product.attribute_values.add(value)
    return product


@pytest.mark.usefixtures("media_root")
class TestSummary(TestCase):
    @settings(max_examples=25)
    @given(st.lists(product_specs, min_size=1, max_size=3))
    def test_the_compiled_summary_is_the_serializers(self, specs):
        ids = [make(spec).pk for spec in specs]
        products = list(products_for_summary().filter(pk__in=ids).order_by("pk"))
        context = {"base_url": BASE_URL}

        compiled = rendered_rows(ProductSummarySerializer, products, **context)
        declared = ProductSummarySerializer(products, many=True, context=context).data

        assert json_bytes(compiled) == json_bytes(declared)
        assert [row["id"] for row in compiled] == ids

        # what the answers embed (catalog.api.fragments: loaded by summary_products_get,
        # its stock spliced in) is the same bytes
        kept_clear()
        kept = product_summaries(ids, **context)
        assert [json_bytes(kept[pk]) for pk in ids] == [json_bytes(row) for row in declared]
