"""Public API routes of the feedback app (prefixes are added in config/urls.py)."""

urlpatterns: list = []
