"""factory_boy factories of product relations and seals (use the `media_root` fixture)."""

import io

import factory
from django.core.files.base import ContentFile
from PIL import Image

from catalog.models import ProductRelation, RelationKind, Seal

from .factories import ProductFactory


def png_file(name: str = "seal.png", *, width: int = 64, height: int = 64) -> ContentFile:
    buffer = io.BytesIO()
    Image.new("RGBA", (width, height), (30, 120, 200, 255)).save(buffer, format="PNG")
    return ContentFile(buffer.getvalue(), name=name)


class ProductRelationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProductRelation

    product = factory.SubFactory(ProductFactory)
    target = factory.SubFactory(ProductFactory)
    kind = RelationKind.RELATED
    position = 0


class SealFactory(factory.django.DjangoModelFactory):
    """An always-live seal (pass `products=[...]` or `categories=[...]`)."""

    class Meta:
        model = Seal
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Seal {n}")
    original_image = factory.LazyFunction(png_file)
    active = True

    @factory.post_generation
    def products(self, create, extracted, **kwargs):
        if create and extracted:
            self.products.set(extracted)

    @factory.post_generation
    def categories(self, create, extracted, **kwargs):
        if create and extracted:
            self.categories.set(extracted)
