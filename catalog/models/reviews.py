"""Review counts of a product (the feedback app writes them through catalog.services)."""

from decimal import ROUND_HALF_UP, Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _

SCORES = (1, 2, 3, 4, 5)
TENTH = Decimal("0.1")


class ProductReviewSummary(models.Model):
    """Approved reviews of the product per score 1..5 (count and average derive from them),
    and how many of them are verified purchases."""

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
    verified = models.PositiveIntegerField(
        _("verified reviews"),
        default=0,
        help_text=_("Approved reviews whose author bought the product."),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("product review summary")
        verbose_name_plural = _("product review summaries")

    def __str__(self) -> str:
        return f"{self.product_id}: {self.average} ({self.count})"

    @property
    def counts(self) -> dict[int, int]:
        return {score: getattr(self, f"score_{score}") for score in SCORES}

    @property
    def count(self) -> int:
        return sum(self.counts.values())

    @property
    def average(self) -> Decimal:
        """Mean score rounded half-up to one decimal (0.0 without reviews)."""
        total = self.count
        if not total:
            return Decimal("0.0")
        points = sum(score * n for score, n in self.counts.items())
        return (Decimal(points) / Decimal(total)).quantize(TENTH, rounding=ROUND_HALF_UP)
