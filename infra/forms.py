"""Form fields of numbers staff type (money, kg, cm, %), text inputs read in the staff
member's language: never `<input type="number">`, where a browser not set to Portuguese
drops the comma of `99,90` (9990). infra/models.py's fields give them to every form.
"""

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from .numbers import CURRENCY_SYMBOL, NotANumber, number_text, parse_decimal, separators

UNIT_STYLE = "padding:0 4px;color:var(--body-quiet-color, #666)"


class UnitInput(forms.TextInput):
    """A text input for a number (numeric keyboard) with its unit before or after."""

    def __init__(
        self, *, prefix: str = "", suffix: str = "", attrs: dict[str, Any] | None = None
    ) -> None:
        attrs = {"inputmode": "decimal", "autocomplete": "off", "size": 14, **(attrs or {})}
        super().__init__(attrs)
        self.prefix, self.suffix = prefix, suffix

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        def unit(text: str) -> str:
            return format_html('<span style="{}">{}</span>', UNIT_STYLE, text) if text else ""

        field = super().render(name, value, attrs, renderer)
        return format_html("{}{}{}", unit(self.prefix), field, unit(self.suffix))


class NumberField(forms.DecimalField):
    prefix = ""
    suffix = ""
    example = Decimal("1234.5")
    default_error_messages = {
        "invalid": _("Enter a number like %(example)s."),
        "other_separator": _(
            "Use “%(separator)s” before the decimals: %(example)s "
            "(“%(thousands)s” separates thousands)."
        ),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", UnitInput(prefix=self.prefix, suffix=self.suffix))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]  # as Django's
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal):
            return value
        try:
            return parse_decimal(str(value))
        except NotANumber as refusal:
            decimal, thousands = separators()
            code = "invalid" if refusal.meant is None else "other_separator"
            example = self.example if refusal.meant is None else refusal.meant
            raise forms.ValidationError(
                self.error_messages[code],
                code=code,
                params={
                    "example": number_text(example, self.decimal_places or 0),
                    "separator": decimal,
                    "thousands": thousands,
                },
            ) from None

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Decimal) and value.is_finite():
            return number_text(value, self.decimal_places or 0)
        return value  # None, or what was typed, shown again with its error


class MoneyField(NumberField):
    prefix = CURRENCY_SYMBOL
    example = Decimal("1234.56")
    default_error_messages = {
        "invalid": _("Enter an amount like %(example)s."),
        "other_separator": _(
            "Use “%(separator)s” before the cents: %(example)s "
            "(“%(thousands)s” separates thousands)."
        ),
    }


class WeightField(NumberField):
    suffix = "kg"
    example = Decimal("1.5")


class LengthField(NumberField):
    suffix = "cm"
    example = Decimal("30.5")


class PercentageField(NumberField):
    suffix = "%"
    example = Decimal("2.5")


class JsonObjectField(forms.JSONField):
    """A JSON object staff type; left empty, it is {} (the column is NOT NULL, default {})."""

    def to_python(self, value: Any) -> Any:
        return {} if value in self.empty_values else super().to_python(value)
