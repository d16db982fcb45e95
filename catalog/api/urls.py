"""Public API routes of the catalog app (prefixes are added in config/urls.py)."""

urlpatterns: list = []
