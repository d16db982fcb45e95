"""Demo catalog: categories, brands, products with variations, images, storages, stock,
prices, price rules, interests, relations and seals. Rows are looked up by natural key
(slug, SKU, code, name): only what is missing is created, in bulk, from a seeded random."""

import random
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils.text import slugify
from PIL import Image, ImageDraw

from catalog.models import (
    Attribute,
    AttributeValue,
    Brand,
    CargoType,
    Category,
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
from catalog.models.merchandising import ProductRelation, RelationKind, Seal
from catalog.selectors import CATALOGUE_CACHE, CATEGORY_CACHE, PRICE_RULE_CACHE, PRODUCTS_CACHE
from catalog.services import seal_prepare_image
from demo import image_bytes, load_data, say_created
from infra.caching.versions import cache_namespace_bump

DATA = load_data("catalog")
IMAGE_SIZE = 320
COLORS = DATA["colors"]
SIZES = DATA["sizes"]


def _placeholder_png(label: str, color: str) -> bytes:
    image = Image.new("RGB", (IMAGE_SIZE, IMAGE_SIZE), color)
    draw = ImageDraw.Draw(image)
    draw.rectangle((12, 12, IMAGE_SIZE - 12, IMAGE_SIZE - 12), outline="white", width=4)
    draw.text((24, IMAGE_SIZE // 2 - 8), label[:40], fill="white")
    return image_bytes(image, format="PNG", optimize=True)


def product_media(product: Product, image: tuple[str, int], position: int = 0) -> ProductMedia:
    """An unsaved media of `product` showing a stored `image` (name, size in bytes)."""
    name, size = image
    return ProductMedia(
        product_id=product.pk,
        title=product.name,
        alternative_text=f"Foto de {product.name}",
        file=name,
        original_file=name,
        size=size,
        original_size=size,
        width=IMAGE_SIZE,
        height=IMAGE_SIZE,
        position=position,
    )


def _color_photo(product: Product, color_label: str, hex_color: str, position: int) -> ProductMedia:
    name = f"{product.name} {color_label}"
    image = f"products/demo/{product.sku.lower()}-{slugify(color_label)}.png"  # written once
    if not default_storage.exists(image):
        image = default_storage.save(image, ContentFile(_placeholder_png(name, hex_color)))
    media = product_media(product, (image, default_storage.size(image)), position)
    media.title, media.alternative_text = name, f"Foto de {name}"
    return media


def _seed_categories(stdout) -> dict[str, Category]:
    """Leaf and inner categories by name (names are unique in the demo tree)."""
    by_name: dict[str, Category] = {}
    created = 0

    def get(name: str, parent: Category | None, position: int, active: bool) -> Category:
        nonlocal created
        category, was_created = Category.objects.get_or_create(
            parent=parent,
            slug=slugify(name),
            defaults={"name": name, "position": position, "active": active},
        )
        created += was_created
        by_name[name] = category
        return category

    for root_position, (root_name, children) in enumerate(DATA["categories"].items()):
        root = get(root_name, None, root_position, root_name not in DATA["inactive_roots"])
        for child_position, (child_name, grandchildren) in enumerate(children.items()):
            child = get(child_name, root, child_position, True)
            for leaf_position, leaf_name in enumerate(grandchildren):
                get(leaf_name, child, leaf_position, True)
    say_created(stdout, "categories", created)
    return by_name


def _seed_named(model, names, stdout, label: str) -> dict[str, Any]:
    """Rows by name, looked up by name (brands: by slug)."""
    rows: dict[str, Any] = {}
    created = 0
    for name in names:
        key = {"slug": slugify(name)} if model is Brand else {"name": name}
        rows[name], was_created = model.objects.get_or_create(**key, defaults={"name": name})
        created += was_created
    say_created(stdout, label, created)
    return rows


def _seed_attributes() -> tuple[dict[str, AttributeValue], dict[str, AttributeValue]]:
    color, size = (
        Attribute.objects.get_or_create(code=code, defaults={"name": name, "position": position})[0]
        for code, (name, position) in DATA["attributes"].items()
    )
    colors = {}
    for order, (label, hex_color) in enumerate(COLORS):
        colors[label], _ = AttributeValue.objects.get_or_create(
            attribute=color, label=label, defaults={"color": hex_color, "order": order}
        )
    sizes = {}
    for order, label in enumerate(SIZES):
        sizes[label], _ = AttributeValue.objects.get_or_create(
            attribute=size, label=label, defaults={"order": order}
        )
    return colors, sizes


def _seed_product_attributes() -> dict[str, dict[str, AttributeValue]]:
    """{code: {label: value}} of the main products' filterable attributes (material, voltage)."""
    found = {}
    for code, (name, position, labels) in DATA["product_attributes"].items():
        attribute = Attribute.objects.get_or_create(
            code=code, defaults={"name": name, "position": position}
        )[0]
        found[code] = {
            label: AttributeValue.objects.get_or_create(
                attribute=attribute, label=label, defaults={"order": order}
            )[0]
            for order, label in enumerate(labels)
        }
    return found


def _main_values(
    leaf: str, rng: random.Random, values: dict[str, dict[str, AttributeValue]]
) -> list[AttributeValue]:
    """A main product's material (of its leaf's list) and, when electric, its voltage."""
    chosen = []
    materials = DATA["leaf_materials"].get(leaf)
    if materials:
        chosen.append(values["material"][rng.choice(materials)])
    if leaf in DATA["electric_leaves"]:
        chosen.append(values["voltagem"][rng.choice(list(values["voltagem"]))])
    return chosen


def _seed_storages(stdout) -> list[Storage]:
    storages = []
    for spec in DATA["storages"]:
        storage, created = Storage.objects.get_or_create(code=spec["code"], defaults=spec)
        say_created(stdout, f"storage {storage}", created)
        storages.append(storage)
    return storages


@dataclass
class _NewProduct:
    product: Product
    leaf: str
    color: str
    variation_values: tuple[AttributeValue, ...] = ()
    parent_sku: str | None = None


# What a variation takes from its main product.
VARIATION_SHARES = ("base_price", "brand", "main_category", "cargo_type", "additional_time",
                    "width", "height", "length", "weight")  # fmt: skip


def _plan_products(rng, categories, brands, cargo_types, colors, sizes):
    """Every demo product (main products and variations), unsaved, in a fixed order."""
    leaves = list(DATA["leaf_products"])
    brand_list, styles = list(brands.values()), DATA["styles"]
    planned: list[_NewProduct] = []
    for index in range(DATA["product_count"]):
        leaf = leaves[index % len(leaves)]
        noun, low, high, cargo, varies = DATA["leaf_products"][leaf]
        brand = brand_list[rng.randrange(len(brand_list))]
        style = styles[rng.randrange(len(styles))]
        sku = f"DEMO-{index + 1:04d}"
        price = Decimal(rng.randint(low, high)) + Decimal("0.90")
        category = categories[leaf]
        weight = Decimal(rng.randint(100, 4000)) / 1000
        product = Product(
            type=ProductType.PRODUCT,
            sku=sku,
            name=f"{noun} {brand.name} {style}",
            slug=slugify(f"{noun} {brand.name} {style} {sku}"),
            priority=rng.randint(0, 10),
            base_price=price,
            brand=brand,
            main_category=category,
            cargo_type=cargo_types[cargo],
            additional_time=rng.choice([0, 0, 0, 1, 2]),
            width=Decimal(rng.randint(10, 60)),
            height=Decimal(rng.randint(2, 40)),
            length=Decimal(rng.randint(10, 80)),
            weight=weight * (10 if cargo == "Volumoso" else 1),
            ean=f"789{rng.randint(10**9, 10**10 - 1)}",
            ncm="6109.10.00" if varies else "9503.00.99",
        )
        color = f"#{rng.randint(0x303030, 0xA0A0A0):06X}"
        planned.append(_NewProduct(product, leaf, color))
        if varies and index % 2 == 0:
            for color_label, hex_color in COLORS[:2]:
                for size_label in SIZES:
                    vsku = f"{sku}-{color_label[:3].upper()}-{size_label}"
                    variation = Product(
                        type=ProductType.VARIATION,
                        sku=vsku,
                        name=f"{product.name} {color_label} {size_label}",
                        slug=slugify(f"{product.name} {color_label} {size_label} {vsku}"),
                        **{name: getattr(product, name) for name in VARIATION_SHARES},
                    )
                    values = (colors[color_label], sizes[size_label])
                    planned.append(_NewProduct(variation, leaf, hex_color, values, sku))
    return planned


def _seed_products(rng, categories, brands, cargo_types, colors, sizes, storages, stdout):
    planned = _plan_products(rng, categories, brands, cargo_types, colors, sizes)
    skus = [p.product.sku for p in planned]
    existing = set(Product.objects.filter(sku__in=skus).values_list("sku", flat=True))
    new = [p for p in planned if p.product.sku not in existing]
    if not new:
        return

    mains = [p for p in new if p.product.type == ProductType.PRODUCT]
    Product.objects.bulk_create([p.product for p in mains], batch_size=500)
    parent_skus = {p.parent_sku for p in planned if p.parent_sku}
    parents = dict(Product.objects.filter(sku__in=parent_skus).values_list("sku", "id"))
    variations = [p for p in new if p.product.type == ProductType.VARIATION]
    for item in variations:
        item.product.parent_id = parents[item.parent_sku]
    Product.objects.bulk_create([p.product for p in variations], batch_size=500)

    policy = TradePolicy.objects.default()
    rows: dict[Any, list] = defaultdict(list)  # new rows by model, created in bulk at the end
    product_values = _seed_product_attributes()
    attribute_rng = random.Random(f"{DATA['seed']}:attributes")  # noqa: S311 (demo data)

    def add(model, **fields) -> None:
        rows[model].append(model(**fields))

    for item in new:
        product = item.product
        add(Product.categories.through, product_id=product.pk, category_id=product.main_category_id)
        main_values = (
            _main_values(item.leaf, attribute_rng, product_values)
            if product.type == ProductType.PRODUCT
            else []
        )
        for value in (*item.variation_values, *main_values):
            add(Product.attribute_values.through, product_id=product.pk, attributevalue_id=value.pk)
        comparison = Decimal("0")
        if rng.random() < 0.4:
            comparison = (product.base_price * Decimal("1.25")).quantize(Decimal("0.01"))
        add(
            ProductPrice,
            product_id=product.pk,
            trade_policy=policy,
            sale_price=product.base_price,
            comparison_price=comparison,
            markup=Decimal("1.8"),
        )
        has_variations = product.sku in parent_skus  # stock lives on the variations
        sold_out = rng.random() < 0.15
        if not has_variations:
            for storage in storages:
                available = 0 if sold_out else rng.choice([0, 3, 8, 15, 40])
                reserved = rng.choice([0, 0, 1, 2]) if available else 0
                add(
                    Stock,
                    product_id=product.pk,
                    storage=storage,
                    available=available,
                    reserved=reserved,
                )
        image = f"products/demo/{product.sku.lower()}.png"  # written once
        if not default_storage.exists(image):
            image = default_storage.save(
                image, ContentFile(_placeholder_png(product.name, item.color))
            )
        rows[ProductMedia].append(product_media(product, (image, default_storage.size(image))))
        if product.type == ProductType.PRODUCT:
            words = {
                "name": product.name,
                "brand": product.brand.name,
                "leaf": item.leaf,
                "material": next(
                    (v.label for v in main_values if v.attribute.code == "material"), ""
                ),
                "details": "".join(f" {v.attribute.name}: {v.label}." for v in main_values),
            }
            texts = {field: text.format(**words) for field, text in DATA["descriptions"].items()}
            add(ProductDescription, product_id=product.pk, trade_policy=policy, **texts)
    # A product with variations shows a photo per colour too (the product page's gallery);
    # added last, so the other media keep their ids.
    for item in new:
        if item.product.sku in parent_skus:
            for position, (color_label, hex_color) in enumerate(COLORS[:2], start=1):
                rows[ProductMedia].append(
                    _color_photo(item.product, color_label, hex_color, position)
                )

    for model, model_rows in rows.items():
        model.objects.bulk_create(model_rows, batch_size=1000)
    stdout.write(
        f"  created {len(mains)} products and {len(variations)} variations "
        f"with prices, stock, images and descriptions"
    )


def _seed_price_rules(categories, stdout) -> None:
    for spec in DATA["price_rules"]:
        defaults = {**spec, "value": Decimal(spec["value"])}
        name, category_names = defaults.pop("name"), defaults.pop("categories", [])
        rule, created = PriceRule.objects.get_or_create(name=name, defaults=defaults)
        if created:
            rule.categories.set([categories[category] for category in category_names])
        say_created(stdout, f"price rule '{name}'", created)


WHOLESALE_CODE = "atacado"
WHOLESALE_PRODUCTS = 20  # the first demo products (by SKU) also sell at wholesale prices


def _seed_wholesale(stdout) -> None:
    """A wholesale trade policy, 10% below retail, pricing the first demo products."""
    policy, created = TradePolicy.objects.get_or_create(
        code=WHOLESALE_CODE, defaults={"name": "Atacado", "active": True}
    )
    say_created(stdout, f"trade policy '{policy.name}'", created)
    retail = ProductPrice.objects.filter(
        trade_policy__is_default=True,
        product__sku__startswith="DEMO-",
        product__parent__isnull=True,
    ).order_by("product__sku")[:WHOLESALE_PRODUCTS]
    priced = set(policy.prices.values_list("product_id", flat=True))
    rows = [
        ProductPrice(
            product_id=row.product_id,
            trade_policy=policy,
            sale_price=(row.sale_price * Decimal("0.9")).quantize(Decimal("0.01")),
            comparison_price=row.sale_price,
            markup=row.markup,
        )
        for row in retail
        if row.product_id not in priced
    ]
    ProductPrice.objects.bulk_create(rows)
    say_created(stdout, "wholesale prices", len(rows))


def _seed_interests(stdout) -> None:
    if ProductInterest.objects.filter(email__endswith="@cliente.example").exists():
        return
    sold_out = list(
        Product.objects.filter(sku__startswith="DEMO-", stocks__isnull=False)
        .exclude(stocks__available__gt=0)
        .distinct()
        .order_by("id")[:3]
    )
    in_stock = list(
        Product.objects.filter(sku__startswith="DEMO-", stocks__available__gt=0)
        .distinct()
        .order_by("id")[:2]
    )
    rows = [
        ProductInterest(product=product, **{k: v.format(n=n) for k, v in spec.items()})
        for products, spec in zip((sold_out, in_stock), DATA["interests"], strict=True)
        for n, product in enumerate(products, start=1)
    ]
    ProductInterest.objects.bulk_create(rows)
    stdout.write(f"  created {len(rows)} product interests")


# Related and indicated products of the first demo products (the upsell offers' too).
RELATION_SOURCES = 12
RELATIONS_PER_KIND = 3


def _seed_relations(stdout) -> None:
    """Related (same category) and indicated products of the first main products."""
    mains = list(
        Product.objects.filter(parent__isnull=True, sku__startswith="DEMO-")
        .order_by("sku")
        .only("id", "main_category_id")
    )
    taken = set(
        ProductRelation.objects.filter(product__in=mains[:RELATION_SOURCES]).values_list(
            "product_id", flat=True
        )
    )
    rows = []
    for product in mains[:RELATION_SOURCES]:
        if product.pk in taken:
            continue
        same = [p for p in mains if p.main_category_id == product.main_category_id]
        other = [p for p in mains if p.main_category_id != product.main_category_id]
        for kind, pool in ((RelationKind.RELATED, same), (RelationKind.INDICATED, other)):
            targets = [p for p in pool if p.pk != product.pk][:RELATIONS_PER_KIND]
            rows += [
                ProductRelation(product=product, target=target, kind=kind, position=position)
                for position, target in enumerate(targets)
            ]
    ProductRelation.objects.bulk_create(rows)
    say_created(stdout, "product relations", len(rows))


def _seal_png(label: str, color: str) -> bytes:
    """A round badge with a transparent background."""
    side = 240
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((4, 4, side - 4, side - 4), fill=color, outline="white", width=6)
    draw.text((side // 2, side // 2), label, fill="white", anchor="mm")
    return image_bytes(image, format="PNG", optimize=True)


def _seed_seals(stdout) -> None:
    """The demo seals, created once by name."""
    mains = Product.objects.filter(parent__isnull=True, sku__startswith="DEMO-").order_by("sku")
    for position, (name, (color, product_count, category_names)) in enumerate(
        DATA["seals"].items()
    ):
        if Seal.objects.filter(name=name).exists():
            continue
        seal = Seal(name=name, position=position)
        seal.original_image.save(
            f"{slugify(name)}.png", ContentFile(_seal_png(name, color)), save=False
        )
        seal_prepare_image(seal=seal)
        seal.save()
        if product_count:
            seal.products.set(mains[:product_count])
        if category_names:
            seal.categories.set(Category.objects.filter(name__in=category_names))
        stdout.write(f"  created seal {name}")


def seed(*, stdout) -> None:
    stdout.write("Catalog: categories, brands, products, storages, stock, prices")
    rng = random.Random(DATA["seed"])  # noqa: S311 (demo data, not security)
    categories = _seed_categories(stdout)
    brands = _seed_named(Brand, DATA["brands"], stdout, "brands")
    cargo_types = _seed_named(CargoType, DATA["cargo_types"], stdout, "cargo types")
    colors, sizes = _seed_attributes()
    storages = _seed_storages(stdout)
    _seed_products(rng, categories, brands, cargo_types, colors, sizes, storages, stdout)
    _seed_price_rules(categories, stdout)
    _seed_wholesale(stdout)
    _seed_interests(stdout)
    _seed_relations(stdout)
    _seed_seals(stdout)
    # Bulk inserts send no signals: refresh the cached reads ourselves.
    cache_namespace_bump(CATEGORY_CACHE)
    cache_namespace_bump(PRICE_RULE_CACHE)
    cache_namespace_bump(PRODUCTS_CACHE, CATALOGUE_CACHE)
