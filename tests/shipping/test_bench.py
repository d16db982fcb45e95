"""The import benchmark's generated file is valid GeoNames input with distinct codes."""

from bench.import_postal_codes import generate
from shipping.imports.postal_codes import parse_geonames_line


def test_the_generated_file_has_distinct_valid_geonames_lines(tmp_path):
    path = tmp_path / "g.txt"
    generate(path, 500)
    records = [parse_geonames_line(line) for line in path.read_text().splitlines()]
    assert len(records) == 500
    assert len({record.code for record in records}) == 500
    assert all(record.state_code.startswith("BR-") for record in records)
