from django.core.management.base import BaseCommand
from django.db import transaction

from demo import catalog, feedback, marketing, shipping, storefront, webhooks

# In this order: each app's demo builds on the ones before it.
SEEDERS = (storefront, catalog, marketing, shipping, feedback, webhooks)


class Command(BaseCommand):
    help = (
        "Load the demo store. Idempotent: creates what is missing by natural keys, never "
        "duplicates and never overwrites what staff changed."
    )

    def handle(self, *args, **options):
        for seeder in SEEDERS:
            with transaction.atomic():
                seeder.seed(stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo store is ready."))
