"""The staff pages of issue 34 in headless chromium at 1366x900 in pt-BR, with long real-looking
values: the unanswered questions (and their line on the admin index), the purchase CSV import
(the form, the checked file with a rejected line, the import) and the back-in-stock demand
report. Each page in Portuguese, nothing wider than the page or than a scrolling box."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from catalog.models import ProductInterest
from feedback.models import Comment, PurchaseOrder
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import CommentFactory, StaffReplyFactory

from .conftest import MISSING
from .test_admin_fit import overflows, signed_in, staff  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(MISSING is not None, reason=str(MISSING)),
    pytest.mark.django_db(transaction=True),
]

LONG_NAME = "Tênis de corrida Aurora Ultraleve Respirável com amortecimento em gel, tamanho 44"
LONG_QUESTION = (
    "Boa tarde! Comprei o modelo anterior e a numeração veio pequena; este também é "
    "pequeno? Uso 43 no dia a dia e 44 para correr longas distâncias na esteira da academia."
)


def text(browser) -> str:
    return browser.find("#content").text.replace("\xa0", " ")


def backdate(comment: Comment, **ago) -> None:
    moment = timezone.now() - timedelta(**ago)
    Comment.objects.filter(pk=comment.pk).update(created_at=moment, updated_at=moment)


def test_the_unanswered_questions_fit_and_speak_portuguese(signed_in):  # noqa: F811
    browser = signed_in
    product = ProductFactory(name=LONG_NAME)
    oldest = CommentFactory(
        product=product, message=LONG_QUESTION, customer_name="Maria Aparecida dos Santos"
    )
    backdate(oldest, days=3, hours=2)
    backdate(CommentFactory(product=product, message="Tem na cor grafite?", active=False), hours=5)
    answered = CommentFactory(product=product, message="Serve para trilha?")
    backdate(answered, days=2)
    backdate(StaffReplyFactory(parent=answered, message="Serve, sim."), days=1, hours=12)

    with browser.step("the admin index counts the questions waiting"):
        browser.open(reverse("admin:index"))
        waiting = browser.find("#waiting-module").text
        assert "Esperando por você" in waiting
        assert "2 perguntas esperando resposta" in waiting
        assert overflows(browser) == []
    with browser.step("its link opens the page: oldest first, ages in Portuguese"):
        browser.click_and_wait("#waiting-module a")
        assert browser.path == reverse("admin:feedback_comment_unanswered")
        page = text(browser)
        assert "Perguntas sem resposta" in page
        first = browser.find("#unanswered-questions tbody tr").text.replace("\xa0", " ")
        assert first.startswith("há 3 dias") and "Aprovado" in first, first
        assert "há 5 horas" in page and "Pendente" in page
        assert "Tempo mediano até a primeira resposta da equipe nos últimos 30 dias" in page
        assert "12 horas" in page and "1 pergunta respondida" in page
        assert overflows(browser) == []
    with browser.step("Responder opens the reply page of the oldest"):
        browser.click_and_wait("#unanswered-questions tbody tr a.button")
        assert browser.path == reverse("admin:feedback_comment_reply", args=[oldest.pk])


def test_the_purchase_import_fits_and_speaks_portuguese(signed_in, tmp_path):  # noqa: F811
    browser = signed_in
    product = ProductFactory(name=LONG_NAME)
    upload = tmp_path / "pedidos.csv"
    upload.write_text(
        "order_id,customer_id,email,product_ids,event\n"
        f"PED-2026-000123,,maria.aparecida.dos.santos.oliveira@cliente-empresa.example,"
        f"{product.pk};{product.pk + 1000},order.delivered\n"
        "PED-2026-000124,,,12,order.paid\n",
        encoding="utf-8",
    )
    with browser.step("the form explains the columns"):
        browser.open(reverse("admin:feedback_purchaseorder_import"))
        page = text(browser)
        assert "Importar compras" in page and "Colunas" in page
        assert overflows(browser) == []
    with browser.step("the checked file: one new order, one line rejected"):
        browser.upload("file", upload)
        browser.click_and_wait('#content-main form input[type="submit"]')
        page = text(browser)
        assert "O arquivo, verificado:" in page
        assert "1 pedido novo" in page and "1 linha rejeitada" in page
        assert not PurchaseOrder.objects.exists()
        assert overflows(browser) == []
    with browser.step("import the very file checked"):
        browser.click_and_wait('input[name="confirm"]')
        assert "Importado:" in text(browser)
        assert PurchaseOrder.objects.get().order_id == "PED-2026-000123"
        assert overflows(browser) == []


def test_the_demand_report_fits_and_speaks_portuguese(signed_in):  # noqa: F811
    browser = signed_in
    product = ProductFactory(name=LONG_NAME)
    ProductInterest.objects.bulk_create(
        ProductInterest(product=product, origin="notify-me", name="C", email=f"c{n}@loja.example")
        for n in range(25)
    )
    browser.open(reverse("admin:catalog_backinstocksettings_demand"))
    assert "Produtos que os clientes estão esperando" in text(browser)
    row = browser.find("#demand-report tbody tr").text
    assert row.startswith("Tênis de corrida Aurora") and " 25 " in f" {row} ", row
    assert overflows(browser) == []
