"""Field factories shared by the catalog's models."""

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _


def product_fk(related_name: str, **kwargs: Any) -> models.ForeignKey:
    """A foreign key to the product, deleted with it."""
    kwargs.setdefault("verbose_name", _("product"))
    return models.ForeignKey(
        "catalog.Product", on_delete=models.CASCADE, related_name=related_name, **kwargs
    )


def optional_fk(
    to: str, verbose_name: Any, related_name: str, on_delete: Any = models.PROTECT, **kwargs: Any
) -> models.ForeignKey:
    """A foreign key that may be empty."""
    return models.ForeignKey(
        to,
        verbose_name=verbose_name,
        null=True,
        blank=True,
        on_delete=on_delete,
        related_name=related_name,
        **kwargs,
    )
