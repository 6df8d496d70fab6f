"""Cross-site request forgery: a browser signed in by its session cookie (the organizer's
console, a phone's seat) sends that cookie with a request another page makes, and SameSite=Lax
does not stop a page of the same site (the same host at another port). So every state-changing
request the cookie could authenticate must come from this server's own origin
(companion/web/origin.py): a foreign `Origin`, a foreign `Referer` without one, or
`Sec-Fetch-Site: cross-site|same-site` is a 403 `auth/origin` and changes nothing. A request
with the organizer's key as its bearer is not authenticated by the cookie and is not checked;
a request that names no origin at all (curl, an API client) cannot be a forged browser request.

Socket.IO's handshake and WebSocket upgrade are checked by python-engineio itself: by default
(`cors_allowed_origins` unset) it accepts only an `Origin` equal to the request's own
`scheme://Host`; the served hall is tested with a real python-socketio client below."""

from __future__ import annotations

import re

import pytest
import requests
import socketio
import websocket
from conftest import api
from serverproc import ServerProcess, free_port, http_json, organizer_key

from companion.web import hall_service

HOST = "http://localhost:5000"  # where the test client's requests go: Host localhost:5000
FOREIGN = ["http://evil.example", "http://localhost:5001", "https://localhost:5000",
           "http://localhost", "http://localhost:5000.evil.example", "null"]
STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}


@pytest.fixture
def console(app, key):
    """A browser signed in to the organizer's console by the printed link: its session cookie."""
    client = app.test_client()
    signed_in = client.get(f"/organizer?key={key}", base_url=HOST)
    assert signed_in.status_code == 303
    return client


@pytest.fixture
def event(http, key):
    """An event with one started hall-roll table of three, set up with the key."""
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "T1", "players": ["A", "B", "C"], "roll_mode": "hall"}).get_json()
    assert api(http, key, "post", f"/api/tables/{table['id']}/start").status_code == 200
    return {"id": event["id"], "table": table}


def post(client, path, headers=None, **kwargs):
    return client.post(path, base_url=kwargs.pop("base_url", HOST), headers=headers or {},
                       **kwargs)


def journal_size(app):
    journal = hall_service(app).journal
    return sum(len(journal.read(stream)) for stream in journal.streams())


def rolls(app, event):
    hall = hall_service(app)
    return [list(dice) for dice in hall.hall_view(hall.event(event["id"]))["rolls"]]


def status(app, event):
    return hall_service(app).tables[event["table"]["id"]].status


def refused_origin(response):
    """A JSON 403 auth/origin with a sentence."""
    assert response.status_code == 403, response.get_data(as_text=True)
    answer = response.get_json()
    assert answer["ok"] is False and answer["code"] == "auth/origin" and answer["message"]
    return answer


# ---------------------------------------------------------------- the organizer API


@pytest.mark.parametrize("origin", FOREIGN)
def test_csrf_foreign_origin_cannot_roll_with_the_consoles_cookie(app, console, event, origin):
    before, size = rolls(app, event), journal_size(app)
    refused_origin(post(console, f"/api/events/{event['id']}/roll", {"Origin": origin}))
    assert rolls(app, event) == before and journal_size(app) == size


@pytest.mark.parametrize("origin", ["http://evil.example", "http://localhost:5001"])
@pytest.mark.parametrize("action", ["pause", "resume", "undo"])
def test_csrf_foreign_origin_cannot_pause_resume_or_undo(app, http, key, console, event, action,
                                                         origin):
    table = event["table"]["id"]
    assert api(http, key, "post", f"/api/events/{event['id']}/roll").status_code == 200
    if action == "resume":
        assert api(http, key, "post", f"/api/tables/{table}/pause").status_code == 200
    before, size = status(app, event), journal_size(app)
    refused_origin(post(console, f"/api/tables/{table}/{action}", {"Origin": origin}))
    assert status(app, event) == before and journal_size(app) == size
    # the same request from the console's own page is served
    assert post(console, f"/api/tables/{table}/{action}", {"Origin": HOST}).status_code == 200
    assert journal_size(app) > size


def test_csrf_a_json_body_from_a_foreign_page_is_refused_too(app, console, event):
    size = journal_size(app)
    refused_origin(console.post("/api/events", json={"name": "Forged"}, base_url=HOST,
                                headers={"Origin": "http://evil.example"}))
    refused_origin(console.post(f"/api/events/{event['id']}/roll", json={"dice": [6, 6]},
                                base_url=HOST, headers={"Origin": "http://evil.example"}))
    assert journal_size(app) == size and len(hall_service(app).events) == 1


@pytest.mark.parametrize("origin", [HOST, "HTTP://LOCALHOST:5000"])
def test_csrf_the_consoles_own_origin_is_served(app, console, event, origin):
    before = rolls(app, event)
    answer = post(console, f"/api/events/{event['id']}/roll", {"Origin": origin})
    assert answer.status_code == 200, answer.get_json()
    assert len(rolls(app, event)) == len(before) + 1


@pytest.mark.parametrize(("base_url", "origin", "served"), [
    ("http://192.168.1.20:5000", "http://192.168.1.20:5000", True),  # a hall on several addresses
    ("http://companion.lan:5000", "http://companion.lan:5000", True),
    ("http://192.168.1.20:5000", "http://localhost:5000", False),  # another address: another origin
    ("http://localhost", "http://localhost", True),  # port 80 is the default, said or not
    ("http://localhost", "http://localhost:80", True),
    ("http://[::1]:5000", "http://[::1]:5000", True),
    ("http://[::1]:5000", "http://[::2]:5000", False),
])
def test_csrf_the_origin_is_compared_with_the_host_the_request_came_to(app, key, event, base_url,
                                                                       origin, served):
    client = app.test_client()
    assert client.get(f"/organizer?key={key}", base_url=base_url).status_code == 303
    answer = post(client, f"/api/events/{event['id']}/roll", {"Origin": origin}, base_url=base_url)
    if served:
        assert answer.status_code == 200, answer.get_json()
    else:
        refused_origin(answer)


def test_csrf_the_key_as_bearer_is_not_checked(app, http, key, console, event):
    """An API client with the key is not authenticated by a cookie: a page of another origin
    cannot send an Authorization header without CORS, which this server never grants."""
    evil = {"Authorization": f"Bearer {key}", "Origin": "http://evil.example",
            "Sec-Fetch-Site": "cross-site"}
    assert post(http, f"/api/events/{event['id']}/roll", evil).status_code == 200
    assert post(console, f"/api/events/{event['id']}/roll", evil).status_code == 200  # cookie too
    assert len(rolls(app, event)) == 2


def test_csrf_a_wrong_bearer_does_not_exempt_the_cookie(app, console, event):
    size = journal_size(app)
    refused_origin(post(console, f"/api/events/{event['id']}/roll",
                        {"Authorization": "Bearer not-the-key", "Origin": "http://evil.example"}))
    assert journal_size(app) == size


@pytest.mark.parametrize(("fetch_site", "served"), [
    ("cross-site", False), ("same-site", False), ("same-origin", True), ("none", True),
])
def test_csrf_sec_fetch_site_is_the_browsers_word(app, console, event, fetch_site, served):
    size = journal_size(app)
    for headers in ({"Sec-Fetch-Site": fetch_site}, {"Sec-Fetch-Site": fetch_site, "Origin": HOST}):
        answer = post(console, f"/api/events/{event['id']}/roll", headers)
        if served:
            assert answer.status_code == 200, answer.get_json()
        else:
            refused_origin(answer)
            assert journal_size(app) == size


@pytest.mark.parametrize(("referer", "served"), [
    ("http://evil.example/attack.html", False),
    ("http://localhost:5001/organizer", False),
    ("not a url", False),
    (f"{HOST}/organizer", True),
    (f"{HOST}/organizer?lang=he#tables", True),
])
def test_csrf_without_origin_the_referer_decides(app, console, event, referer, served):
    size = journal_size(app)
    answer = post(console, f"/api/events/{event['id']}/roll", {"Referer": referer})
    if served:
        assert answer.status_code == 200, answer.get_json()
    else:
        refused_origin(answer)
        assert journal_size(app) == size


def test_csrf_origin_outranks_the_referer(app, console, event):
    refused_origin(post(console, f"/api/events/{event['id']}/roll",
                        {"Origin": "http://evil.example", "Referer": f"{HOST}/organizer"}))
    assert post(console, f"/api/events/{event['id']}/roll",
                {"Origin": HOST, "Referer": "http://evil.example/"}).status_code == 200


def test_csrf_a_request_that_names_no_origin_is_served(app, console, event):
    """curl, a test client, any non-browser: nothing says it came from another page."""
    assert post(console, f"/api/events/{event['id']}/roll").status_code == 200
    assert len(rolls(app, event)) == 1


def test_csrf_reading_is_not_checked(console, event):
    """A GET changes nothing, and another origin cannot read the answer (no CORS)."""
    answer = console.get(f"/api/events/{event['id']}", base_url=HOST,
                         headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert answer.status_code == 200


def test_csrf_the_refusal_is_in_the_requests_language(console, event):
    english = refused_origin(post(console, f"/api/events/{event['id']}/roll",
                                  {"Origin": "http://evil.example"}))["message"]
    hebrew = refused_origin(post(console, f"/api/events/{event['id']}/roll",
                                 {"Origin": "http://evil.example", "Accept-Language": "he"}))
    dutch = refused_origin(post(console, f"/api/events/{event['id']}/roll",
                                {"Origin": "http://evil.example", "Accept-Language": "nl"}))
    assert re.search("[\u0590-\u05ff]", hebrew["message"])
    assert len({english, hebrew["message"], dutch["message"]}) == 3


def test_csrf_every_state_changing_route_is_checked(app, console):
    """Every route that takes POST, PUT, PATCH or DELETE, now and later, refuses a foreign
    origin before its view runs."""
    adapter = app.url_map.bind("localhost:5000")
    checked = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) & STATE_CHANGING):
            path = adapter.build(rule.endpoint, dict.fromkeys(rule.arguments, "1"), method=method)
            answer = console.open(path, method=method, base_url=HOST,
                                  headers={"Origin": "http://evil.example"})
            assert answer.status_code == 403, (method, path)
            checked.append(f"{method} {rule.rule}")
    assert {"POST /", "POST /organizer/pin", "POST /organizer/signout",
            "POST /api/events/<event_id>/roll", "POST /api/tables/<table_id>/<action>"} <= set(checked)


# ---------------------------------------------------------------- the pages' forms


def test_csrf_a_foreign_pin_form_does_not_sign_a_browser_in(app, http, key):
    """Signing a victim's browser in with the attacker's PIN is a forgery as well."""
    assert api(http, key, "post", "/api/organizer/pin", {"pin": "482913"}).status_code == 200
    browser = app.test_client()
    answer = post(browser, "/organizer/pin", {"Origin": "http://evil.example"},
                  data={"pin": "482913"})
    assert answer.status_code == 403 and answer.mimetype == "text/html"
    with browser.session_transaction(base_url=HOST) as session:
        assert "organizer" not in session
    # from the sign-in page itself it works
    assert post(browser, "/organizer/pin", {"Origin": HOST}, data={"pin": "482913"}).status_code == 303


def test_csrf_a_foreign_page_cannot_sign_the_console_out(console):
    answer = post(console, "/organizer/signout", {"Origin": "http://localhost:5001"})
    assert answer.status_code == 403 and answer.mimetype == "text/html"
    with console.session_transaction(base_url=HOST) as session:
        assert session.get("organizer") is True
    assert post(console, "/organizer/signout", {"Origin": HOST}).status_code == 303
    with console.session_transaction(base_url=HOST) as session:
        assert "organizer" not in session


def test_csrf_a_foreign_join_form_does_not_seat_a_phone(app, event):
    code = event["table"]["seats"][0]["join_code"]
    phone = app.test_client()
    answer = post(phone, "/", {"Origin": "http://evil.example", "Accept-Language": "nl"},
                  data={"code": code})
    assert answer.status_code == 403 and answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert '<html lang="nl"' in page
    with phone.session_transaction(base_url=HOST) as session:
        assert "seat_token" not in session
    assert post(phone, "/", {"Origin": HOST}, data={"code": code}).status_code == 302


def test_csrf_a_form_refusal_page_is_translated(app):
    pages = {lang: post(app.test_client(), "/organizer/signout",
                        {"Sec-Fetch-Site": "cross-site", "Accept-Language": lang})
             for lang in ("en", "he", "nl")}
    texts = {lang: page.get_data(as_text=True) for lang, page in pages.items()}
    assert all(page.status_code == 403 for page in pages.values())
    assert '<html lang="he" dir="rtl">' in texts["he"]
    assert len({re.sub(r"<[^>]+>", "", text) for text in texts.values()}) == 3


# ---------------------------------------------------------------- Socket.IO (a served hall)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A real `companion serve` with a started table, the organizer's cookie and a seat's."""
    folder = tmp_path_factory.mktemp("csrf")
    with ServerProcess(folder / "hall.db", log_path=folder / "server.log") as server:
        server.start()
        key = organizer_key(server)
        _, event = http_json(f"{server.url}/api/events", method="POST", body={"name": "N"}, key=key)
        _, table = http_json(f"{server.url}/api/events/{event['id']}/tables", method="POST",
                             body={"name": "T", "players": ["A", "B"]}, key=key)
        with requests.Session() as web:
            organizer = web.get(f"{server.url}/organizer?key={key}", allow_redirects=False)
            seat = web.get(f"{server.url}{table['seats'][0]['join_path']}", allow_redirects=False)
        yield {"url": server.url, "organizer": organizer.cookies["session"],
               "seat": seat.cookies["session"]}


def socket_served(served, cookie, auth, origin, transport):
    """Whether a browser-like python-socketio client with this session cookie and Origin gets
    connected and served (the organizer its `hall` views, a seat its `view`)."""
    got = []
    options = {"websocket_extra_options": {"origin": origin}} if transport == "websocket" else {}
    client = socketio.Client(reconnection=False, **options)
    client.on("hall", got.append)
    client.on("view", got.append)
    headers = {"Cookie": f"session={cookie}"}
    if transport == "polling":
        headers["Origin"] = origin
    try:
        client.connect(served["url"], headers=headers, auth=auth, transports=[transport],
                       wait_timeout=5)
    except socketio.exceptions.ConnectionError:
        if client.eio.http is not None:
            client.eio.http.close()
        return False
    try:
        client.sleep(0.3)
        return bool(got)
    finally:
        client.disconnect()


def websocket_opens_a_session(served, cookie, origin):
    """A WebSocket handshake as a browser makes it (its Origin, the cookie): does the server
    open an Engine.IO session on it (its first message, the open packet `0{"sid": ...}`)?

    Served by gevent-websocket, the 101 is sent before engineio sees the request; engineio then
    refuses the origin and the socket is closed without a word. Served by simple-websocket
    (COMPANION_WEBSOCKET), engineio refuses the handshake itself with 400."""
    url = served["url"].replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
    try:
        ws = websocket.create_connection(url, origin=origin, cookie=f"session={cookie}", timeout=5)
    except websocket.WebSocketBadStatusException as refused:
        assert refused.status_code == 400, refused
        return False
    try:
        first = ws.recv()
    except websocket.WebSocketConnectionClosedException:
        first = ""
    finally:
        ws.close()
        ws.shutdown()  # the socket too, when the server closed first
    return isinstance(first, str) and first.startswith("0{")


@pytest.mark.slow
@pytest.mark.parametrize("who", ["organizer", "seat"])
def test_csrf_socketio_refuses_a_foreign_origin_with_the_cookie(served, who):
    cookie = served[who]
    auth = {"organizer": True} if who == "organizer" else None
    for origin in ("http://evil.example", f"http://127.0.0.1:{free_port()}", "null"):
        # the long-polling handshake: 400 "Not an accepted origin."
        refused = requests.get(f"{served['url']}/socket.io/?EIO=4&transport=polling", timeout=5,
                               headers={"Origin": origin, "Cookie": f"session={cookie}"})
        assert refused.status_code == 400 and b"origin" in refused.content, origin
        assert not socket_served(served, cookie, auth, origin, "polling"), origin
        # the WebSocket: no Engine.IO session, so no Socket.IO connect
        assert not websocket_opens_a_session(served, cookie, origin), origin
    # the controls: the page's own origin with the same cookie is served on both transports
    assert websocket_opens_a_session(served, cookie, served["url"])
    for transport in ("polling", "websocket"):
        assert socket_served(served, cookie, auth, served["url"], transport), transport


def test_organizer_key_text_that_is_not_ascii_is_no_key(app, key):
    """A lone surrogate (JSON can carry one) is no key, and no failure (issue 17 F3)."""
    from companion.web.auth import is_organizer_key

    with app.test_request_context("/"):
        assert is_organizer_key(key)
        assert not is_organizer_key("\ud800") and not is_organizer_key(key + "é")


def test_origin_the_base_url_behind_a_tls_proxy_is_this_servers_own(tmp_path):
    """Review: with `--base-url https://hall.example` in front of a TLS proxy the browser's
    Origin is https while the request here is plain http; the console's own posts were refused."""
    from companion.web import create_app, hall_service

    app = create_app({"DATABASE": str(tmp_path / "proxy.db"), "TESTING": True,
                      "BASE_URL": "https://hall.example"})
    try:
        browser = app.test_client()
        key = hall_service(app).organizer_key
        assert browser.get(f"/organizer?key={key}", base_url="http://hall.example").status_code == 303
        mine = browser.post("/api/events", json={"name": "Night"}, base_url="http://hall.example",
                            headers={"Origin": "https://hall.example"})
        assert mine.status_code == 201
        other = browser.post("/api/events", json={"name": "Night"}, base_url="http://hall.example",
                             headers={"Origin": "https://evil.example"})
        assert other.status_code == 403 and other.get_json()["code"] == "auth/origin"
    finally:
        hall_service(app).journal.close()
