"""Addresses by country and postal code, loaded by `import_postal_codes`."""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Concat
from django.utils.translation import gettext_lazy as _

from infra.models import ALPHA_3, TimestampedModel, coordinate_constraints, degrees_field

from ..countries import Country, country_get, state_code_get
from ..postal import (
    FOLD_FROM,
    FOLD_TO,
    MAX_CODE_LENGTH,
    InvalidPostalCode,
    format_postal_code,
    normalize_postal_code,
)

UNKNOWN_COUNTRY = _("Unknown country: use an ISO 3166-1 alpha-3 code.")


def country_alpha_3_clean(raw: str | None) -> Country | None:
    """The country of an alpha-3 code typed by staff (any case, spaces trimmed); None when
    it is not a known alpha-3 code."""
    code = (raw or "").strip().upper()
    country = country_get(code)
    return country if country is not None and country.alpha_3 == code else None


# Field lengths shared with the importers (a longer value is a rejected line, not a crash).
PUBLIC_PLACE_MAX = 200
COMPLEMENT_MAX = 200
DISTRICT_MAX = 100
CITY_MAX = 100


class Folded(models.Func):
    """The text with its accents folded and in lower case (postal.fold): PostgreSQL's
    LOWER(TRANSLATE()), on SQLite the deterministic function that apps.py registers on each
    connection (nested REPLACEs overflow SQLite's parser); so it can make a generated column."""

    function = "shipping_fold"
    output_field = models.TextField()

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"LOWER(TRANSLATE({sql}, '{FOLD_FROM}', '{FOLD_TO}'))", params


class PostalCode(TimestampedModel):
    country = models.CharField(
        _("country"),
        max_length=3,
        validators=[ALPHA_3],
        help_text=_("ISO 3166-1 alpha-3, e.g. BRA."),
    )
    code = models.CharField(
        _("code"),
        max_length=MAX_CODE_LENGTH,
        help_text=_(
            "Normalized: Brazil 8 digits, US 5 digits, others upper case without spaces or hyphens."
        ),
    )
    public_place = models.CharField(_("public place"), max_length=PUBLIC_PLACE_MAX, blank=True)
    complement = models.CharField(_("complement"), max_length=COMPLEMENT_MAX, blank=True)
    district = models.CharField(_("district"), max_length=DISTRICT_MAX, blank=True)
    city = models.CharField(_("city"), max_length=CITY_MAX, blank=True)
    state_code = models.CharField(
        _("state code"),
        max_length=10,
        blank=True,
        help_text=_("ISO 3166-2 with country prefix: BR-SP."),
    )
    latitude = degrees_field(_("latitude"), 90)
    longitude = degrees_field(_("longitude"), 180)
    # What the admin's search looks in: the code and the address words, accents folded, lower
    # case (written by the database on every insert and update, imports' raw SQL included).
    search = models.GeneratedField(
        expression=Folded(
            Concat(
                "code",
                models.Value(" "),
                "public_place",
                models.Value(" "),
                "district",
                models.Value(" "),
                "city",
                models.Value(" "),
                "state_code",
                output_field=models.TextField(),
            )
        ),
        output_field=models.TextField(),
        db_persist=True,
        verbose_name=_("search text"),
    )

    class Meta:
        verbose_name = _("postal code")
        verbose_name_plural = _("postal codes")
        ordering = ["country", "code"]
        constraints = [
            models.UniqueConstraint(
                fields=["country", "code"], name="postal_code_unique_per_country"
            ),
            *coordinate_constraints("postal_code"),
        ]

    def __str__(self) -> str:
        return f"{self.country} {self.display_code}"

    @property
    def display_code(self) -> str:
        return format_postal_code(self.country, self.code)

    def clean(self):
        super().clean()
        country = country_alpha_3_clean(self.country)
        if country is None:
            raise ValidationError({"country": UNKNOWN_COUNTRY})
        self.country = country.alpha_3
        try:
            self.code = normalize_postal_code(self.country, self.code or "")
        except InvalidPostalCode as exc:
            raise ValidationError({"code": str(exc)}) from None
        if self.state_code:
            state = state_code_get(self.country, code=self.state_code)
            if state is None:
                raise ValidationError(
                    {
                        "state_code": _("Not a subdivision of %(country)s (e.g. BR-SP).")
                        % {"country": country.name}
                    }
                )
            self.state_code = state
