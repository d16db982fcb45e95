"""docs/caching.md's table of which write bumps which namespace matches the
`invalidate_on_change` registrations (infra.caching.versions.REGISTRATIONS)."""

import re
from pathlib import Path

from infra.caching.versions import REGISTRATIONS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "caching.md"


def documented() -> dict[str, set[str]]:
    """{model label: the namespaces (or namespace functions) its row names}."""
    text = PAGE.read_text()
    table = text.split("<!-- invalidate_on_change: begin -->")[1]
    table = table.split("<!-- invalidate_on_change: end -->")[0]
    rows: dict[str, set[str]] = {}
    for line in table.strip().splitlines()[2:]:  # past the header and its rule
        model, bumped = (cell.strip() for cell in line.strip("|").split("|"))
        # `stock:<id>` is an example of what the named function gives
        rows[model] = {name for name in re.findall(r"`([^`]+)`", bumped) if "<" not in name}
    return rows


def registered() -> dict[str, set[str]]:
    rows: dict[str, set[str]] = {}
    for registration in REGISTRATIONS:
        for model in registration.models:
            rows.setdefault(model, set()).add(registration.namespace)
    return rows


def test_the_page_names_every_registered_write_and_nothing_else():
    assert documented() == registered()


def test_a_stock_save_bumps_its_product_s_stock_and_the_listing_only():
    # the answer docs/caching.md gives: a stock save bumps stock:<id> and the catalogue
    # listing's index (`product-listing`), not `products`
    assert registered()["catalog.Stock"] == {"catalog.signals._stock_of", "product-listing"}
    assert "catalog.Stock" not in {
        model for r in REGISTRATIONS if r.namespace == "products" for model in r.models
    }
