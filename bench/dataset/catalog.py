"""Catalog part of the benchmark's data set: the category tree and the products."""

import random
from decimal import Decimal
from io import BytesIO

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils.text import slugify
from PIL import Image

from catalog.models import (
    AttributeValue,
    Brand,
    CargoType,
    Category,
    Product,
    ProductDescription,
    ProductMedia,
    ProductPrice,
    ProductType,
    Stock,
    Storage,
    TradePolicy,
)
from demo.catalog import IMAGE_SIZE, VARIATION_SHARES, product_media

TOP_SKU = "BENCH-00001"
SKU_PREFIX = "BENCH-"
PLACEHOLDER_IMAGES = 8

NOUNS = [
    "Acessórios", "Bazar", "Bebidas", "Brinquedos", "Calçados", "Cama", "Camping",
    "Colecionáveis", "Cozinha", "Decoração", "Eletroportáteis", "Escritório", "Esportes",
    "Ferramentas", "Games", "Iluminação", "Informática", "Instrumentos", "Jardinagem",
    "Livros", "Malas", "Mercearia", "Móveis", "Música", "Papelaria", "Pet", "Relojoaria",
    "Saúde", "Tapetes", "Utilidades",
]  # fmt: skip
QUALIFIERS = [
    "Básicos", "Clássicos", "Compactos", "Especiais", "Infantis", "Importados",
    "Premium", "Profissionais", "Sustentáveis", "Térmicos", "Urbanos", "Vintage",
]  # fmt: skip
PRODUCT_NOUNS = [
    "Cafeteira", "Chaleira", "Garrafa térmica", "Luminária", "Mochila", "Mala de bordo",
    "Cadeira", "Tapete", "Fone de ouvido", "Caixa de som", "Relógio", "Jaqueta", "Camisa",
    "Tênis", "Bermuda", "Vestido", "Panela", "Faqueiro", "Jogo de toalhas", "Travesseiro",
]  # fmt: skip
STYLES = ["Essencial", "Premium", "Clássico", "Urbano", "Eco", "Pro", "Max", "Lite", "Plus"]


def add_categories(*, count: int, rng: random.Random) -> None:
    """`count` new categories in new top-level branches, level by level (urls and slugs are
    derived data that `save()` would compute: bulk inserts fill them in)."""
    if count <= 0:
        return
    taken_roots = set(Category.objects.filter(parent=None).values_list("slug", flat=True))
    names = [f"{noun} {qualifier}" for noun in NOUNS for qualifier in QUALIFIERS]
    roots = max(1, count // 200)
    level: list[Category] = []
    for position, name in enumerate(rng.sample(names, k=roots)):
        slug = slugify(name)
        while slug in taken_roots:
            slug += "-2"
        taken_roots.add(slug)
        # One branch in ten is switched off: it and everything under it stay hidden.
        level.append(
            Category(
                name=name, slug=slug, url=f"/{slug}", position=position, active=position % 10 != 3
            )
        )
    made = len(level)
    while level:
        Category.objects.bulk_create(level, batch_size=500)
        children: list[Category] = []
        for parent in level:
            if made >= count:
                break
            fanout = min(rng.randint(3, 8), count - made)
            for position, name in enumerate(rng.sample(names, k=fanout)):
                slug = slugify(name)
                children.append(
                    Category(
                        name=name,
                        slug=slug,
                        url=f"{parent.url}/{slug}",
                        parent_id=parent.pk,
                        position=position,
                        active=rng.random() > 0.03,
                    )
                )
            made += fanout
        level = children


def visible_categories() -> dict[int, int | None]:
    """{id: parent id} of the categories the public trees show (active, under active
    ancestors only), in id order."""
    rows = list(Category.objects.order_by("id").values_list("id", "parent_id", "active"))
    parent_of = {pk: parent for pk, parent, _ in rows}
    active = {pk: is_active for pk, _, is_active in rows}

    def visible(pk):
        while pk is not None:
            if not active[pk]:
                return False
            pk = parent_of[pk]
        return True

    return {pk: parent for pk, parent, _ in rows if visible(pk)}


def _visible_leaves() -> list[tuple[int, int | None]]:
    """(id, parent id) of the visible categories without children, in id order."""
    with_children = set(Category.objects.exclude(parent=None).values_list("parent_id", flat=True))
    return [(pk, parent) for pk, parent in visible_categories().items() if pk not in with_children]


def subtree_category() -> int | None:
    """The first visible category (by id) two levels below a root, with visible children
    and sisters: what the subtree row of the benchmark asks for."""
    visible = visible_categories()
    children: dict[int | None, int] = {}
    for parent in visible.values():
        children[parent] = children.get(parent, 0) + 1
    for pk, parent in visible.items():
        grandparent = visible.get(parent) if parent is not None else None
        depth_two = grandparent is not None and visible.get(grandparent) is None
        if depth_two and children.get(pk) and children[parent] > 1:
            return pk
    return None


def _placeholder_images() -> list[tuple[str, int]]:
    """A few shared placeholder PNGs (written once), as (storage name, size in bytes)."""
    images = []
    for index in range(PLACEHOLDER_IMAGES):
        name = f"products/bench/placeholder-{index}.png"
        if not default_storage.exists(name):
            buffer = BytesIO()
            hue = 40 + index * 25
            Image.new("RGB", (IMAGE_SIZE, IMAGE_SIZE), (hue, 120, 200 - hue // 2)).save(
                buffer, format="PNG"
            )
            name = default_storage.save(name, ContentFile(buffer.getvalue()))
        images.append((name, default_storage.size(name)))
    return images


def add_products(*, count: int, rng: random.Random) -> None:
    """`count` main products (the first is the top product) in the visible leaf categories,
    some with colour/size variations, with prices, stock, medias and descriptions."""
    if count <= 0:
        return
    leaves = _visible_leaves()
    brands = list(Brand.objects.order_by("id"))
    regular = CargoType.objects.get(name="Regular")
    storages = list(Storage.objects.active().order_by("id"))
    colors = list(AttributeValue.objects.filter(attribute__code="cor").order_by("order"))
    sizes = list(AttributeValue.objects.filter(attribute__code="tamanho").order_by("order"))
    policy = TradePolicy.objects.default()
    images = _placeholder_images()

    mains: list[tuple[Product, int | None, list]] = []  # product, leaf's parent, variations
    for index in range(count):
        sku = f"{SKU_PREFIX}{index + 1:05d}"
        leaf, leaf_parent = leaves[rng.randrange(len(leaves))]
        brand = brands[rng.randrange(len(brands))]
        name = f"{rng.choice(PRODUCT_NOUNS)} {brand.name} {rng.choice(STYLES)}"
        product = Product(
            sku=sku,
            name=name,
            slug=slugify(f"{name}-{sku}"),
            priority=rng.randint(0, 10),
            base_price=Decimal(rng.randint(19, 1999)) + Decimal("0.90"),
            brand=brand,
            main_category_id=leaf,
            cargo_type=regular,
            additional_time=rng.choice([0, 0, 0, 1, 2]),
            width=Decimal(rng.randint(10, 60)),
            height=Decimal(rng.randint(2, 40)),
            length=Decimal(rng.randint(10, 80)),
            weight=Decimal(rng.randint(100, 4000)) / 1000,
            ean=f"789{rng.randint(10**9, 10**10 - 1)}",
            ncm="9503.00.99",
        )
        values = []
        # The top product has stock of its own (no variations): the quote asks for it.
        if sku != TOP_SKU and rng.random() < 0.3:
            for color in rng.sample(colors, k=min(len(colors), rng.randint(2, 3))):
                values += [(color, size) for size in sizes]
        mains.append((product, leaf_parent, values))
    Product.objects.bulk_create([product for product, _, _ in mains], batch_size=500)

    variations: list[tuple[Product, tuple]] = []
    for main, _, values in mains:
        for color, size in values:
            sku = f"{main.sku}-{color.label[:3].upper()}-{size.label}"
            name = f"{main.name} {color.label} {size.label}"
            variation = Product(
                type=ProductType.VARIATION,
                parent_id=main.pk,
                sku=sku,
                name=name,
                slug=slugify(f"{name}-{sku}"),
                **{field: getattr(main, field) for field in VARIATION_SHARES},
            )
            variations.append((variation, (color, size)))
    Product.objects.bulk_create([variation for variation, _ in variations], batch_size=500)

    def price(product) -> ProductPrice:
        comparison = Decimal("0")
        if rng.random() < 0.4:
            comparison = (product.base_price * Decimal("1.25")).quantize(Decimal("0.01"))
        return ProductPrice(
            product_id=product.pk,
            trade_policy=policy,
            sale_price=product.base_price,
            comparison_price=comparison,
            markup=Decimal("1.8"),
        )

    def stock(product) -> list[Stock]:
        if product.sku == TOP_SKU:
            return [Stock(product_id=product.pk, storage=s, available=50) for s in storages]
        sold_out = rng.random() < 0.1
        return [
            Stock(
                product_id=product.pk,
                storage=storage,
                available=0 if sold_out else rng.choice([0, 3, 8, 15, 40]),
            )
            for storage in storages
        ]

    links, value_links, prices, stocks, medias, descriptions = [], [], [], [], [], []
    for product, leaf_parent, values in mains:
        prices.append(price(product))
        if not values:  # a product with variations keeps its stock on them
            stocks += stock(product)
        for category_id in (product.main_category_id, leaf_parent):
            if category_id is not None:
                links.append(
                    Product.categories.through(product_id=product.pk, category_id=category_id)
                )
        for position in range(rng.randint(1, 4)):
            medias.append(product_media(product, images[rng.randrange(len(images))], position))
        descriptions.append(
            ProductDescription(
                product_id=product.pk,
                trade_policy=policy,
                name=product.name,
                short_description=f"{product.name}: qualidade {product.brand.name}.",
                description=(
                    f"{product.name} da marca {product.brand.name}. Garantia de 12 meses, "
                    "troca grátis em 30 dias e entrega para todo o Brasil."
                ),
                search_description=product.name,
                seo_title=f"{product.name} | Loja",
                seo_description=f"Compre {product.name} com frete rápido.",
            )
        )
    for variation, values in variations:
        prices.append(price(variation))
        stocks += stock(variation)
        medias.append(product_media(variation, images[rng.randrange(len(images))], 0))
        value_links += [
            Product.attribute_values.through(product_id=variation.pk, attributevalue_id=value.pk)
            for value in values
        ]
    Product.categories.through.objects.bulk_create(links, batch_size=1000)
    Product.attribute_values.through.objects.bulk_create(value_links, batch_size=1000)
    ProductPrice.objects.bulk_create(prices, batch_size=1000)
    Stock.objects.bulk_create(stocks, batch_size=1000)
    ProductMedia.objects.bulk_create(medias, batch_size=1000)
    ProductDescription.objects.bulk_create(descriptions, batch_size=1000)
