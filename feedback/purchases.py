"""What customers bought (the store's order system tells it: the inbound `order.paid` and
`order.delivered` webhook, or a CSV import in the admin) and the verified-purchase mark it
gives their product reviews.

The mark is stamped on the review row: when the review is written (`purchased`), and again
when an order arrives later (`purchase_record` marks the buyer's existing reviews of its
products), so the public list filters and renders it from the row itself. One row per order
id: a repeated id (the `order.delivered` after its `order.paid`, a retried delivery, an
imported line already received) changes nothing.

An `order.cancelled` or `order.refunded` event cancels the order once (`purchase_cancel`): its
buyer's reviews of its products lose the mark unless another order, not cancelled, holds the
product. A cancel that comes before its order is stored as a cancelled order, so the late
`order.paid` of the same id is a repeat and verifies nothing.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from infra.caching.versions import cache_namespace_bump
from storefront.models import Customer

from .errors import InvalidPurchase
from .models import ProductReview, PurchaseItem, PurchaseOrder
from .purchase_csv import PurchaseLine
from .selectors import FEEDBACK_CACHE
from .services import product_review_summaries_refresh

PURCHASE_EVENTS = ("order.paid", "order.delivered")
CANCEL_EVENTS = ("order.cancelled", "order.refunded")
ORDER_EVENTS = (*PURCHASE_EVENTS, *CANCEL_EVENTS)
ORDER_ID_MAX_LENGTH = 100
ORDER_MAX_PRODUCTS = 500


@dataclass(frozen=True)
class PurchaseRecorded:
    order_id: str
    created: bool  # False: the order id was known, nothing changed
    reviews_verified: int  # existing reviews this order marked verified


def _buyer(customer_id: int | None, email: str) -> tuple[Customer | None, str]:
    customer = None
    if customer_id is not None:
        customer = Customer.objects.filter(pk=customer_id).first()
    if customer is None and email:
        customer = Customer.objects.filter(email__iexact=email).order_by("pk").first()
    return customer, (email or (customer.email if customer else "")).strip().lower()


def _buyer_reviews(customer: Customer | None, email: str) -> Q:
    match = Q(pk__in=[])
    if customer is not None:
        match |= Q(customer=customer)
    if email:
        match |= Q(email__iexact=email)
    return match


def purchase_record(
    *,
    order_id: str,
    event: str,
    product_ids: Iterable[int],
    customer_id: int | None = None,
    email: str = "",
) -> PurchaseRecorded:
    """Store the order (once per id) and mark its buyer's reviews of its products verified;
    a cancel event cancels it (`purchase_cancel`)."""
    products = sorted(set(product_ids))
    if customer_id is None and not email:
        raise InvalidPurchase
    customer, email = _buyer(customer_id, email)
    if event in CANCEL_EVENTS:
        return purchase_cancel(
            order_id=order_id, event=event, products=products, customer=customer, email=email
        )
    with transaction.atomic():
        try:
            with transaction.atomic():
                order = PurchaseOrder.objects.create(
                    order_id=order_id, event=event, customer=customer, email=email
                )
        except IntegrityError:  # the order id is known (or another delivery won the race)
            return PurchaseRecorded(order_id=order_id, created=False, reviews_verified=0)
        PurchaseItem.objects.bulk_create(
            PurchaseItem(order=order, product_id=product_id) for product_id in products
        )
        marked = (
            ProductReview.objects.filter(product_id__in=products, verified_purchase=False)
            .filter(_buyer_reviews(customer, email))
            .update(verified_purchase=True)
        )
        if marked:  # update() sends no signal
            product_review_summaries_refresh(product_ids=products)  # their verified counts
            transaction.on_commit(lambda: cache_namespace_bump(FEEDBACK_CACHE))
    return PurchaseRecorded(order_id=order_id, created=True, reviews_verified=marked)


def purchase_cancel(
    *, order_id: str, event: str, products: list[int], customer: Customer | None, email: str
) -> PurchaseRecorded:
    """Cancel the order once (a known id: its own products and buyer count, not the event's)
    and take the mark off its buyer's reviews that no other live order verifies."""
    with transaction.atomic():
        order = PurchaseOrder.objects.select_for_update().filter(order_id=order_id).first()
        if order is None:  # the cancel came first: stored cancelled, a late paid is a repeat
            try:
                with transaction.atomic():
                    order = PurchaseOrder.objects.create(
                        order_id=order_id,
                        event=event,
                        customer=customer,
                        email=email,
                        cancelled_at=timezone.now(),
                    )
            except IntegrityError:  # its paid won the race: cancel that one (below)
                order = PurchaseOrder.objects.select_for_update().get(order_id=order_id)
            else:
                PurchaseItem.objects.bulk_create(
                    PurchaseItem(order=order, product_id=product_id) for product_id in products
                )
                return PurchaseRecorded(order_id=order_id, created=True, reviews_verified=0)
        if order.cancelled_at is not None:
            return PurchaseRecorded(order_id=order_id, created=False, reviews_verified=0)
        order.cancelled_at = timezone.now()
        order.event = event
        order.save(update_fields=["cancelled_at", "event"])
        bought = list(order.items.values_list("product_id", flat=True))
        reviews = ProductReview.objects.filter(product_id__in=bought, verified_purchase=True)
        reviews = reviews.filter(_buyer_reviews(order.customer, order.email))
        reviews = reviews.select_related("customer")
        lost = [review.pk for review in reviews if not _bought_by(review)]
        if lost:
            ProductReview.objects.filter(pk__in=lost).update(verified_purchase=False)
            product_review_summaries_refresh(product_ids=bought)  # their verified counts
            transaction.on_commit(lambda: cache_namespace_bump(FEEDBACK_CACHE))
    return PurchaseRecorded(order_id=order_id, created=True, reviews_verified=0)


def _bought_by(review: ProductReview) -> bool:
    """Whether a live order of the review's author holds its product (by the account, or by
    the review's or the account's e-mail: what `purchase_record` marks by)."""
    match = Q(customer_id=review.customer_id)
    for email in {review.email, review.customer.email} - {""}:
        match |= Q(email=email.strip().lower())
    return _bought(match, review.product_id)


def _bought(buyer: Q, product_id: int) -> bool:
    orders = PurchaseOrder.objects.filter(buyer, cancelled_at=None)
    return PurchaseItem.objects.filter(product_id=product_id, order__in=orders).exists()


def purchased(*, customer: Customer, product_id: int) -> bool:
    """Whether a live (not cancelled) order of `customer` (by account or e-mail) holds the
    product."""
    match = Q(customer=customer)
    if customer.email:
        match |= Q(email=customer.email.strip().lower())
    return _bought(match, product_id)


@dataclass(frozen=True)
class PurchaseImportReport:
    created: int
    known: int  # order ids already recorded (or repeated in the file): unchanged
    reviews_verified: int


def purchases_import(*, lines: Iterable[PurchaseLine], dry_run: bool) -> PurchaseImportReport:
    """Record the file's orders as the webhook would (a dry run counts, writes nothing)."""
    lines = list(lines)
    if dry_run:
        ids = [line.order_id for line in lines]
        stored: set[str] = set()
        for start in range(0, len(ids), 1000):  # (SQLite's bound parameters)
            chunk = ids[start : start + 1000]
            orders = PurchaseOrder.objects.filter(order_id__in=chunk)
            stored.update(orders.values_list("order_id", flat=True))
        new = {order_id for order_id in ids if order_id not in stored}
        return PurchaseImportReport(len(new), len(ids) - len(new), 0)
    created = known = verified = 0
    for line in lines:
        recorded = purchase_record(
            order_id=line.order_id,
            event=line.event,
            product_ids=line.product_ids,
            customer_id=line.customer_id,
            email=line.email,
        )
        created += recorded.created
        known += not recorded.created
        verified += recorded.reviews_verified
    return PurchaseImportReport(created, known, verified)
