"""Steps of tests/catalog/test_restock_workers.py, each run in a new process
(`manage.py shell -c`) on the database the job workers share; each prints one JSON line."""

import json
from datetime import timedelta

from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from catalog.models import ProductInterest, Restock, RestockNotice, Stock
from jobs.models import OutboundEmail
from tests.catalog.factories import ProductFactory, StockFactory


def setup(interests: int) -> None:
    product = ProductFactory(name="Drill shirt")
    StockFactory(product=product, available=0)
    start = timezone.now() - timedelta(days=1)
    ProductInterest.objects.bulk_create(
        ProductInterest(
            product=product,
            origin="notify-me",
            name=f"C {number}",
            email=f"c{number:03}@example.com",
        )
        for number in range(interests)
    )
    for number, pk in enumerate(
        ProductInterest.objects.order_by("id").values_list("pk", flat=True)
    ):
        at = start + timedelta(minutes=number)
        ProductInterest.objects.filter(pk=pk).update(created_at=at, updated_at=at)
    print(json.dumps({"product": product.pk}))


def restock(units: int) -> None:
    Stock.objects.update(available=units)  # a bulk write: no signal
    print(json.dumps({"at": timezone.now().isoformat()}))


def wait_over() -> None:
    """As if the staff's wait had passed: the open episode's next wave is due."""
    moved = Restock.objects.filter(ended_at__isnull=True).update(
        next_wave_at=timezone.now() - timedelta(seconds=1)
    )
    print(json.dumps({"moved": moved}))


def state() -> None:
    waves = DBTaskResult.objects.filter(task_path="catalog.tasks.send_back_in_stock_wave")
    first = waves.order_by("enqueued_at").values_list("enqueued_at", flat=True).first()
    restocks = list(Restock.objects.values("waves", "started_at"))
    print(
        json.dumps(
            {
                "emails": OutboundEmail.objects.count(),
                "sent": OutboundEmail.objects.filter(status="sent").count(),
                "recipients": sorted(OutboundEmail.objects.values_list("to", flat=True)),
                "notices": RestockNotice.objects.count(),
                "restocks": len(restocks),
                "waves": max((r["waves"] for r in restocks), default=0),
                "first_wave_queued": first.isoformat() if first else None,
                "unfinished": DBTaskResult.objects.exclude(status="SUCCESSFUL").count(),
            }
        )
    )
