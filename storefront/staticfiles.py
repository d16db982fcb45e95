"""Static files storage for the admin and the API docs (served by whitenoise)."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Whitenoise's compressed storage with content-hashed names after `collectstatic`.

    Before `collectstatic` has run, a static URL falls back to the plain file name
    (whitenoise serves it from the app folders, WHITENOISE_USE_FINDERS) instead of the
    admin and /api/docs/ failing with a 500.
    """

    manifest_strict = False

    def stored_name(self, name):
        try:
            return super().stored_name(name)
        except ValueError:
            return name
