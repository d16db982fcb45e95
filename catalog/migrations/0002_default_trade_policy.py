"""Create the store's default trade policy (prices and descriptions hang off a policy)."""

from django.db import migrations


def create_default(apps, schema_editor):
    TradePolicy = apps.get_model("catalog", "TradePolicy")
    if not TradePolicy.objects.filter(is_default=True).exists():
        TradePolicy.objects.get_or_create(
            code="default", defaults={"name": "Default", "is_default": True, "active": True}
        )


class Migration(migrations.Migration):
    dependencies = [("catalog", "0001_initial")]

    operations = [migrations.RunPython(create_default, migrations.RunPython.noop)]
