"""Static files and pages on the wire (companion/web/assets.py, issue 16 item 11): versioned
static addresses cached for good, gzip for a browser that takes it, ETags and 304s for the
pages and catalogs a reload asks for again, and the vendored files served as they are."""

from __future__ import annotations

import gzip
import re
import time
from pathlib import Path

import pytest

from companion.web import hall_service
from companion.web.assets import DYNAMIC_SMALL, IMMUTABLE, Packed, StaticFiles, lean

STATIC = Path(__file__).resolve().parents[1] / "static"
GZIP = {"Accept-Encoding": "gzip, deflate"}
VERSIONED = re.compile(r'(?:href|src)="(/v/(\w+)/static/([^"]+))"')


@pytest.fixture
def app_config(tmp_path):
    return {"I18N_CACHE": str(tmp_path / "i18n")}


def seated_phone(app):
    """A phone sitting at the first seat of a started table: its test client."""
    hall = hall_service(app)
    event = hall.create_event("Wire", "random")
    table = hall.create_table(event.id, "T", ["Ann", "Ben"])
    hall.set_status(table.id, "start")
    phone = app.test_client()
    phone.get(table.seats[0].join_path)
    return phone, event, table


def test_assets_pages_link_versioned_static_files(app, http):
    phone, _, _ = seated_phone(app)
    page = phone.get("/play").get_data(as_text=True)
    links = VERSIONED.findall(page)
    files = {name for _, _, name in links}
    assert {"vendor/pico/pico.min.css", "css/app.css", "vendor/socket.io/socket.io.min.js",
            "js/play.js"} <= files
    assert len({version for _, version, _ in links}) == 1, "one version for every file"
    url = next(url for url, _, name in links if name == "js/play.js")
    answer = http.get(url, headers=GZIP)
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == IMMUTABLE
    assert answer.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in answer.headers["Vary"]
    assert answer.mimetype == "text/javascript"
    play = STATIC / "js" / "play.js"
    assert gzip.decompress(answer.data) == lean(play, play.read_bytes())


def test_assets_a_module_imports_its_neighbours_under_the_same_version(app, http):
    """play.js imports "./dom.js": the browser asks for it under play.js's own version."""
    version = VERSIONED.search(seated_phone(app)[0].get("/play").get_data(as_text=True))[2]
    answer = http.get(f"/v/{version}/static/js/dom.js")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == IMMUTABLE
    dom = STATIC / "js" / "dom.js"
    assert answer.data == lean(dom, dom.read_bytes())  # no gzip asked: none given


def test_assets_our_scripts_and_styles_go_out_without_their_comments():
    """A phone's first join carries code, not the notes for the people who read the files;
    nothing else changes: every other line is served as it is."""
    play = STATIC / "js" / "play.js"
    body = play.read_bytes()
    served = lean(play, body)
    assert len(served) < 0.95 * len(body)
    assert not any(line.lstrip().startswith(b"//") for line in served.split(b"\n"))
    assert [line for line in body.split(b"\n") if not line.lstrip().startswith(b"//")] == (
        served.split(b"\n"))
    css = b'a::before { content: "/* kept */"; } /* dropped */\nb { color: red; }'
    assert lean(Path("static/css/x.css"), css) == b'a::before { content: "/* kept */"; } \nb { color: red; }'
    # a template literal over lines: a line in it may look like a comment, so nothing goes
    tricky = b"const text = `one\n// not a comment\n`;\n// a comment\n"
    assert lean(Path("static/js/x.js"), tricky) == tricky
    vendored = STATIC / "vendor" / "socket.io" / "socket.io.min.js"
    assert lean(vendored, vendored.read_bytes()) == vendored.read_bytes()


def test_assets_vendored_files_are_served_byte_for_byte(http):
    for name in ("vendor/pico/pico.min.css", "vendor/socket.io/socket.io.min.js"):
        plain = http.get(f"/static/{name}")
        packed = http.get(f"/static/{name}", headers=GZIP)
        on_disk = (STATIC / name).read_bytes()
        assert plain.data == on_disk and gzip.decompress(packed.data) == on_disk
        assert len(packed.data) < len(on_disk) / 3


def test_assets_plain_and_old_addresses_revalidate_by_etag(http):
    for url in ("/static/css/app.css", "/v/000000000000/static/css/app.css"):
        first = http.get(url, headers=GZIP)
        assert first.status_code == 200
        assert first.headers["Cache-Control"] == "no-cache"
        again = http.get(url, headers={**GZIP, "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""


def test_assets_unknown_and_outside_files_are_404(http):
    for url in ("/static/js/nothing.js", "/static/../companion/web/assets.py",
                "/v/abc/static/../../companion/web/assets.py",
                "/static/vendor/socket.io/socket.io.min.js.map"):
        assert http.get(url).status_code == 404, url


def test_assets_the_page_and_the_catalog_are_compressed_and_tagged(app):
    phone, event, _ = seated_phone(app)
    page = phone.get("/play?lang=he", headers=GZIP)
    assert page.headers["Content-Encoding"] == "gzip"
    assert page.headers["Cache-Control"] in ("no-cache, private", "private, no-cache")
    assert "מטבעות" in gzip.decompress(page.data).decode()
    same = phone.get("/play?lang=he", headers={**GZIP, "If-None-Match": page.headers["ETag"]})
    assert same.status_code == 304
    hall_service(app).hall_roll(event.id, [2, 5])
    changed = phone.get("/play?lang=he", headers={**GZIP, "If-None-Match": page.headers["ETag"]})
    assert changed.status_code == 200, "the table changed: a new page"
    catalog = phone.get("/i18n/he.json", headers=GZIP)
    assert catalog.headers["Content-Encoding"] == "gzip" and catalog.headers["Cache-Control"] == "no-cache"
    assert len(catalog.data) < len(gzip.decompress(catalog.data)) / 3
    again = phone.get("/i18n/he.json", headers={**GZIP, "If-None-Match": catalog.headers["ETag"]})
    assert again.status_code == 304


def test_assets_answers_with_a_policy_of_their_own_keep_it(app):
    """The prints say no-store (join cards hold the seats' tokens): no tag, nothing kept."""
    hall = hall_service(app)
    organizer = app.test_client()
    organizer.get(f"/organizer?key={hall.organizer_key}")
    event = hall.create_event("Prints", "random")
    answer = organizer.get(f"/prints/poster.pdf?event={event.id}", headers=GZIP)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    assert "ETag" not in answer.headers and "Content-Encoding" not in answer.headers
    answer.close()


def test_assets_version_follows_the_files(tmp_path, monkeypatch):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n" * 100)
    files = StaticFiles(tmp_path)
    first = files.version()
    assert re.fullmatch(r"[0-9a-f]{12}", first)
    assert files.get("js/a.js").gzipped is not None
    (tmp_path / "js" / "a.js").write_text("export const a = 2;\n" * 100)
    assert files.version() == first, "looked at again only after a second"
    monkeypatch.setattr(time, "monotonic", lambda: 10**9)
    assert files.version() != first
    assert gzip.decompress(files.get("js/a.js").gzipped).startswith(b"export const a = 2;")
    assert files.get("../etc/passwd") is None and files.get("js") is None


def test_assets_static_files_and_the_catalog_leave_the_session_cookie_alone(app):
    """A seat's session is permanent: Flask renewed its cookie on every answer, 200 bytes on each
    file, with `Vary: Cookie`, which a renewed cookie turns into a miss of the browser's cache."""
    phone, _, _ = seated_phone(app)
    for url in ("/static/css/app.css", "/i18n/he.json"):
        answer = phone.get(url)
        assert "Set-Cookie" not in answer.headers, url
        assert "Cookie" not in answer.headers.get("Vary", ""), url
    assert "session=" in phone.get("/play").headers["Set-Cookie"]


def test_assets_a_big_answer_is_compressed_without_being_kept():
    """An export or a whole hall's view is compressed faster and not kept in memory."""
    packer = Packed()
    big = b'{"rows": [' + b'{"coins": 3, "name": "Ann"},' * (DYNAMIC_SMALL // 20) + b"{}]}"
    assert gzip.decompress(packer.gzip(big, "big")) == big and not packer.kept
    small = b'{"coins": 3}' * 100
    assert gzip.decompress(packer.gzip(small, "small")) == small and list(packer.kept) == ["small"]


@pytest.mark.parametrize("spelling", ["./css/app.css", "js/../css/app.css", "css/app.css/",
                                      "././css/./app.css", "css//app.css"])
def test_assets_a_file_has_one_spelling_so_the_cache_cannot_grow(app, spelling):
    """Review: each spelling of a path added a cached copy of the file, so a guest looping over
    `././...` grew the server's memory without end (issue 17 F4's bound)."""
    http = app.test_client()
    assert http.get("/static/css/app.css").status_code == 200
    files = app.extensions["static_files"].files
    before = len(files)
    assert http.get(f"/static/{spelling}").status_code == 404
    assert len(files) == before


def test_assets_the_apis_json_is_private(app, http, key):
    """The API's JSON carries seat tokens: no shared cache may keep it (review)."""
    answer = http.get("/api/events", headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 200
    assert "private" in answer.headers["Cache-Control"]
