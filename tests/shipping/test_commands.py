"""manage.py import_postal_codes and import_shipping_rows, on small files."""

from decimal import Decimal
from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command

from shipping.management.commands._progress import file_progress
from shipping.models import PostalCode, ShippingRow

from .factories import PostalCodeFactory, ShippingRowFactory, ShippingTableFactory

pytestmark = pytest.mark.django_db

GEONAMES = (
    "BR\t01310-100\tSão Paulo\tSão Paulo\t27\tSão Paulo\t3550308\tBela Vista\t\t"
    "-23.5617\t-46.6560\t4\n"
    "BR\t20040-002\tRio de Janeiro\tRio de Janeiro\t21\tRio de Janeiro\t\t\t\t"
    "-22.9035\t-43.2096\t4\n"
    "US\t90210\tBeverly Hills\tCalifornia\tCA\tLos Angeles\t037\t\t\t34.0901\t-118.4065\t4\n"
)


def run(command: str, *args) -> str:
    out = StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def write(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return path


# --- import_postal_codes --format geonames ------------------------------------------------


def test_geonames_import_creates_postal_codes_with_iso_states_and_coordinates(tmp_path):
    path = write(tmp_path, "BR.txt", GEONAMES)
    output = run("import_postal_codes", "--format", "geonames", str(path))

    assert "Read 3 lines: 3 were created, 0 were updated, 0 rejected." in output
    paulista = PostalCode.objects.get(country="BRA", code="01310100")
    assert paulista.city == "São Paulo"
    assert paulista.district == "Bela Vista"
    assert paulista.state_code == "BR-SP"  # resolved from the admin name (code 27 is not ISO)
    assert paulista.latitude == Decimal("-23.561700")
    beverly = PostalCode.objects.get(country="USA", code="90210")
    assert (beverly.city, beverly.state_code) == ("Beverly Hills", "US-CA")


def test_geonames_import_again_updates_instead_of_duplicating(tmp_path):
    PostalCodeFactory(code="01310100", city="Old name", latitude=None, longitude=None)
    path = write(tmp_path, "BR.txt", GEONAMES)

    output = run("import_postal_codes", "--format", "geonames", str(path))

    assert "2 were created, 1 was updated" in output
    assert PostalCode.objects.count() == 3
    assert PostalCode.objects.get(code="01310100").city == "São Paulo"


def test_geonames_malformed_lines_are_rejected_with_line_numbers_and_reasons(tmp_path):
    content = (
        GEONAMES
        + "XX\t12345\tNowhere\t\t\t\t\t\t\t1\t1\t1\n"  # line 4: unknown country
        + "BR\t123\tShort\t\t\t\t\t\t\t1\t1\t1\n"  # line 5: bad postal code
        + "BR\t01001-000\tSé\n"  # line 6: missing columns
        + "BR\t01001-000\tSé\tSão Paulo\tSP\t\t\t\t\t-95\t-46\t1\n"  # line 7: latitude
        + "BR\t01001-000\tSé\tSão Paulo\tSP\t\t\t\t\tabc\t-46\t1\n"  # line 8: not a number
        + "BR\t01001-000\t"
        + "x" * 101
        + "\tSão Paulo\tSP\t\t\t\t\t-23\t-46\t1\n"  # line 9: place name too long
    )
    path = write(tmp_path, "bad.txt", content)

    output = run("import_postal_codes", "--format", "geonames", str(path))

    assert "Read 9 lines: 3 were created, 0 were updated, 6 rejected." in output
    assert "line 4: unknown country code 'XX'" in output
    assert "line 5: postal code '123'" in output
    assert "line 6: expected 12 tab-separated columns, found 3" in output
    assert "line 7: latitude must be at least -90" in output
    assert "line 8: latitude is not a number" in output
    assert "line 9: place name is longer than 100 characters" in output
    assert PostalCode.objects.count() == 3


def test_geonames_dry_run_reports_but_writes_nothing(tmp_path):
    path = write(tmp_path, "BR.txt", GEONAMES)
    output = run("import_postal_codes", "--format", "geonames", str(path), "--dry-run")
    assert "3 would be created" in output and "dry run" in output
    assert PostalCode.objects.count() == 0


def test_small_batches_give_the_same_result(tmp_path):
    path = write(tmp_path, "BR.txt", GEONAMES + GEONAMES)  # repeated lines update
    output = run("import_postal_codes", "--format", "geonames", str(path), "--batch-size", "2")
    assert "Read 6 lines: 3 were created, 3 were updated, 0 rejected." in output
    assert PostalCode.objects.count() == 3


def test_a_second_import_updates_the_overlapping_codes_and_creates_the_new_ones(tmp_path):
    first = write(tmp_path, "first.txt", GEONAMES)
    second = write(
        tmp_path,
        "second.txt",
        "BR\t01310-100\tSão Paulo\tSão Paulo\tSP\t\t\tConsolação\t\t-23.5\t-46.6\t4\n"
        + GEONAMES.splitlines(keepends=True)[2]  # 90210, unchanged
        + "BR\t80010-000\tCuritiba\tParaná\tPR\t\t\tCentro\t\t-25.4\t-49.3\t4\n",
    )
    with time_machine.travel("2026-03-01 12:00:00+00:00", tick=False):
        run("import_postal_codes", "--format", "geonames", str(first))
    with time_machine.travel("2026-03-02 12:00:00+00:00", tick=False):
        output = run("import_postal_codes", "--format", "geonames", str(second))

    assert "Read 3 lines: 1 was created, 2 were updated, 0 rejected." in output
    assert PostalCode.objects.count() == 4
    paulista = PostalCode.objects.get(country="BRA", code="01310100")
    assert (paulista.district, paulista.latitude) == ("Consolação", Decimal("-23.500000"))
    assert paulista.created_at.day == 1 and paulista.updated_at.day == 2
    untouched = PostalCode.objects.get(country="BRA", code="20040002")
    assert untouched.updated_at.day == 1
    assert PostalCode.objects.get(code="80010000").state_code == "BR-PR"


def test_a_code_repeated_in_one_batch_keeps_its_last_line_and_counts_an_update(tmp_path):
    content = (
        "BR\t01310-100\tFirst\tSão Paulo\tSP\t\t\t\t\t-23.5\t-46.6\t4\n"
        "BR\t01310100\tLast\tSão Paulo\tSP\t\t\t\t\t-23.5\t-46.6\t4\n"
    )
    path = write(tmp_path, "twice.txt", content)

    output = run("import_postal_codes", "--format", "geonames", str(path))

    assert "Read 2 lines: 1 was created, 1 was updated, 0 rejected." in output
    assert PostalCode.objects.get().city == "Last"


def test_the_same_code_in_another_country_is_a_different_postal_code(tmp_path):
    other = PostalCodeFactory(country="ARG", code="01310100", city="Elsewhere")
    path = write(tmp_path, "BR.txt", GEONAMES)

    output = run("import_postal_codes", "--format", "geonames", str(path))

    assert "3 were created, 0 were updated" in output
    other.refresh_from_db()
    assert other.city == "Elsewhere"


def test_a_dry_run_counts_updates_against_the_database_and_changes_nothing(tmp_path):
    PostalCodeFactory(code="01310100", city="Old name")
    path = write(tmp_path, "BR.txt", GEONAMES)

    output = run("import_postal_codes", "--format", "geonames", str(path), "--dry-run")

    assert "Read 3 lines: 2 would be created, 1 would be updated, 0 rejected." in output
    assert PostalCode.objects.get().city == "Old name"


def test_invalid_utf8_and_blank_lines(tmp_path):
    content = GEONAMES.encode() + b"\n" + b"BR\t01001-000\tS\xe9\t\t\t\t\t\t\t\t\t\n"
    path = write(tmp_path, "latin1.txt", content)
    output = run("import_postal_codes", "--format", "geonames", str(path))
    assert "Read 4 lines: 3 were created, 0 were updated, 1 rejected." in output
    assert "line 5: place name is not valid UTF-8" in output


# --- import_postal_codes --format csv -----------------------------------------------------

CSV = (
    "zip_code,public_place,complement,district,city,state,latitude,longitude\n"
    '01310-100,Avenida Paulista,"de 612 a 1510 - lado par",Bela Vista,São Paulo,SP,'
    "-23.561684,-46.655981\n"
    "20040-002,Avenida Rio Branco,,Centro,Rio de Janeiro,BR-RJ,-22.903539,-43.209587\n"
    "80010000,Rua XV de Novembro,,Centro,Curitiba,Paraná,,\n"
)


def test_csv_import_creates_addresses_of_the_given_country(tmp_path):
    path = write(tmp_path, "ceps.csv", CSV)
    output = run("import_postal_codes", "--format", "csv", "--country", "BRA", str(path))

    assert "Read 3 lines: 3 were created, 0 were updated, 0 rejected." in output
    paulista = PostalCode.objects.get(code="01310100")
    assert paulista.public_place == "Avenida Paulista"
    assert paulista.complement == "de 612 a 1510 - lado par"
    assert paulista.state_code == "BR-SP"
    curitiba = PostalCode.objects.get(code="80010000")
    assert curitiba.state_code == "BR-PR"
    assert curitiba.latitude is None and curitiba.longitude is None


def test_csv_columns_may_come_in_any_order_with_a_bom(tmp_path):
    content = (
        "\ufeffcity,zip_code,state,public_place,complement,district,longitude,latitude\n"
        "São Paulo,01310-100,SP,Avenida Paulista,,Bela Vista,-46.65,-23.56\n"
    )
    path = write(tmp_path, "ceps.csv", content)
    run("import_postal_codes", "--format", "csv", "--country", "BR", str(path))
    assert PostalCode.objects.get(code="01310100").longitude == Decimal("-46.650000")


def test_csv_malformed_rows_are_rejected_with_reasons(tmp_path):
    content = CSV + (
        "0000,Rua,,Centro,Cidade,SP,,\n"  # line 5: bad postal code
        "01001-000,Praça da Sé,,Sé,São Paulo,ZZ,,\n"  # line 6: unknown state
        "01001-000,Praça da Sé,,Sé,São Paulo,SP,-23.5\n"  # line 7: too few columns
        "01001-000,Praça da Sé,,Sé,São Paulo,SP,-23.5,\n"  # line 8: latitude without longitude
        '01001-000,"unterminated,,Sé,São Paulo,SP,,\n'  # line 9: malformed CSV
    )
    path = write(tmp_path, "ceps.csv", content)

    output = run("import_postal_codes", "--format", "csv", "--country", "BRA", str(path))

    assert "3 were created, 0 were updated, 5 rejected." in output
    assert "line 5: postal code '0000'" in output
    assert "line 6: state 'ZZ' is not a state of Brazil" in output
    assert "line 7: expected at least 8 columns, found 7" in output
    assert "line 8: latitude and longitude must be given together" in output
    assert "line 9: malformed CSV" in output


def test_csv_without_the_required_columns_is_refused(tmp_path):
    path = write(tmp_path, "ceps.csv", "zip,city\n01310-100,São Paulo\n")
    with pytest.raises(CommandError, match="lacks the column"):
        run("import_postal_codes", "--format", "csv", "--country", "BRA", str(path))
    assert PostalCode.objects.count() == 0


@pytest.mark.parametrize(("country", "message"), [("", "needs its country"), ("XYZ", "Unknown")])
def test_csv_needs_a_known_country(tmp_path, country, message):
    path = write(tmp_path, "ceps.csv", CSV)
    with pytest.raises(CommandError, match=message):
        run("import_postal_codes", "--country", country, str(path))


def test_the_format_is_told_by_the_file_and_a_csv_is_of_the_stores_country(tmp_path, settings):
    settings.STORE_COUNTRY = "BRA"
    geonames = write(tmp_path, "BR.txt", GEONAMES)
    assert "Read 3 lines: 3 were created" in run("import_postal_codes", str(geonames))
    assert PostalCode.objects.filter(country="USA").exists()  # each line's own country
    csv = write(tmp_path, "ceps.csv", CSV)
    assert "0 rejected" in run("import_postal_codes", str(csv))
    assert PostalCode.objects.filter(country="BRA", state_code="BR-SP").exists()


def test_an_empty_csv_file_is_refused(tmp_path):
    path = write(tmp_path, "empty.csv", "")
    with pytest.raises(CommandError, match="empty"):
        run("import_postal_codes", "--format", "csv", "--country", "BRA", str(path))


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        run("import_postal_codes", "--format", "geonames", str(tmp_path / "missing.txt"))


def test_a_batch_size_below_one_is_refused(tmp_path):
    path = write(tmp_path, "BR.txt", GEONAMES)
    with pytest.raises(CommandError, match="batch-size"):
        run("import_postal_codes", "--format", "geonames", str(path), "--batch-size", "0")


# --- import_shipping_rows -----------------------------------------------------------------

ROWS = (
    "initial_zipcode,final_zipcode,initial_weight,final_weight,initial_price,final_price,"
    "shipping_value,begin_shipping_time,end_shipping_time\n"
    "01000-000,19999-999,0,1,0,,15.90,1,3\n"
    "01000-000,19999-999,1.001,5,0,,22.50,1,3\n"
    '20000-000,28999-999,0,"5,5",,,"29,90",2,5\n'
)


def test_rows_import_adds_rows_to_the_table(tmp_path):
    table = ShippingTableFactory()
    path = write(tmp_path, "rows.csv", ROWS)

    output = run("import_shipping_rows", str(table.pk), str(path))

    assert "Read 3 lines: 3 were created, 0 were updated, 0 rejected." in output
    rows = list(table.rows.order_by("initial_zipcode", "initial_weight"))
    assert [(r.initial_zipcode, r.final_zipcode) for r in rows] == [
        ("01000000", "19999999"),
        ("01000000", "19999999"),
        ("20000000", "28999999"),
    ]
    assert rows[0].final_price == Decimal("9999999999.99")  # empty: no limit
    assert rows[2].final_weight == Decimal("5.500")  # decimal comma
    assert rows[2].shipping_value == Decimal("29.90")
    assert (rows[2].begin_shipping_time, rows[2].end_shipping_time) == (2, 5)


@pytest.mark.parametrize("command", ["import_shipping_rows", "import_postal_codes"])
def test_ctrl_c_while_the_header_is_read_says_interrupted_and_writes_nothing(
    tmp_path, monkeypatch, command
):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    for module in ("shipping_rows", "postal_codes"):
        monkeypatch.setattr(f"shipping.imports.{module}.csv_with_header", interrupted)
    table = ShippingTableFactory()
    path = write(tmp_path, "rows.csv", ROWS)
    args = [str(table.pk), str(path)] if command == "import_shipping_rows" else [str(path)]
    args += ["--format", "csv"] if command == "import_postal_codes" else []

    with pytest.raises(CommandError, match=r"Import interrupted\."):
        run(command, *args)

    assert not ShippingRow.objects.exists() and not PostalCode.objects.exists()


def test_rows_import_updates_rows_with_the_same_ranges(tmp_path):
    table = ShippingTableFactory()
    ShippingRowFactory(
        table=table,
        initial_zipcode="01000000",
        final_zipcode="19999999",
        initial_weight=Decimal("0"),
        final_weight=Decimal("1"),
        initial_price=Decimal("0"),
        final_price=Decimal("9999999999.99"),
        shipping_value=Decimal("99.00"),
    )
    path = write(tmp_path, "rows.csv", ROWS)

    output = run("import_shipping_rows", str(table.pk), str(path))

    assert "2 were created, 1 was updated" in output
    assert table.rows.count() == 3
    assert table.rows.get(final_weight=Decimal("1")).shipping_value == Decimal("15.90")


def test_rows_import_without_variable_columns_keeps_the_variables_of_updated_rows(tmp_path):
    table = ShippingTableFactory()
    ShippingRowFactory(
        table=table,
        initial_zipcode="01000000",
        final_zipcode="19999999",
        initial_weight=Decimal("0"),
        final_weight=Decimal("1"),
        initial_price=Decimal("0"),
        final_price=Decimal("9999999999.99"),
        fixed_fee=Decimal("5.00"),
    )
    path = write(tmp_path, "rows.csv", ROWS)

    run("import_shipping_rows", str(table.pk), str(path))

    assert table.rows.get(final_weight=Decimal("1")).fixed_fee == Decimal("5.00")
    assert table.rows.get(final_weight=Decimal("5")).fixed_fee == Decimal("0.00")


def test_rows_import_with_replace_deletes_rows_missing_from_the_file(tmp_path):
    table = ShippingTableFactory()
    old = ShippingRowFactory(table=table, initial_zipcode="90000000", final_zipcode="99999999")
    other_table_row = ShippingRowFactory()
    path = write(tmp_path, "rows.csv", ROWS)

    output = run("import_shipping_rows", str(table.pk), str(path), "--replace")

    assert "1 row missing from the file was deleted." in output
    assert not ShippingRow.objects.filter(pk=old.pk).exists()
    assert ShippingRow.objects.filter(pk=other_table_row.pk).exists()
    assert table.rows.count() == 3


def test_replace_keeps_old_rows_when_a_line_is_rejected(tmp_path):
    table = ShippingTableFactory()
    old = ShippingRowFactory(table=table, initial_zipcode="90000000", final_zipcode="99999999")
    path = write(tmp_path, "rows.csv", ROWS + "bad,99999-999,0,1,0,,1,1,1\n")

    output = run("import_shipping_rows", str(table.pk), str(path), "--replace")

    assert "were kept" in output
    assert ShippingRow.objects.filter(pk=old.pk).exists()


def test_rows_import_rejects_malformed_rows(tmp_path):
    table = ShippingTableFactory()
    content = ROWS + (
        "30000-000,20000-000,0,1,0,,10,1,2\n"  # line 5: zip range reversed
        "30000-000,39999-999,2,1,0,,10,1,2\n"  # line 6: weight range reversed
        "30000-000,39999-999,0,1,0,,-1,1,2\n"  # line 7: negative value
        "30000-000,39999-999,0,1,0,,10,5,2\n"  # line 8: days reversed
        "30000-000,39999-999,0,1,0,,10,one,2\n"  # line 9: days not a number
        "30000-000,39999-999,0,1,0,,NaN,1,2\n"  # line 10: NaN
        "30000-000,39999-999,0,1,0,,1e400,1,2\n"  # line 11: huge
        "30000-000,39999-999,0,1\n"  # line 12: missing columns
        "30000-000,39999-999,0,1,0,,,1,2\n"  # line 13: value required
    )
    path = write(tmp_path, "rows.csv", content)

    output = run("import_shipping_rows", str(table.pk), str(path))

    assert "Read 12 lines: 3 were created, 0 were updated, 9 rejected." in output
    assert "line 5: the final postal code is below the initial one" in output
    assert "line 6: the final weight is below the initial one" in output
    assert "line 7: shipping_value must be at least 0" in output
    assert "line 8: the final shipping time is below the initial one" in output
    assert "line 9: begin_shipping_time must be a whole number" in output
    assert "line 10: shipping_value is not a number" in output
    assert "line 11: shipping_value must be at most" in output
    assert "line 12: expected 9 columns, found 4" in output
    assert "line 13: shipping_value is required" in output
    assert table.rows.count() == 3


def test_rows_import_accepts_the_contracts_camel_case_header_and_variables(tmp_path):
    table = ShippingTableFactory()
    content = (
        "initialZipcode,finalZipcode,initialWeight,finalWeight,initialPrice,finalPrice,"
        "shippingValue,beginShippingTime,endShippingTime,fixed_fee,order_value_percentage,"
        "extra_kg_value,extra_kg_threshold\n"
        "01000-000,19999-999,0,30,0,,15.90,1,3,2.50,1.5,3.00,10\n"
    )
    path = write(tmp_path, "rows.csv", content)

    run("import_shipping_rows", str(table.pk), str(path))

    row = table.rows.get()
    assert (row.fixed_fee, row.order_value_percentage) == (Decimal("2.50"), Decimal("1.50"))
    assert (row.extra_kg_value, row.extra_kg_threshold) == (Decimal("3.00"), Decimal("10.000"))


def test_rows_dry_run_writes_nothing(tmp_path):
    table = ShippingTableFactory()
    path = write(tmp_path, "rows.csv", ROWS)
    output = run("import_shipping_rows", str(table.pk), str(path), "--dry-run", "--replace")
    assert "3 would be created" in output
    assert table.rows.count() == 0


def test_rows_import_needs_an_existing_table(tmp_path):
    path = write(tmp_path, "rows.csv", ROWS)
    with pytest.raises(CommandError, match="no shipping table with id 999"):
        run("import_shipping_rows", "999", str(path))


def test_rows_import_refuses_a_header_without_the_columns(tmp_path):
    table = ShippingTableFactory()
    path = write(tmp_path, "rows.csv", "from,to,price\n1,2,3\n")
    with pytest.raises(CommandError, match="lacks the column"):
        run("import_shipping_rows", str(table.pk), str(path))


class Terminal(StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_is_shown_only_on_a_terminal(tmp_path, capsys):
    path = write(tmp_path, "BR.txt", GEONAMES)
    with file_progress(path, stdout=StringIO(), description="x") as progress:
        assert progress is None
    with file_progress(path, stdout=Terminal(), description="postal codes") as progress:
        progress(len(GEONAMES.encode()))
    assert "postal codes" in capsys.readouterr().err


def test_the_import_on_a_terminal_still_prints_its_summary(tmp_path):
    path = write(tmp_path, "BR.txt", GEONAMES)
    out = Terminal()
    call_command("import_postal_codes", "--format", "geonames", str(path), stdout=out)
    assert "3 were created" in out.getvalue()
