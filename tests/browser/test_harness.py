"""The browser harness itself: the guard catches what it must, blank screenshots fail."""

from __future__ import annotations

import pytest
from PIL import Image

from browser.conftest import Guard, assert_not_blank


def test_harness_message_page_in_a_phone_is_clean(phone, hall_server, snap):
    page = phone().new_page()
    page.goto(hall_server.url + "/")
    assert page.locator("html").get_attribute("dir") == "ltr"
    assert page.get_by_role("heading", name="Welcome").is_visible()
    snap(page, "harness-message")


def test_harness_guard_reports_foreign_hosts_console_errors_and_page_errors(browser, hall_server):
    guard = Guard()
    context = guard.watch(browser.new_context(), hall_server.url)
    try:
        page = context.new_page()
        page.goto(hall_server.url + "/play")
        page.evaluate("console.error('boom')")
        page.evaluate("setTimeout(() => { throw new Error('thrown') }, 0)")
        page.evaluate("fetch('http://192.0.2.1/x').catch(() => {})")
        page.wait_for_timeout(300)
    finally:
        context.close()
    text = "\n".join(guard.problems)
    assert "console error" in text and "boom" in text
    assert "page error" in text and "thrown" in text
    assert "request to another host: http://192.0.2.1/x" in text
    with pytest.raises(AssertionError):
        guard.check()


def test_harness_blank_screenshot_fails(tmp_path):
    path = tmp_path / "blank.png"
    Image.new("RGB", (360, 640), (20, 20, 20)).save(path)
    with pytest.raises(AssertionError, match="colours"):
        assert_not_blank(path)
