"""Public API routes of the marketing app (prefixes are added in config/urls.py)."""

urlpatterns: list = []
