"""The rows of the load benchmark: what each asks for, how its answer is checked, and its
goal as a fraction of the ceiling (issue 9)."""

import json
from dataclasses import dataclass, field

# Goals as a fraction of the ceiling (issue 9), per configuration; None: no goal set.
GOALS = {
    "card flags": 0.9,
    "category subtree (depth 2)": 0.8,
    "whole category tree": 0.5,
    "banners (2 codes)": 0.8,
    "zipcode consult": 0.8,
    "payment conditions (3 items)": 0.6,
    "product reviews, 20 of 299": 0.5,
    "product comments, 20": 0.5,
    "store reviews, 20": 0.5,
    "cart upsell": 0.5,
    "shipping quote, 1 item": 0.3,
}
# With PostgreSQL and Redis the issue sets goals for the product page's lists only.
GOALS_POSTGRESQL_REDIS = {
    "product reviews, 20 of 299": 0.35,
    "product comments, 20": 0.35,
    "cart upsell": 0.35,
}
CONSTANT = "constant JSON (baseline)"


@dataclass
class Target:
    name: str
    path: str
    check: object  # (parsed JSON body) -> problem text, or None when the answer is right
    method: str = "GET"
    body: str = ""
    goal: float | None = None
    runs: list = field(default_factory=list)  # wrk.WrkRun of each run
    cpu_ms: list = field(default_factory=list)  # the workers' CPU ms per request, each run
    problem: str | None = None
    status: int | None = None
    size: int = 0


def q(text: str) -> str:
    """Brackets of a query string, percent-encoded (as browsers and HTTP clients send them)."""
    return text.replace("[", "%5B").replace("]", "%5D")


def _count_nodes(nodes) -> int:
    return sum(1 + _count_nodes(node.get("children") or []) for node in nodes)


def _page(payload, *, total: int, size: int, envelope: bool) -> str | None:
    page = payload.get("data") if envelope else payload
    registers = (page or {}).get("registers") or []
    found = (page or {}).get("pagination", {}).get("registers")
    if found != total or len(registers) != min(size, total):
        return f"expected {min(size, total)} of {total} registers, got {len(registers)} of {found}"
    return None


def targets(dataset: dict) -> list[Target]:
    """The rows of the table, aimed at the data set's records (see bench/dataset)."""
    counts, ids = dataset["counts"], dataset["targets"]
    top, subtree = ids["top_product"], ids["subtree_category"]
    country, code = ids["postal"]
    items = [{"reference": f"sku-{i}", "value": 99.9 + 150 * i} for i in range(3)]

    def has(key):
        return lambda body: None if body.get(key) else f"no {key!r} in the answer"

    return [
        Target(CONSTANT, "/bench/constant", has("status")),
        Target(
            "card flags",
            "/publics/payments/card-flags",
            lambda body: None if "visa" in body.get("data", {}) else "no visa pattern",
        ),
        Target(
            "category subtree (depth 2)",
            f"/publics/products/categories/{subtree}/tree",
            lambda body: (
                None
                if body.get("current", {}).get("id") == subtree and len(body.get("parent", [])) == 2
                else "not the depth-2 category with its 2 ancestors"
            ),
        ),
        Target(
            "whole category tree",
            "/publics/products/categories/tree",
            lambda body: (
                None
                if _count_nodes(body) == counts["categories_visible"]
                else f"{_count_nodes(body)} nodes, {counts['categories_visible']} visible in the DB"
            ),
        ),
        Target(
            "banners (2 codes)",
            q(f"/api/v3/publics/template/banners?codes={','.join(ids['banner_codes'])}"),
            lambda body: None if len(body.get("data") or []) == 2 else "not 2 banner groups",
        ),
        Target(
            "zipcode consult",
            f"/shipping/zipcode/consult/{country}/{code[:5]}-{code[5:]}",
            lambda body: None if body.get("data", {}).get("zipCode") else "no zipCode",
        ),
        Target(
            "payment conditions (3 items)",
            "/publics/payments/conditions",
            lambda body: None if len(body.get("data") or []) == 3 else "not 3 results",
            method="POST",
            body=json.dumps({"items": items}),
        ),
        Target(
            "product reviews, 20 of 299",
            q(f"/review/product?condition[productId]={top}&limit=20"),
            lambda body: _page(
                body, total=counts["top_product_reviews_approved"], size=20, envelope=True
            ),
        ),
        Target(
            "product comments, 20",
            q(f"/publics/products/comments?condition[productId]={top}&limit=20"),
            lambda body: _page(
                body, total=counts["top_product_comments_public"], size=20, envelope=False
            ),
        ),
        Target(
            "store reviews, 20",
            "/review/sales-channel?limit=20",
            lambda body: _page(
                body, total=counts["store_reviews_approved"], size=20, envelope=True
            ),
        ),
        Target(
            "cart upsell",
            q(f"/cart/upsell/cart?variationMap[{ids['cart_product']}]={ids['cart_variation']}"),
            lambda body: None if body.get("upsellProduct") else "no upsellProduct",
        ),
        Target(
            "shipping quote, 1 item",
            q(
                f"/publics/products/quote?targetCountryCode={country}&targetZipCode={code}"
                f"&items[0][productId]={top}&items[0][quantity]=1"
            ),
            lambda body: (
                None
                if body.get("quoteGroups")
                and all(group.get("shippingOptions") for group in body["quoteGroups"])
                and not body.get("errorItems")
                else "no shipping option for the item"
            ),
        ),
    ]
