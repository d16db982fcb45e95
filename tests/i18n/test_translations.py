"""The back office in Brazilian Portuguese (issue 13).

- The committed `.mo` is the compiled `.po` (a `.po` edited without `make messages` fails).
- Every project string in the `.po` is translated (none empty, none fuzzy).
- Every label the project declares (models, fields, choices, admin columns, actions,
  filters, fieldsets) is a translatable string, so makemessages can collect it.
- Every admin change list, add and change form, and custom view, rendered in pt-BR, shows
  no English label the project owns (a msgid of the project's `.po` in the page's text).

When a test here fails after new admin strings were added: run `make messages`, translate
the new entries of locale/pt_BR/LC_MESSAGES/django.po, and run `make messages` again.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import models
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import override

from catalog.models import TradePolicy
from infra.translations import mo_bytes, mo_entries, po_files, read_catalog, untranslated
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

PROJECT_APPS = {"storefront", "catalog", "marketing", "shipping", "feedback", "jobs", "webhooks"}
LOCALE_DIR = Path(settings.LOCALE_PATHS[0])
PO_PATH = LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "django.po"
FIX = "run `make messages`, translate the new entries of {po}, then `make messages` again"


def project_models():
    from django.apps import apps

    for app in PROJECT_APPS:
        yield from apps.get_app_config(app).get_models()


def project_admins():
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label in PROJECT_APPS:
            yield model, model_admin


# --- The catalogues ------------------------------------------------------------------------


def test_there_is_a_brazilian_portuguese_catalogue():
    assert PO_PATH in po_files(LOCALE_DIR)
    assert PO_PATH.with_suffix(".mo").is_file()


@pytest.mark.parametrize("po_path", po_files(LOCALE_DIR), ids=str)
def test_each_committed_mo_is_its_po_compiled(po_path):
    mo_path = po_path.with_suffix(".mo")

    committed = mo_entries(mo_path.read_bytes())
    compiled = mo_entries(mo_bytes(po_path))

    changed = sorted(str(key) for key in committed.keys() ^ compiled.keys()) + sorted(
        str(key) for key in committed.keys() & compiled.keys() if committed[key] != compiled[key]
    )
    assert not changed, (
        f"{mo_path} is not {po_path} compiled ({FIX.format(po=po_path)}); differing: "
        + ", ".join(changed[:20])
    )


@pytest.mark.parametrize("po_path", po_files(LOCALE_DIR), ids=str)
def test_every_project_string_is_translated(po_path):
    missing = untranslated(po_path)

    assert not missing, (
        f"{len(missing)} untranslated (empty or fuzzy) entries in {po_path} "
        f"({FIX.format(po=po_path)}):\n" + "\n".join(f"  {msgid!r}" for msgid in missing)
    )


def test_the_plural_forms_are_portuguese():
    catalog = read_catalog(PO_PATH)

    assert catalog.plural_forms == "nplurals=2; plural=(n > 1);"


# --- Labels are declared translatable ---------------------------------------------------


def is_translatable(text) -> bool:
    return isinstance(text, Promise)


def test_every_model_field_and_choice_label_is_translatable():
    plain = []
    for model in project_models():
        meta = model._meta
        for name in ("verbose_name", "verbose_name_plural"):
            if not is_translatable(getattr(meta, name)):
                plain.append(f"{meta.label}.Meta.{name} = {getattr(meta, name)!r}")
        for field in meta.get_fields(include_hidden=False):
            if field.auto_created or not isinstance(field, models.Field):
                continue
            if not is_translatable(field.verbose_name):
                plain.append(f"{meta.label}.{field.name} verbose_name {field.verbose_name!r}")
            if field.help_text and not is_translatable(field.help_text):
                plain.append(f"{meta.label}.{field.name} help_text {field.help_text!r}")
            for _value, label in field.flatchoices or ():
                if not is_translatable(label):
                    plain.append(f"{meta.label}.{field.name} choice {label!r}")

    assert not plain, "Labels not wrapped in gettext_lazy:\n" + "\n".join(plain)


def test_every_admin_column_action_filter_and_fieldset_is_translatable(rf):
    plain = []
    request = rf.get("/admin/")
    request.user = get_user_model()(is_superuser=True, is_staff=True, is_active=True)
    for _model, model_admin in project_admins():
        where = type(model_admin).__name__
        for item in model_admin.list_display:
            attribute = getattr(model_admin, item, None) if isinstance(item, str) else item
            description = getattr(attribute, "short_description", None)
            if description and not is_translatable(description):
                plain.append(f"{where} column {item!r}: {description!r}")
        for function, name, description in model_admin._get_base_actions():
            if not function.__module__.startswith("django.") and not is_translatable(description):
                plain.append(f"{where} action {name!r}: {description!r}")
        for list_filter in model_admin.list_filter:
            is_simple = isinstance(list_filter, type) and issubclass(
                list_filter, admin.SimpleListFilter
            )
            if is_simple and not is_translatable(list_filter.title):
                plain.append(f"{where} filter {list_filter.title!r}")
        for title, _options in model_admin.get_fieldsets(request) or ():
            if title is not None and not is_translatable(title):
                plain.append(f"{where} fieldset {title!r}")
        for inline in model_admin.inlines:
            for title, _options in inline.fieldsets or ():
                if title is not None and not is_translatable(title):
                    plain.append(f"{inline.__name__} fieldset {title!r}")

    assert not plain, "Admin labels not wrapped in gettext_lazy:\n" + "\n".join(plain)


ALIASED_GETTEXT = re.compile(
    r"^from django\.utils\.translation import [^\n]*?\b(\w*gettext\w*) as (?!_\b)(\w+)", re.M
)


def test_translation_functions_keep_names_makemessages_collects():
    """makemessages (xgettext) collects `_()`, `gettext()`, `ngettext()`, `gettext_lazy()`...
    by name: a string passed to an alias such as `_g()` never reaches the `.po`, so it stays
    English in every language."""
    root = Path(settings.BASE_DIR)
    aliased = []
    for app in sorted(PROJECT_APPS | {"apikit", "infra", "config"}):
        for path in sorted((root / app).rglob("*.py")):
            for match in ALIASED_GETTEXT.finditer(path.read_text(encoding="utf-8")):
                aliased.append(f"{path.relative_to(root)}: {match.group(1)} as {match.group(2)}")

    assert not aliased, "Translation functions renamed (import them as `_` or unrenamed):\n" + (
        "\n".join(aliased)
    )


# --- Pages rendered in pt-BR show no English label of the project ------------------------------


class VisibleText(HTMLParser):
    """The text a person reads: text nodes (not scripts or styles), button values, titles.
    Text inside `<pre>`, `<code>` and `<textarea>` is data (API payloads, typed texts)."""

    SKIPPED = {"script", "style", "pre", "code", "textarea"}

    def __init__(self):
        super().__init__()
        self.chunks: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIPPED:
            self.skipping += 1
        attributes = dict(attrs)
        if attributes.get("title"):
            self.chunks.append(attributes["title"])
        if tag == "input" and attributes.get("type") in {"submit", "button"}:
            self.chunks.append(attributes.get("value") or "")

    def handle_endtag(self, tag):
        if tag in self.SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.chunks.append(" ".join(data.split()))


def visible_text(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return parser.chunks


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")


def english_patterns():
    """A pattern per project msgid whose translation differs from it: words and spaces
    normalised, placeholders matching anything. A one-word msgid matches a whole text
    (as is or capitalised: column headers, badges); a longer one matches inside a text."""
    patterns = []
    for message in read_catalog(PO_PATH):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in ids:
            if msgid in strings:
                continue  # the same in both languages (SKU, banners, Marketing)
            text = " ".join(msgid.replace("%%", "%").split())
            text = re.sub(r"<[^>]+>", "", text)  # tags are not text
            static = [part for part in PLACEHOLDER.split(text) if part.strip()]
            words = re.findall(r"[A-Za-z]{2,}", " ".join(static))
            if len(words) < 2 and PLACEHOLDER.search(text):
                continue  # "from %(low)s": too little to recognise
            if len(words) < 2:
                variants = {re.escape(text), re.escape(capfirst(text))}
                pattern = re.compile(r"^(?:" + "|".join(variants) + r")[:.]?$")
            else:
                variants = {
                    ".+?".join(re.escape(part) for part in PLACEHOLDER.split(variant))
                    for variant in (text, capfirst(text))
                }
                pattern = re.compile(r"(?<![A-Za-z])(?:" + "|".join(variants) + r")(?![A-Za-z])")
            patterns.append((msgid, pattern))
    return patterns


@pytest.fixture
def store(media_root):
    """One record of every kind the admin lists (a demo-like store in miniature)."""
    product = ProductFactory(name="Camiseta Básica Algodão", sku="CAM-001")
    VariationFactory(parent=product)
    ProductPriceFactory(product=product)
    StockFactory(product=product)
    ProductDescriptionFactory(product=product)
    ProductMediaFactory(product=product)
    AttributeValueFactory()
    PriceRuleFactory()
    ProductInterestFactory(product=product, origin="on-request")
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
    return {
        "comment": comment,
        "interest_product": product,
        "banner": banner,
        "row": row,
        "endpoint": endpoint,
    }


def admin_urls(store, request):
    urls = [reverse("admin:index")]
    app_labels = sorted({model._meta.app_label for model, _admin in project_admins()})
    urls += [reverse("admin:app_list", args=[label]) for label in app_labels]
    for model, model_admin in sorted(project_admins(), key=lambda pair: pair[0]._meta.label):
        opts = model._meta
        name = f"admin:{opts.app_label}_{opts.model_name}"
        urls.append(reverse(f"{name}_changelist"))
        if model_admin.has_add_permission(request):
            urls.append(reverse(f"{name}_add"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            urls.append(reverse(f"{name}_change", args=[first.pk]))
    interest = store["interest_product"].interests.get()
    urls += [
        reverse("admin:feedback_comment_reply", args=[store["comment"].pk]),
        reverse("admin:catalog_productinterest_reply", args=[interest.pk]),
        reverse("admin:marketing_bannergroup_preview", args=[store["banner"].group_id]),
        reverse("admin:shipping_shippingtable_import_rows", args=[store["row"].table_id]),
        reverse("admin:webhooks_endpoint_send_test", args=[store["endpoint"].pk]),
        reverse("admin:webhooks_endpoint_new_secret", args=[store["endpoint"].pk]),
    ]
    return urls


@pytest.mark.django_db
def test_every_admin_page_in_portuguese_shows_no_english_label_of_the_project(
    client, settings, store, rf
):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    user = get_user_model().objects.create_superuser("gerente", "gerente@loja.example", "x")
    client.force_login(user)
    patterns = english_patterns()
    english = {}

    request = rf.get("/admin/")
    request.user = user
    for url in admin_urls(store, request):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Language"] == "pt-br", url
        for text in visible_text(response.content.decode()):
            for msgid, pattern in patterns:
                if pattern.search(text):
                    english.setdefault(msgid, f"{url}: {text[:80]!r}")

    comments = client.get(reverse("admin:feedback_comment_changelist")).content.decode()
    assert "Aprovar os comentários selecionados" in comments  # the pages are in Portuguese
    assert "Selecione comentário para modificar" in comments
    assert not english, (
        "English labels in pt-BR admin pages (translate them in "
        f"{PO_PATH}, then `make messages`):\n"
        + "\n".join(f"  {msgid!r} on {where}" for msgid, where in sorted(english.items()))
    )


def test_an_untranslated_label_is_caught():
    """The page check finds a project msgid (as the Django admin would print it)."""
    patterns = dict(english_patterns())

    assert patterns["Approve selected comments (show them in the store)"].search(
        "Approve selected comments (show them in the store)"
    )
    assert patterns["product reviews"].search("Product reviews")
    assert patterns["Reply to comment #%(id)s"].search("Reply to comment #12")
    assert not patterns["product reviews"].search("Avaliações de produtos")


# --- Language of the admin and of the public API -----------------------------------------------


@pytest.mark.django_db
def test_the_admin_opens_in_portuguese_by_default(client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"

    response = client.get(reverse("admin:login"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")

    assert response["Content-Language"] == "pt-br"
    assert "Painel da loja" in response.content.decode()


@pytest.mark.django_db
def test_staff_pick_another_language_with_the_switcher(client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    user = get_user_model().objects.create_superuser("gerente", "gerente@loja.example", "x")
    client.force_login(user)
    page = client.get(reverse("admin:index")).content.decode()
    assert 'id="language-switcher"' in page

    switched = client.post(
        reverse("set_language"), {"language": "en", "next": reverse("admin:index")}
    )
    response = client.get(reverse("admin:index"))

    assert switched.status_code == 302
    assert response["Content-Language"] == "en"
    assert "Store back office" in response.content.decode()


@pytest.mark.django_db
def test_without_an_admin_default_the_browser_language_is_followed(client, settings):
    settings.ADMIN_LANGUAGE_CODE = ""

    portuguese = client.get(reverse("admin:login"), HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9")
    english = client.get(reverse("admin:login"), HTTP_ACCEPT_LANGUAGE="en-US")

    assert portuguese["Content-Language"] == "pt-br"
    assert english["Content-Language"] == "en"
    assert "Accept-Language" in portuguese["Vary"]


@pytest.mark.django_db
def test_the_public_api_keeps_its_language_whatever_the_client_asks(client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    with override("pt-br"):  # a thread that just served the admin in Portuguese
        response = client.get("/api/v3/publics/products/not-a-number", HTTP_ACCEPT_LANGUAGE="pt-BR")

    assert response.status_code in {404, 422}
    assert "Content-Language" not in response
    assert "Accept-Language" not in response.get("Vary", "")
    body = response.content.decode()
    assert "não" not in body.lower() and "inválid" not in body.lower()
