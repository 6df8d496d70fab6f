"""Static files and pages as a phone on a crowded access point wants them: compressed, and
static files cached for good under a URL that names their version, so a reload asks for none.

- `url_for("static", filename=F)` gives `/v/VERSION/static/F`. VERSION is a hash of every
  file under static/, so a change to any file gives every file a new address, and the page
  modules' relative imports (`./dom.js`) resolve under the same version. Those answers are
  cached for a year (`immutable`). The plain `/static/F` still answers, revalidated by its
  ETag; so does an old VERSION (a page from before a restart), with the current file.
- Text goes gzip-compressed to a browser that accepts it: each static file once (level 9), kept
  in memory with its stamp; pages and JSON answers as they go out, the small ones kept by their
  content (the catalog is the same for every phone).
- Pages and JSON answers to a GET that set no cache policy of their own get an ETag and
  `no-cache` (private for pages: they are a seat's), so reloading an unchanged page or the
  translations (`/i18n/he.json`) is a 304.

Static files and the translations neither renew the session cookie nor vary by it (below,
QuietSessions). Vendored files are served as they are on disk, only compressed on the way.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import posixpath
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, current_app, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600
IMMUTABLE = f"public, max-age={YEAR}, immutable"
COMPRESSIBLE = frozenset({"text/html", "text/css", "text/javascript", "application/javascript",
                          "application/json", "image/svg+xml", "text/plain", "text/csv"})
SMALLEST = 600  # bytes: below this gzip saves less than a few header lines
LARGEST = 2 * 1024 * 1024  # static files kept in memory at most this big (static/ is ~300 kB)
STAMP_SECONDS = 1.0  # how often the static folder is looked at again for changed files
DYNAMIC_KEPT = 32  # compressed pages and catalogs kept by their content (the same for many phones)
DYNAMIC_SMALL = 64 * 1024  # answers up to this size are packed hardest and kept; bigger ones (an
# export, a hall of 275 tables) are packed faster and not kept, not to hold up the event loop
SESSIONLESS = frozenset({"static", "i18n.catalog_json"})  # endpoints that never read the session


@dataclass(frozen=True)
class Asset:
    """One static file as it is served: its bytes, gzipped when that pays, its type and tag."""

    body: bytes
    gzipped: bytes | None
    mimetype: str
    etag: str
    stamp: tuple[int, int]  # mtime_ns, size: the file on disk it was read from


class StaticFiles:
    """The static folder's files, read and compressed once and again only when they change,
    and the folder's version: a hash of every file's name and content."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: dict[str, Asset] = {}
        self._version = ""
        self._stamps: tuple[tuple[str, int, int], ...] = ()
        self._looked = -STAMP_SECONDS
        self._lock = threading.Lock()

    def get(self, filename: str) -> Asset | None:
        """The file `filename` (a path under the folder), or None if there is none (or it lies
        outside the folder)."""
        # One spelling per file: `./css/app.css`, `js/../css/app.css` or `css/app.css/` would
        # each add a cached copy, and a guest could grow memory without end (review).
        if posixpath.normpath(filename) != filename:
            return None
        path = safe_join(str(self.folder), filename)
        if path is None or not os.path.isfile(path):
            return None
        try:
            status = os.stat(path)
        except OSError:
            return None
        if status.st_size > LARGEST:
            return None
        stamp = (status.st_mtime_ns, status.st_size)
        kept = self.files.get(filename)
        if kept is None or kept.stamp != stamp:
            kept = self.files[filename] = read_asset(Path(path), stamp)
        return kept

    def version(self) -> str:
        """A short hash of every file under the folder, names and contents; looked at again
        at most every STAMP_SECONDS, and hashed again only when a file's stamp changed."""
        now = time.monotonic()
        if now - self._looked < STAMP_SECONDS:
            return self._version
        with self._lock:
            self._looked = now
            stamps = tuple(sorted(self._walk()))
            if stamps != self._stamps:
                digest = hashlib.sha256()
                for name, _, _ in stamps:
                    digest.update(name.encode() + b"\0" + (self.folder / name).read_bytes() + b"\0")
                self._stamps, self._version = stamps, digest.hexdigest()[:12]
        return self._version

    def _walk(self) -> list[tuple[str, int, int]]:
        found = []
        for root, _, names in os.walk(self.folder):
            for name in names:
                path = Path(root) / name
                status = path.stat()
                found.append((path.relative_to(self.folder).as_posix(), status.st_mtime_ns,
                              status.st_size))
        return found


# A string (kept whole) or a block comment, in a style sheet.
_CSS_PARTS = re.compile(rb'("(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\')|/\*.*?\*/', re.S)
_JS_COMMENT_LINE = re.compile(rb"^[ \t]*//")
_BACKTICK = re.compile(rb"(?<!\\)`")


def lean(path: Path, body: bytes) -> bytes:
    """Our own scripts and style sheets as phones get them: without their comments, which
    are for the people who read the files (about a fifth of a phone's first join). A script
    loses its whole-line `//` comments only; one with a template literal over several lines
    is served as it is, so no line inside a string is ever taken for a comment."""
    if "vendor" in path.parts:
        return body
    if path.suffix == ".css":
        return _CSS_PARTS.sub(lambda m: m.group(1) or b"", body)
    if path.suffix not in (".js", ".mjs"):
        return body
    lines = body.split(b"\n")
    code = [line for line in lines if not _JS_COMMENT_LINE.match(line)]
    if any(len(_BACKTICK.findall(line)) % 2 for line in code):
        return body
    return b"\n".join(code)


def read_asset(path: Path, stamp: tuple[int, int]) -> Asset:
    body = lean(path, path.read_bytes())
    mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if path.suffix in (".js", ".mjs"):
        mimetype = "text/javascript"
    gzipped = None
    if mimetype in COMPRESSIBLE and len(body) >= SMALLEST:
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        gzipped = packed if len(packed) < len(body) else None
    return Asset(body, gzipped, mimetype, hashlib.sha256(body).hexdigest()[:20], stamp)


def accepts_gzip() -> bool:
    return request.accept_encodings.quality("gzip") > 0


def static_files() -> StaticFiles:
    files: StaticFiles = current_app.extensions["static_files"]
    return files


def serve_static(filename: str, version: str | None = None) -> Response:
    """A static file: compressed when the browser takes gzip, cached for good under the
    current version, revalidated by its ETag under any other address."""
    files = static_files()
    asset = files.get(filename)
    if asset is None:
        abort(404)
    packed = asset.gzipped is not None and accepts_gzip()
    response = Response(asset.gzipped if packed else asset.body, mimetype=asset.mimetype)
    if packed:
        response.headers["Content-Encoding"] = "gzip"
    if asset.gzipped is not None:
        response.vary.add("Accept-Encoding")
    if version is not None and version == files.version():
        response.headers["Cache-Control"] = IMMUTABLE  # never asked for again: no ETag needed
        return response
    response.cache_control.no_cache = True
    response.set_etag(asset.etag, weak=True)  # weak: the same tag for both encodings
    response.make_conditional(request)
    return response


def add_version(endpoint: str, values: dict[str, Any]) -> None:
    """url_for's defaults: a static file's address carries the static folder's version."""
    if endpoint == "static" and "version" not in values:
        values["version"] = static_files().version()


class Packed:
    """The gzip of the latest few small answers by their content: a page or a catalog that many
    phones load alike is compressed once."""

    def __init__(self) -> None:
        self.kept: OrderedDict[str, bytes] = OrderedDict()

    def gzip(self, body: bytes, digest: str) -> bytes:
        if len(body) > DYNAMIC_SMALL:
            return gzip.compress(body, compresslevel=6, mtime=0)
        packed = self.kept.get(digest)
        if packed is None:
            packed = self.kept[digest] = gzip.compress(body, compresslevel=9, mtime=0)
            while len(self.kept) > DYNAMIC_KEPT:
                self.kept.popitem(last=False)
        return packed


def finish(response: Response) -> Response:
    """A page or JSON answer to a GET: an ETag, `no-cache` unless it says otherwise (a 304 when
    the browser has it), and gzip for a browser that takes it."""
    if (request.method not in ("GET", "HEAD") or response.direct_passthrough
            or response.is_streamed or "Content-Encoding" in response.headers
            or response.mimetype not in COMPRESSIBLE or response.status_code != 200):
        return response
    body = response.get_data()
    digest = hashlib.sha256(body).hexdigest()[:20]
    cache = response.cache_control
    if not cache.no_store and response.mimetype in ("text/html", "application/json"):
        if "Cache-Control" not in response.headers:
            cache.no_cache = True
            cache.private = True  # a page or the API's JSON may carry seat tokens: no shared cache
        if cache.no_cache and not response.get_etag()[0]:
            response.set_etag(digest, weak=True)
            response.make_conditional(request)
    if response.status_code == 200 and len(body) >= SMALLEST and request.method == "GET":
        response.vary.add("Accept-Encoding")
        if accepts_gzip():
            packer: Packed = current_app.extensions["packed_answers"]
            response.set_data(packer.gzip(body, digest))
            response.headers["Content-Encoding"] = "gzip"
    return response


class QuietSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, except that answers which never depend on the session
    (static files, the translations) neither renew its cookie nor vary by it. A phone's session
    is permanent, so Flask renewed the cookie on every answer: 200 bytes more on each of a
    page's dozen files, and `Vary: Cookie` with a cookie that changes at every renewal would
    keep a browser from reusing the files it keeps."""

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if request.endpoint not in SESSIONLESS:
            super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    """Serve static/ by version and compressed, and compress and tag pages and JSON."""
    assert app.static_folder and app.static_url_path is not None
    app.extensions["static_files"] = StaticFiles(Path(app.static_folder))
    app.extensions["packed_answers"] = Packed()
    app.session_interface = QuietSessions()
    app.view_functions["static"] = serve_static
    app.add_url_rule(f"/v/<version>{app.static_url_path}/<path:filename>", endpoint="static",
                     view_func=serve_static)
    app.url_defaults(add_version)
    app.after_request(finish)
