"""The rows of the load benchmark: what each asks for, how its answer is checked, and its
goal as a fraction of the ceiling (issue 9; the random-key rows: issue 19)."""

import json
from dataclasses import dataclass, field, replace
from functools import partial

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
    # Random keys (issue 19): each request a random path of the row's list (bench/paths.py).
    "quote, random cart and postal code": 0.3,
    "cart upsell, random carts": 0.5,
    "category subtree, every category": 0.85,
    "product reviews, every product's pages": 0.85,
    "product comments, every product's pages": 0.85,
    "zipcode, every imported code": 0.85,
    # issue 34: "in the same time class as the comments list" (its random row's goal)
    "similar questions, random products and texts": 0.85,
}
# With PostgreSQL and Redis the issue sets goals for the product page's lists only.
GOALS_POSTGRESQL_REDIS = {
    "product reviews, 20 of 299": 0.35,
    "product comments, 20": 0.35,
    "cart upsell": 0.35,
    "quote, random cart and postal code": 0.2,
    "cart upsell, random carts": 0.3,
    "category subtree, every category": 0.6,
    "product reviews, every product's pages": 0.6,
    "product comments, every product's pages": 0.6,
    "zipcode, every imported code": 0.6,
    "similar questions, random products and texts": 0.6,
}
CONSTANT = "constant JSON (baseline)"
# Rows measured again while another process saves stock 20 times a second (bench/churn.py):
# their rate must stay at least CHURN_GOAL of the same row's without churn (issue 19).
CHURN_ROWS = ("product reviews, every product's pages", "product comments, every product's pages")
CHURN_SUFFIX = ", stock churn"
CHURN_GOAL = 0.7
# Rows measured again with `Accept-Encoding: gzip` (issue 33), right after the plain row:
# bytes on the wire and rate, whose goal is GZIP_GOAL of the plain row's rate in the same run
# (a kept answer is compressed once, when kept: a hit costs what a plain hit costs).
GZIP_ROWS = (
    "product reviews, 20 of 299",
    "product reviews, 100 of 299",
    "product comments, 20",
    "cart upsell",
    "product reviews, every product's pages",
    "product comments, every product's pages",
)
GZIP_SUFFIX = ", gzip"
GZIP_GOAL = 0.9
# The row groups of --rows.
GROUPS = ("replay", "random", "churn")


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
    group: str = "replay"  # replay (one path), random (paths_file), churn (random + churn)
    paths_file: str = ""  # random keys: a file of paths, one drawn per request
    paths: int = 0  # how many lines that file has
    samples: list = field(default_factory=list)  # (path, check) of the check before the load
    without_churn: str | None = None  # churn rows: the name of the same row without churn
    # churn rows: the runs without churn taken between theirs, and what bench/churn.py did
    runs_without_churn: list = field(default_factory=list)
    cpu_ms_without_churn: list = field(default_factory=list)
    churn_runs: list = field(default_factory=list)
    live: bool = False  # served with a live carrier table (bench/live_carrier.py) added
    accept_encoding: str = ""  # sent as Accept-Encoding (the gzip rows)
    plain_row: str | None = None  # gzip rows: the name of the same row without it
    carrier_calls: int = 0  # live row: calls the fake carrier answered
    ceiling_rps: float = 0.0  # the constant view's req/s measured next to this row (report)


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


def _quote_check(expect: dict):
    def check(body) -> str | None:
        groups, errors = body.get("quoteGroups"), body.get("errorItems")
        if not isinstance(groups, list) or not isinstance(errors, list):
            return "no quoteGroups and errorItems lists"
        answered = {item["productId"] for group in groups for item in group["items"]}
        answered |= {item["productId"] for item in errors}
        if answered != set(expect["product_ids"]):
            return f"items {sorted(answered)} answered, {expect['product_ids']} asked"
        if any(not isinstance(group.get("shippingOptions"), list) for group in groups):
            return "a quote group without a shippingOptions list"
        return None

    return check


def _random_check(key: str, expect: dict):
    """The check of one sample path of a random-key row, from what bench/paths.py expects
    of its answer."""
    if key in {row_key for _, row_key in CATALOGUE_RANDOM_ROWS}:
        return _catalogue_check(key, expect)
    if key == "quote":
        return _quote_check(expect)
    if key == "upsell":
        return lambda body: None if body.get("upsellProduct") else "no upsellProduct"
    if key == "subtree":
        return lambda body: (
            None
            if body.get("current", {}).get("id") == expect["id"]
            else f"not category {expect['id']}"
        )
    if key in ("reviews", "comments"):
        # a page holds `count` registers: 20, or what remains on the last page
        return lambda body: _page(
            body, total=expect["total"], size=expect["count"], envelope=key == "reviews"
        )
    if key == "zipcode":
        return lambda body: None if body.get("data", {}).get("zipCode") else "no zipCode"
    if key == "similar":
        return partial(_similar_check, expect)
    raise ValueError(key)


def _similar_check(expect: dict, body) -> str | None:
    """At most 3 questions of the product, each followed by its staff answer; one at least
    when the text was drawn from an answered question."""
    registers = body.get("registers") if isinstance(body, dict) else None
    if not isinstance(registers, list) or len(registers) > 6 or len(registers) % 2:
        return "not a list of at most 3 questions, each with its answer"
    if any(register.get("productId") != expect["product"] for register in registers):
        return f"a register of another product than {expect['product']}"
    if expect["found"] and not registers:
        return "no question found for words of an answered one"
    return None


# Random-key rows: (name, key of bench/paths.py's lists).
RANDOM_ROWS = (
    ("quote, random cart and postal code", "quote"),
    ("cart upsell, random carts", "upsell"),
    ("category subtree, every category", "subtree"),
    ("product reviews, every product's pages", "reviews"),
    ("product comments, every product's pages", "comments"),
    ("zipcode, every imported code", "zipcode"),
    ("similar questions, random products and texts", "similar"),
)


LIVE_ROW = "quote with a live carrier"


def _live_check(expect: dict):
    """A random quote's check, plus: its groups carry the live carrier's options."""
    quote_check = _quote_check(expect)

    def check(body) -> str | None:
        problem = quote_check(body)
        for group in [] if problem else body["quoteGroups"]:
            live = [option for option in group["shippingOptions"] if option.get("row") is None]
            if not group.get("service") and not live:
                return "a quote group without a live carrier option"
        return problem

    return check


def with_gzip_rows(rows: list[Target]) -> list[Target]:
    """`rows`, each of GZIP_ROWS followed by its copy asking `Accept-Encoding: gzip`."""
    result = []
    for row in rows:
        result.append(row)
        if row.name in GZIP_ROWS and row.group != "churn":
            result.append(
                replace(
                    row,
                    name=row.name + GZIP_SUFFIX,
                    accept_encoding="gzip",
                    plain_row=row.name,
                    runs=[],
                    cpu_ms=[],
                    samples=list(row.samples),
                )
            )
    return result


def random_targets(manifest: dict) -> list[Target]:
    """The random-key rows, then the churn rows, then the live-carrier row (the random
    quote's paths, with a live table added just before it), from bench/paths.py's
    manifest."""

    def row(name: str, key: str, check, **fields) -> Target:
        """A row drawing its paths from the list of `key`; `check(expect)` checks a sample."""
        listed = manifest["rows"][key]
        samples = [(sample["path"], check(sample["expect"])) for sample in listed["samples"]]
        return Target(
            name,
            *samples[0],
            paths_file=listed["file"],
            paths=listed["paths"],
            samples=samples,
            **fields,
        )

    rows = [
        row(name, key, partial(_random_check, key), group="random") for name, key in RANDOM_ROWS
    ]
    rows += [
        row(
            name + CHURN_SUFFIX, key, partial(_random_check, key), group="churn", without_churn=name
        )
        for name, key in RANDOM_ROWS
        if name in CHURN_ROWS
    ]
    rows.append(row(LIVE_ROW, "quote", _live_check, group="random", live=True))
    return with_gzip_rows(rows)


def targets(dataset: dict) -> list[Target]:
    """The rows of the table, aimed at the data set's records (see bench/dataset)."""
    counts, ids = dataset["counts"], dataset["targets"]
    top, subtree = ids["top_product"], ids["subtree_category"]
    country, code = ids["postal"]
    items = [{"reference": f"sku-{i}", "value": 99.9 + 150 * i} for i in range(3)]

    def has(key):
        return lambda body: None if body.get(key) else f"no {key!r} in the answer"

    rows = [
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
            "product reviews, 100 of 299",
            q(f"/review/product?condition[productId]={top}&limit=100"),
            lambda body: _page(
                body, total=counts["top_product_reviews_approved"], size=100, envelope=True
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
    return with_gzip_rows(rows)


# --- The catalogue's random-key rows (issue 32): product page, listing, search, suggest ----
# (a block of its own: other rows are added above it)

GOALS.update(
    {
        "product page, random products": 0.85,
        "listing, random categories and attribute filters": 0.5,
        "search, random catalogue words (a fifth with a typo)": 0.3,
        "suggest, random prefixes of 3-5 letters": 0.5,
    }
)  # PostgreSQL + Redis: figures recorded, no goal set (issue 32)


def _listing_check(expect: dict):
    """A listing page: its registers, facets and total right for the data set."""

    def check(body) -> str | None:
        page = body.get("data") or {}
        registers, total = page.get("registers"), page.get("pagination", {}).get("registers")
        facets = page.get("facets") or {}
        if not isinstance(registers, list) or not isinstance(total, int):
            return "no page of registers"
        if set(facets) != {"categories", "brands", "attributes", "price"}:
            return f"facets {sorted(facets)}"
        if "total" in expect:
            wanted = min(20, expect["total"] - expect["offset"])
            if total != expect["total"] or len(registers) != wanted:
                return f"{len(registers)} of {total}, expected {wanted} of {expect['total']}"
            return None
        shown = {v["id"] for a in facets["attributes"] for v in a["values"]}
        if not set(expect["values"]) <= shown:
            return f"the selected values {expect['values']} are not all in the facets"
        return None if len(registers) == min(20, total) else f"{len(registers)} of {total}"

    return check


def _catalogue_check(key: str, expect: dict):
    if key == "product-page":
        return lambda body: (
            None if body.get("id") == expect["id"] and body.get("price") else "not that product"
        )
    if key == "listing":
        return _listing_check(expect)
    if key == "search":
        return lambda body: (
            "no page of registers"
            if not isinstance((body.get("data") or {}).get("registers"), list)
            else None
            if expect["typo"] or body["data"]["pagination"]["registers"]
            else "a catalogue word found nothing"
        )
    if key == "suggest":
        return lambda body: (
            None
            if list(body) == ["products", "categories", "brands", "searches"]
            and 1 <= len(body["products"]) <= 6
            else "not 1 to 6 products with categories, brands and searches"
        )
    raise ValueError(key)


CATALOGUE_RANDOM_ROWS = (
    ("product page, random products", "product-page"),
    ("listing, random categories and attribute filters", "listing"),
    ("search, random catalogue words (a fifth with a typo)", "search"),
    ("suggest, random prefixes of 3-5 letters", "suggest"),
)
RANDOM_ROWS = (*RANDOM_ROWS, *CATALOGUE_RANDOM_ROWS)  # random_targets() measures them too
