"""Catalog part of the benchmark's data set: the category tree and the products."""

import random
from datetime import timedelta
from decimal import Decimal
from io import BytesIO

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone
from django.utils.text import slugify
from PIL import Image

from catalog.models import (
    Attribute,
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
from demo.catalog import IMAGE_SIZE

from .rows import insert

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
# The store's vocabulary (search draws its random words from it, bench/paths.py): a product
# is "<noun> <adjective> <colour>" of a brand, found also by its material and categories.
PRODUCT_NOUNS = [
    "Camiseta", "Calça", "Bermuda", "Jaqueta", "Casaco", "Vestido", "Saia", "Blusa", "Camisa",
    "Meia", "Tênis", "Sandália", "Bota", "Chinelo", "Boné", "Mochila", "Bolsa", "Carteira",
    "Cinto", "Relógio", "Óculos", "Caneca", "Copo", "Prato", "Panela", "Frigideira", "Talher",
    "Toalha", "Lençol", "Travesseiro", "Cobertor", "Almofada", "Tapete", "Cortina", "Luminária",
    "Abajur", "Cadeira", "Mesa", "Estante", "Armário", "Gaveteiro", "Sofá", "Colchão", "Caderno",
    "Caneta", "Estojo", "Cafeteira", "Chaleira", "Garrafa", "Liquidificador", "Ventilador",
    "Fone", "Caixa de som", "Teclado", "Mouse", "Monitor", "Carregador", "Bicicleta",
    "Capacete", "Halter", "Bola", "Raquete", "Barraca", "Lanterna", "Furadeira", "Parafusadeira",
    "Perfume", "Sabonete", "Xampu", "Escova", "Secador", "Brinquedo", "Quebra-cabeça", "Pião",
    "Colar", "Brinco", "Pulseira", "Vaso", "Regador", "Edredom",
]  # fmt: skip
ADJECTIVES = [
    "básico", "estampado", "listrado", "liso", "infantil", "feminino", "masculino",
    "esportivo", "térmico", "impermeável", "clássico", "moderno", "rústico", "orgânico",
    "natural", "compacto", "dobrável", "elétrico", "manual", "grande", "pequeno", "leve",
    "resistente", "macio", "portátil", "recarregável", "ergonômico", "antiaderente",
    "sustentável", "artesanal",
]  # fmt: skip
COLOURS = [
    "azul", "vermelho", "verde", "amarelo", "preto", "branco", "cinza", "rosa", "marrom",
    "bege", "roxo", "laranja", "dourado", "prata", "grafite", "vinho",
]  # fmt: skip
MATERIALS = [
    "Algodão", "Couro", "Linho", "Seda", "Lã", "Poliéster", "Madeira", "Vidro", "Cerâmica",
    "Aço inox", "Bambu", "Alumínio", "Plástico reciclado", "Borracha",
]  # fmt: skip
STYLES = ["Essencial", "Premium", "Clássico", "Urbano", "Eco", "Pro", "Max", "Lite", "Plus"]
# Brands the data set adds to the demo's.
BRAND_NAMES = [
    "Araucária", "Baobá", "Capivara", "Cerrado", "Coqueiro", "Ema", "Graúna", "Ipanema",
    "Jabuti", "Jatobá", "Lobo-guará", "Mandacaru", "Maracujá", "Mata Atlântica", "Pampa",
    "Pantanal", "Pequi", "Quero-quero", "Sabiá", "Sertão", "Tamanduá", "Tucano", "Uirapuru",
    "Urucum", "Vitória-régia", "Xingu", "Zabelê", "Beija-flor", "Carnaúba", "Buriti",
    "Acerola", "Bromélia", "Cajueiro", "Guaraná", "Jequitibá", "Pitanga",
]  # fmt: skip
# Filterable attributes of the main products: code -> (name, position, values).
PRODUCT_ATTRIBUTES = {
    "material": ("Material", 2, MATERIALS),
    "voltagem": ("Voltagem", 3, ["110 V", "220 V", "Bivolt"]),
    "garantia": ("Garantia", 4, ["3 meses", "12 meses", "24 meses"]),
    "origem": ("Origem", 5, ["Nacional", "Importado"]),
}
VARIATION_SHARE = 0.3  # of the regular products (bench/dataset/build.py, Size)
LATER_VARIATION_SHARE = 0.1  # of those after them
LINKED_CATEGORIES = 2  # at most, beyond the leaf and its parent


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


def _brands() -> list[Brand]:
    """The demo's brands and the data set's, in id order."""
    taken = set(Brand.objects.values_list("slug", flat=True))
    Brand.objects.bulk_create(
        [Brand(name=n, slug=slugify(n)) for n in BRAND_NAMES if slugify(n) not in taken]
    )
    return list(Brand.objects.order_by("id"))


def _product_values() -> list[list[AttributeValue]]:
    """The values of each of PRODUCT_ATTRIBUTES (created when missing)."""
    found = []
    for code, (name, position, labels) in PRODUCT_ATTRIBUTES.items():
        attribute, _ = Attribute.objects.get_or_create(
            code=code, defaults={"name": name, "position": position}
        )
        existing = {v.label: v for v in attribute.values.all()}
        AttributeValue.objects.bulk_create(
            [
                AttributeValue(attribute=attribute, label=label, order=order)
                for order, label in enumerate(labels)
                if label not in existing
            ]
        )
        found.append(list(attribute.values.order_by("order", "id")))
    return found


def add_products(*, count: int, regular: int, rng: random.Random) -> None:
    """`count` main products (the first is the top product) in the visible leaf categories
    (and up to LINKED_CATEGORIES others), with attribute values, some with colour/size
    variations (VARIATION_SHARE of the first `regular`, LATER_VARIATION_SHARE of the rest),
    with prices, stock, medias and descriptions."""
    if count <= 0:
        return
    leaves = _visible_leaves()
    brands = _brands()
    product_values = _product_values()
    regular_cargo = CargoType.objects.get(name="Regular")
    storages = list(Storage.objects.active().order_by("id"))
    colors = list(AttributeValue.objects.filter(attribute__code="cor").order_by("order"))
    sizes = list(AttributeValue.objects.filter(attribute__code="tamanho").order_by("order"))
    policy = TradePolicy.objects.default()
    images = _placeholder_images()
    now = timezone.now()

    # fields of the product row, its categories, its values, its variations' (colour, size)
    mains: list[tuple[dict, list[int], list[int], list]] = []
    for index in range(count):
        sku = f"{SKU_PREFIX}{index + 1:05d}"
        leaf, leaf_parent = leaves[rng.randrange(len(leaves))]
        brand = brands[rng.randrange(len(brands))]
        name = " ".join(
            (rng.choice(PRODUCT_NOUNS), rng.choice(ADJECTIVES), rng.choice(COLOURS))
            + ((rng.choice(STYLES),) if rng.random() < 0.3 else ())
        )
        product = {
            "sku": sku,
            "name": name,
            "slug": slugify(f"{name}-{sku}"),
            "priority": rng.randint(0, 10),
            "base_price": Decimal(rng.randint(19, 1999)) + Decimal("0.90"),
            "brand_id": brand.pk,
            "main_category_id": leaf,
            "cargo_type_id": regular_cargo.pk,
            "additional_time": rng.choice([0, 0, 0, 1, 2]),
            "width": Decimal(rng.randint(10, 60)),
            "height": Decimal(rng.randint(2, 40)),
            "length": Decimal(rng.randint(10, 80)),
            "weight": Decimal(rng.randint(100, 4000)) / 1000,
            "ean": f"789{rng.randint(10**9, 10**10 - 1)}",
            "ncm": "9503.00.99",
            "created_at": now - timedelta(minutes=rng.randint(0, 2 * 365 * 24 * 60)),
            "brand": brand.name,  # (not a column: the description names it)
            "material": rng.choice(MATERIALS),  # (idem)
        }
        categories = [leaf] + ([leaf_parent] if leaf_parent is not None else [])
        for other, _ in rng.sample(leaves, k=rng.randint(0, LINKED_CATEGORIES)):
            if other not in categories:
                categories.append(other)
        values = [rng.choice(options).pk for options in product_values if rng.random() < 0.6]
        variations = []
        # The top product has stock of its own (no variations): the quote asks for it.
        share = VARIATION_SHARE if index < regular else LATER_VARIATION_SHARE
        if sku != TOP_SKU and rng.random() < share:
            for color in rng.sample(colors, k=min(len(colors), rng.randint(2, 3))):
                variations += [(color, size) for size in sizes]
        mains.append((product, categories, values, variations))
    columns = PRODUCT_COLUMNS
    insert(Product, columns, (tuple(main[0][c] for c in columns) for main in mains))
    ids = dict(
        Product.objects.filter(sku__startswith=SKU_PREFIX).values_list("sku", "pk").iterator()
    )

    made: list[tuple[dict, tuple]] = []
    for main, _, _, variations in mains:
        main["id"] = ids[main["sku"]]
        for color, size in variations:
            sku = f"{main['sku']}-{color.label[:3].upper()}-{size.label}"
            name = f"{main['name']} {color.label} {size.label}"
            variation = {
                **{field: main[field] for field in PRODUCT_COLUMNS},
                "type": ProductType.VARIATION.value,
                "parent_id": main["id"],
                "sku": sku,
                "name": name,
                "slug": slugify(f"{name}-{sku}"),
                "priority": 0,
                "ean": "",
                "ncm": "",
            }
            made.append((variation, (color, size)))
    insert(Product, VARIATION_COLUMNS, (tuple(v[c] for c in VARIATION_COLUMNS) for v, _ in made))
    ids = dict(
        Product.objects.filter(sku__startswith=SKU_PREFIX, parent__isnull=False)
        .values_list("sku", "pk")
        .iterator()
    )
    for variation, _ in made:
        variation["id"] = ids[variation["sku"]]

    def price(product: dict) -> tuple:
        comparison = Decimal("0")
        if rng.random() < 0.4:
            comparison = (product["base_price"] * Decimal("1.25")).quantize(Decimal("0.01"))
        return (product["id"], policy.pk, product["base_price"], comparison, Decimal("1.8"))

    def stock(product: dict) -> list[tuple]:
        if product["sku"] == TOP_SKU:
            return [(product["id"], s.pk, 50) for s in storages]
        sold_out = rng.random() < 0.1
        return [
            (product["id"], storage.pk, 0 if sold_out else rng.choice([0, 3, 8, 15, 40]))
            for storage in storages
        ]

    def media(product: dict, position: int) -> tuple:
        image, size = images[rng.randrange(len(images))]
        name = product["name"]
        return (
            *(product["id"], name, f"Foto de {name}", image, image, size, size),
            *(IMAGE_SIZE, IMAGE_SIZE, position),
        )

    links, value_links, prices, stocks, medias, descriptions = [], [], [], [], [], []
    for product, categories, values, variations in mains:
        prices.append(price(product))
        if not variations:  # a product with variations keeps its stock on them
            stocks += stock(product)
        links += [(product["id"], category_id) for category_id in categories]
        value_links += [(product["id"], value) for value in values]
        medias += [media(product, position) for position in range(rng.randint(1, 4))]
        name, brand, material = product["name"], product["brand"], product["material"]
        descriptions.append(
            (
                product["id"],
                policy.pk,
                name,
                f"{name}: qualidade {brand}.",
                f"{name} da marca {brand}, em {material.lower()}. Garantia de 12 meses, "
                "troca grátis em 30 dias e entrega para todo o Brasil.",
                f"{name} {material}",
                f"{name} | Loja",
                f"Compre {name} com frete rápido.",
            )
        )
    for variation, values in made:
        prices.append(price(variation))
        stocks += stock(variation)
        medias.append(media(variation, 0))
        value_links += [(variation["id"], value.pk) for value in values]
    insert(Product.categories.through, ("product_id", "category_id"), links)
    insert(Product.attribute_values.through, ("product_id", "attributevalue_id"), value_links)
    insert(
        ProductPrice,
        ("product_id", "trade_policy_id", "sale_price", "comparison_price", "markup"),
        prices,
    )
    insert(Stock, ("product_id", "storage_id", "available"), stocks)
    insert(
        ProductMedia,
        (
            *("product_id", "title", "alternative_text", "file", "original_file"),
            *("size", "original_size", "width", "height", "position"),
        ),
        medias,
    )
    insert(
        ProductDescription,
        (
            *("product_id", "trade_policy_id", "name", "short_description", "description"),
            *("search_description", "seo_title", "seo_description"),
        ),
        descriptions,
    )


PRODUCT_COLUMNS = (
    *("sku", "name", "slug", "priority", "base_price", "brand_id", "main_category_id"),
    *("cargo_type_id", "additional_time", "width", "height", "length", "weight", "ean", "ncm"),
    "created_at",
)
VARIATION_COLUMNS = (*PRODUCT_COLUMNS, "type", "parent_id")
