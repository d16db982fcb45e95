"""Back office of the feedback app: review and comment moderation (pending first), and a
"Reply" page per comment that publishes a staff reply, then returns to the queue."""

import base64
import secrets
from copy import copy
from functools import partial

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import PAGE_VAR
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.text import Truncator
from django.utils.timesince import timesince
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from infra.admin import (
    HISTORY_FIELDSET,
    NAME_COLUMN_CHARS,
    CountColumnsMixin,
    OwnPagesMixin,
    moderation_badge,
    thumbnail,
    truncated,
    truncated_column,
)

from .models import (
    COMMENT_MESSAGE_MAX_LENGTH,
    DEFAULT_STAFF_DISPLAY_NAME,
    Comment,
    ProductReview,
    PurchaseItem,
    PurchaseOrder,
    ReviewMedia,
    SalesChannelReview,
    StaffProfile,
)
from .purchase_csv import PurchaseFileError, purchase_file_read
from .purchases import purchases_import
from .selectors import answer_times, questions_unanswered
from .services import (
    comment_author_email,
    comment_reply_by_staff,
    comments_set_active,
    reviews_set_active,
    staff_display_name,
)


def review_fieldsets(subject: str) -> tuple:
    """A review's change form; `subject` is the reviewed product or sales channel."""
    return (
        (None, {"fields": (subject, "customer", "name", "email")}),
        (_("Review"), {"fields": ("score", "recommended", "comment")}),
        (_("Moderation"), {"fields": ("active", "masked")}),
        HISTORY_FIELDSET,
    )


PRODUCT_SEARCH = ("product__name", "product__sku")  # no sidebar filter: thousands of products


@admin.display(description=_("Product"), ordering="product__name")
def product_column(record):
    """The product's name, linking to the list filtered by that product."""
    url = f"?product__id__exact={record.product_id}"
    return format_html(
        '<a href="{}">{}</a>', url, truncated(record.product.name, NAME_COLUMN_CHARS)
    )


# --- Reviews -----------------------------------------------------------------------------


class ReviewMediaInline(admin.TabularInline):
    model = ReviewMedia
    extra = 0
    fields = ("image", "preview", "created_at")
    readonly_fields = ("preview", "created_at")

    @admin.display(description=_("Preview"))
    def preview(self, media: ReviewMedia):
        return thumbnail(media.image if media.pk else None, height=80)


class ModerationAdmin(admin.ModelAdmin):
    list_per_page = 50
    ordering = ("active", "-created_at", "-id")
    date_hierarchy = "created_at"
    actions = ("approve", "hide")

    @admin.display(description=_("Status"), ordering="active")
    def moderation(self, record):
        return moderation_badge(record.active)


class ReviewModerationAdmin(ModerationAdmin):
    list_display_links = ("author",)
    search_fields = ("name", "email", "comment", "customer__email")
    readonly_fields = ("created_at", "updated_at")
    raw_id_fields = ("customer",)

    author = staticmethod(truncated_column("name", description=_("Author")))

    @admin.display(description=_("Comment"))
    def short_comment(self, review) -> str:
        return truncated(review.comment)

    @admin.action(description=_("Approve selected reviews (show them in the store)"))
    def approve(self, request, queryset):
        count = reviews_set_active(reviews=queryset, active=True)
        message = ngettext("%(count)d review approved.", "%(count)d reviews approved.", count)
        self.message_user(request, message % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Hide selected reviews"))
    def hide(self, request, queryset):
        count = reviews_set_active(reviews=queryset, active=False)
        message = ngettext("%(count)d review hidden.", "%(count)d reviews hidden.", count)
        self.message_user(request, message % {"count": count}, messages.SUCCESS)


@admin.register(ProductReview)
class ProductReviewAdmin(CountColumnsMixin, ReviewModerationAdmin):
    list_display = (
        "moderation",
        "author",
        "product_name",
        "score",
        "recommended",
        "short_comment",
        "photos",
        "created_at",
    )
    list_filter = ("active", "score", "recommended", "masked", "verified_purchase")
    list_select_related = ("product",)
    search_fields = (*ReviewModerationAdmin.search_fields, *PRODUCT_SEARCH)
    raw_id_fields = ("product", "customer")
    inlines = (ReviewMediaInline,)
    # The mark comes from the store's orders and the counts from votes: never typed by staff.
    readonly_fields = (
        *ReviewModerationAdmin.readonly_fields,
        "verified_purchase",
        "helpful_count",
        "unhelpful_count",
    )
    fieldsets = (
        *review_fieldsets("product")[:-1],
        (_("Trust"), {"fields": ("verified_purchase", "helpful_count", "unhelpful_count")}),
        HISTORY_FIELDSET,
    )
    count_columns = {"photos": ("medias", _("Photos"))}

    product_name = staticmethod(product_column)


@admin.register(SalesChannelReview)
class SalesChannelReviewAdmin(ReviewModerationAdmin):
    list_display = (
        "moderation",
        "author",
        "sales_channel",
        "score",
        "recommended",
        "short_comment",
        "created_at",
    )
    list_filter = ("active", "score", "recommended", "masked", "sales_channel")
    list_select_related = ("sales_channel",)
    fieldsets = review_fieldsets("sales_channel")


# --- Comments ----------------------------------------------------------------------------


COMMENT_KINDS = {
    "comment": (_("Top-level comments"), {"parent__isnull": True}),
    "reply": (_("Replies"), {"parent__isnull": False}),
    "staff": (_("Staff replies"), {"reply_by_user": True}),
}


class CommentKindFilter(admin.SimpleListFilter):
    title = _("kind")
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return [(kind, label) for kind, (label, _lookup) in COMMENT_KINDS.items()]

    def queryset(self, request, queryset):
        kind = COMMENT_KINDS.get(self.value() or "")
        return queryset.filter(**kind[1]) if kind else queryset


class ReplyInline(admin.TabularInline):
    """The thread under a comment (replies are written with the Reply button)."""

    model = Comment
    fk_name = "parent"
    extra = 0
    verbose_name = _("reply")
    verbose_name_plural = _("replies")
    fields = ("author", "message", "reply_by_user", "active", "created_at")
    readonly_fields = ("author", "message", "reply_by_user", "created_at")
    ordering = ("created_at", "id")
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("Author"))
    def author(self, comment: Comment) -> str:
        return comment.author_name


UNANSWERED_PER_PAGE = 50


def question_age(asked_at, now) -> str:
    """ "3 days ago" ("há 3 dias"): the largest unit only."""
    return gettext("%(time)s ago") % {"time": timesince(asked_at, now, depth=1)}


class StaffReplyForm(forms.Form):
    message = forms.CharField(
        label=_("Message"),
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
        max_length=COMMENT_MESSAGE_MAX_LENGTH,
        strip=True,
    )
    approve_comment = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Also approve the comment I am answering"),
    )

    def __init__(self, *args, signature: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["message"].help_text = gettext("Published at once, signed “%(signature)s”.") % {
            "signature": signature
        }


# A comment's change form shows one of these: the customer's, or on a staff reply the staff's.
CUSTOMER_FIELDSET = (_("Customer"), {"fields": ("customer", "customer_name", "customer_email")})
STAFF_FIELDS = ("reply_by_user", "user", "user_name", "user_email")  # read-only
STAFF_REPLY_FIELDSET = (_("Staff reply"), {"fields": STAFF_FIELDS})


@admin.register(Comment)
class CommentAdmin(CountColumnsMixin, OwnPagesMixin, ModerationAdmin):
    change_form_template = "admin/feedback/comment/change_form.html"
    list_display = (
        "moderation",
        "reply_link",
        "short_message",
        "author",
        "product_name",
        "thread",
        "replies",
        "created_at",
    )
    list_display_links = ("short_message",)
    count_columns = {"replies": ("replies", _("Replies"))}
    list_filter = ("active", CommentKindFilter)
    list_select_related = ("product", "parent")
    search_fields = ("message", "customer_name", "customer_email", "user_name", *PRODUCT_SEARCH)
    raw_id_fields = ("product", "parent", "customer")
    readonly_fields = (*STAFF_FIELDS, "created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("product", "parent", "message", "active")}),
        CUSTOMER_FIELDSET,
        STAFF_REPLY_FIELDSET,
        HISTORY_FIELDSET,
    )
    inlines = (ReplyInline,)

    def get_fieldsets(self, request, obj=None):
        staff_reply = obj is not None and obj.reply_by_user
        hidden = CUSTOMER_FIELDSET if staff_reply else STAFF_REPLY_FIELDSET
        return [fieldset for fieldset in super().get_fieldsets(request, obj) if fieldset != hidden]

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        changelist.result_list = list(changelist.result_list)
        filters = self.get_preserved_filters(request)
        for comment in changelist.result_list:  # the `reply_link` column's way back
            comment.queue_filters = filters
        return changelist

    def get_inlines(self, request, obj):
        if obj is None or obj.parent_id is not None:
            return ()
        return super().get_inlines(request, obj)

    @admin.display(description=_("Message"))
    def short_message(self, comment: Comment) -> str:
        return truncated(comment.message)

    @admin.display(description=_("Author"))
    def author(self, comment: Comment):
        if comment.reply_by_user:
            kind = _("staff")
        else:
            kind = _("customer") if comment.customer_id else _("anonymous")
        return format_html(
            '{}<br><small class="quiet">{}</small>',
            truncated(comment.author_name, NAME_COLUMN_CHARS),
            kind,
        )

    product_name = staticmethod(product_column)

    @admin.display(description=_("Reply to"), ordering="parent_id")
    def thread(self, comment: Comment):
        if comment.parent_id is None:
            return "-"
        url = reverse("admin:feedback_comment_change", args=[comment.parent_id])
        return format_html('<a href="{}">#{}</a>', url, comment.parent_id)

    @admin.display(description=_("Action"))
    def reply_link(self, comment: Comment):
        filters = comment.queue_filters  # type: ignore[attr-defined]  # get_changelist_instance
        url = reverse("admin:feedback_comment_reply", args=[comment.pk])
        return format_html(
            '<a class="button" href="{}">{}</a>', f"{url}?{filters}" if filters else url, _("Reply")
        )

    @admin.action(description=_("Approve selected comments (show them in the store)"))
    def approve(self, request, queryset):
        count = comments_set_active(comments=queryset, active=True)
        message = ngettext("%(count)d comment approved.", "%(count)d comments approved.", count)
        self.message_user(request, message % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Hide selected comments"))
    def hide(self, request, queryset):
        count = comments_set_active(comments=queryset, active=False)
        message = ngettext("%(count)d comment hidden.", "%(count)d comments hidden.", count)
        self.message_user(request, message % {"count": count}, messages.SUCCESS)

    own_pages = (
        ("<path:object_id>/reply/", "reply_view", "reply"),
        ("unanswered/", "unanswered_view", "unanswered"),
    )

    def index_links(self, request) -> list[tuple[str, str]]:
        """The admin index's line for the questions waiting for an answer (one query, on
        the index only: storefront.admin_site.StoreAdminSite.index)."""
        if not self.has_view_permission(request):
            return []
        count = questions_unanswered().count()
        label = ngettext(
            "%(count)d question waiting for an answer",
            "%(count)d questions waiting for an answer",
            count,
        )
        return [(label % {"count": count}, reverse("admin:feedback_comment_unanswered"))]

    def unanswered_view(self, request):
        """The questions without a public staff answer, oldest first, with their age; and
        the median time to the first staff answer over the last 30 days."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        now = timezone.now()
        page = Paginator(questions_unanswered(), UNANSWERED_PER_PAGE).get_page(request.GET.get("p"))
        times = answer_times(now=now)
        median = times.median
        return self.own_page(
            request,
            "unanswered.html",
            _("Unanswered questions"),
            page=page,
            rows=[(question, question_age(question.created_at, now)) for question in page],
            answered=times.answered,
            median_seconds=None if median is None else round(median.total_seconds()),
            median_text="" if median is None else timesince(now - median, now),
        )

    def reply_view(self, request, object_id):
        comment = self.get_object(request, object_id)
        if comment is None:
            raise Http404(_("No such comment."))
        if not self.has_change_permission(request, comment):
            raise PermissionDenied
        signature = staff_display_name(request.user)
        form = StaffReplyForm(request.POST or None, signature=signature)
        if request.method == "POST" and form.is_valid():
            # the form's fields are the service's `message` and `approve_comment`
            result = comment_reply_by_staff(comment=comment, user=request.user, **form.cleaned_data)
            self.log_addition(request, result.reply, [{"added": {}}])
            self.message_user(request, _("Your reply is published."), messages.SUCCESS)
            if result.emailed:
                recipient = comment_author_email(comment)
                self.message_user(
                    request,
                    _("The e-mail to the customer (%(email)s) is queued.") % {"email": recipient},
                )
            queue = self.queue_of(request)
            answered = {comment.pk, result.reply.parent_id}
            self.announce_next_pending(request, queue, answered=answered)
            url = reverse("admin:feedback_comment_changelist")
            return HttpResponseRedirect(f"{url}?{queue.urlencode()}" if queue else url)
        thread = comment.parent if comment.parent_id else comment
        return self.own_page(
            request,
            "reply.html",
            _("Reply to comment #%(id)s") % {"id": comment.pk},
            comment=comment,
            thread=thread,
            thread_replies=thread.replies.order_by("created_at", "id"),
            form=form,
            recipient=comment_author_email(comment),
            emails_on=settings.COMMENTS_EMAIL_REPLIES,
            signature_is_default=signature == str(DEFAULT_STAFF_DISPLAY_NAME),
            user_page=self.user_page(request),
            preserved_filters=self.get_preserved_filters(request),
            original=comment,
        )

    @staticmethod
    def queue_of(request) -> QueryDict:
        """The change list's query staff came from, without its page number (answered
        comments leave a pending queue, so its pages shift)."""
        queue = QueryDict(request.GET.get("_changelist_filters", ""), mutable=True)
        queue.pop(PAGE_VAR, None)
        return queue

    def next_pending(self, request, queue: QueryDict, answered: set) -> Comment | None:
        """The first pending comment of the change list `queue`, but the `answered` ones."""
        listing = copy(request)
        listing.GET = queue
        try:
            changelist = self.get_changelist_instance(listing)
        except IncorrectLookupParameters:
            return None
        return changelist.queryset.filter(active=False).exclude(pk__in=answered).first()

    def announce_next_pending(self, request, queue: QueryDict, answered: set) -> None:
        pending = self.next_pending(request, queue, answered)
        if pending is None:
            self.message_user(request, _("No pending comment left in this list."))
            return
        url = reverse("admin:feedback_comment_reply", args=[pending.pk])
        if queue:
            url += "?" + urlencode({"_changelist_filters": queue.urlencode()})
        self.message_user(
            request,
            format_html(
                '{} <a href="{}">{}</a>',
                gettext("Next pending: #%(id)s by %(author)s, “%(message)s”.")
                % {
                    "id": pending.pk,
                    "author": pending.author_name,
                    "message": Truncator(pending.message).chars(NAME_COLUMN_CHARS),
                },
                url,
                _("Reply"),
            ),
        )

    @staticmethod
    def user_page(request) -> str:
        """The staff member's own User admin page (display name), if they may change it."""
        user = request.user
        opts = user._meta
        if not request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}"):
            return ""
        return reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[user.pk])


# --- Staff display names -----------------------------------------------------------------


class StaffProfileInline(admin.StackedInline):
    """The staff member's public display name, edited on the User admin page."""

    model = StaffProfile
    can_delete = False
    extra = 1
    max_num = 1
    fields = ("display_name",)


def register_user_admin_with_profile(site: admin.AdminSite = admin.site) -> None:
    user_model = get_user_model()
    current = site._registry.get(user_model)
    base = type(current) if current is not None else UserAdmin
    if current is not None:
        site.unregister(user_model)
    attrs = {"inlines": [*getattr(base, "inlines", []), StaffProfileInline]}
    site.register(user_model, type("UserWithStaffProfileAdmin", (base,), attrs))


register_user_admin_with_profile()


# --- Purchases (verified-purchase marks) ---------------------------------------------------

PURCHASE_COLUMNS = [
    ("order_id", _("the order's id in the order system (up to 100 characters)")),
    ("customer_id", _("the buyer's customer id (or the e-mail)")),
    ("email", _("the buyer's e-mail (or the customer id)")),
    ("product_ids", _("the ids of the products bought, separated by ;")),
    ("event", _("order.paid or order.delivered (empty: order.paid)")),
]
PURCHASE_STAGE = "feedback-purchase-import"
# The checked file waits in the session until "Import these orders": kept small.
PURCHASE_IMPORT_MAX_BYTES = 5 * 1024 * 1024


class PurchaseImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), help_text=_("UTF-8, with a header line."))


class PurchaseItemInline(admin.TabularInline):
    model = PurchaseItem
    extra = 0
    can_delete = False
    readonly_fields = ("product_id",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PurchaseOrder)
class PurchaseOrderAdmin(OwnPagesMixin, admin.ModelAdmin):
    """The orders the order system sent (webhook or import): read here, never typed."""

    list_display = ("order_id", "event", "customer", "buyer_email", "received_at", "cancelled_at")
    list_filter = (("cancelled_at", admin.EmptyFieldListFilter),)
    search_fields = ("order_id", "email")
    raw_id_fields = ("customer",)
    readonly_fields = ("order_id", "event", "customer", "email", "received_at", "cancelled_at")
    inlines = (PurchaseItemInline,)
    own_pages = (("import/", "import_view", "import"),)

    buyer_email = staticmethod(truncated_column("email", description=_("email")))

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def import_view(self, request):
        if not request.user.has_perm("feedback.add_purchaseorder"):
            raise PermissionDenied
        title = gettext("Import purchases")
        page = partial(self.own_page, request, "import.html", title, columns=PURCHASE_COLUMNS)
        if request.method == "POST" and "confirm" in request.POST:
            staged = request.session.get(PURCHASE_STAGE) or {}
            if not staged or staged.get("token") != request.POST.get("token"):
                refusal = gettext("The checked file expired: choose it again.")
                return page(form=PurchaseImportForm(), refusal=refusal)
            del request.session[PURCHASE_STAGE]
            read = purchase_file_read(base64.b64decode(staged["content"]))
            report = purchases_import(lines=read.lines, dry_run=False)
            messages.success(request, gettext("The purchases were imported."))
            return page(report=report, rejections=read.rejections, done=True)
        form = PurchaseImportForm(request.POST or None, request.FILES or None)
        if request.method != "POST" or not form.is_valid():
            return page(form=form)
        upload = form.cleaned_data["file"]
        if upload.size > PURCHASE_IMPORT_MAX_BYTES:
            refusal = gettext("The file is larger than %(size)d MiB: split it.") % {
                "size": PURCHASE_IMPORT_MAX_BYTES // (1024 * 1024)
            }
            return page(form=form, refusal=refusal)
        content = upload.read()
        try:
            read = purchase_file_read(content)
        except PurchaseFileError as exc:
            return page(form=form, refusal=str(exc))
        report = purchases_import(lines=read.lines, dry_run=True)
        token = secrets.token_urlsafe(16)
        request.session[PURCHASE_STAGE] = {
            "token": token,
            "content": base64.b64encode(content).decode(),
        }
        return page(report=report, rejections=read.rejections, token=token)
