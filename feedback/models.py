"""Product reviews (with photos), store reviews and product comments; only `active` ones
are public (staff approve them in the admin)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.models import TimestampedModel

SCORE_MIN, SCORE_MAX = 1, 5
REVIEW_COMMENT_MAX_LENGTH = 2000
COMMENT_MESSAGE_MAX_LENGTH = 2000
CUSTOMER_NAME_MIN_LENGTH, CUSTOMER_NAME_MAX_LENGTH = 3, 100


class ReviewQuerySet(models.QuerySet):
    def public(self):
        return self.filter(active=True)


class Review(TimestampedModel):
    """Product and store reviews (name and e-mail as written then: the account may change)."""

    customer = models.ForeignKey(
        "storefront.Customer",
        verbose_name=_("customer"),
        on_delete=models.CASCADE,
        related_name="%(class)ss",
        help_text=_("The account that wrote the review."),
    )
    name = models.CharField(_("name"), max_length=100)
    email = models.EmailField(_("email"), max_length=254)
    score = models.PositiveSmallIntegerField(
        _("score"),
        validators=[MinValueValidator(SCORE_MIN), MaxValueValidator(SCORE_MAX)],
        help_text=_("1 (worst) to 5 (best)."),
    )
    comment = models.TextField(_("comment"), max_length=REVIEW_COMMENT_MAX_LENGTH, blank=True)
    recommended = models.BooleanField(_("recommended"), default=True)
    active = models.BooleanField(
        _("active"), default=False, help_text=_("Approved: shown in the public lists.")
    )
    masked = models.BooleanField(
        _("masked"),
        default=False,
        help_text=_("Also hide the author's name in public (J*** S***)."),
    )

    objects = ReviewQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name}: {self.score}/5"


def review_constraints(subject: str) -> list:
    """A score from 1 to 5, one review per customer and `subject` (its FK's name)."""
    return [
        models.CheckConstraint(
            condition=models.Q(score__gte=SCORE_MIN, score__lte=SCORE_MAX),
            name=f"{subject}_review_score_1_5",
        ),
        models.UniqueConstraint(
            fields=[subject, "customer"], name=f"{subject}_review_one_per_customer"
        ),
    ]


class ProductReview(Review):
    product = models.ForeignKey(
        "catalog.Product",
        verbose_name=_("product"),
        on_delete=models.CASCADE,
        related_name="reviews",
    )
    # Stamped by the services, never by staff (not editable: the admin shows it read-only).
    verified_purchase = models.BooleanField(
        _("verified purchase"),
        default=False,
        editable=False,
        help_text=_("The author bought the product (from the store's orders)."),
    )
    helpful_count = models.PositiveIntegerField(_("helpful votes"), default=0, editable=False)
    unhelpful_count = models.PositiveIntegerField(_("unhelpful votes"), default=0, editable=False)
    # feedback.ranking.wilson_lower_bound of the two counts, rewritten with them on each vote
    helpfulness = models.FloatField(_("helpfulness"), default=0.0, editable=False)

    class Meta(Review.Meta):
        verbose_name = _("product review")
        verbose_name_plural = _("product reviews")
        indexes = [
            models.Index(fields=["active", "-created_at"], name="product_review_public"),
            models.Index(fields=["product", "active"], name="product_review_product"),
            models.Index(fields=["active", "-helpfulness"], name="product_review_helpful"),
        ]
        constraints = review_constraints("product")


class ReviewVote(TimestampedModel):
    """One voter's vote on a product review: `voter` is "c:<customer id>" for a signed-in
    customer, else "a:" and a keyed hash (HMAC) of the client address and token: no address
    is stored."""

    review = models.ForeignKey(
        ProductReview, verbose_name=_("review"), on_delete=models.CASCADE, related_name="votes"
    )
    voter = models.CharField(_("voter"), max_length=80)
    helpful = models.BooleanField(_("helpful"))

    class Meta:
        verbose_name = _("review vote")
        verbose_name_plural = _("review votes")
        constraints = [
            models.UniqueConstraint(fields=["review", "voter"], name="review_vote_one_per_voter")
        ]

    def __str__(self) -> str:
        return f"{self.review_id}: {'+' if self.helpful else '-'}"


class PurchaseOrder(models.Model):
    """An order of the store's order system, as its webhook or a CSV import told it (one row
    per order id: a repeated id changes nothing)."""

    order_id = models.CharField(_("order id"), max_length=100, unique=True)
    event = models.CharField(_("event"), max_length=40)
    customer = models.ForeignKey(
        "storefront.Customer",
        verbose_name=_("customer"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="purchase_orders",
    )
    email = models.EmailField(_("email"), max_length=254, blank=True, db_index=True)
    received_at = models.DateTimeField(_("received at"), auto_now_add=True)
    # Set by an `order.cancelled` or `order.refunded` event: the order no longer verifies.
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)

    class Meta:
        verbose_name = _("purchase order")
        verbose_name_plural = _("purchase orders")
        ordering = ["-received_at", "-id"]

    def __str__(self) -> str:
        return self.order_id


class PurchaseItem(models.Model):
    """A product of a purchase order (its id as the order system gave it: no foreign key)."""

    order = models.ForeignKey(
        PurchaseOrder, verbose_name=_("order"), on_delete=models.CASCADE, related_name="items"
    )
    product_id = models.PositiveBigIntegerField(_("product id"), db_index=True)

    class Meta:
        verbose_name = _("purchased product")
        verbose_name_plural = _("purchased products")
        constraints = [
            models.UniqueConstraint(fields=["order", "product_id"], name="purchase_item_once")
        ]

    def __str__(self) -> str:
        return f"{self.order_id}: {self.product_id}"


class ReviewMedia(models.Model):
    review = models.ForeignKey(
        ProductReview, verbose_name=_("review"), on_delete=models.CASCADE, related_name="medias"
    )
    image = models.ImageField(_("image"), upload_to="reviews/", max_length=255)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("review photo")
        ordering = ["id"]
        verbose_name_plural = _("review photos")

    def __str__(self) -> str:
        return self.image.name or ""


class SalesChannelReview(Review):
    """A review of the store itself, on one of its sales channels (domains)."""

    sales_channel = models.ForeignKey(
        "storefront.SalesChannel",
        verbose_name=_("sales channel"),
        on_delete=models.CASCADE,
        related_name="reviews",
    )

    class Meta(Review.Meta):
        verbose_name_plural = _("store reviews")
        verbose_name = _("store review")
        indexes = [
            models.Index(
                fields=["sales_channel", "active", "-created_at"], name="channel_review_public"
            ),
        ]
        constraints = review_constraints("sales_channel")


def staff_answered() -> models.Exists:
    """True for a comment with a public (approved) staff reply: an answered question."""
    staff_replies = Comment.objects.filter(
        parent=models.OuterRef("pk"), reply_by_user=True, active=True
    )
    return models.Exists(staff_replies)


class CommentQuerySet(models.QuerySet):
    def public(self):
        """Approved comments; a reply shows only while its parent comment does too."""
        return self.filter(active=True).filter(
            models.Q(parent__isnull=True) | models.Q(parent__active=True)
        )

    def questions(self):
        """Top-level comments (the customers' questions)."""
        return self.filter(parent__isnull=True)

    def answered(self, answered: bool = True):
        """Questions with a public staff reply (`answered`), or without one."""
        return self.questions().filter(staff_answered() if answered else ~staff_answered())


class Comment(TimestampedModel):
    """A comment on a product, or a reply to a top-level one of the same product, by a
    customer (signed in or anonymous) or, `reply_by_user`, by staff in the admin."""

    product = models.ForeignKey(
        "catalog.Product",
        verbose_name=_("product"),
        on_delete=models.CASCADE,
        related_name="comments",
    )
    parent = models.ForeignKey(
        "self",
        verbose_name=_("reply to"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="replies",
        help_text=_("The comment this one answers (empty for a top-level comment)."),
    )
    customer = models.ForeignKey(
        "storefront.Customer",
        verbose_name=_("customer"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="comments",
        help_text=_("Set when a signed-in customer wrote it."),
    )
    customer_name = models.CharField(
        _("customer name"), max_length=CUSTOMER_NAME_MAX_LENGTH, blank=True
    )
    customer_email = models.EmailField(_("customer email"), max_length=254, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("staff member"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="product_comments",
        help_text=_("The staff member who wrote this reply."),
    )
    user_name = models.CharField(_("staff name"), max_length=150, blank=True)
    user_email = models.EmailField(_("staff email"), max_length=254, blank=True)
    message = models.TextField(_("message"), max_length=COMMENT_MESSAGE_MAX_LENGTH)
    reply_by_user = models.BooleanField(
        _("staff reply"),
        default=False,
        help_text=_("Written by a store user (staff) rather than a customer."),
    )
    active = models.BooleanField(
        _("active"), default=False, help_text=_("Approved: shown in the public list.")
    )

    objects = CommentQuerySet.as_manager()

    class Meta:
        verbose_name = _("comment")
        verbose_name_plural = _("comments")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["product", "active", "-created_at"], name="comment_product"),
            models.Index(fields=["active", "-created_at"], name="comment_public"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(parent=models.F("id")), name="comment_not_its_own_parent"
            ),
            models.CheckConstraint(
                condition=models.Q(reply_by_user=False) | models.Q(parent__isnull=False),
                name="comment_staff_writes_replies",
            ),
            models.CheckConstraint(condition=~models.Q(message=""), name="comment_has_message"),
        ]

    def __str__(self) -> str:
        return f"{self.author_name}: {self.message[:60]}"

    @property
    def author_name(self) -> str:
        return self.user_name if self.reply_by_user else self.customer_name

    def clean(self):
        super().clean()
        self.message = (self.message or "").strip()
        if not self.message:
            raise ValidationError({"message": _("Write a message.")})
        if self.parent_id is not None:
            parent = self.parent
            if parent.parent_id is not None:
                raise ValidationError(
                    {"parent": _("Replies answer a top-level comment, not another reply.")}
                )
            if self.product_id is not None and parent.product_id != self.product_id:
                raise ValidationError({"parent": _("The parent comment is on another product.")})
            if self.pk is not None and parent.pk == self.pk:
                raise ValidationError({"parent": _("A comment cannot answer itself.")})
            if self.pk is not None and self.replies.exists():
                raise ValidationError(
                    {"parent": _("A comment that has replies cannot be a reply.")}
                )
        elif self.reply_by_user:
            raise ValidationError({"parent": _("Staff replies answer a comment.")})
        if not self.reply_by_user and not self.customer_name.strip():
            raise ValidationError(
                {"customer_name": _("A customer comment needs the author's name.")}
            )


DEFAULT_STAFF_DISPLAY_NAME = _("Store team")


class StaffProfile(models.Model):
    """The name that signs a staff member's replies (the username is never public)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="staff_profile",
        verbose_name=_("user"),
    )
    display_name = models.CharField(
        _("public display name"),
        max_length=100,
        blank=True,
        help_text=_(
            'Signs this person\'s replies to customers (API and e-mails). Empty: "Store team".'
        ),
    )

    class Meta:
        verbose_name = _("staff profile")
        verbose_name_plural = _("staff profiles")

    def __str__(self) -> str:
        return self.display_name or str(DEFAULT_STAFF_DISPLAY_NAME)
