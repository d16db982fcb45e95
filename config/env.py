"""Readers of the environment, for the settings and gunicorn's conf (which cannot import
config.settings). Unset or blank means the default; a value that cannot be read stops the
process with the variable's name."""

import os
import re

from django.core.exceptions import ImproperlyConfigured

TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


class InvalidVariable(ImproperlyConfigured, ValueError):
    """Django's startup error, and the ValueError gunicorn reports."""


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name) or default


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "")
    value = raw.strip().lower()
    if value and value not in TRUE | FALSE:
        raise InvalidVariable(f"{name} must be a boolean (1/0, true/false), got {raw!r}.")
    return value in TRUE if value else default


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    try:
        return int(raw) if raw.strip() else default
    except ValueError as exc:
        raise InvalidVariable(f"{name} must be an integer, got {raw!r}.") from exc


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def env_whole_patterns(name: str) -> list[re.Pattern[str]]:
    """Regular expressions separated by spaces (a regex may hold a comma: `{1,3}`), each
    compiled to match a whole value: `https://pr-[0-9]+\\.shop\\.example\\.com` never
    matches `https://pr-1.shop.example.com.evil.net`."""
    patterns = []
    for raw in env_str(name).split():
        try:
            patterns.append(re.compile(rf"(?:{raw})\Z"))
        except re.error as exc:
            raise InvalidVariable(f"{name}: {raw!r} is not a regular expression ({exc}).") from exc
    return patterns


def git_commit(root: str) -> str | None:
    """The commit checked out at `root` (12 hex digits), None without git or a checkout."""
    import subprocess

    try:
        found = subprocess.run(  # noqa: S603  (a fixed command, no shell)
            ["git", "-C", root, "rev-parse", "--short=12", "HEAD"],  # noqa: S607
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return found.stdout.strip() or None if found.returncode == 0 else None
