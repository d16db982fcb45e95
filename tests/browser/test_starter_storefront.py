"""The starter storefront (/demo/storefront/, clients/storefront; issue 33) in headless chromium,
at 360 px (a phone) and at 1366 px (a laptop), against the demo store served as `make run`
serves it (tests/storefront/live_demo.py).

Every part shows the demo store's real data: what each check expects is read from the API
in the test (names, prices, installments, freight options and dates, reviews, questions, the
upsell offer), never written here. A question asked through the page's form reaches the
moderation queue (a pending comment in the database and in the admin's changelist) and not
the public list. No page overflows sideways, no request fails (the network events of the
performance log) and nothing is logged as an error in the console.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.request
import uuid
from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from .conftest import CHROMEDRIVER, CHROMIUM, MISSING

pytestmark = [pytest.mark.browser, pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]

WAIT_SECONDS = 15
PAGE_SIZE, REVIEWS_PER_PAGE, QUESTIONS_PER_PAGE = 12, 5, 10
POSTAL_CODE = "01310-100"  # a code the demo's shipping tables serve (docs/api.md)


@pytest.fixture(scope="module")
def chromium():
    from .admin_pages import start_chromium

    assert CHROMIUM and CHROMEDRIVER
    driver = start_chromium(CHROMIUM, CHROMEDRIVER, logs=True)
    yield driver
    driver.quit()


class Shop:
    """The storefront in chromium, and the API it calls, both of the demo server."""

    def __init__(self, driver, base_url: str, width: int):
        self.driver, self.base_url, self.width = driver, base_url, width
        # The viewport `width` px wide (a desktop one: chromedriver's clicks miss their target
        # in a scrolled page under mobile emulation; its scroll bar makes it a little narrower).
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False},
        )
        self.failures: list[str] = []
        self.urls: dict[str, str] = {}  # request id -> its URL, to name a failed one
        self.answers = 0  # responses the network log saw (it is on, and read)

    def api(self, path: str, body: dict | None = None):
        return api(self.base_url, path, body)

    # --- the page ----------------------------------------------------------------------------
    def open(self, fragment: str) -> None:
        """The storefront at `fragment`: loaded once, then moved within as its links do (asked to
        load the address it shows, chromium reloads the document, and a reload cut short by the
        next step is a failed request that no shopper makes)."""
        page = f"{self.base_url}/demo/storefront/"
        if self.driver.current_url.split("#")[0] == page:
            self.driver.execute_script("window.location.hash = arguments[0]", fragment)
        else:
            self.driver.get(page + fragment)

    def until(self, condition, message: str):
        # an element the page draws again between finding and reading it is read again
        wait = WebDriverWait(
            self.driver, WAIT_SECONDS, ignored_exceptions=(StaleElementReferenceException,)
        )
        return wait.until(lambda _: condition(), message)

    def texts(self, css: str) -> list[str]:
        return [text(element) for element in self.driver.find_elements(By.CSS_SELECTOR, css)]

    def first(self, css: str):
        return self.until(lambda: self.driver.find_elements(By.CSS_SELECTOR, css)[0:1], css)[0]

    def shows(self, css: str, expected: list[str]) -> None:
        """Waits until the elements of `css` show exactly `expected`, in order."""
        try:
            self.until(lambda: self.texts(css) == expected, css)
        except Exception:
            assert self.texts(css) == expected  # the difference, in pytest's words
            raise

    def hover(self, css: str) -> None:
        """The pointer over the first element of `css`, found again if the page drew it anew
        between finding it and moving there."""

        def moved() -> bool:
            found = self.driver.find_elements(By.CSS_SELECTOR, css)
            if found:
                ActionChains(self.driver).move_to_element(found[0]).perform()
            return bool(found)

        self.until(moved, css)

    def click(self, element) -> None:
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()

    def open_details(self, css: str) -> None:
        """A <details> closed on a phone (the menu, the filters): opened as a shopper would."""
        details = self.first(css)
        if details.get_attribute("open") is None:
            self.click(details.find_element(By.TAG_NAME, "summary"))

    def fits(self, where: str) -> None:
        scroll, client = self.driver.execute_script(
            "const root = document.documentElement; return [root.scrollWidth, root.clientWidth];"
        )
        assert scroll <= client, f"{where}: {scroll} px wide at {self.width} px"

    def collect_logs(self) -> None:
        """Failed requests and console errors since the last call (the logs are drained)."""
        for entry in self.driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                self.failures.append(f"console: {entry['message']}")
        for entry in self.driver.get_log("performance"):
            event = json.loads(entry["message"])["message"]
            params = event.get("params", {})
            if event["method"] == "Network.requestWillBeSent":
                self.urls[params["requestId"]] = params["request"]["url"]
            elif event["method"] == "Network.responseReceived":
                self.answers += 1
                response = params["response"]
                if response["status"] >= 400:
                    self.failures.append(f"{response['status']} {response['url']}")
            elif event["method"] == "Network.loadingFailed":
                url = self.urls.get(params.get("requestId"), "?")
                kind = f"{params.get('errorText')} {params.get('type')}"
                self.failures.append(f"failed: {kind} {url}")


def api(base_url: str, path: str, body: dict | None = None):
    """An answer of the demo's API (the payload, out of the success envelope)."""
    request = urllib.request.Request(  # noqa: S310 - the demo server on 127.0.0.1
        base_url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        answer = json.loads(response.read())
    return answer["data"] if isinstance(answer, dict) and answer.get("status") is True else answer


def text(element) -> str:
    return " ".join(element.text.replace("\xa0", " ").split())


def brl(value) -> str:
    """As Intl.NumberFormat("pt-BR", {style: "currency", currency: "BRL"}) writes it."""
    digits = f"{Decimal(str(value)):,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")
    return f"R$ {digits}"


def day(iso: str) -> str:
    return date.fromisoformat(iso[:10]).strftime("%d/%m")


def every_page(base_url: str, path: str) -> list[dict]:
    registers, offset = [], 0
    while True:
        page = api(base_url, f"{path}&limit=100&offset={offset}")
        registers += page["registers"]
        offset += 100
        if offset >= page["pagination"]["registers"]:
            return registers


@pytest.fixture(scope="module")
def demo(demo_server):
    """What the test picks from the demo store through its API (never a fixed id)."""
    url = demo_server.url
    reviews = Counter(r["productId"] for r in every_page(url, "/review/product?fields=productId"))
    comments = every_page(url, "/publics/products/comments?fields=productId,parentCommentId")
    answered = {c["productId"] for c in comments if c["parentCommentId"] is not None}
    # reviews over two pages, an answered question, in stock (the freight quote)
    candidates = [
        product
        for product, count in reviews.most_common()
        if count > REVIEWS_PER_PAGE
        and product in answered
        and api(url, f"/publics/products/{product}?fields=stock")["stock"]["availableStock"] > 0
    ]
    assert candidates, "the demo has no product in stock with 6 reviews and an answered question"
    # the product whose presence in the cart brings the demo's cart offer (demo/data)
    from demo import load_data

    trigger_sku = load_data("marketing")["upsell_skus"]["cart-trigger"]
    (trigger,) = api(url, f"/publics/products?q={trigger_sku}&fields=id,sku")["registers"][:1]
    assert trigger["sku"] == trigger_sku
    return {"reviewed": candidates[0], "offer_trigger": trigger["id"]}


@pytest.mark.parametrize("width", [360, 1366])
def test_the_starter_storefront_shows_the_demo_store(chromium, demo_server, demo, width):
    shop = Shop(chromium, demo_server.url, width)
    shop.driver.get(f"{demo_server.url}/")  # the demo's home: the origin, without the storefront
    shop.driver.execute_script("localStorage.clear()")  # an empty cart (the other width filled it)
    shop.collect_logs()  # from here on

    # --- the category menu: the tree's root categories, their children inside -------------
    tree = shop.api("/publics/products/categories/tree")
    shop.open("#/")
    shop.until(lambda: shop.texts("h1") == ["Todos os produtos"], "the home page")
    shop.open_details(".menu")
    shop.shows(".menu .nivel-1 > li > a", [node["name"] for node in tree])
    shop.fits("home page")
    root = tree[0]
    shop.click(shop.first(f'.menu a[href="#/categoria/{root["id"]}"]'))
    shop.hover("h1")  # off the menu

    # --- the category page: products, prices, facets, then a brand ticked ------------------
    listing = shop.api(f"/publics/products?condition[categoryId]={root['id']}&limit={PAGE_SIZE}")
    shop.until(lambda: shop.texts("h1") == [root["name"]], "the category page")
    shop.shows(".grade .nome", [p["name"] for p in listing["registers"]])
    shop.shows(".grade .preco-por", [brl(p["price"]["salePrice"]) for p in listing["registers"]])
    pages = listing["pagination"]["pages"]
    assert pages > 1, "the demo's first category fits one page: the pager is not seen"
    assert f"Página 1 de {pages}" in shop.texts(".resultados .paginas span")
    shop.open_details(".filtros")
    facets = listing["facets"]
    labels = shop.texts(".filtros label")
    for brand in facets["brands"]:
        assert f"{brand['name']} ({brand['count']})" in labels
    for value in (v for attribute in facets["attributes"] for v in attribute["values"]):
        assert f"{value['label']} ({value['count']})" in labels
    assert [c["name"] for c in facets["categories"]] == shop.texts(".filtros fieldset li a")
    shop.fits("category page")
    brand = facets["brands"][0]
    shop.click(shop.first('.filtros input[name="marca"]'))  # the first brand
    by_brand = shop.api(
        f"/publics/products?condition[categoryId]={root['id']}"
        f"&condition[brandId][in]={brand['id']}&limit={PAGE_SIZE}"
    )
    shop.shows(".grade .nome", [p["name"] for p in by_brand["registers"]])
    shop.collect_logs()

    # --- search: suggestions as one types, then the results -------------------------------
    words = "cami"
    suggest = shop.api(f"/publics/products/suggest?q={words}")
    box = shop.first('#busca input[name="q"]')
    box.clear()
    box.send_keys(words)
    shop.shows(
        ".sugestoes .sugestao-produto span:first-child", [p["name"] for p in suggest["products"]]
    )
    for category in suggest["categories"]:
        assert category["name"] in shop.texts(".sugestoes a")
    shop.fits("suggestions")
    box.send_keys(Keys.ENTER)
    found = shop.api(f"/publics/products?q={quote(words)}&limit={PAGE_SIZE}")
    shop.until(lambda: shop.texts("h1") == [f"Resultados para “{words}”"], "the search results")
    shop.shows(".grade .nome", [p["name"] for p in found["registers"]])
    shop.collect_logs()

    # --- a product page: photos, price, installments, freight, reviews, questions ---------
    product_id = demo["reviewed"]
    product = shop.api(f"/publics/products/{product_id}")
    shop.open(f"#/produto/{product_id}")
    shop.until(lambda: shop.texts("h1") == [product["name"]], "the product page")
    shop.shows(".produto-info .preco-por", [brl(product["price"]["salePrice"])])
    photo = shop.first(".galeria img.foto")
    assert photo.get_attribute("src") == product["medias"][0]["url"]
    shop.until(
        lambda: shop.driver.execute_script("return arguments[0].naturalWidth", photo) > 0, "photo"
    )
    (condition,) = shop.api(
        "/publics/payments/conditions",
        {"items": [{"reference": product["sku"], "value": product["price"]["salePrice"]}]},
    )
    discount = condition["cashDiscount"]
    shop.shows(".a-vista", [f"{brl(discount['valueWithDiscount'])} à vista "
                            f"({discount['discountPercentage']:g}% de desconto)"])  # fmt: skip
    free = [i for i in condition["installments"] if i["fee"] == 0 and i["installment"] > 1][-1]
    assert shop.texts(".pagamento .parcelas") == [
        f"ou {free['installment']}x de {brl(free['installmentValue'])} sem juros"
    ]
    shop.open_details(".tabela-parcelas")
    shop.shows(
        ".tabela-parcelas tbody td:first-child",
        [f"{i['installment']}x de {brl(i['installmentValue'])}" for i in condition["installments"]],
    )

    # the postal-code box: the quote's options, cheapest first, with their dates
    shop.first('input[name="cep"]').send_keys(POSTAL_CODE)
    quote_answer = shop.api(
        f"/publics/products/quote?targetZipCode={POSTAL_CODE}&targetCountryCode=BRA"
        f"&items[0][productId]={product_id}&items[0][quantity]=1&deliveryDates=true"
    )
    shop.click(shop.first(".frete button"))
    options = sorted(
        (o for g in quote_answer["quoteGroups"] for o in g["shippingOptions"]),
        key=lambda option: option["value"],
    )
    assert options, "the demo quotes no option to " + POSTAL_CODE
    expected = []
    for option in options:
        dates = option["deliveryEstimate"]
        when = (
            f"retire a partir de {day(dates['readyOn'])}"
            if dates["readyOn"]
            else f"chega em {day(dates['maxDate'])}"
            if dates["minDate"] == dates["maxDate"]
            else f"chega entre {day(dates['minDate'])} e {day(dates['maxDate'])}"
        )
        carrier = option["label"]
        if not carrier.startswith(option["carrierName"]):
            carrier = f"{option['carrierName']} {carrier}"
        expected.append(f"{carrier} {brl(option['value'])} {when}")
    shop.shows(".opcao-frete", expected)
    shop.fits("product page")

    # reviews: newest first, five a page, with their stars; the second page
    def review_page(offset: int) -> dict:
        return shop.api(
            f"/review/product?condition[productId]={product_id}&order=-createdAt"
            f"&limit={REVIEWS_PER_PAGE}&offset={offset}"
        )

    first_page = review_page(0)
    shop.shows(".avaliacao strong", [r["name"] for r in first_page["registers"]])
    assert [s.get_attribute("aria-label") for s in shop.driver.find_elements(
        By.CSS_SELECTOR, ".avaliacao .estrelas")] == [
        f"{r['score']} de 5 estrelas" for r in first_page["registers"]
    ]  # fmt: skip
    assert f"Página 1 de {first_page['pagination']['pages']}" in shop.texts(
        ".avaliacoes .paginas span"
    )
    shop.click(shop.first(".avaliacoes .paginas button:last-of-type"))
    shop.shows(".avaliacao strong", [r["name"] for r in review_page(REVIEWS_PER_PAGE)["registers"]])

    # questions and their approved answers
    questions = shop.api(
        f"/publics/products/comments?condition[productId]={product_id}"
        f"&condition[parentCommentId][isNull]=true&order=-createdAt&limit={QUESTIONS_PER_PAGE}"
    )["registers"]
    shop.shows(".pergunta > p > strong", [q["message"] for q in questions])
    answered = [q for q in questions if q["totalReplies"] > 0]
    replies = shop.api(
        f"/publics/products/comments?condition[parentCommentId][in]={answered[0]['id']}"
    )["registers"]
    assert replies and all(r["message"] in shop.texts(".resposta p") for r in replies)

    # asking a question: it waits for the store's approval
    asked = f"Serve para presente? Pergunta de teste {width} px {uuid.uuid4().hex[:8]}"
    shop.first('input[name="customerName"]').send_keys("Cliente de Teste")
    shop.first('input[name="customerEmail"]').send_keys("cliente.teste@example.com")
    shop.first('textarea[name="message"]').send_keys(asked)
    shop.click(shop.first(".perguntar button[type=submit]"))
    shop.until(lambda: "Obrigado!" in text(shop.first(".aviso-form")), "the question was sent")
    shop.fits("product page, question sent")
    shop.collect_logs()
    pending = moderation_queue(demo_server, asked)
    assert pending == [(product_id, 0)]  # one comment, of this product, not approved
    public = shop.api(f"/publics/products/comments?condition[productId]={product_id}&limit=100")
    assert asked not in [c["message"] for c in public["registers"]]

    # --- a product with variations and photos; into the cart, and the cart's offer --------
    trigger = shop.api(f"/publics/products/{demo['offer_trigger']}")
    shop.open(f"#/produto/{trigger['id']}")
    shop.until(lambda: shop.texts("h1") == [trigger["name"]], "the offer's trigger product")
    thumbnails = shop.driver.find_elements(By.CSS_SELECTOR, ".miniaturas button")
    assert len(thumbnails) == len(trigger["medias"]) > 1
    shop.click(thumbnails[1])
    assert shop.first(".galeria img.foto").get_attribute("src") == trigger["medias"][1]["url"]
    combination = next(c for c in trigger["variations"]["combinations"] if c["stock"] > 0)
    Select(shop.first('select[name="variacao"]')).select_by_value(str(combination["productId"]))
    shop.click(shop.first(".comprar button[type=submit]"))
    shop.until(lambda: shop.texts("#carrinho-quantidade") == ["1"], "the cart's count")
    shop.click(shop.first('.aviso-carrinho a[href="#/carrinho"]'))
    shop.shows(".item a", [combination["name"]])
    shop.shows(".subtotal strong", [brl(trigger["price"]["salePrice"])])
    upsell = shop.api(f"/cart/upsell/cart?variationMap[{trigger['id']}]={combination['productId']}")
    offered = upsell["upsellProduct"]
    shop.shows(".upsell h2", [upsell["displayTitle"]])
    shop.shows(".upsell .nome", [offered["name"]])
    shop.shows(".upsell .preco-por", [brl(offered["price"]["salePrice"])])
    shop.shows(".upsell .preco-de", [brl(offered["originalPrice"]["salePrice"])])
    shop.fits("cart")
    shop.click(shop.first(".upsell button"))
    shop.shows(".item a", [combination["name"], offered["name"]])
    total = Decimal(str(trigger["price"]["salePrice"])) + Decimal(
        str(offered["price"]["salePrice"])
    )
    shop.shows(".subtotal strong", [brl(total)])
    shop.fits("cart with the offer")

    shop.collect_logs()
    assert shop.failures == []
    assert shop.answers > 30  # the pages, their script, style, photos and API calls

    # --- the question asked above, in the admin's moderation queue ---------------------------
    shop.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    sign_in_to_the_admin(shop, demo_server)
    shop.driver.get(f"{demo_server.url}/admin/feedback/comment/?active__exact=0&q={quote(asked)}")
    rows = shop.driver.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
    where = f"{shop.driver.current_url}: {shop.driver.title}"
    assert len(rows) == 1 and asked in rows[0].get_attribute("innerHTML"), where


def sign_in_to_the_admin(shop: Shop, demo_server) -> None:
    """As the demo's staff user (`make run` prints its password; kept in DATA_DIR)."""
    password = (Path(demo_server.env["DATA_DIR"]) / "demo-admin-password.txt").read_text()
    shop.driver.get(f"{demo_server.url}/admin/login/?next=/admin/")
    if not shop.driver.find_elements(By.NAME, "username"):
        return  # signed in already (the other width)
    shop.first('input[name="username"]').send_keys("admin")
    shop.first('input[name="password"]').send_keys(password.strip())
    shop.click(shop.first('#login-form [type="submit"]'))
    shop.until(lambda: shop.driver.current_url.endswith("/admin/"), "signed in")


def moderation_queue(demo_server, message: str) -> list[tuple[int, int]]:
    """The comments with `message` in the demo's database: (product id, active)."""
    database = Path(demo_server.env["DATA_DIR"]) / "db.sqlite3"
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return connection.execute(
            "SELECT product_id, active FROM feedback_comment WHERE message = ?", (message,)
        ).fetchall()
