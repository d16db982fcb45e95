"""Category tree and brands."""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from infra.models import ActiveQuerySet, ShownByName, TimestampedModel

from .fields import optional_fk

URL_MAX_LENGTH = 1000


class Category(ShownByName, TimestampedModel):
    """A node of the category tree; `url` (`/moda/camisetas`, the slugs from the root) is
    derived: `save()` rewrites it, and the descendants' when it changes."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(
        _("slug"),
        max_length=100,
        allow_unicode=False,
        blank=True,
        help_text=_("Part of the category's URL; filled from the name when left empty."),
    )
    parent = optional_fk(
        "self", _("parent"), "children", help_text=_("Empty for a top-level category.")
    )
    active = models.BooleanField(
        _("active"),
        default=True,
        help_text=_("Inactive categories and everything under them are hidden."),
    )
    position = models.PositiveIntegerField(
        _("position"), default=0, help_text=_("Order among its siblings (then by name).")
    )
    url = models.CharField(_("URL"), max_length=URL_MAX_LENGTH, editable=False, db_index=True)

    # active(): the flag only; a category under an inactive one is still hidden (see tree.py).
    objects = ActiveQuerySet.as_manager()

    class Meta:
        verbose_name = _("category")
        ordering = ["position", "name", "id"]
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(
                fields=["parent", "slug"], name="category_slug_unique_among_siblings"
            ),
            models.UniqueConstraint(
                fields=["slug"],
                condition=models.Q(parent__isnull=True),
                name="category_root_slug_unique",
            ),
            models.CheckConstraint(
                condition=~models.Q(parent=models.F("id")), name="category_not_its_own_parent"
            ),
        ]

    def ancestor_ids(self) -> list[int]:
        """Ids of the ancestors, nearest first (one query per level; admin and clean only)."""
        ids: list[int] = []
        seen: set[int] = set()
        parent_id = self.parent_id
        while parent_id is not None and parent_id not in seen:
            ids.append(parent_id)
            seen.add(parent_id)
            parent_id = (
                Category.objects.filter(pk=parent_id).values_list("parent_id", flat=True).first()
            )
        return ids

    def clean(self):
        super().clean()
        self.name = (self.name or "").strip()
        if not self.slug:
            self.slug = slugify(self.name)[:100]
        if not self.slug:
            raise ValidationError({"slug": _("Enter a slug (letters, digits, hyphens).")})
        moves_under_itself = self.pk is not None and (
            self.parent_id == self.pk or self.pk in self.ancestor_ids()
        )
        if moves_under_itself:
            raise ValidationError(
                {"parent": _("A category cannot be placed under itself or its descendants.")}
            )

    def build_url(self) -> str:
        parent_url = self.parent.url if self.parent_id else ""
        return f"{parent_url}/{self.slug}"[:URL_MAX_LENGTH]

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(self.name)[:100] or "category"
        old_url = self.url
        self.url = self.build_url()
        super().save(*args, **kwargs)
        if old_url and old_url != self.url:
            self._rewrite_descendant_urls()

    def _rewrite_descendant_urls(self) -> None:
        """Recompute the url of every descendant, one query per level, bulk updated."""
        level = [self]
        seen = {self.pk}
        while level:
            by_id = {node.pk: node for node in level}
            children = [
                child
                for child in Category.objects.filter(parent_id__in=by_id).only(
                    "id", "slug", "parent_id", "url"
                )
                if child.pk not in seen
            ]
            for child in children:
                assert child.parent_id is not None  # filtered on parent_id__in
                child.url = f"{by_id[child.parent_id].url}/{child.slug}"[:URL_MAX_LENGTH]
                seen.add(child.pk)
            Category.objects.bulk_update(children, ["url"], batch_size=500)
            level = children


class Brand(ShownByName, TimestampedModel):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=100, unique=True)
    active = models.BooleanField(_("active"), default=True)

    objects = ActiveQuerySet.as_manager()

    class Meta:
        verbose_name = _("brand")
        verbose_name_plural = _("brands")
        ordering = ["name", "id"]
