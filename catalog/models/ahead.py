"""Product pages and summaries rendered before they are asked (catalog.api.ahead;
docs/caching.md, "Pages rendered ahead"): upkeep writes them, a GET only reads them."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ProductPageAhead(models.Model):
    """One product page's answer for one origin and release, as `apikit.caching` keeps it,
    or (key `summary:...`) one product's summary (catalog.api.fragments.summaries_ahead)."""

    key = models.CharField(_("answer key"), max_length=200, primary_key=True)
    product = models.ForeignKey(
        "catalog.Product", on_delete=models.CASCADE, related_name="+", verbose_name=_("product")
    )
    release = models.CharField(_("release"), max_length=100)
    # the pickled apikit.caching.RenderedAnswer, whole (its plain body and its gzip bytes);
    # a summary's: (its versions, the JSON before and after its `stock`)
    answer = models.BinaryField(_("answer"))
    # [[namespace, version], ...] it was rendered with, and when it expires by itself: what
    # upkeep checks to find the pages to render again without reading the answers
    dependencies = models.JSONField(_("dependencies"))
    valid_until = models.FloatField(_("valid until"), null=True, blank=True)
    rendered_at = models.DateTimeField(_("rendered at"))

    class Meta:
        verbose_name = _("product page rendered ahead")
        verbose_name_plural = _("product pages rendered ahead")
        indexes = [models.Index(fields=["release"], name="catalog_ahead_release")]

    def __str__(self) -> str:
        return self.key
