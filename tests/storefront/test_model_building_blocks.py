"""infra/models.py: the factories give the fields they stand for, the schedule check refuses
an end before the start."""

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from catalog.models import PriceRule, Seal
from infra.models import degrees_field, money_field, percentage_field, weight_field


def same_field(made: models.Field, written: models.Field) -> bool:
    return made.deconstruct()[1:] == written.deconstruct()[1:]


def test_factories_deconstruct_as_the_fields_written_out():
    not_negative = [MinValueValidator(Decimal("0"))]
    assert same_field(
        money_field("price", default=Decimal("0")),
        models.DecimalField(
            "price", max_digits=12, decimal_places=2, default=Decimal("0"), validators=not_negative
        ),
    )
    assert same_field(
        weight_field("weight"),
        models.DecimalField("weight", max_digits=10, decimal_places=3, validators=not_negative),
    )
    assert same_field(
        percentage_field("rate", max_digits=6, decimal_places=4),
        models.DecimalField(
            "rate",
            max_digits=6,
            decimal_places=4,
            validators=[*not_negative, MaxValueValidator(Decimal("100"))],
        ),
    )
    assert same_field(
        degrees_field("latitude", 90),
        models.DecimalField(
            "latitude",
            max_digits=9,
            decimal_places=6,
            null=True,
            blank=True,
            validators=[MinValueValidator(Decimal("-90")), MaxValueValidator(Decimal("90"))],
        ),
    )


def test_ends_after_start_refuses_an_end_at_or_before_the_start():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    seal = Seal(name="Promo", start_at=start, end_at=start)
    with pytest.raises(ValidationError) as caught:
        seal.clean()
    assert list(caught.value.message_dict) == ["end_at"]
    Seal(name="Promo", start_at=start, end_at=None).clean()


@pytest.mark.django_db
def test_live_at_is_the_active_rules_inside_their_schedule():
    moment = datetime(2026, 6, 1, tzinfo=UTC)
    live = PriceRule.objects.create(name="live", value=Decimal("5"), start_at=moment)
    PriceRule.objects.create(
        name="later", value=Decimal("5"), start_at=datetime(2026, 7, 1, tzinfo=UTC)
    )
    PriceRule.objects.create(name="off", value=Decimal("5"), active=False)
    assert list(PriceRule.objects.live_at(moment)) == [live]
