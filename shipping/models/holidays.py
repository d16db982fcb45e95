"""The store's own holidays (shipping.calendar adds Brazil's national and state ones)."""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.models import ShownByName, TimestampedModel

from ..calendar import YEARLY_YEAR, HolidayRule, city_key
from ..countries import state_code_get


class HolidayScope(models.TextChoices):
    NATIONAL = "national", _("National")
    STATE = "state", _("State")
    CITY = "city", _("City")


FIRST_YEAR, LAST_YEAR = 1900, 2999  # the admin's year links end at 9999


class Holiday(ShownByName, TimestampedModel):
    """A day carriers and storages close: everywhere, in a state or in a city; every year
    on the date's day and month, or on that date only."""

    name = models.CharField(_("name"), max_length=100)
    scope = models.CharField(
        _("scope"), max_length=10, choices=HolidayScope.choices, default=HolidayScope.CITY
    )
    state_code = models.CharField(
        _("state code"),
        max_length=10,
        blank=True,
        help_text=_("State (ISO 3166-2, e.g. BR-SP) of a state or city holiday."),
    )
    city = models.CharField(
        _("city"),
        max_length=100,
        blank=True,
        help_text=_("City of a city holiday, as postal codes name it (accents and case ignored)."),
    )
    ibge_code = models.CharField(
        _("IBGE code"),
        max_length=7,
        blank=True,
        help_text=_("The city's 7-digit IBGE code (optional; the city is matched by name)."),
    )
    date = models.DateField(_("date"))
    yearly = models.BooleanField(
        _("every year"),
        default=True,
        help_text=_("Repeats on this day and month every year; unticked: this date only."),
    )

    class Meta:
        verbose_name = _("holiday")
        verbose_name_plural = _("holidays")
        ordering = ["date", "state_code", "city", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "state_code", "city", "date", "yearly"],
                name="holiday_unique_per_place_and_date",
            )
        ]

    def clean(self) -> None:
        super().clean()
        errors: dict[str, object] = {}
        if self.scope == HolidayScope.NATIONAL:
            self.state_code, self.city, self.ibge_code = "", "", ""
        else:
            state = state_code_get("BRA", code=self.state_code or "")
            if state is None:
                errors["state_code"] = _("Enter a Brazilian state, e.g. BR-SP.")
            else:
                self.state_code = state
            if self.scope == HolidayScope.STATE:
                self.city, self.ibge_code = "", ""
            elif not (self.city or "").strip():
                errors["city"] = _("Enter the city of a city holiday.")
            else:
                self.city = " ".join(self.city.split())
        if self.ibge_code and not (self.ibge_code.isdigit() and len(self.ibge_code) == 7):
            errors["ibge_code"] = _("An IBGE city code has 7 digits.")
        if self.date and self.yearly:  # one row per day and month, whatever year was typed
            self.date = self.date.replace(year=YEARLY_YEAR)
        if self.date and not FIRST_YEAR <= self.date.year <= LAST_YEAR:
            errors["date"] = _("Enter a date from %(first)d to %(last)d.") % {
                "first": FIRST_YEAR,
                "last": LAST_YEAR,
            }
        if errors:
            raise ValidationError(errors)

    def rule(self) -> HolidayRule:
        return HolidayRule(
            day=self.date, yearly=self.yearly, state=self.state_code, city=city_key(self.city)
        )
