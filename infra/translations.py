"""Compile `.po` to `.mo` in pure Python (Babel) and read both back: a fresh clone needs no
GNU gettext, and a test can tell a `.mo` not rebuilt after its `.po` changed.
"""

from __future__ import annotations

import gettext
import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po


def po_files(locale_dir: Path) -> list[Path]:
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def read_catalog(po_path: Path) -> Catalog:
    with po_path.open("rb") as stream:
        return read_po(stream, abort_invalid=True)


def mo_bytes(po_path: Path) -> bytes:
    """The `.mo` of `po_path` (no fuzzy or untranslated entries, as msgfmt)."""
    buffer = io.BytesIO()
    write_mo(buffer, read_catalog(po_path), use_fuzzy=False)
    return buffer.getvalue()


def compile_po(po_path: Path) -> Path:
    mo_path = po_path.with_suffix(".mo")
    mo_path.write_bytes(mo_bytes(po_path))
    return mo_path


def mo_entries(data: bytes) -> dict:
    """The translations of a `.mo`, as gettext reads them, but the header (a date)."""
    translations = gettext.GNUTranslations(io.BytesIO(data))
    entries = dict(translations._catalog)  # type: ignore[attr-defined]
    entries.pop("", None)
    return entries


def untranslated(po_path: Path) -> list[str]:
    missing: list[str] = []
    for message in read_catalog(po_path):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            msgid = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
            missing.append(str(msgid))
    return missing
