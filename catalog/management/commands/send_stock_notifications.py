"""manage.py send_stock_notifications: the back-in-stock scan, now (the worker runs it too)."""

from django.core.management.base import BaseCommand

from catalog.restocks import back_in_stock_scan, notifiable_interests, units_available


class Command(BaseCommand):
    help = (
        "Run the back-in-stock scan now (the jobs worker runs it every "
        "BACK_IN_STOCK_SCAN_SECONDS): open a restock episode for each product with waiting "
        "'notify-me' interests back in stock and queue its due waves (units x the staff's "
        "factor, oldest first; one e-mail per interest, ever). Workers (manage.py "
        "jobs_worker) run the waves and send the e-mails. Safe to run anywhere at once."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Only count the waiting interests of products in stock; queue nothing.",
        )

    def handle(self, *args, dry_run: bool = False, **options):
        if dry_run:
            waiting = notifiable_interests()
            units = units_available(set(waiting.values_list("product_id", flat=True)))
            candidates = waiting.filter(product_id__in=[p for p, n in units.items() if n > 0])
            self.stdout.write(
                f"Dry run: {candidates.count()} interest(s) wait for products in stock; "
                "nothing queued."
            )
            return
        summary = back_in_stock_scan()
        self.stdout.write(
            self.style.SUCCESS(
                f"Back in stock: {summary.opened} restock(s) opened, {summary.waves_queued} "
                f"wave(s) queued, {summary.ended} ended; workers send the e-mails."
            )
        )
