"""manage.py refresh_review_summaries: recount every product's review summary."""

from django.core.management.base import BaseCommand

from feedback.services import product_review_summaries_refresh_all


class Command(BaseCommand):
    help = (
        "Recount the approved reviews of every product per score and store the product's "
        "review summary (the full product's `review`). Summaries are kept up to date as "
        "reviews change; run this once after installing, or after importing reviews with "
        "raw SQL. Safe to run at any time."
    )

    def handle(self, *args, **options):
        count = product_review_summaries_refresh_all()
        self.stdout.write(self.style.SUCCESS(f"Review summaries recounted for {count} product(s)."))
