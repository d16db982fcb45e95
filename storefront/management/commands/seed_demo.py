"""manage.py seed_demo: load the demo store (idempotent: adds only what is missing)."""

from importlib import import_module
from importlib.util import find_spec

from django.apps import apps
from django.core.management.base import BaseCommand
from django.db import transaction


class Command(BaseCommand):
    help = (
        "Load the demo store. Idempotent: creates what is missing by natural keys, never "
        "duplicates and never overwrites what staff changed. Each app contributes its part "
        "in <app>/demo.py (seed(*, stdout)), in INSTALLED_APPS order."
    )

    def handle(self, *args, **options):
        for app_config in apps.get_app_configs():
            module_name = f"{app_config.name}.demo"
            if find_spec(module_name) is None:
                continue
            module = import_module(module_name)
            with transaction.atomic():
                module.seed(stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo store is ready."))
