"""Money: Decimal to the cent, rounded half-up (pure; imported by the pure modules)."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0")


def money(value: Decimal) -> Decimal:
    """Round half-up (halves away from zero) to cents."""
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)
