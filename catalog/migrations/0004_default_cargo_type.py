"""Every product has a cargo type: the store's default one (`is_default`, at most one)
is created, and products without a cargo type get it (variations their parent's, which
is the default too when the parent had none)."""

import django.db.models.deletion
from django.db import migrations, models

DEFAULT_NAME = "Regular"


def give_every_product_a_cargo_type(apps, schema_editor):
    CargoType = apps.get_model("catalog", "CargoType")
    Product = apps.get_model("catalog", "Product")
    default = CargoType.objects.filter(is_default=True).first()
    if default is None:
        default, _ = CargoType.objects.get_or_create(name=DEFAULT_NAME)
        default.is_default = True
        default.save(update_fields=["is_default"])
    # Main products first, so variations then inherit their parent's (possibly just set).
    Product.objects.filter(cargo_type__isnull=True, parent__isnull=True).update(
        cargo_type=default
    )
    for variation in Product.objects.filter(cargo_type__isnull=True).select_related("parent"):
        variation.cargo_type_id = variation.parent.cargo_type_id or default.pk
        variation.save(update_fields=["cargo_type"])


class Migration(migrations.Migration):
    dependencies = [("catalog", "0003_optional_texts_blank")]

    operations = [
        migrations.AlterModelOptions(
            name="cargotype",
            options={
                "ordering": ["-is_default", "name", "id"],
                "verbose_name": "cargo type",
                "verbose_name_plural": "cargo types",
            },
        ),
        migrations.AddField(
            model_name="cargotype",
            name="is_default",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "Given to every product that names no cargo type (exactly one cargo "
                    "type is the default)."
                ),
                verbose_name="default",
            ),
        ),
        migrations.AlterField(
            model_name="cargotype",
            name="name",
            field=models.CharField(max_length=100, unique=True, verbose_name="name"),
        ),
        migrations.AddConstraint(
            model_name="cargotype",
            constraint=models.UniqueConstraint(
                condition=models.Q(("is_default", True)),
                fields=("is_default",),
                name="one_default_cargo_type",
            ),
        ),
        migrations.RunPython(give_every_product_a_cargo_type, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="product",
            name="cargo_type",
            field=models.ForeignKey(
                blank=True,
                help_text=(
                    "Empty: a variation takes its main product's, any other product the "
                    "store's default cargo type."
                ),
                on_delete=django.db.models.deletion.PROTECT,
                related_name="products",
                to="catalog.cargotype",
                verbose_name="cargo type",
            ),
        ),
    ]
