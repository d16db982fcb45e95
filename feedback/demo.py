"""Demo data of the feedback app: customers, product and store reviews, comments.

Idempotent and deterministic: every record has a natural key (customer e-mail; product
and customer for reviews; sales channel and customer for store reviews; product, author
e-mail and message for comments); only missing ones are created, in bulk, and nothing
staff changed is overwritten. Runs after the store and catalog demos (it reviews the
demo products; without products it creates customers and store reviews only).
"""

import io
import random
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone, translation
from PIL import Image

from catalog.models import Product
from storefront.demo import say_created
from storefront.models import Customer, SalesChannel
from storefront.selectors import sales_channel_for_domain

from .models import Comment, ProductReview, ReviewMedia, SalesChannelReview
from .services import product_review_summaries_refresh, staff_display_name

SEED = 6
CUSTOMER_EMAIL = "{slug}@example.com"  # example.com: reserved, never delivered
PRODUCT_REVIEWS = 400
REVIEWED_PRODUCTS = 120
STORE_REVIEWS_LOCAL, STORE_REVIEWS_DEFAULT = 25, 15
COMMENTED_PRODUCTS = 30
REVIEW_PHOTOS = 24

FIRST_NAMES = [
    "Ana", "Bruno", "Camila", "Diego", "Eduarda", "Felipe", "Gabriela", "Henrique",
    "Isabela", "João", "Karina", "Lucas", "Mariana", "Nicolas", "Olívia", "Pedro",
    "Rafaela", "Samuel", "Tatiane", "Vinícius",
]  # fmt: skip
LAST_NAMES = [
    "Almeida", "Barbosa", "Cardoso", "Dias", "Ferreira", "Gomes", "Lima", "Martins",
    "Nascimento", "Oliveira", "Pereira", "Ribeiro", "Santos", "Souza",
]  # fmt: skip

REVIEW_TEXTS = {
    5: [
        "Qualidade excelente, exatamente como descrito. Compraria de novo.",
        "Chegou antes do prazo e funciona perfeitamente. Muito satisfeita.",
        "Melhor compra do ano: ótimo acabamento e ótimo preço.",
    ],
    4: [
        "Produto muito bom; a embalagem podia ser melhor.",
        "Bom custo-benefício. A entrega atrasou uns dois dias.",
        "Faz o que promete. O tamanho é um pouco menor.",
    ],
    3: [
        "É ok, nada de especial pelo preço.",
        "Qualidade mediana. A cor é um pouco diferente das fotos.",
    ],
    2: [
        "Esperava mais: o material parece barato.",
        "Precisei trocar uma vez; o segundo funciona.",
    ],
    1: ["Parou de funcionar depois de uma semana. Mas o atendimento ajudou."],
}
STORE_REVIEW_TEXTS = [
    "Entrega rápida e embalagem caprichada.",
    "Compra fácil e o pedido chegou no prazo.",
    "O atendimento respondeu minha dúvida em minutos.",
    "A troca foi simples e gratuita. Loja recomendada.",
    "Bons preços, mas o frete para a minha região é demorado.",
]
# Reviews customers just wrote through POST /review/product, waiting in the admin's
# moderation queue (the storefront's language: Brazilian Portuguese).
PENDING_REVIEWS = [
    (5, True, "Produto excelente! Chegou bem embalado e antes do prazo."),
    (4, True, "Gostei bastante, mas o tamanho é um pouco menor do que eu esperava."),
    (2, False, "A cor veio diferente da foto. Vou pedir a troca."),
    (5, True, "Ótimo custo-benefício, recomendo para quem está em dúvida."),
    (3, True, "Bom produto, porém a entrega demorou mais do que o informado."),
]
QUESTIONS = [
    "Vem com garantia?",
    "Tem em outras cores?",
    "Quais são as medidas exatas da caixa?",
    "Posso retirar na loja?",
    "Serve para uso diário?",
    "Quanto tempo leva a entrega para Porto Alegre?",
]
CUSTOMER_ANSWERS = [
    "Comprei um mês passado e é ótimo.",
    "O meu chegou em uma semana na região Sul.",
    "Também quero saber!",
]
STAFF_ANSWERS = [
    "Olá! Sim: 12 meses de garantia do fabricante.",
    "Oi! Outras cores chegam no mês que vem; use o botão avise-me na página do produto.",
    "Obrigado pela pergunta! O envio é feito em 1 a 2 dias úteis.",
]


def seed_customers(stdout) -> list[Customer]:
    """40 demo customers (unusable passwords: they cannot sign in; register your own)."""
    rng = _rng("customers")
    wanted = {}
    for index in range(40):
        first, last = FIRST_NAMES[index % len(FIRST_NAMES)], rng.choice(LAST_NAMES)
        slug = f"{first}.{last}{index:02d}".lower()
        slug = slug.translate(str.maketrans("áéíóúâêôãõç", "aeiouaeoaoc"))
        wanted[CUSTOMER_EMAIL.format(slug=slug)] = f"{first} {last}"
    existing = {
        email.lower()
        for email in Customer.objects.filter(email__in=list(wanted)).values_list("email", flat=True)
    }
    unusable = make_password(None)
    created = Customer.objects.bulk_create(
        Customer(name=name, email=email, password=unusable)
        for email, name in wanted.items()
        if email not in existing
    )
    say_created(stdout, "customers", len(created))
    return list(Customer.objects.filter(email__in=list(wanted)).order_by("email"))


def _rng(section: str) -> random.Random:
    """One generator per section, so each section's plan never depends on another's."""
    return random.Random(f"{SEED}:{section}")  # noqa: S311  (reproducible demo data)


def _plan_age(record, rng: random.Random, days: int) -> None:
    """Draw the record's age now (planning), whether or not it gets created."""
    record.demo_age = timedelta(minutes=rng.randint(60, days * 24 * 60))


def _apply_ages(model, records) -> None:
    """auto_now_add set created_at to now: back-date the new records to their planned age."""
    now = timezone.now()
    for record in records:
        record.created_at = record.updated_at = now - record.demo_age
    model.objects.bulk_update(records, ["created_at", "updated_at"], batch_size=500)


def _plan_product_reviews(customers, products) -> list[ProductReview]:
    rng = _rng("product-reviews")
    pairs = sorted(
        rng.sample(
            [(p.pk, c.pk) for p in products[:REVIEWED_PRODUCTS] for c in customers],
            k=min(PRODUCT_REVIEWS, len(products[:REVIEWED_PRODUCTS]) * len(customers)),
        )
    )
    by_id = {c.pk: c for c in customers}
    plan = []
    for product_id, customer_id in pairs:
        score = rng.choices([5, 4, 3, 2, 1], weights=[45, 30, 13, 7, 5])[0]
        review = ProductReview(
            product_id=product_id,
            customer_id=customer_id,
            name=by_id[customer_id].name,
            email=by_id[customer_id].email,
            score=score,
            comment=rng.choice(REVIEW_TEXTS[score]),
            recommended=score >= 3,
            active=rng.random() > 0.1,
            masked=rng.random() < 0.15,
        )
        _plan_age(review, rng, days=365)
        plan.append(review)
    return plan


def _create_missing_reviews(reviews: list[ProductReview]) -> list[ProductReview]:
    """Create the reviews whose customer has not reviewed that product yet."""
    existing = set(
        ProductReview.objects.filter(customer__in={r.customer_id for r in reviews}).values_list(
            "product_id", "customer_id"
        )
    )
    return ProductReview.objects.bulk_create(
        r for r in reviews if (r.product_id, r.customer_id) not in existing
    )


def seed_product_reviews(plan: list[ProductReview]) -> int:
    created = _create_missing_reviews(plan)
    _apply_ages(ProductReview, created)
    return len(created)


def seed_pending_reviews(customers, products) -> int:
    """A few reviews customers just wrote, held for moderation (active false), on products
    the main plan does not review (so the one-review-per-customer rule holds)."""
    spare = products[REVIEWED_PRODUCTS:] or products
    new = []
    for index, (score, recommended, text) in enumerate(PENDING_REVIEWS):
        if not spare or index >= len(customers):
            break
        product, customer = spare[index % len(spare)], customers[index]
        new.append(
            ProductReview(
                product=product,
                customer=customer,
                name=customer.name,
                email=customer.email,
                score=score,
                comment=text,
                recommended=recommended,
                active=False,
            )
        )
    return len(_create_missing_reviews(new))


def _photo(index: int) -> bytes:
    hue = (index * 47) % 255
    image = Image.new("RGB", (320, 240), (hue, 180, 255 - hue))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def seed_review_photos(plan: list[ProductReview]) -> int:
    """A photo (small generated PNG) on each of the first REVIEW_PHOTOS planned approved
    reviews that has none."""
    wanted = [(r.product_id, r.customer_id) for r in plan if r.active][:REVIEW_PHOTOS]
    reviews = {
        (r.product_id, r.customer_id): r
        for r in ProductReview.objects.filter(
            product_id__in={p for p, _ in wanted}, customer_id__in={c for _, c in wanted}
        )
    }
    with_photo = set(
        ReviewMedia.objects.filter(review__in=reviews.values()).values_list("review_id", flat=True)
    )
    new = []
    for index, key in enumerate(wanted):
        review = reviews.get(key)
        if review is None or review.pk in with_photo:
            continue
        name = f"reviews/demo-review-{index:02d}.png"
        if not default_storage.exists(name):
            name = default_storage.save(name, ContentFile(_photo(index)))
        new.append(ReviewMedia(review=review, image=name))
    return len(ReviewMedia.objects.bulk_create(new))


def seed_store_reviews(customers) -> int:
    """Reviews of the channel serving 127.0.0.1 (`make run`) and of the default channel."""
    rng = _rng("store-reviews")
    counts: dict[SalesChannel, int] = {}
    for channel, count in (
        (sales_channel_for_domain(domain="127.0.0.1"), STORE_REVIEWS_LOCAL),
        (SalesChannel.objects.filter(is_default=True).first(), STORE_REVIEWS_DEFAULT),
    ):
        if channel is not None:
            counts[channel] = counts.get(channel, 0) + count
    new = []
    for channel, count in sorted(counts.items(), key=lambda item: item[0].pk):
        existing = set(
            SalesChannelReview.objects.filter(sales_channel=channel).values_list(
                "customer_id", flat=True
            )
        )
        for customer in rng.sample(customers, k=min(count, len(customers))):
            score = rng.choices([5, 4, 3, 2, 1], weights=[50, 30, 10, 6, 4])[0]
            review = SalesChannelReview(
                sales_channel=channel,
                customer=customer,
                name=customer.name,
                email=customer.email,
                score=score,
                comment=rng.choice(STORE_REVIEW_TEXTS),
                recommended=score >= 3,
                active=rng.random() > 0.1,
                masked=rng.random() < 0.2,
            )
            _plan_age(review, rng, days=365)
            if customer.pk not in existing:
                new.append(review)
    created = SalesChannelReview.objects.bulk_create(new)
    _apply_ages(SalesChannelReview, created)
    return len(created)


def _plan_comments(customers, products, staff) -> list[tuple[Comment, list[Comment]]]:
    """Questions on the first products, each with its planned replies (not saved)."""
    # Staff answers are signed as a reply written in the admin is, in the customers'
    # language (the display name, else "Equipe da loja").
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        signature = staff_display_name(staff) if staff is not None else ""
    rng = _rng("comments")
    plan = []
    for product in products[:COMMENTED_PRODUCTS]:
        for asker in rng.sample(customers, k=rng.randint(1, 3)):
            question = Comment(
                product=product,
                customer=asker if rng.random() < 0.5 else None,
                customer_name=asker.name,
                customer_email=asker.email,
                message=rng.choice(QUESTIONS),
                active=rng.random() > 0.15,
            )
            _plan_age(question, rng, days=120)
            replies = []
            if rng.random() < 0.5:
                answerer = rng.choice(customers)
                replies.append(
                    Comment(
                        product=product,
                        customer_name=answerer.name,
                        customer_email=answerer.email,
                        message=rng.choice(CUSTOMER_ANSWERS),
                        active=rng.random() > 0.2,
                    )
                )
            staff_answers = rng.random() < 0.6
            if staff is not None and staff_answers and question.active:
                replies.append(
                    Comment(
                        product=product,
                        user=staff,
                        user_name=signature,
                        user_email=staff.email,
                        message=rng.choice(STAFF_ANSWERS),
                        reply_by_user=True,
                        active=True,
                    )
                )
            plan.append((question, replies))
    return plan


def _comment_key(comment: Comment) -> tuple:
    return (comment.product_id, comment.customer_email, comment.user_email, comment.message)


def seed_comments(customers, products) -> int:
    """Questions with customer and staff answers; some questions and answers pending."""
    staff = get_user_model().objects.filter(is_staff=True).order_by("id").first()
    plan = _plan_comments(customers, products, staff)
    commented = products[:COMMENTED_PRODUCTS]

    def top_level_ids() -> dict[tuple, int]:
        rows = Comment.objects.filter(product__in=commented, parent__isnull=True).values_list(
            "id", "product_id", "customer_email", "user_email", "message"
        )
        return {tuple(row[1:]): row[0] for row in rows}

    existing = top_level_ids()
    questions: dict[tuple, Comment] = {}  # the first planned question of each key
    for question, _ in plan:
        if _comment_key(question) not in existing:
            questions.setdefault(_comment_key(question), question)
    created = Comment.objects.bulk_create(questions.values())
    _apply_ages(Comment, created)

    parents = top_level_ids()
    existing_replies = set(
        Comment.objects.filter(product__in=commented, parent__isnull=False).values_list(
            "parent_id", "customer_email", "user_email", "message"
        )
    )
    replies = []
    for question, answers in plan:
        parent_id = parents.get(_comment_key(question))
        if parent_id is None:
            continue
        for answer in answers:
            key = (parent_id, answer.customer_email, answer.user_email, answer.message)
            if key not in existing_replies:
                existing_replies.add(key)
                answer.parent_id = parent_id
                replies.append(answer)
    created_replies = Comment.objects.bulk_create(replies)
    return len(created) + len(created_replies)


def seed(*, stdout) -> None:
    stdout.write("Feedback: customers, product and store reviews, comments")
    customers = seed_customers(stdout)
    products = list(Product.objects.active().filter(parent__isnull=True).order_by("id"))
    if not products:
        stdout.write("  no active products yet: product reviews and comments skipped")
    reviews = _plan_product_reviews(customers, products)
    say_created(stdout, "product reviews", seed_product_reviews(reviews))
    # bulk inserts send no signal: recount the summaries of the reviewed products
    product_review_summaries_refresh(product_ids={r.product_id for r in reviews})
    say_created(stdout, "review photos", seed_review_photos(reviews))
    say_created(stdout, "reviews waiting for moderation", seed_pending_reviews(customers, products))
    say_created(stdout, "store reviews", seed_store_reviews(customers))
    say_created(stdout, "comments and replies", seed_comments(customers, products))
