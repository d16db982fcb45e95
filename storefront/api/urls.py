"""Public API routes of the store app (prefixes are added in config/urls.py)."""

urlpatterns: list = []
