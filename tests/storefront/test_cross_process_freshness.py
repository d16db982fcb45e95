"""Every change seen by every process: a real gunicorn (two workers) serves the demo store
while another process writes through the ORM, as a `manage.py` command, an import or the
job worker does; the server's very next answers (from either worker) show the change.

Run without Redis (the embedded default: namespace versions in a file every process maps)
and with Redis when one answers on 127.0.0.1:6379. The database is a fresh SQLite file, or
a fresh PostgreSQL database when DATABASE_URL names a server (CI runs both).
"""

import json
import os
import secrets
import subprocess
import sys
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

import pytest

from .live_gunicorn import ROOT, free_port, serve

pytestmark = pytest.mark.cache

REDIS_URL = "redis://127.0.0.1:6379/15"
QUOTE = (
    "/publics/products/quote?targetCountryCode=BRA&targetZipCode=01310100"
    "&items%5B0%5D%5BproductId%5D={product}&items%5B0%5D%5Bquantity%5D=1"
)


def _redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=1).ping())
    except Exception:
        return False


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(  # noqa: S603 - fixed command line
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _admin_url(database_url: str, name: str) -> str:
    return urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """The demo store in a database of its own, and the environment its processes share."""
    folder = tmp_path_factory.mktemp("cross-process")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        {
            "HTTPS": "0",
            "SECRET_KEY": secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATA_DIR": str(folder / "data"),
            "PUBLIC_BASE_URL": "http://127.0.0.1",
        }
    )
    database_url = os.environ.get("DATABASE_URL", "")
    name = f"xproc_{secrets.token_hex(4)}"
    if database_url.startswith(("postgres://", "postgresql://")):
        import psycopg

        with psycopg.connect(_admin_url(database_url, "postgres"), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = _admin_url(database_url, name)
    _manage(env, "migrate", "--noinput", "-v0")
    _manage(env, "seed_demo")
    yield env
    if "DATABASE_URL" in env:
        import psycopg

        with psycopg.connect(_admin_url(database_url, "postgres"), autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module", params=["embedded", "redis"])
def server(request, store, tmp_path_factory):
    """(port, env) of a gunicorn with two workers over the store, without or with Redis."""
    env = dict(store)
    if request.param == "redis":
        if not _redis_answers():
            pytest.skip("No Redis server answers on 127.0.0.1:6379 (redis-server).")
        env["REDIS_URL"] = REDIS_URL
        env["CACHE_KEY_PREFIX"] = f"xproc-{secrets.token_hex(4)}"
    env["GUNICORN_WORKERS"] = "2"
    # the instance's origin, for product pages rendered ahead: served and read by the same
    # settings (the workers do not look for rows of origins they do not render)
    port = free_port()
    env["PAGES_AHEAD_ORIGINS"] = f"http://127.0.0.1:{port}"
    process, port = serve(tmp_path_factory.mktemp("gunicorn"), env, port=port)
    yield port, env
    process.terminate()
    process.wait(timeout=10)


def _answers(port: int, path: str, times: int = 6) -> list[dict]:
    """`times` answers to GET `path` (two sync workers: both are reached)."""
    found = []
    for _ in range(times):
        url = f"http://127.0.0.1:{port}{path}"
        with urllib.request.urlopen(url, timeout=10) as response:
            found.append(json.loads(response.read()))
    return found


def _write(env: dict[str, str], code: str) -> None:
    """Run ORM code in a process of its own, as a management command would."""
    _manage(env, "shell", "-c", code)


def _quote_item(answer: dict) -> dict:
    return answer["quoteGroups"][0]["items"][0]


def _product_id(env: dict[str, str]) -> int:
    code = "from catalog.models import Product; print(Product.objects.get(sku='DEMO-0026').pk)"
    return int(_manage(env, "shell", "-c", code).split()[-1])


# What changes: (URL, how to read it from an answer, ORM code changing it; `{token}` is a
# new text each time).
CHANGES = {
    "postal code": (
        "/shipping/zipcode/consult/BRA/01310-100",
        lambda answer: answer["data"]["publicPlace"],
        "from shipping.models import PostalCode\n"
        "p = PostalCode.objects.get(country='BRA', code='01310100')\n"
        "p.public_place = '{token}'\n"
        "p.save()",
    ),
    "shipping row": (
        QUOTE,
        lambda answer: answer["quoteGroups"][0]["shippingOptions"][0]["row"]["shippingValue"],
        "from shipping.models import ShippingRow\n"
        "for row in ShippingRow.objects.covering('01310100'):\n"
        "    row.shipping_value += 1\n"
        "    row.save()",
    ),
    "product price": (
        QUOTE,
        lambda answer: _quote_item(answer)["value"],
        "from catalog.models import ProductPrice, TradePolicy\n"
        "price = ProductPrice.objects.get(\n"
        "    product__sku='DEMO-0026', trade_policy=TradePolicy.objects.default())\n"
        "price.sale_price += 10\n"
        "price.save()",
    ),
    "stock": (
        "/review/product?condition%5BproductId%5D={product}&limit=1",
        lambda answer: answer["data"]["registers"][0]["product"]["stock"],
        "from catalog.models import Stock\n"
        "stock = Stock.objects.filter(product__sku='DEMO-0026').order_by('pk').first()\n"
        "stock.available += 5\n"
        "stock.save()",
    ),
    "category name": (
        "/publics/products/categories/tree",
        lambda answer: answer[0]["name"],
        "from catalog.selectors import category_tree_get\n"
        "from catalog.models import Category\n"
        "c = Category.objects.get(pk=category_tree_get()[0]['id'])\n"
        "c.name = '{token}'\n"
        "c.save()",
    ),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_by_another_process_shows_in_the_next_answer(server, change):
    port, env = server
    path, read, code = CHANGES[change]
    path = path.format(product=_product_id(env))
    before = {read(answer) for answer in _answers(port, path)}
    assert len(before) == 1  # both workers answer the same, from their caches
    token = f"Changed {secrets.token_hex(3)}"
    _write(env, code.format(token=token))
    after = {read(answer) for answer in _answers(port, path)}
    assert len(after) == 1
    assert after != before
    if "{token}" in code:
        assert after == {token}


def test_a_review_approved_by_another_process_shows_in_the_next_answer(server):
    port, env = server
    product = _product_id(env)
    path = f"/review/product?condition%5BproductId%5D={product}&limit=100"
    pending = _manage(
        env,
        "shell",
        "-c",
        "from feedback.models import ProductReview; "
        f"r = ProductReview.objects.filter(product_id={product}, active=False).first(); "
        f"r = r or ProductReview.objects.filter(product_id={product}).first(); "
        "r.active = False; r.save(); print(r.pk)",
    ).split()[-1]
    before = _answers(port, path)
    assert all(int(pending) not in {r["id"] for r in a["data"]["registers"]} for a in before)
    _write(
        env,
        "from feedback.models import ProductReview; "
        f"r = ProductReview.objects.get(pk={pending}); r.active = True; r.save()",
    )
    after = _answers(port, path)
    assert all(int(pending) in {r["id"] for r in a["data"]["registers"]} for a in after)


def _wrong_login(port: int, email: str) -> int:
    body = json.dumps({"email": email, "password": "not the password"}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/publics/customers/login",
        data=body,
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_sign_in_limit_holds_across_processes(server, tmp_path):
    # given a second server process beside the first, over the same store
    port, env = server
    process, other_port = serve(tmp_path, {**env, "GUNICORN_WORKERS": "1"})
    try:
        # when wrong sign-ins for one e-mail alternate between them (limit: 5 a minute)
        email = f"{secrets.token_hex(4)}@example.com"
        statuses = [_wrong_login(each, email) for each in [port, other_port] * 4]
    finally:
        process.terminate()
        process.wait(timeout=10)
    # then the limit counts every attempt once, whichever process answered
    assert statuses == [401] * 5 + [429] * 3


def _statuses(port: int, path: str, times: int = 6) -> set[int]:
    found = set()
    for _ in range(times):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
                found.add(response.status)
        except urllib.error.HTTPError as exc:
            found.add(exc.code)
    return found


def test_the_product_page_and_listing_follow_another_process(server):
    # given a product's page and the listing of its category, answered by both workers
    port, env = server
    code = (
        "from catalog.models import Product; p = Product.objects.get(sku='DEMO-0027'); "
        "print(p.pk, p.main_category_id)"
    )
    product, category = map(int, _manage(env, "shell", "-c", code).split()[-2:])
    page = f"/publics/products/{product}"
    listing = f"/publics/products?condition%5BcategoryId%5D={category}&limit=100"

    def register(answer: dict) -> dict | None:
        return next((r for r in answer["data"]["registers"] if r["id"] == product), None)

    def seen() -> tuple[set, set]:
        pages = {json.dumps(a, sort_keys=True) for a in _answers(port, page)}
        registers = {json.dumps(register(a), sort_keys=True) for a in _answers(port, listing)}
        assert len(pages) == len(registers) == 1  # both workers answer the same
        return json.loads(pages.pop()), json.loads(registers.pop())

    family = "Q(product__sku='DEMO-0027') | Q(product__parent__sku='DEMO-0027')"
    steps = {
        "renamed": (
            "from catalog.models import Product\n"
            "p = Product.objects.get(sku='DEMO-0027')\n"
            "p.name = '{token}'\n"
            "p.save()",
            lambda page, row, token: page["name"] == row["name"] == token,
        ),
        "repriced": (
            "from catalog.models import ProductPrice, TradePolicy\n"
            "price = ProductPrice.objects.get(\n"
            "    product__sku='DEMO-0027', trade_policy=TradePolicy.objects.default())\n"
            "price.sale_price += 10\n"
            "price.save()",
            None,
        ),
        "restocked": (
            "from django.db.models import Q\n"
            "from catalog.models import Stock\n"
            f"stock = Stock.objects.filter({family}).order_by('pk').first()\n"
            "stock.available += 5\n"
            "stock.save()",
            None,
        ),
    }
    for name, (change, check) in steps.items():
        before = seen()
        token = f"Changed {secrets.token_hex(3)}"
        _write(env, change.format(token=token))
        after_page, after_row = seen()
        if check is not None:
            assert check(after_page, after_row, token), name
        elif name == "repriced":
            assert after_page["price"]["salePrice"] == after_row["price"]["salePrice"]
            assert after_row["price"]["salePrice"] > before[1]["price"]["salePrice"], name
        else:
            assert after_page["stock"]["availableStock"] == before[0]["stock"]["availableStock"] + 5
            assert after_row["stock"] == before[1]["stock"] + 5, name
    # deactivated: 404 and out of the listing; active again: back
    deactivate = "from catalog.models import Product\np = Product.objects.get(sku='DEMO-0027')\n"
    _write(env, deactivate + "p.active = False\np.save()")
    try:
        assert _statuses(port, page) == {404}
        assert all(register(a) is None for a in _answers(port, listing))
    finally:
        _write(env, deactivate + "p.active = True\np.save()")
    assert _statuses(port, page) == {200}
    assert all(register(a) is not None for a in _answers(port, listing))


def test_a_page_rendered_ahead_by_the_worker_follows_another_process(server):
    # given every product page rendered ahead by another process (the jobs worker's upkeep)
    port, env = server
    code = (
        "from catalog.models import Product\n"
        "p = Product.objects.filter(active=True, show_in_site=True, parent=None).last()\n"
        "print(p.pk, p.sku)"
    )
    product, sku = _manage(env, "shell", "-c", code).split()[-2:]
    product = int(product)
    page = f"/publics/products/{product}"
    listing = f"/publics/products?q={sku}"  # its summary: rendered ahead too
    assert "rendered" in _manage(env, "render_pages_ahead")

    def listed() -> set[str]:
        return {r["name"] for a in _answers(port, listing) for r in a["data"]["registers"][:1]}

    def seen() -> tuple[set[str], set[str]]:
        names, sources = set(), set()
        for _ in range(6):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{page}", timeout=10) as answer:
                names.add(json.loads(answer.read())["name"])
                sources.add(answer.headers["X-Cache"])
        return names, sources

    # then both workers answer from the row, without rendering the page
    before, sources = seen()
    assert len(before) == 1 and sources == {"hit"}
    assert listed() == before
    # when another process renames the product
    token = f"Changed {secrets.token_hex(3)}"
    rename = f"p = Product.objects.get(pk={product})\np.name = '{token}'\np.save()"
    _write(env, "from catalog.models import Product\n" + rename)
    # then the next answers of both workers show it (the rows are stale: not served)
    assert seen()[0] == {token} and listed() == {token}
    # and the next pass renders it again: a process that kept nothing serves the new row
    assert "rendered" in _manage(env, "render_pages_ahead")
    assert seen()[0] == {token} and listed() == {token}


def test_search_and_suggest_follow_another_process(server):
    # given a product renamed by another process to a word nothing else has
    port, env = server
    code = "from catalog.models import Product; print(Product.objects.get(sku='DEMO-0028').pk)"
    product = int(_manage(env, "shell", "-c", code).split()[-1])
    word = f"quimera{secrets.token_hex(3)}"
    search = f"/publics/products?q={word}s"  # a plural finds the singular
    suggest = f"/publics/products/suggest?q={word[:-2]}"  # the last word as a prefix

    def found() -> tuple[list[list[int]], list[list[int]]]:
        listed = [[r["id"] for r in a["data"]["registers"]] for a in _answers(port, search)]
        suggested = [[p["id"] for p in a["products"]] for a in _answers(port, suggest)]
        return listed, suggested

    assert found() == ([[]] * 6, [[]] * 6)  # answered (and kept) by both workers
    rename = "from catalog.models import Product\np = Product.objects.get(sku='DEMO-0028')\n"
    original = _manage(env, "shell", "-c", rename + "print(p.name)").strip().splitlines()[-1]
    _write(env, rename + f"p.name = 'Caneca {word}'\np.save()")
    try:
        assert found() == ([[product]] * 6, [[product]] * 6)
        _write(env, rename + "p.active = False\np.save()")
        assert found() == ([[]] * 6, [[]] * 6)
        _write(env, rename + "p.active = True\np.save()")
        assert found() == ([[product]] * 6, [[product]] * 6)
    finally:
        _write(env, rename + f"p.name = {original!r}\np.active = True\np.save()")


def test_another_process_s_product_changes_patch_each_worker_s_catalogue(server, tmp_path):
    # given a server of two workers logging how they keep the listing's catalogue
    _, env = server
    log = tmp_path / "gunicorn.log"
    process, port = serve(tmp_path, {**env, "GUNICORN_WORKERS": "2", "LOG_LEVEL": "DEBUG"}, log)
    code = (
        "from catalog.models import Product; p = Product.objects.get(sku='DEMO-0029'); "
        "print(p.pk, p.main_category_id)"
    )
    product, category = map(int, _manage(env, "shell", "-c", code).split()[-2:])
    listing = f"/publics/products?condition%5BcategoryId%5D={category}&limit=100"
    word = f"grifo{secrets.token_hex(3)}"

    def row(query: str = listing) -> set[str]:
        found = set()
        for answer in _answers(port, query):
            register = next((r for r in answer["data"]["registers"] if r["id"] == product), None)
            found.add(json.dumps(register and [register[k] for k in ("name", "price", "stock")]))
        return found

    select = "from catalog.models import Product\np = Product.objects.get(sku='DEMO-0029')\n"
    family = "Q(product__sku='DEMO-0029') | Q(product__parent__sku='DEMO-0029')"
    try:
        assert len(row()) == 1  # both workers built their catalogue and answer alike
        for change in (
            select + f"p.name = 'Luminária {word}'\np.save()",
            "from catalog.models import ProductPrice, TradePolicy\n"
            "price = ProductPrice.objects.get(\n"
            "    product__sku='DEMO-0029', trade_policy=TradePolicy.objects.default())\n"
            "price.sale_price += 7\n"
            "price.save()",
            "from django.db.models import Q\nfrom catalog.models import Stock\n"
            f"stock = Stock.objects.filter({family}).order_by('pk').first()\n"
            "stock.available += 3\nstock.save()",
        ):
            before = row()
            _write(env, change)
            after = row()
            assert len(after) == 1 and after != before, change  # the next answers show it
        [found] = map(json.loads, row(f"/publics/products?q={word}"))
        assert found[0] == f"Luminária {word}"  # found by its new name
        _write(env, select + "p.active = False\np.save()")
        assert row() == {"null"}  # out of the listing of both workers
    finally:
        _write(env, select + "p.active = True\np.save()")
        process.terminate()
        process.wait(timeout=10)
    # then each worker built its catalogue once at most, and each change was patched in (with
    # Redis one worker may serve the other's kept answer, and a worker's first build may
    # come after a change: the first build, then one build or patch per change at least)
    lines = [line for line in log.read_text().splitlines() if "Catalogue" in line]
    built = sum("Catalogue built" in line for line in lines)
    patched = sum("Catalogue patched" in line for line in lines)
    assert 1 <= built <= 2 and patched >= 3 and built + patched >= 5, lines
