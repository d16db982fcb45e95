"""Static files storage for the admin and the API docs (served by whitenoise)."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Before `collectstatic`, the plain file name (WHITENOISE_USE_FINDERS), not a 500."""

    manifest_strict = False

    def stored_name(self, name):
        try:
            return super().stored_name(name)
        except ValueError:
            return name
