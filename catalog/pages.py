"""The pages a back-in-stock e-mail links to: unsubscribe (a GET asks, a POST unsubscribes,
RFC 8058 one-click included) and the product link that counts the visit (recorded, written
after the answer: a GET never writes) and redirects to the product in the store."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone, translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from apikit.fallback import page_not_found
from infra import deferred

from .models import Product
from .restocks import VISIT_RECORD, back_in_stock_unsubscribe, unsubscribe_email, visit_target


def _page(request: HttpRequest, state: str, email: str = "", status: int = 200) -> HttpResponse:
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        response = render(
            request,
            "catalog/pages/unsubscribe.html",
            {"state": state, "email": email},
            status=status,
        )
        response["Content-Language"] = translation.get_language()
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"  # the address holds the signed token
    return response


@csrf_exempt  # the signed token is the authority (a mail client's one-click has no cookie)
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    email = unsubscribe_email(token)
    if email is None:
        return _page(request, "invalid", status=400)
    if request.method == "POST":
        back_in_stock_unsubscribe(email)
        return _page(request, "done", email)
    return _page(request, "confirm", email)


@require_http_methods(["GET", "HEAD"])
def visit(request: HttpRequest, link: str) -> HttpResponse:
    target = visit_target(link)
    product = None
    if target is not None:
        product = Product.objects.filter(pk=target[1]).only("slug").first()
    if target is None or product is None:
        return page_not_found(request)
    if request.method == "GET":
        deferred.record(VISIT_RECORD, (target[0], timezone.now()))
    response = HttpResponseRedirect(settings.PUBLIC_BASE_URL.rstrip("/") + product.url)
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response
