"""factory_boy factories of the marketing app."""

import io
from decimal import Decimal

import factory
from django.core.files.base import ContentFile
from PIL import Image

from marketing.models import Banner, BannerGroup, Upsell
from tests.catalog.factories import PriceRuleFactory, ProductFactory


def image_file(
    name: str = "banner.jpg", *, width: int = 64, height: int = 32, color=(200, 30, 30)
) -> ContentFile:
    """A real image upload (JPEG, or PNG with transparency when `color` has alpha)."""
    mode = "RGBA" if len(color) == 4 else "RGB"
    buffer = io.BytesIO()
    Image.new(mode, (width, height), color).save(buffer, format="PNG" if mode == "RGBA" else "JPEG")
    return ContentFile(buffer.getvalue(), name=name)


class BannerGroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BannerGroup

    code = factory.Sequence(lambda n: f"group-{n}")
    name = factory.Sequence(lambda n: f"Group {n}")
    title = "Summer sale"
    description = "Everything for the summer."
    location_id = "home-top"
    desktop_width = 1200
    desktop_height = 400
    tablet_width = 800
    tablet_height = 300
    mobile_width = 400
    mobile_height = 400


class BannerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Banner

    group = factory.SubFactory(BannerGroupFactory)
    name = factory.Sequence(lambda n: f"Banner {n}")
    alt = "A red banner"
    desktop_original_image = factory.LazyFunction(lambda: image_file("desktop.jpg"))
    desktop_url = "/sale"
    order = 0
    active = True


class UpsellFactory(factory.django.DjangoModelFactory):
    """An always-on cart offer of a product at 10% off (an upsell-trigger price rule)."""

    class Meta:
        model = Upsell
        skip_postgeneration_save = True

    display_title = factory.Sequence(lambda n: f"Add offer {n}")
    display_description = "Goes well with your cart."
    display_button_text = "Add"
    quantity = 1
    product = factory.SubFactory(ProductFactory)
    price_rule = factory.SubFactory(PriceRuleFactory, trigger="upsell", value=Decimal("10"))
    location = "cart"
    priority = 0
    active = True

    @factory.post_generation
    def trigger_products(self, create, extracted, **kwargs):
        if create and extracted:
            self.trigger_products.set(extracted)

    @factory.post_generation
    def trigger_categories(self, create, extracted, **kwargs):
        if create and extracted:
            self.trigger_categories.set(extracted)
