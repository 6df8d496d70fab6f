"""The morning after from the console (issue 26): the organizer's "Printables" offer the night's
report in en, he and nl, and its link downloads the one-page PDF in the console's language, with
the hall's rolls in its chart."""

from __future__ import annotations

import io
from pathlib import Path

from playwright.sync_api import expect
from pypdf import PdfReader

from browser.conftest import console_page

LINKS = {"en": ("The morning after: the night on one page", "The morning after"),
         "he": ("הבוקר שאחרי: הערב בעמוד אחד", "הבוקר שאחרי"),
         "nl": ("De ochtend erna: de avond op één pagina", "De ochtend erna")}


def test_console_report_link_downloads_the_night_in_the_consoles_language(
        screen, hall_server, guard, snap, tmp_path: Path):
    event = hall_server.create_event("Morning", [("T1", ["Ann", "Ben", "Cy"], "hall")])
    hall_server.roll(event["id"], (3, 4))
    for lang, (words, title) in LINKS.items():
        page = console_page(screen, hall_server, lang=lang, width=1366, event_id=event["id"],
                            shows="#print-links a[href]")
        link = page.get_by_role("link", name=words)
        expect(link).to_have_attribute("data-kind", "report")
        with page.expect_download() as download:
            link.click()
        assert download.value.suggested_filename == f"event-{event['id']}-report-a4-{lang}.pdf"
        pdf = tmp_path / f"report-{lang}.pdf"
        download.value.save_as(pdf)
        pages = PdfReader(io.BytesIO(pdf.read_bytes())).pages
        assert len(pages) == 1
        text = pages[0].extract_text()
        assert title in text and "Morning" in text and "Ann" in text
        if lang == "en":
            assert "Hall rolls: 1, doubles among them: 0" in text  # the one hall roll, a 3 and a 4
        if lang == "he":
            link.scroll_into_view_if_needed()
            snap(page, "console-report-link-he")
        page.close()
