"""How often the storefront's shoppers searched a text, per week (written after the answer:
catalog.services.searches_count, through infra.deferred)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class SearchCount(models.Model):
    """One normalized search text (folded words, catalog.search.normalized) in one week."""

    week = models.DateField(_("week"), help_text=_("The Monday the week starts on."))
    query = models.CharField(_("search"), max_length=100)
    searches = models.PositiveIntegerField(_("searches"), default=0)
    results = models.PositiveIntegerField(
        _("results"), default=0, help_text=_("Products found the last time it was searched.")
    )
    found_nothing = models.BooleanField(_("found nothing"), default=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("search count")
        verbose_name_plural = _("search counts")
        ordering = ["-week", "-searches", "query"]
        constraints = [
            models.UniqueConstraint(fields=["week", "query"], name="catalog_search_week_query")
        ]
        indexes = [models.Index(fields=["week", "-searches"], name="catalog_search_week_top")]

    def __str__(self) -> str:
        return self.query
