"""Back-in-stock waves (docs/decisions.md, "Session 12: back-in-stock waves").

The jobs worker's upkeep (`back_in_stock_scan`, every BACK_IN_STOCK_SCAN_SECONDS) sees a
product with waiting interests come back in stock, however the stock changed (admin, import,
a bulk update: no signal needed), opens a restock episode and queues its wave job
(`catalog.tasks.send_back_in_stock_wave`). A wave re-reads the stock and e-mails at most
units x factor notifiable interests, oldest first; the next one is due after the staff's wait
and sends only if stock remains. An episode ends once the stock has stayed at 0 for
BACK_IN_STOCK_COOLDOWN_HOURS, so stock flapping is one episode; an interest is notified once
ever (marked notified), one notice per (interest, restock) by constraint, the e-mail keyed by
the interest.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q, QuerySet, Sum
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from infra.events import emit

from .models import (
    BackInStockOptOut,
    BackInStockSettings,
    InterestStatus,
    Product,
    ProductInterest,
    Restock,
    RestockNotice,
    Stock,
)
from .services import interest_email_enqueue

UNSUBSCRIBE_SALT = "catalog.back-in-stock.unsubscribe"
VISIT_SALT = "catalog.back-in-stock.visit"
VISIT_RECORD = "back-in-stock-visit"
# A queued wave job that has not run by then is queued again (the job is idempotent).
WAVE_JOB_GUARD = timedelta(minutes=10)


def notifiable_interests(now: datetime | None = None) -> QuerySet[ProductInterest]:
    """Pending notify-me interests not expired (INTEREST_EXPIRY_DAYS since registered or
    renewed) whose address did not unsubscribe after registering them."""
    now = now or timezone.now()
    opted_out = BackInStockOptOut.objects.filter(
        email=Lower(OuterRef("email")), created_at__gte=OuterRef("created_at")
    )
    return (
        ProductInterest.objects.awaiting_stock()
        .filter(updated_at__gte=now - timedelta(days=settings.INTEREST_EXPIRY_DAYS))
        .exclude(Exists(opted_out))
    )


def units_available(product_ids: Iterable[int]) -> dict[int, int]:
    """{product id: units available in active storages, its active variations' included}
    (0 for an inactive product)."""
    ids = list(product_ids)
    units = dict.fromkeys(ids, 0)
    if not ids:
        return units
    active = set(Product.objects.filter(pk__in=ids, active=True).values_list("pk", flat=True))
    rows = (
        Stock.objects.in_active_storages()
        .filter(Q(product_id__in=ids) | Q(product__parent_id__in=ids, product__active=True))
        .values_list("product_id", "product__parent_id", "available")
    )
    for product_id, parent_id, available in rows:
        for owner in (product_id, parent_id):
            if owner in active:
                units[owner] += available
    return units


@dataclass
class ScanSummary:
    opened: int = 0
    ended: int = 0
    waves_queued: int = 0


def back_in_stock_scan(now: datetime | None = None) -> ScanSummary:
    """Open an episode for each product with waiting interests back in stock, note or end
    the episodes whose stock is at 0, and queue the waves that are due."""
    from .tasks import send_back_in_stock_wave  # the task module imports this one

    now = now or timezone.now()
    summary = ScanSummary()
    waiting = set(notifiable_interests(now).values_list("product_id", flat=True).distinct())
    open_restocks = {r.product_id: r for r in Restock.objects.filter(ended_at__isnull=True)}
    units = units_available(waiting | set(open_restocks))
    cooldown = timedelta(hours=settings.BACK_IN_STOCK_COOLDOWN_HOURS)
    for product_id in sorted(waiting - set(open_restocks)):
        if units[product_id] <= 0:
            continue
        try:
            with transaction.atomic():
                Restock.objects.create(product_id=product_id, started_at=now, next_wave_at=now)
        except IntegrityError:
            continue  # another worker opened it
        summary.opened += 1
    for product_id, restock in open_restocks.items():
        episode = Restock.objects.filter(pk=restock.pk, ended_at__isnull=True)
        if units[product_id] > 0:
            if restock.zero_since is not None:
                episode.update(zero_since=None)
        elif restock.zero_since is None:
            episode.update(zero_since=now)
        elif now - restock.zero_since >= cooldown:
            summary.ended += episode.update(ended_at=now)
    with transaction.atomic():
        due = Restock.objects.filter(ended_at__isnull=True, next_wave_at__lte=now)
        if connection.features.has_select_for_update_skip_locked:
            due = due.select_for_update(skip_locked=True)
        for restock in due:
            restock.next_wave_at = now + WAVE_JOB_GUARD
            restock.save(update_fields=["next_wave_at"])
            send_back_in_stock_wave.enqueue(restock.pk, restock.waves + 1)
            summary.waves_queued += 1
    return summary


def unsubscribe_token(email: str) -> str:
    return signing.dumps(email.strip().lower(), salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_email(token: str) -> str | None:
    """The address of a signed unsubscribe token (None: tampered or not ours)."""
    try:
        email = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, TypeError, UnicodeError):
        return None
    return email if isinstance(email, str) and "@" in email else None


def back_in_stock_unsubscribe(email: str) -> None:
    """Never e-mail `email`'s interests registered until now (idempotent)."""
    BackInStockOptOut.objects.update_or_create(
        email=email.strip().lower(), defaults={"created_at": timezone.now()}
    )


def visit_token(notice: RestockNotice, product_id: int) -> str:
    return signing.dumps([notice.pk, product_id], salt=VISIT_SALT)


def visit_target(token: str) -> tuple[int, int] | None:
    """(notice id, product id) of a signed product link (None: tampered or not ours)."""
    try:
        value = signing.loads(token, salt=VISIT_SALT)
    except (signing.BadSignature, ValueError, TypeError, UnicodeError):
        return None
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
    ):
        return value[0], value[1]
    return None


def visits_store(items: Sequence[Any]) -> None:
    """Deferred handler: count the recorded (notice id, time) clicks of product links."""
    clicks: dict[int, list[datetime]] = {}
    for notice_id, at in items:
        clicks.setdefault(notice_id, []).append(at)
    with transaction.atomic():
        for notice_id, times in clicks.items():
            RestockNotice.objects.filter(pk=notice_id).update(visits=F("visits") + len(times))
            RestockNotice.objects.filter(pk=notice_id, first_visit_at__isnull=True).update(
                first_visit_at=min(times)
            )


def _links(notice: RestockNotice, interest: ProductInterest) -> dict[str, str]:
    """The e-mail's signed links (config/urls.py routes them to catalog/pages.py)."""
    site = settings.PUBLIC_BASE_URL.rstrip("/")
    visit = reverse("back-in-stock-visit", args=[visit_token(notice, interest.product_id)])
    unsubscribe = reverse("back-in-stock-unsubscribe", args=[unsubscribe_token(interest.email)])
    return {"visit_url": site + visit, "unsubscribe_url": site + unsubscribe}


def back_in_stock_wave(restock_id: int, wave: int) -> int:
    """Send wave `wave` of the episode (once: a repeated or late job sends nothing): the
    stock re-read, at most units x factor notifiable interests, oldest first; the number of
    e-mails queued."""
    now = timezone.now()
    config = BackInStockSettings.current()
    with transaction.atomic():
        restock = (
            Restock.objects.select_for_update(of=("self",))
            .select_related("product")
            .filter(pk=restock_id, ended_at__isnull=True)
            .first()
        )
        if restock is None or restock.waves >= wave:
            return 0
        product = restock.product
        units = units_available([product.pk])[product.pk]
        restock.waves = wave
        restock.next_wave_at = now + timedelta(hours=config.wave_wait_hours)
        if units <= 0:
            restock.zero_since = restock.zero_since or now
            restock.save(update_fields=["waves", "next_wave_at", "zero_since"])
            return 0
        restock.save(update_fields=["waves", "next_wave_at"])
        pending = notifiable_interests(now).filter(product=product).order_by("created_at", "id")
        if connection.features.has_select_for_update_skip_locked:
            pending = pending.select_for_update(skip_locked=True, of=("self",))
        batch = list(pending[: units * config.wave_factor])
        queued = 0
        for interest in batch:
            interest.product = product
            try:
                with transaction.atomic():
                    notice = RestockNotice.objects.create(
                        restock=restock, interest=interest, wave=wave, sent_at=now
                    )
            except IntegrityError:
                continue
            links = _links(notice, interest)
            if interest_email_enqueue(
                key=f"back-in-stock.{interest.pk}",
                interest=interest,
                template="back_in_stock",
                subject=format_lazy(_("{product} is back in stock"), product=product.name),
                headers={
                    "List-Unsubscribe": f"<{links['unsubscribe_url']}>",
                    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                },
                **links,
            ):
                queued += 1
        ProductInterest.objects.filter(pk__in=[i.pk for i in batch]).update(
            status=InterestStatus.NOTIFIED, notified_at=now, updated_at=now
        )
        if queued and not RestockNotice.objects.filter(restock=restock, wave__lt=wave).exists():
            emit("product.back_in_stock", product)
    return queued


@dataclass(frozen=True)
class DemandRow:
    product: Product
    pending: int
    oldest: datetime
    out_of_stock_since: datetime | None
    units: int
    notices: int
    visited: int


def demand_report(limit: int = 50) -> list[DemandRow]:
    """The products (variations apart) with the most notifiable interests: how long out of
    stock, how many notices were sent and how many led to a visit."""
    now = timezone.now()
    counts = list(
        notifiable_interests(now)
        .values("product_id")
        .annotate(pending=Count("id"), oldest=Min("created_at"))
        .order_by("-pending", "product_id")[:limit]
    )
    ids = [row["product_id"] for row in counts]
    products = Product.objects.select_related("parent").in_bulk(ids)
    units = units_available(ids)
    zero_since: dict[int, datetime | None] = {}
    for restock in Restock.objects.filter(product_id__in=ids).order_by("started_at"):
        zero_since[restock.product_id] = restock.zero_since or restock.ended_at
    last_change = dict(
        Stock.objects.filter(product_id__in=ids)
        .values("product_id")
        .annotate(last=Max("updated_at"))
        .values_list("product_id", "last")
    )
    notices = {
        row["interest__product_id"]: row
        for row in RestockNotice.objects.filter(interest__product_id__in=ids)
        .values("interest__product_id")
        .annotate(sent=Count("id"), visited=Count("id", filter=Q(visits__gt=0)))
    }
    report = []
    for row in counts:
        product_id = row["product_id"]
        since = None
        if units[product_id] <= 0:
            since = zero_since.get(product_id) or last_change.get(product_id)
        sent = notices.get(product_id)
        report.append(
            DemandRow(
                product=products[product_id],
                pending=row["pending"],
                oldest=row["oldest"],
                out_of_stock_since=since,
                units=units[product_id],
                notices=sent["sent"] if sent else 0,
                visited=sent["visited"] if sent else 0,
            )
        )
    return report


def restock_totals() -> dict[str, int]:
    """Sent and visited notices, all time (the report's footer)."""
    totals = RestockNotice.objects.aggregate(
        sent=Count("id"), visited=Count("id", filter=Q(visits__gt=0)), visits=Sum("visits")
    )
    return {key: value or 0 for key, value in totals.items()}
