"""The streaming import services: batches, interruption, limits, line reading."""

import io
from decimal import Decimal

import pytest
from django.db import IntegrityError

from shipping.imports.base import (
    MAX_LINE_BYTES,
    MAX_REJECTIONS_KEPT,
    ImportReport,
    RowError,
    csv_records,
    parse_decimal,
    text_lines,
)
from shipping.imports.postal_codes import UPDATE_FIELDS, parse_geonames_line, postal_codes_import
from shipping.imports.shipping_rows import shipping_rows_import
from shipping.imports.upsert import BatchUpserter
from shipping.models import PostalCode
from shipping.selectors import PostalCodeData

from .factories import ShippingTableFactory


def geonames_line(number: int) -> str:
    return f"BR\t{number:08d}\tCity {number}\tSão Paulo\tSP\t\t\t\t\t-23.5\t-46.6\t4\n"


class InterruptingStream(io.BytesIO):
    """A file whose reading is interrupted (Ctrl-C) after `lines` lines."""

    def __init__(self, data: bytes, lines: int):
        super().__init__(data)
        self.remaining = lines

    def readline(self, size=-1):
        if self.remaining == 0:
            raise KeyboardInterrupt
        self.remaining -= 1
        return super().readline(size)


@pytest.mark.django_db
def test_an_interrupted_import_keeps_the_finished_batches_and_says_so():
    data = "".join(geonames_line(n) for n in range(1, 11)).encode()
    stream = InterruptingStream(data, lines=7)

    report = postal_codes_import(stream=stream, file_format="geonames", batch_size=3)

    assert report.interrupted
    assert PostalCode.objects.count() == 6  # two full batches of 3; line 7 never flushed
    assert "Interrupted" in "\n".join(report.summary_lines())


@pytest.mark.django_db
def test_created_and_updated_are_counted_right_beyond_one_query_of_parameters():
    # 2,500 codes in one batch: more than SQLite's 999 parameters of one lookup query.
    data = "".join(geonames_line(n) for n in range(1, 2501)).encode()
    first = postal_codes_import(stream=io.BytesIO(data), file_format="geonames")
    again = postal_codes_import(stream=io.BytesIO(data), file_format="geonames")

    assert (first.created, first.updated) == (2500, 0)
    assert (again.created, again.updated) == (0, 2500)
    assert PostalCode.objects.count() == 2500


def postal_code_row(code: str, latitude: Decimal | None = None) -> PostalCodeData:
    return PostalCodeData("BRA", code, "", "", "", "City", "BR-SP", latitude, latitude)


@pytest.mark.django_db
def test_a_batch_the_database_refuses_is_rolled_back_whole_and_later_imports_work():
    report = ImportReport()
    upserter = BatchUpserter(
        model=PostalCode,
        columns=PostalCodeData._fields,
        update_fields=UPDATE_FIELDS,
        existing_keys=lambda keys: set(),
        report=report,
        batch_size=2,
    )
    upserter.add(postal_code_row("00000001"))
    upserter.add(postal_code_row("00000002"))  # first batch: written
    upserter.add(postal_code_row("00000003"))
    with pytest.raises(IntegrityError):  # second batch: a latitude past the check constraint
        upserter.add(postal_code_row("00000004", latitude=Decimal("100")))

    assert set(PostalCode.objects.values_list("code", flat=True)) == {"00000001", "00000002"}
    assert (report.created, report.updated) == (2, 0)
    # Nothing of the failed batch is left on the connection (PostgreSQL's batch table).
    later = postal_codes_import(
        stream=io.BytesIO(geonames_line(5).encode()), file_format="geonames"
    )
    assert later.created == 1


@pytest.mark.django_db
def test_an_interrupted_rows_import_never_replaces():
    table = ShippingTableFactory()
    header = (
        b"initial_zipcode,final_zipcode,initial_weight,final_weight,initial_price,"
        b"final_price,shipping_value,begin_shipping_time,end_shipping_time\n"
    )
    stream = InterruptingStream(header + b"01000000,01999999,0,1,0,,10,1,2\n" * 5, lines=3)
    report = shipping_rows_import(table=table, stream=stream, replace=True, batch_size=1)
    assert report.interrupted
    assert not report.notes


@pytest.mark.django_db
def test_progress_is_reported_in_bytes_read():
    data = "".join(geonames_line(n) for n in range(1, 4)).encode()
    seen = []
    postal_codes_import(stream=io.BytesIO(data), file_format="geonames", progress=seen.append)
    assert sum(seen) == len(data)


def test_an_overlong_line_is_skipped_and_reading_goes_on():
    data = b"a\n" + b"x" * (MAX_LINE_BYTES * 2 + 10) + b"\nb\n"
    lines = list(text_lines(io.BytesIO(data)))
    assert lines[0] == "a\n" and lines[2] == "b\n"
    with pytest.raises(RowError, match="too long"):
        parse_geonames_line(lines[1])
    assert list(csv_records(lines))[1][2] == f"line longer than {MAX_LINE_BYTES} bytes"


def test_crlf_line_endings_and_a_bom_are_accepted():
    data = b"\xef\xbb\xbf" + geonames_line(1).replace("\n", "\r\n").encode()
    (line,) = text_lines(io.BytesIO(data))
    assert parse_geonames_line(line).code == "00000001"


def test_csv_records_carry_the_first_physical_line_of_each_record():
    lines = ["a,b\n", '"multi\n', 'line",x\n', "\n", "c,d\n"]
    assert [(n, f) for n, f, _ in csv_records(lines)] == [
        (1, ["a", "b"]),
        (2, ["multi\nline", "x"]),
        (5, ["c", "d"]),
    ]


def test_the_report_keeps_a_bounded_number_of_rejection_details():
    report = ImportReport()
    for line in range(MAX_REJECTIONS_KEPT + 500):
        report.reject(line, "bad")
    assert report.rejected == MAX_REJECTIONS_KEPT + 500
    assert len(report.rejections) == MAX_REJECTIONS_KEPT
    assert report.summary_lines(max_rejections=2)[-1] == (
        f"  ... and {MAX_REJECTIONS_KEPT + 498} more rejected lines."
    )


@pytest.mark.parametrize("text", ["abc", "Infinity", "NaN", "1" * 40, "1.2.3"])
def test_parse_decimal_refuses_what_is_not_a_finite_number(text):
    with pytest.raises(RowError):
        parse_decimal(text, name="value", places=2)
