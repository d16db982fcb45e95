"""Building blocks of the apps' models: field factories (plain Django fields to migrations,
verbose name first as a gettext_lazy call where makemessages finds it), constraints, querysets.
"""

from datetime import datetime
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Any, Self

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from . import forms as number_forms
from .money import ZERO
from .scheduling import Window

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

NOT_NEGATIVE = MinValueValidator(ZERO)
ALPHA_3 = RegexValidator(r"^[A-Z]{3}\Z", _("Use the ISO 3166-1 alpha-3 code, e.g. BRA."))


class TimestampedModel(models.Model):
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        abstract = True


class ShownByName:
    """Model mixin: a record shows as its `name` (before the model base)."""

    name: str

    def __str__(self) -> str:
        return self.name


class TypedDecimalField(models.DecimalField):
    """A DecimalField with `form_class` (infra/forms.py) as its form field; migrations see a
    plain one (and so does a clone: migration states, which build no forms)."""

    def __init__(
        self, *args: Any, form_class: type[forms.Field] = number_forms.NumberField, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.form_class = form_class

    def formfield(self, **kwargs: Any) -> forms.Field | None:
        return super().formfield(**{"form_class": self.form_class, **kwargs})

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.DecimalField", args, kwargs


def _never_negative(
    form_class: type[forms.Field],
    verbose_name: "StrOrPromise",
    *,
    validators: tuple[Any, ...] = (),
    **kwargs: Any,
) -> models.DecimalField:
    return TypedDecimalField(
        verbose_name, form_class=form_class, validators=[NOT_NEGATIVE, *validators], **kwargs
    )


# Money, kilograms to the gram, centimetres to the tenth of a millimetre and percentages up to
# 100: never negative.
money_field = partial(_never_negative, number_forms.MoneyField, max_digits=12, decimal_places=2)
weight_field = partial(_never_negative, number_forms.WeightField, max_digits=10, decimal_places=3)
length_field = partial(_never_negative, number_forms.LengthField, max_digits=10, decimal_places=2)
percentage_field = partial(
    _never_negative,
    number_forms.PercentageField,
    max_digits=5,
    decimal_places=2,
    validators=(MaxValueValidator(Decimal("100")),),
)


def derived_int_field(verbose_name: "StrOrPromise") -> models.PositiveIntegerField:
    """A number the code writes (read from an upload), never staff."""
    return models.PositiveIntegerField(verbose_name, null=True, blank=True, editable=False)


def degrees_field(verbose_name: "StrOrPromise", limit: int) -> models.DecimalField:
    """An optional latitude (limit 90) or longitude (180)."""
    return models.DecimalField(
        verbose_name,
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(-limit)), MaxValueValidator(Decimal(limit))],
    )


def coordinate_constraints(prefix: str) -> list[models.BaseConstraint]:
    return [
        models.CheckConstraint(
            condition=Q(latitude__isnull=True) | Q(latitude__gte=-90, latitude__lte=90),
            name=f"{prefix}_latitude_range",
        ),
        models.CheckConstraint(
            condition=Q(longitude__isnull=True) | Q(longitude__gte=-180, longitude__lte=180),
            name=f"{prefix}_longitude_range",
        ),
    ]


def one_default(name: str, fields: tuple[str, ...] = ("is_default",)) -> models.UniqueConstraint:
    return models.UniqueConstraint(fields=fields, condition=Q(is_default=True), name=name)


def ends_after_start(name: str) -> models.CheckConstraint:
    """When both `start_at` and `end_at` are set, the end comes after the start."""
    return models.CheckConstraint(
        condition=Q(start_at__isnull=True) | Q(end_at__isnull=True) | Q(end_at__gt=F("start_at")),
        name=name,
    )


class EndsAfterStart:
    """Model mixin: clean() refuses a schedule that ends before it starts."""

    start_at: datetime | None
    end_at: datetime | None

    def clean(self) -> None:
        super().clean()  # type: ignore[misc]
        if self.start_at and self.end_at and self.end_at <= self.start_at:
            raise ValidationError({"end_at": _("The end must be after the start.")})

    @property
    def window(self) -> Window:
        return Window(self.start_at, self.end_at)


class ActiveQuerySet(models.QuerySet):
    def active(self) -> Self:
        return self.filter(active=True)


class LiveQuerySet(ActiveQuerySet):
    def live_at(self, moment: datetime) -> Self:
        """Active and inside its schedule (start inclusive, end exclusive)."""
        return self.active().filter(
            Q(start_at__isnull=True) | Q(start_at__lte=moment),
            Q(end_at__isnull=True) | Q(end_at__gt=moment),
        )
