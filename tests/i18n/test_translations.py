"""The back office in Brazilian Portuguese (issue 13).

- The committed `.mo` is the compiled `.po` (a `.po` edited without `make messages` fails).
- Every project string in the `.po` is translated (none empty, none fuzzy).
- Every label the project declares (models, fields, choices, admin columns, actions,
  filters, fieldsets) is a translatable string, so makemessages can collect it.
- (Pages rendered in pt-BR are scanned for English in test_english_scan.py.)

When a test here fails after new admin strings were added: run `make messages`, translate
the new entries of locale/pt_BR/LC_MESSAGES/django.po, and run `make messages` again.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import models
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import override

from infra.translations import mo_bytes, mo_entries, po_files, read_catalog, untranslated

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
    for app in sorted(PROJECT_APPS | {"apikit", "infra", "config", "demo"}):
        for path in sorted((root / app).rglob("*.py")):
            for match in ALIASED_GETTEXT.finditer(path.read_text(encoding="utf-8")):
                aliased.append(f"{path.relative_to(root)}: {match.group(1)} as {match.group(2)}")

    assert not aliased, "Translation functions renamed (import them as `_` or unrenamed):\n" + (
        "\n".join(aliased)
    )


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
    # Each language in its own name, whatever the page's language.
    assert '<option value="en" lang="en">English</option>' in page
    assert 'lang="pt-br" selected>Português (Brasil)</option>' in page
    assert "Inglês" not in page

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
@pytest.mark.parametrize(
    ("accept_language", "language", "text"),
    [
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt-br", "A API desta loja está funcionando."),
        ("en-US,en;q=0.9", "en", "The storefront API of this store is running."),
        ("", "en", "The storefront API of this store is running."),  # LANGUAGE_CODE
    ],
)
def test_the_home_page_follows_the_browser_language(client, accept_language, language, text):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=accept_language)

    assert response["Content-Language"] == language
    assert "Accept-Language" in response["Vary"]
    assert f'<html lang="{language}">' in response.content.decode()
    assert text in response.content.decode()


@pytest.mark.django_db
def test_the_home_page_follows_the_language_staff_picked(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pt-br"

    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-US")

    assert response["Content-Language"] == "pt-br"


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


# --- Save messages: gender and number (issue 35) -------------------------------------------


@pytest.mark.django_db
def test_save_messages_of_feminine_models_read_right_in_portuguese(client, settings):
    from django.contrib.messages import get_messages

    from shipping.models import Carrier

    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    client.force_login(get_user_model().objects.create_superuser("g", "g@loja.example", "x"))
    form = {"name": "Jadlog", "active": "on", "tracking_url_template": ""}
    added = client.post(reverse("admin:shipping_carrier_add"), form, follow=True)
    carrier = Carrier.objects.get()
    deleted = client.post(
        reverse("admin:shipping_carrier_delete", args=[carrier.pk]), {"post": "yes"}, follow=True
    )
    Carrier.objects.create(name="Correios")
    none_found = client.get(reverse("admin:shipping_carrier_changelist"), {"q": "nada"})

    shown = [str(m) for r in (added, deleted) for m in get_messages(r.wsgi_request)]
    assert re.fullmatch(
        r"Inclusão de transportadora “<a [^>]+>Jadlog</a>” concluída com sucesso\.", shown[0]
    )
    assert shown[-1] == "Exclusão de transportadora “Jadlog” concluída com sucesso."
    page = none_found.content.decode()
    assert "Nenhum resultado" in page and "0 resultado" not in page
    assert all(not m.startswith(("O transportadora", "O  transportadora")) for m in shown)
