"""The console's downloads as the organizer meets them in Chromium (issue 26, items 1 and 8): a
print link shows "preparing" while its PDF is made and stops when it has arrived; "Download a
backup" hands over the hall's whole file, in English, Hebrew and Dutch."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from playwright.sync_api import expect

from browser.conftest import console_page


def test_console_print_link_shows_preparing_until_the_pdf_arrives(screen, hall_server, guard,
                                                                  snap, tmp_path: Path):
    event = hall_server.create_event("Downloads", [("T1", ["Ann", "Ben", "Cy"], "hall")])
    page = console_page(screen, hall_server, width=1366, event_id=event["id"],
                        shows="#print-links a[href]")
    # The PDF's answer is held until the test lets it go, as a big night's takes its time.
    held = []
    page.route("**/prints/**", lambda route: held.append(route))
    link = page.locator('#print-links a[data-kind="setup-sheets"]')
    preparing = link.locator("xpath=..").locator(".preparing")
    expect(preparing).to_be_hidden()
    with page.expect_download() as download:
        link.click()
        expect(link).to_have_attribute("aria-busy", "true")
        expect(preparing).to_be_visible()
        expect(preparing).to_have_text("preparing the PDF…")
        page.wait_for_timeout(1000)
        expect(link).to_have_attribute("aria-busy", "true")  # still, while the answer is out
        link.dispatch_event("click")  # a second click while it prepares fetches nothing more
        link.scroll_into_view_if_needed()
        snap(page, "console-print-preparing")
        assert len(held) == 1
        held[0].continue_()
    assert download.value.suggested_filename == f"event-{event['id']}-setup-sheets-a4-en.pdf"
    pdf = tmp_path / "setup.pdf"
    download.value.save_as(pdf)
    assert pdf.read_bytes().startswith(b"%PDF")
    expect(link).not_to_have_attribute("aria-busy", "true")
    expect(preparing).to_be_hidden()
    assert len(held) == 1
    assert page.url.endswith(f"/organizer?lang=en&event={event['id']}"), "the console stays"


def test_console_downloads_a_backup_of_the_whole_hall(screen, hall_server, guard, tmp_path: Path):
    event = hall_server.create_event("Backup", [("T1", ["Ann", "Ben"], "hall")])
    hall_server.roll(event["id"], (3, 4))
    for lang, words in (("en", "Download a backup"), ("he", "הורדת גיבוי"),
                        ("nl", "Een back-up downloaden")):
        page = console_page(screen, hall_server, lang=lang, event_id=event["id"])
        link = page.get_by_role("link", name=words)
        expect(link).to_have_attribute("href", "/organizer/backup")
        if lang == "en":
            with page.expect_download() as download:
                link.click()
            copy = tmp_path / download.value.suggested_filename
            download.value.save_as(copy)
            assert copy.name.startswith("companion-backup-") and copy.suffix == ".db"
            with closing(sqlite3.connect(copy)) as conn:
                rolled = conn.execute("SELECT COUNT(*) FROM events WHERE kind = 'hall_rolled'"
                                      ).fetchone()[0]
                assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
            assert rolled >= 1
