"""factory_boy factories of the catalog app."""

from decimal import Decimal

import factory

from catalog.models import (
    Attribute,
    AttributeValue,
    Brand,
    CargoType,
    Category,
    InterestOrigin,
    MediaType,
    PriceRule,
    Product,
    ProductDescription,
    ProductInterest,
    ProductMedia,
    ProductPrice,
    ProductType,
    Stock,
    Storage,
    TradePolicy,
)


def default_trade_policy() -> TradePolicy:
    """The default policy created by migration 0002 (made again after a transactional
    test, e.g. the browser suite's, flushed the tables)."""
    return (
        TradePolicy.objects.default()
        or TradePolicy.objects.get_or_create(
            code="default", defaults={"name": "Default", "is_default": True, "active": True}
        )[0]
    )


class TradePolicyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TradePolicy

    name = factory.Sequence(lambda n: f"Policy {n}")
    code = factory.Sequence(lambda n: f"policy-{n}")
    active = True
    is_default = False


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Category

    name = factory.Sequence(lambda n: f"Category {n}")
    slug = factory.Sequence(lambda n: f"category-{n}")
    parent = None
    active = True
    position = 0


class BrandFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Brand

    name = factory.Sequence(lambda n: f"Brand {n}")
    slug = factory.Sequence(lambda n: f"brand-{n}")


class CargoTypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CargoType

    name = factory.Sequence(lambda n: f"Cargo {n}")


class ProductFactory(factory.django.DjangoModelFactory):
    """An active product with a brand and a main category (no price row, no stock)."""

    class Meta:
        model = Product
        skip_postgeneration_save = True

    type = ProductType.PRODUCT
    sku = factory.Sequence(lambda n: f"SKU-{n:05d}")
    name = factory.Sequence(lambda n: f"Product {n}")
    base_price = Decimal("100.00")
    brand = factory.SubFactory(BrandFactory)
    main_category = factory.SubFactory(CategoryFactory)
    width = Decimal("10")
    height = Decimal("10")
    length = Decimal("10")
    weight = Decimal("0.500")

    @factory.post_generation
    def categories(self, create, extracted, **kwargs):
        if create and extracted:
            self.categories.set(extracted)


class VariationFactory(ProductFactory):
    """A variation of `parent` (pass it), sharing its brand and main category."""

    type = ProductType.VARIATION
    parent = factory.SubFactory(ProductFactory)
    brand = factory.SelfAttribute("parent.brand")
    main_category = factory.SelfAttribute("parent.main_category")

    @factory.post_generation
    def values(self, create, extracted, **kwargs):
        if create and extracted:
            self.attribute_values.set(extracted)


class AttributeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Attribute
        django_get_or_create = ("code",)

    name = factory.Sequence(lambda n: f"Attribute {n}")
    code = factory.Sequence(lambda n: f"attribute-{n}")


class AttributeValueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AttributeValue

    attribute = factory.SubFactory(AttributeFactory)
    label = factory.Sequence(lambda n: f"Value {n}")
    color = "#1A2B3C"


class ProductMediaFactory(factory.django.DjangoModelFactory):
    """An image media with a small generated PNG (use the `media_root` fixture)."""

    class Meta:
        model = ProductMedia

    product = factory.SubFactory(ProductFactory)
    type = MediaType.IMAGE
    title = factory.Sequence(lambda n: f"Photo {n}")
    original_file = factory.django.ImageField(width=40, height=30, color="blue")
    file = factory.LazyAttribute(lambda media: media.original_file)
    width = 40
    height = 30


class ProductDescriptionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProductDescription

    product = factory.SubFactory(ProductFactory)
    trade_policy = factory.LazyFunction(default_trade_policy)
    name = factory.LazyAttribute(lambda d: d.product.name)
    short_description = "Short text"
    description = "Long text"


class ProductPriceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProductPrice

    product = factory.SubFactory(ProductFactory)
    trade_policy = factory.LazyFunction(default_trade_policy)
    comparison_price = Decimal("120.00")
    sale_price = Decimal("99.90")
    markup = Decimal("1.5000")


class PriceRuleFactory(factory.django.DjangoModelFactory):
    """An automatic 10% rule on every product (targets: pass products/categories/brands)."""

    class Meta:
        model = PriceRule
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Rule {n}")
    value = Decimal("10")
    rule_target = "all"

    @factory.post_generation
    def products(self, create, extracted, **kwargs):
        if create and extracted:
            self.products.set(extracted)

    @factory.post_generation
    def categories(self, create, extracted, **kwargs):
        if create and extracted:
            self.categories.set(extracted)

    @factory.post_generation
    def brands(self, create, extracted, **kwargs):
        if create and extracted:
            self.brands.set(extracted)

    @factory.post_generation
    def trade_policies(self, create, extracted, **kwargs):
        if create and extracted:
            self.trade_policies.set(extracted)


class StorageFactory(factory.django.DjangoModelFactory):
    """An active storage in São Paulo (Av. Paulista)."""

    class Meta:
        model = Storage

    code = factory.Sequence(lambda n: f"storage-{n}")
    corporate_name = factory.Sequence(lambda n: f"Storage {n} Ltda")
    trade_name = factory.Sequence(lambda n: f"Storage {n}")
    email = "storage@store.example"
    phone = "+55 11 3000-0000"
    document = "12.345.678/0001-90"
    country_code = "BRA"
    state_code = "BR-SP"
    zip_code = "01310-100"
    city = "São Paulo"
    address = "Avenida Paulista"
    district = "Bela Vista"
    number = "1000"
    latitude = Decimal("-23.561414")
    longitude = Decimal("-46.655881")


class StockFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Stock

    product = factory.SubFactory(ProductFactory)
    storage = factory.SubFactory(StorageFactory)
    available = 10
    reserved = 0


class ProductInterestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProductInterest

    product = factory.SubFactory(ProductFactory)
    origin = InterestOrigin.NOTIFY_ME
    name = "Maria Silva"
    email = factory.Sequence(lambda n: f"customer{n}@example.com")
