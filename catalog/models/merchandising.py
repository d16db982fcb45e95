"""Related and indicated products, and seals (badges shown on products or categories)."""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from infra.models import (
    ActiveQuerySet,
    EndsAfterStart,
    ShownByName,
    TimestampedModel,
    derived_int_field,
    ends_after_start,
)

from .fields import product_fk

# Largest seal upload accepted (pixels): a badge is small; this refuses decompression bombs.
SEAL_MAX_SOURCE_PIXELS = 25_000_000
# The stored copy fits in a square of this side (pixels).
SEAL_MAX_SIDE = 512


def validate_seal_pixels(value) -> None:
    try:
        width, height = value.width, value.height
    except (OSError, TypeError, ValueError) as exc:
        raise ValidationError(_("Upload a valid image.")) from exc
    if width * height > SEAL_MAX_SOURCE_PIXELS:
        raise ValidationError(
            _("The image is too large (%(width)sx%(height)s); at most %(limit)s pixels."),
            params={"width": width, "height": height, "limit": f"{SEAL_MAX_SOURCE_PIXELS:,}"},
        )


class RelationKind(models.TextChoices):
    INDICATED = "indicated", _("Indicated (buy together)")
    RELATED = "related", _("Related (similar)")


class ProductRelation(TimestampedModel):
    """A product shown on another's page, in `indicatedProducts` or `relatedProducts`."""

    product = product_fk("relations")
    target = product_fk(
        "related_from",
        verbose_name=_("shown product"),
        help_text=_("Only active products are shown."),
    )
    kind = models.CharField(
        _("kind"), max_length=20, choices=RelationKind.choices, default=RelationKind.RELATED
    )
    position = models.PositiveIntegerField(
        _("position"), default=0, help_text=_("Lower numbers come first.")
    )

    class Meta:
        ordering = ["product_id", "kind", "position", "id"]
        verbose_name = _("product relation")
        verbose_name_plural = _("product relations")
        constraints = [
            models.UniqueConstraint(
                fields=["product", "target", "kind"], name="product_relation_unique"
            ),
            models.CheckConstraint(
                condition=~Q(product=F("target")), name="product_relation_not_itself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.target_id}"

    def clean(self):
        super().clean()
        if self.product_id is None or self.target_id is None:
            return
        if self.product_id == self.target_id:
            raise ValidationError({"target": _("A product cannot be related to itself.")})
        twins = ProductRelation.objects.filter(
            product_id=self.product_id, target_id=self.target_id, kind=self.kind
        ).exclude(pk=self.pk)
        if twins.exists():
            raise ValidationError({"target": _("This product is already listed here.")})


class Seal(ShownByName, EndsAfterStart, TimestampedModel):
    """A badge shown on its products and on those of its categories (and subcategories)."""

    name = models.CharField(_("name"), max_length=100)
    original_image = models.ImageField(
        _("image"),
        upload_to="seals/original/",
        max_length=255,
        validators=[validate_seal_pixels],
        help_text=_("PNG or JPEG; a copy fitted in 512 x 512 pixels is shown."),
    )
    # Written by services.seal_prepare_image.
    image = models.ImageField(
        _("fitted image"), upload_to="seals/", max_length=255, blank=True, editable=False
    )
    width = derived_int_field(_("width"))
    height = derived_int_field(_("height"))
    active = models.BooleanField(_("active"), default=True)
    start_at = models.DateTimeField(
        _("starts at"), null=True, blank=True, help_text=_("Leave empty to start at once.")
    )
    end_at = models.DateTimeField(
        _("ends at"), null=True, blank=True, help_text=_("Leave empty to never end.")
    )
    position = models.PositiveIntegerField(
        _("position"), default=0, help_text=_("Lower numbers come first.")
    )
    products = models.ManyToManyField(
        "catalog.Product",
        blank=True,
        related_name="seals",
        verbose_name=_("products"),
        help_text=_("Products showing the seal (with their variations)."),
    )
    categories = models.ManyToManyField(
        "catalog.Category",
        blank=True,
        related_name="seals",
        verbose_name=_("categories"),
        help_text=_("Every product of these categories and their subcategories shows it."),
    )

    objects = ActiveQuerySet.as_manager()

    class Meta:
        ordering = ["position", "name", "id"]
        verbose_name = _("seal")
        verbose_name_plural = _("seals")
        constraints = [ends_after_start("seal_ends_after_start")]
