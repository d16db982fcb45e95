"""`import_postal_codes`: GeoNames dumps and CSV files of addresses, streamed and upserted.

GeoNames (tab-separated, no header; docs/decisions.md, "GeoNames mapping") or CSV (header
row, one country given by the operator): CSV_COLUMNS, `state` being the subdivision code
with or without the country prefix (SP, BR-SP) or its name. The file's first line tells
which (`detect_format`).
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import BinaryIO

from django.utils.translation import gettext

from ..countries import Country, country_get, country_name, state_code_get
from ..models import PostalCode, PostalFileFormat
from ..models.postal_codes import CITY_MAX, COMPLEMENT_MAX, DISTRICT_MAX, PUBLIC_PLACE_MAX
from ..postal import InvalidPostalCode, normalize_postal_code
from ..selectors import POSTAL_CODES_CACHE, PostalCodeData
from .base import (
    MAX_LINE_BYTES,
    OVERLONG,
    FileFormatError,
    ImportReport,
    Progress,
    RowError,
    clean_text,
    csv_with_header,
    parse_decimal,
    parsed_rows,
    text_lines,
)
from .upsert import DEFAULT_BATCH_SIZE, BatchUpserter, stored_keys, unique_fields

FORMATS = tuple(PostalFileFormat.values)
GEONAMES_FIELDS = (11, 12)  # the last one (accuracy) is often missing
CSV_COLUMNS = (
    "zip_code",
    "public_place",
    "complement",
    "district",
    "city",
    "state",
    "latitude",
    "longitude",
)


KEY_FIELDS = unique_fields(PostalCode)
UPDATE_FIELDS = [name for name in PostalCodeData._fields if name not in KEY_FIELDS]


def _coordinates(latitude: str, longitude: str) -> tuple[Decimal | None, Decimal | None]:
    lat, lon = (
        parse_decimal(value, name=name, places=6, minimum=-limit, maximum=limit)
        if (value or "").strip()
        else None
        for value, name, limit in (
            (latitude, "latitude", Decimal(90)),
            (longitude, "longitude", Decimal(180)),
        )
    )
    if (lat is None) != (lon is None):
        raise RowError(gettext("latitude and longitude must be given together"))
    return lat, lon


def _code(country: Country, raw: str) -> str:
    try:
        return normalize_postal_code(country.alpha_3, raw)
    except InvalidPostalCode as exc:
        raise RowError(
            gettext("postal code %(code)s: %(reason)s")
            % {"code": repr(raw.strip()[:20]), "reason": exc}
        ) from None


def parse_geonames_line(line: str) -> PostalCodeData:
    if line.startswith(OVERLONG):
        raise RowError(gettext("line is too long"))
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) not in GEONAMES_FIELDS:
        raise RowError(
            gettext("expected 12 tab-separated columns, found %(count)d") % {"count": len(fields)}
        )
    country = country_get(fields[0]) if len(fields[0].strip()) == 2 else None
    if country is None:
        raise RowError(
            gettext("unknown country code %(code)s") % {"code": repr(fields[0].strip()[:10])}
        )
    code = _code(country, fields[1])
    city = clean_text(fields[2], name="place name", max_length=CITY_MAX)
    state_name = clean_text(fields[3], name="admin name1", max_length=200)
    state_code = clean_text(fields[4], name="admin code1", max_length=20)
    district = clean_text(fields[7], name="admin name3", max_length=DISTRICT_MAX)
    latitude, longitude = _coordinates(fields[9], fields[10])
    return PostalCodeData(
        country=country.alpha_3,
        code=code,
        public_place="",
        complement="",
        district=district,
        city=city,
        state_code=state_code_get(country.alpha_3, code=state_code, name=state_name) or "",
        latitude=latitude,
        longitude=longitude,
    )


def parse_csv_fields(
    fields: list[str], positions: dict[str, int], country: Country
) -> PostalCodeData:
    if len(fields) < max(positions.values()) + 1:
        raise RowError(
            gettext("expected at least %(expected)d columns, found %(count)d")
            % {"expected": max(positions.values()) + 1, "count": len(fields)}
        )
    value = {column: fields[index] for column, index in positions.items()}
    code = _code(country, value["zip_code"])
    state = clean_text(value["state"], name="state", max_length=100)
    state_code = ""
    if state:
        state_code = state_code_get(country.alpha_3, code=state, name=state) or ""
        if not state_code:
            raise RowError(
                gettext("state %(state)s is not a state of %(country)s")
                % {"state": repr(state[:30]), "country": country_name(country.alpha_3)}
            )
    latitude, longitude = _coordinates(value["latitude"], value["longitude"])
    return PostalCodeData(
        country=country.alpha_3,
        code=code,
        public_place=clean_text(
            value["public_place"], name="public_place", max_length=PUBLIC_PLACE_MAX
        ),
        complement=clean_text(value["complement"], name="complement", max_length=COMPLEMENT_MAX),
        district=clean_text(value["district"], name="district", max_length=DISTRICT_MAX),
        city=clean_text(value["city"], name="city", max_length=CITY_MAX),
        state_code=state_code,
        latitude=latitude,
        longitude=longitude,
    )


def detect_format(stream: BinaryIO) -> str:
    """GeoNames when the first non-blank line has 11 or 12 tab-separated fields, else CSV
    (read from the start of `stream`, left there)."""
    stream.seek(0)
    try:
        while raw := stream.readline(MAX_LINE_BYTES):
            line = raw.decode("utf-8-sig", errors="replace").rstrip("\r\n")
            if line.strip():
                geonames = len(line.split("\t")) in GEONAMES_FIELDS
                return PostalFileFormat.GEONAMES if geonames else PostalFileFormat.CSV
        return PostalFileFormat.CSV  # empty: the CSV reader says it needs a header
    finally:
        stream.seek(0)


def postal_codes_import(
    *,
    stream: BinaryIO,
    file_format: str | None = None,
    country: str | None = None,
    dry_run: bool = False,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Progress | None = None,
) -> ImportReport:
    """Upsert the postal codes of a GeoNames or CSV file (`file_format` None: told by the
    file; a CSV file needs `country`, alpha-3 or alpha-2). FileFormatError when the file as
    a whole is unusable; bad lines are rejected and reported."""
    file_format = file_format or detect_format(stream)
    if file_format not in FORMATS:
        raise FileFormatError(
            gettext("Unknown format %(format)s: use one of %(formats)s.")
            % {"format": repr(file_format), "formats": ", ".join(FORMATS)}
        )
    target = None
    if file_format == PostalFileFormat.CSV:
        if not country:
            raise FileFormatError(gettext("A CSV file needs its country, e.g. BRA."))
        target = country_get(country)
        if target is None:
            raise FileFormatError(
                gettext("Unknown country %(code)s: use its ISO code, e.g. BRA.")
                % {"code": repr(country[:10])}
            )
    report = ImportReport(dry_run=dry_run)
    lines = text_lines(stream, progress)
    if target is None:  # GeoNames (a CSV file's country is checked above)
        numbered = ((number, line, "") for number, line in enumerate(lines, 1) if line.strip())
        rows = parsed_rows(numbered, report, parse_geonames_line)
    else:
        positions, records = csv_with_header(lines, CSV_COLUMNS)
        rows = parsed_rows(
            records, report, partial(parse_csv_fields, positions=positions, country=target)
        )
    return BatchUpserter(
        model=PostalCode,
        columns=PostalCodeData._fields,
        update_fields=UPDATE_FIELDS,
        existing_keys=partial(stored_keys, PostalCode),
        report=report,
        batch_size=batch_size,
        bump=POSTAL_CODES_CACHE,
    ).add_all(rows)
