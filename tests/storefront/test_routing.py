"""The root resolver remembers recent paths (apikit.routing.RememberingResolver)."""

import pytest
from django.urls import get_resolver

from apikit.routing import RememberingResolver
from tests.helpers import assert_error_envelope


def remembering() -> RememberingResolver:
    (resolver,) = get_resolver().url_patterns
    assert isinstance(resolver, RememberingResolver)
    return resolver


def test_a_path_asked_again_is_resolved_from_memory_to_the_same_view():
    resolver = remembering()
    first = get_resolver().resolve("/review/product")
    hits = resolver._remembered.cache_info().hits
    again = get_resolver().resolve("/review/product")
    assert resolver._remembered.cache_info().hits == hits + 1
    assert again.func is first.func and again.url_name == "product-review-list"
    assert get_resolver().resolve("/api/v3/review/product/").func is first.func


def test_path_arguments_follow_each_path():
    first = get_resolver().resolve("/publics/products/7/comments")
    second = get_resolver().resolve("/publics/products/8/comments")
    assert (first.kwargs, second.kwargs) == ({"productId": "7"}, {"productId": "8"})


@pytest.mark.django_db
def test_long_paths_are_not_remembered_and_memory_is_bounded(api_client):
    resolver = remembering()
    size = resolver._remembered.cache_info().currsize
    long_path = "/" + "x" * (RememberingResolver.MAX_PATH + 1)
    assert_error_envelope(api_client.get(long_path), 404, "NOT_FOUND")
    assert resolver._remembered.cache_info().currsize == size
    assert resolver._remembered.cache_info().maxsize == 2048


def test_reverse_still_names_every_api_path():
    from django.urls import reverse

    assert reverse("product-review-list") == "/review/product"
    assert reverse("payments-card-flags") == "/publics/payments/card-flags"
