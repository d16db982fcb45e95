"""What customers' reviews say of a product, kept on the catalog side (the feedback app
writes it through catalog.services; the catalog never reads the reviews themselves)."""

from decimal import ROUND_HALF_UP, Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _

SCORES = (1, 2, 3, 4, 5)
TENTH = Decimal("0.1")


class ProductReviewSummary(models.Model):
    """How many approved (active) reviews the product has with each score 1..5.

    One row per product that has, or had, approved reviews; the count and the average are
    derived from the five counters, so they can never disagree.
    """

    product = models.OneToOneField(
        "catalog.Product",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="review_summary",
        verbose_name=_("product"),
    )
    score_1 = models.PositiveIntegerField(_("reviews scoring 1"), default=0)
    score_2 = models.PositiveIntegerField(_("reviews scoring 2"), default=0)
    score_3 = models.PositiveIntegerField(_("reviews scoring 3"), default=0)
    score_4 = models.PositiveIntegerField(_("reviews scoring 4"), default=0)
    score_5 = models.PositiveIntegerField(_("reviews scoring 5"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("product review summary")
        verbose_name_plural = _("product review summaries")

    def __str__(self) -> str:
        return f"{self.product_id}: {self.average} ({self.count})"

    @property
    def counts(self) -> dict[int, int]:
        """{score: approved reviews with that score} for every score 1..5."""
        return {score: getattr(self, f"score_{score}") for score in SCORES}

    @property
    def count(self) -> int:
        return sum(self.counts.values())

    @property
    def average(self) -> Decimal:
        """Mean score rounded half-up to one decimal (0.0 without reviews)."""
        counts = self.counts
        total = sum(counts.values())
        if not total:
            return Decimal("0.0")
        points = sum(score * n for score, n in counts.items())
        return (Decimal(points) / Decimal(total)).quantize(TENTH, rounding=ROUND_HALF_UP)
