"""Public API routes of the shipping app (prefixes are added in config/urls.py)."""

urlpatterns: list = []
