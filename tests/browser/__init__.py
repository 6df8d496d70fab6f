"""Browser tests: Playwright drives Debian's Chromium against a served hall (a package, so its
conftest does not shadow tests/conftest.py)."""
