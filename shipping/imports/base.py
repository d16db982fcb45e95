"""Streaming import machinery shared by the importers: a file is read line by line, each
line parsed into a tuple or rejected with a reason (translated into the active language),
and valid rows upserted in batches by `upsert.BatchUpserter`.
"""

from __future__ import annotations

import codecs
import csv
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import BinaryIO, TypeVar

from django.utils.translation import gettext, ngettext

MAX_LINE_BYTES = 64 * 1024
MAX_REJECTIONS_KEPT = 1000  # details kept for the summary; the count is always exact
OVERLONG = "\x00overlong-line\x00"
_SUSPECT = re.compile(r"[\x00-\x1f\x7f\ufffd]")  # control characters, invalid UTF-8

_QUANTUM = {places: Decimal(1).scaleb(-places) for places in range(10)}  # 2 -> 0.01

Progress = Callable[[int], None]
T = TypeVar("T")
R = TypeVar("R")


class RowError(ValueError):
    """A line that cannot be imported; the message is the reason shown to the operator."""


class FileFormatError(ValueError):
    """The file as a whole cannot be imported (e.g. a CSV header without required columns)."""


@dataclass
class Rejection:
    line: int
    reason: str


@dataclass
class ImportReport:
    dry_run: bool = False
    read: int = 0
    created: int = 0
    updated: int = 0
    rejected: int = 0
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)

    def reject(self, line: int, reason: str) -> None:
        self.rejected += 1
        if len(self.rejections) < MAX_REJECTIONS_KEPT:
            self.rejections.append(Rejection(line, reason))

    def summary_lines(self, *, max_rejections: int = 50) -> list[str]:
        if self.dry_run:
            created = ngettext(
                "%(count)d would be created", "%(count)d would be created", self.created
            )
            updated = ngettext(
                "%(count)d would be updated", "%(count)d would be updated", self.updated
            )
        else:
            created = ngettext("%(count)d was created", "%(count)d were created", self.created)
            updated = ngettext("%(count)d was updated", "%(count)d were updated", self.updated)
        rejected = ngettext("%(count)d rejected", "%(count)d rejected", self.rejected)
        summary = gettext("%(read)s: %(created)s, %(updated)s, %(rejected)s.") % {
            "read": ngettext("Read %(count)d line", "Read %(count)d lines", self.read)
            % {"count": self.read},
            "created": created % {"count": self.created},
            "updated": updated % {"count": self.updated},
            "rejected": rejected % {"count": self.rejected},
        }
        if self.dry_run:
            summary += " " + gettext("(dry run: nothing written)")
        lines = [summary]
        if self.interrupted:
            lines.append(gettext("Interrupted: the batches before the interruption are saved."))
        lines.extend(self.notes)
        lines.extend(
            "  " + gettext("line %(line)d: %(reason)s") % {"line": item.line, "reason": item.reason}
            for item in self.rejections[:max_rejections]
        )
        hidden = self.rejected - min(len(self.rejections), max_rejections)
        if hidden > 0:
            lines.append(
                "  "
                + ngettext(
                    "... and %(count)d more rejected line.",
                    "... and %(count)d more rejected lines.",
                    hidden,
                )
                % {"count": hidden}
            )
        return lines


def text_lines(stream: BinaryIO, progress: Progress | None = None) -> Iterator[str]:
    """Decoded lines of a binary stream (UTF-8, BOM dropped), one at a time.

    Invalid UTF-8 becomes U+FFFD (the parsers reject such lines); a line longer than
    MAX_LINE_BYTES becomes the OVERLONG marker. `progress(bytes)` is called once per line.
    """
    decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="replace")
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        consumed = len(raw)
        overlong = len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n")
        if overlong:
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(MAX_LINE_BYTES)
                consumed += len(raw)
            text = OVERLONG + "\n"
            decoder.reset()
        else:
            text = decoder.decode(raw)
        if progress is not None:
            progress(consumed)
        yield text


def csv_records(lines: Iterable[str]) -> Iterator[tuple[int, list[str] | None, str]]:
    """(first line number, fields or None, error) of each non-blank CSV record."""
    reader = csv.reader(lines, strict=True)
    while True:
        start = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield start, None, gettext("malformed CSV: %(error)s") % {"error": exc}
            continue
        if not fields or (len(fields) == 1 and not fields[0].strip()):
            continue
        if any(OVERLONG in value for value in fields):
            yield start, None, gettext("line longer than %(max)d bytes") % {"max": MAX_LINE_BYTES}
            continue
        yield start, fields, ""


def csv_with_header(
    lines: Iterable[str],
    required: Sequence[str],
    optional: Iterable[str] = (),
    aliases: Mapping[str, str] | None = None,
) -> tuple[dict[str, int], Iterator[tuple[int, list[str] | None, str]]]:
    """Where each known column of a CSV file's header is (names in any case, or one of
    their `aliases`), and its other records (as `csv_records`); FileFormatError when the
    file is empty, its header unreadable or without a required column."""
    records = csv_records(lines)
    for number, header, error in records:
        if header is None:
            raise FileFormatError(
                gettext("The CSV header (line %(line)d) cannot be read: %(error)s.")
                % {"line": number, "error": error}
            )
        break
    else:
        raise FileFormatError(gettext("The CSV file is empty: it needs a header row."))
    names = [(aliases or {}).get(name.strip().lower(), name.strip().lower()) for name in header]
    missing = [column for column in required if column not in names]
    if missing:
        raise FileFormatError(
            ngettext(
                "The CSV header lacks the column %(missing)s; expected: %(expected)s.",
                "The CSV header lacks the columns %(missing)s; expected: %(expected)s.",
                len(missing),
            )
            % {"missing": ", ".join(missing), "expected": ", ".join(required)}
        )
    positions = {
        column: names.index(column) for column in (*required, *optional) if column in names
    }
    return positions, records


def parsed_rows(
    records: Iterable[tuple[int, T | None, str]], report: ImportReport, parse: Callable[[T], R]
) -> Iterator[R]:
    """`parse(value)` of each record (line number, value, error): every record counts as
    read; one with an error, or whose value `parse` refuses (RowError), is rejected."""
    for number, value, error in records:
        report.read += 1
        try:
            if value is None:
                raise RowError(error)
            row = parse(value)
        except RowError as exc:
            report.reject(number, str(exc))
        else:
            yield row


def clean_text(value: str, *, name: str, max_length: int) -> str:
    """A plain-text field: trimmed, at most max_length characters, no control characters."""
    value = (value or "").strip()
    if _SUSPECT.search(value):
        if "\ufffd" in value:
            raise RowError(gettext("%(name)s is not valid UTF-8") % {"name": name})
        raise RowError(gettext("%(name)s contains control characters") % {"name": name})
    if len(value) > max_length:
        raise RowError(
            gettext("%(name)s is longer than %(max)d characters")
            % {"name": name, "max": max_length}
        )
    return value


def parse_decimal(
    value: str,
    *,
    name: str,
    places: int,
    minimum: Decimal | None = None,
    maximum: Decimal | None = None,
    default: Decimal | None = None,
) -> Decimal:
    """A decimal number ("1.5" or "1,5"), rounded to `places`; RowError when invalid."""
    value = (value or "").strip()
    if not value:
        if default is not None:
            return default
        raise RowError(gettext("%(name)s is required") % {"name": name})
    try:
        number = Decimal(value.replace(",", ".")) if len(value) <= 30 else None
    except InvalidOperation:
        number = None
    if number is None or not number.is_finite():
        raise RowError(
            gettext("%(name)s is not a number: %(value)s")
            % {"name": name, "value": repr(value[:30])}
        )
    if minimum is not None and number < minimum:
        raise RowError(
            gettext("%(name)s must be at least %(minimum)s") % {"name": name, "minimum": minimum}
        )
    if maximum is not None and number > maximum:
        raise RowError(
            gettext("%(name)s must be at most %(maximum)s") % {"name": name, "maximum": maximum}
        )
    return number.quantize(_QUANTUM[places])


def parse_int(value: str, *, name: str, minimum: int, maximum: int) -> int:
    value = (value or "").strip()
    if not value:
        raise RowError(gettext("%(name)s is required") % {"name": name})
    if not (value.isascii() and value.isdigit() and len(value) <= 9) or not (
        minimum <= int(value) <= maximum
    ):
        raise RowError(
            gettext("%(name)s must be a whole number from %(minimum)d to %(maximum)d")
            % {"name": name, "minimum": minimum, "maximum": maximum}
        )
    return int(value)
