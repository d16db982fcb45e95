"""OpenAPI declarations of the catalog endpoints, one per operation (applied to the views)."""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from apikit.errors import ErrorCode
from apikit.schema import error_responses
from infra.ids import MAX_ID
from storefront.api.idempotency import idempotency_key_parameter
from storefront.api.throttling import rate_limit_headers

from ..search import MAX_QUERY
from .filters import Q_DESCRIPTION
from .interest_serializers import InterestCreateSerializer, InterestSerializer
from .serializers import FullTreeNodeSerializer, SpecificCategoryTreeSerializer
from .serializers.full import ProductPageSerializer
from .serializers.listing import ProductListingSerializer, ProductSuggestSerializer

category_tree_schema = extend_schema(
    operation_id="category_tree",
    summary="The whole category tree",
    description=(
        "Every active category as nested nodes, ordered by position then name. A "
        "category under an inactive one is hidden; leaves have `children: []`. Bare "
        "response; cached, with ETag and Cache-Control."
    ),
    tags=["categories"],
    responses={200: FullTreeNodeSerializer(many=True), **error_responses()},
)


category_subtree_schema = extend_schema(
    operation_id="category_subtree",
    summary="The tree around one category",
    description=(
        "`current`, its active `children`, its `sisters` (active siblings, not itself) "
        "and `parent` (the ancestor chain, root first). Bare response."
    ),
    tags=["categories"],
    parameters=[
        OpenApiParameter(
            "categoryId",
            {"type": "integer", "minimum": 1, "maximum": MAX_ID},
            OpenApiParameter.PATH,
            description="Category id.",
        )
    ],
    responses={
        200: SpecificCategoryTreeSerializer,
        **error_responses(404, 422, not_found_code=ErrorCode.CATEGORY_NOT_FOUND),
    },
)


product_interest_register_schema = extend_schema(
    operation_id="product_interest_register",
    summary="Register interest in a product",
    description=(
        "`notify-me`: e-mail me when the product is back in stock; `on-request`: staff "
        "answer by e-mail. 201 with the new interest; 200 with the existing one when the "
        "same e-mail already has a pending interest of that origin in the product. "
        "Unknown fields are refused. Throttled per client IP. Bare response. "
        "`Idempotency-Key` makes a retry return the first answer."
    ),
    tags=["products"],
    parameters=[idempotency_key_parameter(), *rate_limit_headers()],
    request=InterestCreateSerializer,
    responses={
        201: InterestSerializer,
        200: InterestSerializer,
        **error_responses(404, 409, 422, 429, not_found_code=ErrorCode.PRODUCT_NOT_FOUND),
    },
    examples=[
        OpenApiExample(
            "Notify me",
            request_only=True,
            value={
                "productId": 12,
                "origin": "notify-me",
                "name": "Maria Silva",
                "email": "maria@example.com",
                "phone": "+55 11 99999-0000",
                "message": "",
            },
        )
    ],
)


def _full_product_fields() -> list[str]:
    return sorted(ProductPageSerializer().fields)


product_page_schema = extend_schema(
    operation_id="product_page",
    summary="A product's page",
    description=(
        "The full product (the contract's Upsell product, every field filled as the cart "
        "upsell fills it), priced for one unit in the default trade policy after the live "
        "automatic price rules. Bare response. A product that does not exist, is inactive "
        "(or a variation of an inactive product) or is not shown in the site "
        "(`flags.showInSite` false) is a 404, as is an id that is not a number. "
        "`fields` keeps only those top-level keys; `verifiedReviews` (approved reviews "
        "whose author bought the product) is opt-in: only when `fields` names it. ETag "
        "and `Cache-Control: max-age=0`: revalidate; a change to the product shows in the "
        "next answer."
    ),
    tags=["products"],
    parameters=[
        OpenApiParameter(
            "productId",
            {"type": "integer", "minimum": 1, "maximum": MAX_ID},
            OpenApiParameter.PATH,
            description="Product id (a main product or a variation).",
        ),
        OpenApiParameter(
            "fields",
            {"type": "array", "items": {"type": "string", "enum": _full_product_fields()}},
            OpenApiParameter.QUERY,
            style="form",
            explode=False,
            description="Only these top-level keys: `fields=id,name,price`, "
            '`fields[]=id&fields[]=name` or `fields=["id","name"]`; an unknown name: 422.',
        ),
    ],
    responses={
        200: ProductPageSerializer,
        **error_responses(404, 422, not_found_code=ErrorCode.PRODUCT_NOT_FOUND),
    },
)


product_listing_schema = extend_schema(
    operation_id="product_list",
    summary="List the catalogue's products, with facets",
    description=(
        "Active main products shown in the site (variations are listed through their main "
        "product). Each register is the Product summary plus `price` (the Price in the "
        "default trade policy after the live price rules, as the product page's) and "
        "`review` (as the product page's); `verifiedReviews` is opt-in, as on the product "
        "page (only when `fields` names it). `data.facets` counts the products under the "
        "query's conditions, each facet without its own condition (disjunctive counts): "
        "`categories` (children of the filtered category, else the roots), `brands`, "
        "`attributes` (filterable ones, with their values) and `price` (min and max "
        "salePrice). Default order: priority (highest first), then name; "
        "`order=name|-name|price|-price|-createdAt|-score` (the ascending and descending "
        "forms of name, price, createdAt and score are all accepted; id ends every order). "
        "`q` searches in Portuguese (see the parameter); with it the default order is "
        "`relevance`. Success envelope; ETag and `Cache-Control: max-age=0`."
    ),
    tags=["products"],
    responses={200: ProductListingSerializer, **error_responses(422)},
)


product_suggest_schema = extend_schema(
    operation_id="product_suggest",
    summary="Suggest as the shopper types",
    description=(
        "Search as `q` of the listing does, the last word of `q` also matching the start of "
        "a word (`cami` finds Camiseta): `products` (at most 6 listing registers, by "
        "relevance), `categories` and `brands` whose name the words find (at most 4 each: "
        "`id`, `name`) and `searches` (at most 5 popular searches of the last 14 days "
        "starting like `q`). Bare response; ETag and `Cache-Control: max-age=0`. A missing, "
        "empty, too long, symbols-only or control-character `q`: 422."
    ),
    tags=["products"],
    parameters=[
        OpenApiParameter(
            "q",
            {"type": "string", "minLength": 1, "maxLength": MAX_QUERY},
            OpenApiParameter.QUERY,
            required=True,
            description=Q_DESCRIPTION + " Suggest: the last word also matches as a prefix.",
        )
    ],
    responses={200: ProductSuggestSerializer, **error_responses(422)},
)
