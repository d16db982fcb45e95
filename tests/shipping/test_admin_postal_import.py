"""The postal-code import in the admin, guided like the shipping-rows one (issue 20, item 10):
a sample file, the format told by the file, the store's country preselected, the state's
form stated, background progress in lines, no operator command shown to staff, and its
summaries and errors in the staff member's language."""

import csv
import io
import re

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from shipping.imports.jobs import run_postal_import
from shipping.imports.postal_codes import CSV_COLUMNS
from shipping.models import JobStatus, PostalCode, PostalImportJob, StagedImport
from tests.i18n.test_english_scan import english_on_page

from .test_admin_imports import geonames, messages_of, token_of, upload

pytestmark = pytest.mark.django_db

POSTAL = reverse("admin:shipping_postalcode_import")
SAMPLE = reverse("admin:shipping_postalcode_import_sample")
CHANGELIST = reverse("admin:shipping_postalcode_changelist")
HEADER = ",".join(CSV_COLUMNS) + "\n"
COMMAND_HINTS = ("manage.py", "run_postal_import", "python ")


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create(username="boss", is_staff=True, is_superuser=True)
    client.force_login(user)
    return client


def in_portuguese(client):
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "pt-br"
    return client


def preselected_country(page: str) -> str:
    """The country the form's select has chosen, as a browser would send it."""
    select = re.search(r'<select name="country".*?</select>', page, re.S)
    assert select, "the form has a country select"
    (value,) = re.findall(r'<option value="([A-Z]{3})" selected>', select.group(0))
    return value


def send(client, content, name="ceps.csv", *, dry_run=True):
    """Choose the file on the form and send it, keeping what the form preselected."""
    page = client.get(POSTAL).content.decode()
    data = {"file": upload(content, name), "country": preselected_country(page)}
    if dry_run:
        data["dry_run"] = "on"
    return client.post(POSTAL, data)


def test_the_sample_csv_downloads_and_imports_as_it_is(staff):
    page = staff.get(POSTAL).content.decode()
    assert SAMPLE in page and "Download a sample CSV" in page

    sample = staff.get(SAMPLE)

    assert sample.status_code == 200 and sample["Content-Type"].startswith("text/csv")
    assert sample["Content-Disposition"] == 'attachment; filename="postal-codes-sample.csv"'
    rows = list(csv.reader(io.StringIO(sample.content.decode())))
    assert rows[0] == list(CSV_COLUMNS)
    checked = send(staff, sample.content, "postal-codes-sample.csv").content.decode()
    assert "Read 2 lines: 2 would be created, 0 would be updated, 0 rejected." in checked
    done = staff.post(POSTAL, {"confirm": "1", "token": token_of_page(checked)}, follow=True)
    assert done.status_code == 200
    assert sorted(PostalCode.objects.values_list("code", "state_code")) == [
        ("01310100", "BR-SP"),
        ("20040020", "BR-RJ"),
    ]


def token_of_page(page: str) -> str:
    return re.search(r'name="token" value="([0-9a-f-]+)"', page).group(1)


def test_the_sample_needs_permission_to_see_postal_codes(client):
    user = get_user_model().objects.create(username="clerk", is_staff=True)
    client.force_login(user)
    assert client.get(SAMPLE).status_code == 403


CSV_FILE = HEADER + "01310-100,Avenida Paulista,,Bela Vista,São Paulo,SP,,\n"


@pytest.mark.parametrize(
    ("content", "read_as", "count"),
    [
        (geonames(3), "GeoNames postal-code dump", 3),
        (geonames(3).replace("\t4\n", "\n"), "GeoNames postal-code dump", 3),  # no accuracy
        ("\n" + geonames(3).replace("\n", "\r\n"), "GeoNames postal-code dump", 3),
        (CSV_FILE, "CSV with a header row", 1),
        ("\ufeff" + CSV_FILE.replace("\n", "\r\n"), "CSV with a header row", 1),  # Excel's BOM
    ],
    ids=["geonames", "geonames-11-columns", "geonames-blank-first-crlf", "csv", "csv-bom-crlf"],
)
def test_the_format_is_told_by_the_file_not_chosen(staff, content, read_as, count):
    form = staff.get(POSTAL).content.decode()
    assert 'name="file_format"' not in form and "recognised from the file" in form

    response = send(staff, content)

    page = response.content.decode()
    assert response.status_code == 200
    assert f"read as {read_as}" in page and "0 rejected" in page
    staff.post(POSTAL, {"confirm": "1", "token": token_of(response)})
    assert PostalCode.objects.filter(state_code="BR-SP").count() == count


def test_a_file_of_neither_format_is_a_form_error_naming_the_columns(staff):
    response = send(staff, "city;zip_code\nSão Paulo;01310-100\n")
    assert response.status_code == 400
    assert "The CSV header lacks the columns zip_code, public_place" in response.content.decode()
    assert not StagedImport.objects.exists()


def test_the_country_is_the_stores_unless_staff_change_it(staff, settings):
    page = in_portuguese(staff).get(POSTAL).content.decode()
    assert preselected_country(page) == "BRA"
    assert '<option value="BRA" selected>Brasil (BRA)</option>' in page

    settings.STORE_COUNTRY = "PRT"
    assert preselected_country(staff.get(POSTAL).content.decode()) == "PRT"
    response = send(staff, HEADER + "1100-148,Praça do Comércio,,,Lisboa,Lisboa,,\n")
    assert response.status_code == 200, response.content.decode()[-2000:]
    assert StagedImport.objects.get().options == {"file_format": "csv", "country": "PRT"}
    staff.post(POSTAL, {"confirm": "1", "token": token_of(response)})
    lisbon = PostalCode.objects.get()
    assert (lisbon.country, lisbon.code, lisbon.state_code) == ("PRT", "1100148", "PT-11")


def test_a_geonames_file_keeps_the_country_of_each_line(staff, settings):
    settings.STORE_COUNTRY = "PRT"
    response = send(staff, geonames(2), "BR.txt")
    assert StagedImport.objects.get().options == {"file_format": "geonames", "country": ""}
    staff.post(POSTAL, {"confirm": "1", "token": token_of(response)})
    assert set(PostalCode.objects.values_list("country", flat=True)) == {"BRA"}


def test_the_form_states_the_state_as_its_two_letter_code(staff, settings):
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 50_000
    page = staff.get(POSTAL).content.decode()
    help_texts = re.findall(r'<div class="help">(.*?)</div>', page, re.S)
    assert any("two-letter code, e.g. SP" in text for text in help_texts)
    assert "<code>state</code></td><td>state: its two-letter code (UF), e.g. SP" in page
    portuguese = in_portuguese(staff).get(POSTAL).content.decode()
    assert "o estado pela sigla da UF, por exemplo SP" in portuguese
    assert "arquivos com mais de 50.000 linhas são importados em segundo plano" in portuguese


def test_background_progress_is_counted_in_lines(staff, settings):
    settings.POSTAL_IMPORT_RUNNER = "none"
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 10
    response = send(staff, geonames(30), "BR.txt", dry_run=False)
    job = PostalImportJob.objects.get()
    assert (job.lines_read, job.lines_total) == (0, 30)

    PostalImportJob.objects.filter(pk=job.pk).update(status=JobStatus.RUNNING, lines_read=12)
    page = staff.get(response["Location"]).content.decode()
    assert "12 of 30 lines read" in page and 'value="40"' in page
    assert "bytes" not in page

    PostalImportJob.objects.filter(pk=job.pk).update(status=JobStatus.PENDING, lines_read=0)
    run_postal_import(job.pk)

    job.refresh_from_db()
    assert (job.lines_read, job.lines_total, job.percent) == (30, 30, 100)
    assert "30 of 30 lines read" in staff.get(response["Location"]).content.decode()


def test_progress_in_portuguese_groups_thousands(staff, settings):
    settings.POSTAL_IMPORT_RUNNER = "none"
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 10
    response = send(staff, geonames(30), "BR.txt", dry_run=False)
    PostalImportJob.objects.update(status=JobStatus.RUNNING, lines_read=1200, lines_total=3000)
    page = in_portuguese(staff).get(response["Location"]).content.decode()
    assert "1.200 de 3.000 linhas lidas" in page and "40%" in page


def flow_pages(client):
    """Every page of the flow, inline and in the background, dry run then confirm."""
    pages = [client.get(CHANGELIST), client.get(POSTAL)]
    checked = send(client, geonames(5), "BR.txt")  # inline: a dry run, then confirm
    pages += [
        checked,
        client.post(POSTAL, {"confirm": "1", "token": token_of(checked)}, follow=True),
    ]
    started = send(client, geonames(30), "BR.txt")  # in the background: dry run, confirm
    job_page = started["Location"]
    pages.append(client.get(job_page))  # waiting for a worker
    run_postal_import(PostalImportJob.objects.get(dry_run=True).pk)
    pages.append(client.get(job_page))  # the dry run's summary, "Import these rows"
    token = str(StagedImport.objects.get().token)
    confirmed = client.post(POSTAL, {"confirm": "1", "token": token}, follow=True)
    pages.append(confirmed)
    run_postal_import(PostalImportJob.objects.get(dry_run=False).pk)
    pages.append(client.get(confirmed.redirect_chain[-1][0]))  # the real import, done
    pages.append(client.get(reverse("admin:shipping_postalimportjob_changelist")))
    for response in pages:
        assert response.status_code == 200
    return [response.content.decode() for response in pages]


@pytest.mark.parametrize("language", ["en", "pt-br"])
def test_no_page_of_the_flow_shows_an_operator_command(staff, settings, language):
    settings.POSTAL_IMPORT_RUNNER = "none"  # jobs wait: the page a worker-less store shows
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 10
    staff.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language

    pages = flow_pages(staff)

    assert PostalCode.objects.count() == 30
    for page in pages:
        for hint in COMMAND_HINTS:
            assert hint not in page


def test_every_page_of_the_flow_is_in_portuguese(staff, settings):
    settings.POSTAL_IMPORT_RUNNER = "none"
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 10
    pages = flow_pages(in_portuguese(staff))

    english = {msgid: text for page in pages for msgid, text in english_on_page(page).items()}
    assert not english
    assert any("Importar estas linhas" in page for page in pages)


def test_summaries_and_line_errors_in_portuguese_with_their_plurals(staff):
    PostalCode.objects.create(country="BRA", code="01310100", city="São Paulo")
    content = HEADER + (
        "01310-100,Avenida Paulista,,Bela Vista,São Paulo,SP,,\n"
        "20040-020,Avenida Rio Branco,,Centro,Rio de Janeiro,RJ,,\n"
        "20040-021,Avenida Rio Branco,,Centro,Rio de Janeiro,RJ,,\n"
        "123,Rua,,Centro,Cidade,SP,,\n"
        "01001-000,Praça da Sé,,Sé,São Paulo,XX,,\n"
    )
    checked = send(in_portuguese(staff), content).content.decode()

    assert (
        "5 linhas lidas: 2 seriam criadas, 1 seria atualizada, 2 rejeitadas. "
        "(simulação: nada foi gravado)"
    ) in checked
    assert "linha 5: CEP &#x27;123&#x27;: Um CEP brasileiro tem 8 dígitos" in checked
    assert "linha 6: estado &#x27;XX&#x27; não é um estado de Brasil" in checked

    done = staff.post(POSTAL, {"confirm": "1", "token": token_of_page(checked)}, follow=True)
    assert any(
        message.startswith("5 linhas lidas: 2 foram criadas, 1 foi atualizada, 2 rejeitadas.")
        for message in messages_of(done)
    )


def test_english_summaries_agree_in_number(staff):
    checked = send(staff, geonames(1), "BR.txt").content.decode()
    assert "Read 1 line: 1 would be created, 0 would be updated, 0 rejected." in checked
    done = staff.post(POSTAL, {"confirm": "1", "token": token_of_page(checked)}, follow=True)
    assert "Read 1 line: 1 was created, 0 were updated, 0 rejected." in messages_of(done)


def test_a_background_import_speaks_the_language_of_who_started_it(staff, settings):
    settings.POSTAL_IMPORT_RUNNER = "none"
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 1
    response = send(in_portuguese(staff), HEADER + "123,Rua,,Centro,Cidade,SP,,\n")
    job = PostalImportJob.objects.get()
    assert job.language == "pt-br"

    run_postal_import(job.pk)  # as a worker would: outside any request, in LANGUAGE_CODE

    job.refresh_from_db()
    assert job.summary[0].startswith("1 linha lida: 0 seria criada")
    assert job.summary[-1] == (
        "  linha 2: CEP '123': Um CEP brasileiro tem 8 dígitos, por exemplo 01310-100."
    )
    page = staff.get(response["Location"]).content.decode()
    assert "1 linha lida: 0 seria criada, 0 seria atualizada, 1 rejeitada." in page
