"""The review summary of a product (approved reviews per score), written by the feedback
app; `manage.py refresh_review_summaries` fills it from the reviews already there."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("catalog", "0004_default_cargo_type")]

    operations = [
        migrations.CreateModel(
            name="ProductReviewSummary",
            fields=[
                (
                    "product",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="review_summary",
                        serialize=False,
                        to="catalog.product",
                        verbose_name="product",
                    ),
                ),
                ("score_1", models.PositiveIntegerField(default=0, verbose_name="reviews scoring 1")),
                ("score_2", models.PositiveIntegerField(default=0, verbose_name="reviews scoring 2")),
                ("score_3", models.PositiveIntegerField(default=0, verbose_name="reviews scoring 3")),
                ("score_4", models.PositiveIntegerField(default=0, verbose_name="reviews scoring 4")),
                ("score_5", models.PositiveIntegerField(default=0, verbose_name="reviews scoring 5")),
                ("updated_at", models.DateTimeField(auto_now=True, verbose_name="updated at")),
            ],
            options={
                "verbose_name": "product review summary",
                "verbose_name_plural": "product review summaries",
            },
        ),
    ]
