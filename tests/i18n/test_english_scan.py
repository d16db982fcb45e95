"""No English left where staff read (issue 20, item 6).

A superuser signs in to the admin with `Accept-Language: pt-BR` and the language cookie
`pt-br`, opens every admin page (the index, every app index, every registered model's change
list, add form and the change form of one record, the project's custom views) and the home
page `/`, and the visible text of each page is searched for English strings: the msgids of
every pt-BR catalogue the pages can draw on (the project's `locale/`, Django's, each installed
app's) whose translation differs from the msgid.

False positives kept out:
- msgids translated to themselves, or to which any catalogue translates a string ("Status",
  "SKU", "Marketing"), are Portuguese too: not looked for;
- a one-word msgid ("Yes", "product") must be a whole text, capitalised (headers, badges,
  buttons) or ending in ":" (a field's label): a word inside data ("Camiseta Basic") or a
  lower-case code ("default", a queue's name) is not a label; words of fewer than 3 letters
  ("No", "OK") and one-word msgids with a placeholder are not looked for;
- a longer msgid is looked for as a phrase (placeholders match anything) between non-letters;
- text in `<script>`, `<style>`, `<pre>`, `<code>`, `<textarea>` (data, payloads) and in any
  element whose `lang` names another language (the switcher's "English") is not read.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import django
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst

from catalog.models import BackInStockSettings, TradePolicy
from jobs.services import email_enqueue
from tests.catalog.factories import (
    AttributeValueFactory,
    PriceRuleFactory,
    ProductDescriptionFactory,
    ProductFactory,
    ProductInterestFactory,
    ProductMediaFactory,
    ProductPriceFactory,
    StockFactory,
    VariationFactory,
)
from tests.feedback.factories import (
    CommentFactory,
    ProductReviewFactory,
    ReplyFactory,
    SalesChannelReviewFactory,
)
from tests.marketing.factories import BannerFactory, UpsellFactory
from tests.shipping.factories import PickupFactory, PostalCodeFactory, ShippingRowFactory
from tests.storefront.factories import CustomerFactory, PaymentOptionFactory
from webhooks.models import Endpoint
from webhooks.services import deliveries_create

CATALOGUE = Path("pt_BR") / "LC_MESSAGES" / "django.mo"  # what Django reads
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[sdfi]|\{\w*\}")
MIN_WORD_LETTERS = 3
PASSWORD = "senha-de-teste-1234"
# Installed apps with admin pages and no pt_BR catalogue: storefront/third_party.py.
APPS_WITHOUT_PORTUGUESE = ("axes", "django_tasks", "django_tasks_db")
GETTEXT_KEYWORDS = {
    name: spec
    for names, spec in (
        (("_", "gettext", "gettext_lazy", "gettext_noop"), None),
        (("ngettext", "ngettext_lazy"), (1, 2)),
        (("pgettext", "pgettext_lazy"), ((1, "c"), 2)),
        (("npgettext", "npgettext_lazy"), ((1, "c"), 2, 3)),
    )
    for name in names
}


# --- The English strings looked for ----------------------------------------------------------


def catalogue_paths() -> list[Path]:
    """The pt-BR catalogues of the project, of Django and of every installed app."""
    roots = [Path(path) for path in settings.LOCALE_PATHS]
    roots.append(Path(django.__file__).parent / "conf" / "locale")
    roots += [Path(config.path) / "locale" for config in apps.get_app_configs()]
    return [root / CATALOGUE for root in dict.fromkeys(roots) if (root / CATALOGUE).is_file()]


def catalogue_entries(mo_path: Path, *, context: bool = False):
    """(msgids, translations) of each translated message of `mo_path` (with its context
    first when asked)."""
    with mo_path.open("rb") as stream:
        catalogue = read_mo(stream)
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        if any(strings):
            entry = (ids, [string for string in strings if string])
            if not context:
                yield entry
            elif isinstance(message.context, bytes):  # as Babel's read_mo leaves it
                yield (message.context.decode(), *entry)
            else:
                yield (message.context, *entry)


@dataclass(frozen=True)
class Phrase:
    msgid: str
    word: str  # its longest literal word: only texts with this word are searched
    pattern: re.Pattern


def _normalised(text: str) -> str:
    text = re.sub(r"<[^>]+>", "", text.replace("%%", "%"))  # tags are not text
    return " ".join(text.split())


@cache
def english_strings() -> tuple[dict[str, str], dict[str, list[Phrase]]]:
    """(whole texts -> msgid, longest word -> phrases) of every catalogue's English."""
    whole: dict[str, str] = {}
    phrases: dict[str, list[Phrase]] = {}
    entries = [entry for path in catalogue_paths() for entry in catalogue_entries(path)]
    # Portuguese in some catalogue ("Status", "Total", "Marketing"): not English left over.
    portuguese = {_normalised(string).lower() for _ids, strings in entries for string in strings}
    for ids, _strings in entries:
        for msgid in ids:
            text = _normalised(msgid)
            if text.lower() in portuguese:
                continue
            static = [part for part in PLACEHOLDER.split(text) if part.strip()]
            words = re.findall(r"[A-Za-z]+", " ".join(static))
            if len(words) < 2:
                if PLACEHOLDER.search(text) or not words or len(words[0]) < MIN_WORD_LETTERS:
                    continue  # "from %(low)s", "No", "#": too little to recognise
                whole.setdefault(capfirst(text), msgid)
                continue
            variants = {
                ".+?".join(re.escape(part) for part in PLACEHOLDER.split(variant))
                for variant in (text, capfirst(text))
            }
            pattern = re.compile(r"(?<![A-Za-z])(?:" + "|".join(variants) + r")(?![A-Za-z])")
            word = max(words, key=len)
            phrases.setdefault(word.lower(), []).append(Phrase(msgid, word, pattern))
    return whole, phrases


def english_in(text: str) -> str | None:
    """The msgid whose English `text` shows, if any."""
    whole, phrases = english_strings()
    bare = text.rstrip(":.").strip()
    if bare in whole or (text.endswith(":") and capfirst(bare) in whole):
        return whole.get(bare) or whole[capfirst(bare)]
    words = re.findall(r"[A-Za-z]{%s,}" % MIN_WORD_LETTERS, text)  # noqa: UP031 (a regex)
    for word in {word.lower() for word in words}:
        for phrase in phrases.get(word, ()):
            if phrase.pattern.search(text):
                return phrase.msgid
    return None


# --- The text a person reads -----------------------------------------------------------------


class VisibleText(HTMLParser):
    """Text nodes, titles, placeholders and button values, outside data elements and outside
    elements in another language (`lang="en"`)."""

    DATA = {"script", "style", "pre", "code", "textarea"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}

    def __init__(self, language: str):
        super().__init__(convert_charrefs=True)
        self.language = language
        self.chunks: list[str] = []
        self.open: list[tuple[str, bool]] = []  # (tag, skipped) of each open element

    @property
    def skipping(self) -> bool:
        return any(skipped for _tag, skipped in self.open)

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        lang = attributes.get("lang", "").lower()
        foreign = bool(lang) and not lang.startswith(self.language)
        if tag not in self.VOID:
            self.open.append((tag, tag in self.DATA or foreign))
        if self.skipping or foreign:
            return
        for name in ("title", "placeholder"):
            if attributes.get(name):
                self.chunks.append(" ".join(attributes[name].split()))
        if tag == "input" and attributes.get("type") in {"submit", "button"}:
            self.chunks.append(attributes.get("value", ""))

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index][0] == tag:
                del self.open[index:]  # also closes elements left open inside it
                return

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.chunks.append(" ".join(data.split()))


def visible_text(html: str, language: str = "pt") -> list[str]:
    parser = VisibleText(language)
    parser.feed(html)
    parser.close()
    return parser.chunks


def english_on_page(html: str) -> dict[str, str]:
    """msgid -> the text showing it, for each English string of `html`."""
    found: dict[str, str] = {}
    for text in visible_text(html):
        msgid = english_in(text)
        if msgid is not None:
            found.setdefault(msgid, text[:80])
    return found


# --- A store with a record of every kind -----------------------------------------------------


@pytest.fixture
def store(media_root, settings):
    """One record of every kind the admin lists (a demo-like store in miniature)."""
    from axes.models import AccessAttempt, AccessFailureLog
    from django_tasks_db.models import DBTaskResult

    product = ProductFactory(name="Camiseta Básica Algodão", sku="CAM-001")
    VariationFactory(parent=product)
    ProductPriceFactory(product=product)
    StockFactory(product=product)
    ProductDescriptionFactory(product=product)
    ProductMediaFactory(product=product)
    AttributeValueFactory()
    PriceRuleFactory()
    interest = ProductInterestFactory(product=product, origin="on-request")
    ProductInterestFactory(product=product)  # a notify-me one: a row of the demand report
    BackInStockSettings.objects.create()
    comment = CommentFactory(product=product, message="Serve no tamanho M?")
    ReplyFactory(parent=comment, message="Sim, serve.")
    ProductReviewFactory(product=product, comment="Ótima qualidade.")
    SalesChannelReviewFactory(comment="Entrega rápida.")
    banner = BannerFactory(name="Promoção de verão")
    UpsellFactory(display_title="Leve também")
    row = ShippingRowFactory()
    PickupFactory()
    PostalCodeFactory()
    PaymentOptionFactory(name="PIX")
    PaymentOptionFactory(name="Cartão de crédito", installments=True)
    # Data, not labels: the trade policy of migration 0002 is named and coded "default".
    TradePolicy.objects.filter(is_default=True).update(name="Varejo", code="varejo")
    CustomerFactory()
    endpoint = Endpoint.objects.create(url="https://erp.loja.example/hooks", events=["ping"])
    deliveries_create(event_type="comment.created", data={}, endpoints=[endpoint])
    email_enqueue(key="k", to="ana@example.com", subject="Olá", text="Olá")
    get_user_model().groups.field.related_model.objects.create(name="Atendimento")
    # Third-party apps' records: a locked-out sign-in (axes) and a finished task.
    attempt = {
        "user_agent": "Mozilla/5.0",
        "ip_address": "203.0.113.7",
        "username": "visitante",
        "http_accept": "text/html",
        "path_info": "/admin/login/",
    }
    AccessAttempt.objects.create(**attempt, get_data="", post_data="", failures_since_start=3)
    AccessFailureLog.objects.create(**attempt, locked_out=True)
    # The database backend's record (the tests run jobs with the immediate backend).
    settings.TASKS = {**settings.TASKS, "database": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    DBTaskResult.objects.create(
        task_path="jobs.tasks.send_email",
        args_kwargs={"args": [1], "kwargs": {}},
        backend_name="database",
        run_after=timezone.now(),
        status="SUCCESSFUL",
        started_at=timezone.now(),
        finished_at=timezone.now(),
    )
    return {
        "comment": comment,
        "interest": interest,
        "banner": banner,
        "row": row,
        "endpoint": endpoint,
    }


def admin_urls(store, request) -> list[str]:
    """Every admin page: the index, app indexes, and per registered model its change list,
    add form and the change form of its first record; then the project's custom views."""
    registry = sorted(admin.site._registry.items(), key=lambda pair: pair[0]._meta.label)
    urls = [reverse("admin:index")]
    labels = sorted({model._meta.app_label for model, _admin in registry})
    urls += [reverse("admin:app_list", args=[label]) for label in labels]
    for model, model_admin in registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls.append(reverse(f"{name}_changelist"))
        if model_admin.has_add_permission(request):
            urls.append(reverse(f"{name}_add"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            urls.append(reverse(f"{name}_change", args=[first.pk]))
    urls += [
        reverse("admin:feedback_comment_reply", args=[store["comment"].pk]),
        reverse("admin:feedback_comment_unanswered"),
        reverse("admin:feedback_purchaseorder_import"),
        reverse("admin:catalog_productinterest_reply", args=[store["interest"].pk]),
        reverse("admin:catalog_backinstocksettings_demand"),
        reverse("admin:marketing_bannergroup_preview", args=[store["banner"].group_id]),
        reverse("admin:shipping_shippingtable_import_rows", args=[store["row"].table_id]),
        reverse("admin:shipping_shippingrow_import"),
        reverse("admin:shipping_postalcode_import"),
        reverse("admin:shipping_holiday_import"),
        reverse("admin:shipping_holiday_applied"),
        reverse("admin:webhooks_endpoint_send_test", args=[store["endpoint"].pk]),
        reverse("admin:webhooks_endpoint_new_secret", args=[store["endpoint"].pk]),
        reverse("admin:password_change"),
    ]
    return urls


@pytest.fixture
def staff_client(client, settings):
    """A superuser signed in through the login form, asking for pt-BR (header and cookie);
    no admin default language, so the request's own choice decides."""
    settings.ADMIN_LANGUAGE_CODE = ""
    user = get_user_model().objects.create_superuser("gerente", "gerente@loja.example", PASSWORD)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pt-br"
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "pt-BR,pt;q=0.9"
    signed_in = client.post(
        reverse("admin:login"),
        {"username": user.username, "password": PASSWORD, "next": reverse("admin:index")},
    )
    assert signed_in.status_code == 302, signed_in.content.decode()[:500]
    client.user = user
    return client


# --- The scan --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_demo_pages_and_the_emails_show_no_english_in_portuguese(
    client, settings, django_capture_on_commit_callbacks
):
    """What a Brazilian shopper reads (issue 35): the password-reset e-mail (text and HTML)
    and the demo's reset page its link opens, in CUSTOMER_LANGUAGE_CODE."""
    from urllib.parse import urlsplit

    from django.core import mail

    from tests.storefront.factories import CustomerFactory

    settings.CUSTOMER_LANGUAGE_CODE = "pt-br"
    settings.PASSWORD_RESET_DEMO_PAGE = True
    customer = CustomerFactory(email="joana@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            "/publics/customers/password-reset",
            {"email": customer.email},
            content_type="application/json",
        )
    (message,) = mail.outbox
    bodies = [message.body, *(content for content, _type in message.alternatives)]
    link = urlsplit(re.search(r"http://\S+", message.body).group(0))
    pages = {
        "reset page": client.get(f"{link.path}?{link.query}").content.decode(),
        "incomplete link": client.get(link.path).content.decode(),
    }
    english = {}
    for where, html in [*(("e-mail", body) for body in bodies), *pages.items()]:
        text = html if "<" in html else f"<p>{html}</p>"
        for msgid, found in english_on_page(text).items():
            english.setdefault(msgid, f"{where}: {found!r}")
    assert "From" not in message.from_email and message.from_email.startswith("Loja <")
    assert not english, english


@pytest.mark.django_db
def test_no_admin_page_nor_the_home_page_shows_english_in_portuguese(staff_client, store, rf):
    request = rf.get("/admin/")
    request.user = staff_client.user
    english: dict[str, str] = {}

    for url in [*admin_urls(store, request), reverse("home")]:
        response = staff_client.get(url)
        assert response.status_code == 200, (url, response.content[:300])
        assert response["Content-Language"] == "pt-br", url
        for msgid, text in english_on_page(response.content.decode()).items():
            english.setdefault(msgid, f"{url}: {text!r}")

    assert not english, (
        "English in pt-BR pages (translate the msgid in locale/pt_BR/LC_MESSAGES/django.po, "
        "then `manage.py compile_translations`):\n"
        + "\n".join(f"  {msgid!r} on {where}" for msgid, where in sorted(english.items()))
    )


def test_the_scan_finds_english_and_leaves_portuguese_and_data_alone():
    page = """<html lang="pt-br"><body>
      <h1>Avaliações de produtos</h1><p>Product reviews</p>
      <th>Attempt Time</th><td>Successful</td><span title="Reply to comment #12">R</span>
      <td>Camiseta Product Basic</td><td>SKU</td><td>Webhooks</td><td>No</td><td>default</td>
      <script>var s = "Delete";</script><pre>{"detail": "Not found."}</pre>
      <select><option lang="en">English</option><option lang="pt-br">Português</option></select>
    </body></html>"""

    found = english_on_page(page)

    assert sorted(found.values()) == [
        "Attempt Time",
        "Product reviews",
        "Reply to comment #12",
        "Successful",
    ], found


IMPORT_ROWS = (
    "initial_zipcode,final_zipcode,initial_weight,final_weight,initial_price,final_price,"
    "shipping_value,begin_shipping_time,end_shipping_time\n"
    "01000-000,19999-999,0,1,0,,15.90,1,3\n"
    "20000-000,28999-999,0,,0,,20,2\n"  # a column short
    "30000-000,2999-999,0,,0,,abc,2,4\n"  # a bad postal code and value
)
POSTAL_LINES = (
    "BR\t01310100\tSão Paulo\tSão Paulo\tSP\t\t\t\t\t-23.5\t-46.6\t4\n"
    "BR\t0131\tSão Paulo\tSão Paulo\tSP\t\t\t\t\t-23.5\t-46.6\t4\n"  # too short
    "ZZ\t01310100\tX\n"  # too few columns
)


def upload(content: str, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content.encode(), content_type="text/csv")


@pytest.mark.django_db
def test_import_summaries_and_line_errors_in_portuguese(staff_client, settings):
    """The pages after a dry run and after an import: summaries, counts, line errors."""
    table = ShippingRowFactory().table
    rows_url = reverse("admin:shipping_shippingtable_import_rows", args=[table.pk])
    postal_url = reverse("admin:shipping_postalcode_import")
    settings.POSTAL_IMPORT_RUNNER = "none"
    pages = {}

    checked = staff_client.post(
        rows_url, {"file": upload(IMPORT_ROWS, "rows.csv"), "dry_run": "on"}
    )
    pages["shipping rows, dry run"] = checked
    token = str(checked.context["staged"].token)
    pages["shipping rows, imported"] = staff_client.post(
        rows_url, {"confirm": "1", "token": token}, follow=True
    )
    country = re.search(
        r'<select name="country".*?<option value="([A-Z]{3})" selected>',
        staff_client.get(postal_url).content.decode(),
        re.S,
    )
    pages["postal codes, dry run"] = staff_client.post(
        postal_url,
        {
            "file": upload(POSTAL_LINES, "BR.txt"),
            "dry_run": "on",
            **({"country": country.group(1)} if country else {}),
        },
    )

    english = {}
    for name, response in pages.items():
        assert response.status_code == 200, name
        page = response.content.decode()
        for msgid, text in english_on_page(page).items():
            english.setdefault(msgid, f"{name}: {text!r}")
    assert "1 foi criada" in pages["shipping rows, imported"].content.decode()
    assert "3 linhas lidas" in pages["postal codes, dry run"].content.decode()
    assert not english, "English in pt-BR import pages:\n" + "\n".join(
        f"  {msgid!r} on {where}" for msgid, where in sorted(english.items())
    )


# --- Apps without a Portuguese catalogue ---------------------------------------------------


@pytest.mark.parametrize("package", APPS_WITHOUT_PORTUGUESE)
def test_the_strings_of_apps_without_a_portuguese_catalogue_are_translated(package):
    """Every string such an app's code marks for translation (read from its installed
    sources) is translated in some pt-BR catalogue, so an upgrade's new labels are noticed."""
    root = Path(importlib.import_module(package).__file__).parent
    translated = {
        (context, msgid)
        for path in catalogue_paths()
        for context, ids, _strings in catalogue_entries(path, context=True)
        for msgid in ids
    }
    marked = {
        (context, message if isinstance(message, str) else message[0])
        for _file, _line, message, _comments, context in extract_from_dir(
            root, method_map=[("**.py", "python")], keywords=GETTEXT_KEYWORDS
        )
    }

    assert not (root / "locale" / CATALOGUE).exists(), f"{package} has its own pt_BR now"
    assert marked, f"nothing extracted from {root}"
    missing = sorted(marked - translated, key=str)
    assert not missing, (
        f"{package}'s strings without pt-BR translation (list them in "
        "storefront/third_party.py and translate them in locale/pt_BR):\n"
        + "\n".join(f"  {msgid!r} (context {context!r})" for context, msgid in missing)
    )
