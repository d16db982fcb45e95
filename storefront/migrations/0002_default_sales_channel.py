from django.db import migrations


def create_default_channel(apps, schema_editor):
    SalesChannel = apps.get_model("storefront", "SalesChannel")
    if not SalesChannel.objects.filter(is_default=True).exists():
        SalesChannel.objects.get_or_create(
            domain="localhost",
            defaults={"name": "Default channel", "is_default": True, "active": True},
        )


class Migration(migrations.Migration):
    dependencies = [("storefront", "0001_initial")]

    operations = [migrations.RunPython(create_default_channel, migrations.RunPython.noop)]
