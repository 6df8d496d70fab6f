"""The vendored front-end files: present, unmodified, licensed, and offline.

Each directory under static/vendor/ has a VERSION file with `package:`, `version:`,
`source:` lines and one `file: <name> sha256=<hex> from=<path>` line per vendored file.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

VENDOR = Path(__file__).resolve().parent.parent / "static" / "vendor"

# Files that describe a vendored package rather than being part of it.
META_FILES = {"VERSION", "LICENSE", "LICENSE.md", "LICENSE.txt", "README.md", ".gitkeep"}

FILE_LINE = re.compile(r"^file: (?P<name>\S+) sha256=(?P<sha>[0-9a-f]{64}) from=(?P<origin>\S+)$")

# What each page will load; a rename or a lost file should fail here, not on a phone.
EXPECTED = {
    "socket.io": ("socket.io-client", "4.8.", ["socket.io.min.js"]),
    "pico": ("@picocss/pico", "2.1.1", ["pico.min.css", "pico.classless.min.css"]),
}

# A URL with a scheme or protocol-relative, as the target of something a browser fetches.
CSS_REMOTE = [
    re.compile(r"@import\s+(?:url\(\s*)?['\"]?\s*(?:https?:)?//", re.IGNORECASE),
    re.compile(r"url\(\s*['\"]?\s*(?:https?:)?//", re.IGNORECASE),
    re.compile(r"sourceMappingURL=\s*(?:https?:)?//", re.IGNORECASE),
]
# The Socket.IO client has URLs in error messages; only a CDN host or a remote source map
# would mean it loads something from outside.
JS_REMOTE = [
    re.compile(r"cdn\.|googleapis|gstatic|jsdelivr|unpkg|cdnjs|cloudflare", re.IGNORECASE),
    re.compile(r"sourceMappingURL=\s*(?:https?:)?//", re.IGNORECASE),
    re.compile(r"\bimportScripts\s*\(\s*['\"](?:https?:)?//", re.IGNORECASE),
]


@dataclass(frozen=True)
class Vendored:
    directory: Path
    package: str
    version: str
    source: str
    files: dict[str, str]  # name -> sha256


def read_version(directory: Path) -> Vendored:
    fields: dict[str, str] = {}
    files: dict[str, str] = {}
    for line in (directory / "VERSION").read_text(encoding="utf-8").splitlines():
        if line.startswith("file:"):
            match = FILE_LINE.match(line)
            assert match, f"{directory.name}/VERSION: malformed line {line!r}"
            files[match["name"]] = match["sha"]
        elif ":" in line:
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
    return Vendored(
        directory=directory,
        package=fields.get("package", ""),
        version=fields.get("version", ""),
        source=fields.get("source", ""),
        files=files,
    )


def vendor_dirs() -> list[Path]:
    return sorted(p for p in VENDOR.iterdir() if p.is_dir())


def asset_files() -> list[Path]:
    return sorted(p for p in VENDOR.rglob("*") if p.is_file() and p.suffix in {".js", ".css"})


def test_vendor_expected_packages_present() -> None:
    names = {p.name for p in vendor_dirs()}
    assert set(EXPECTED) <= names
    for name, (package, version_prefix, files) in EXPECTED.items():
        info = read_version(VENDOR / name)
        assert info.package == package
        assert info.version.startswith(version_prefix), info.version
        assert info.source == f"npm registry package {package}"
        for file in files:
            assert (VENDOR / name / file).is_file(), f"{name}/{file} missing"
            assert file in info.files, f"{name}/VERSION does not list {file}"


@pytest.mark.parametrize("directory", vendor_dirs(), ids=lambda p: p.name)
def test_vendor_version_file_complete(directory: Path) -> None:
    info = read_version(directory)
    assert info.package, f"{directory.name}/VERSION has no package"
    assert re.fullmatch(r"\d+\.\d+\.\d+", info.version), f"{directory.name}: version {info.version!r}"
    assert info.source, f"{directory.name}/VERSION has no source"
    assert info.files, f"{directory.name}/VERSION lists no files"


@pytest.mark.parametrize("directory", vendor_dirs(), ids=lambda p: p.name)
def test_vendor_sha256_matches(directory: Path) -> None:
    info = read_version(directory)
    for name, expected in info.files.items():
        path = directory / name
        assert path.is_file(), f"{directory.name}/{name} listed in VERSION but missing"
        actual = hashlib.sha256(path.read_bytes()).hexdigest()
        assert actual == expected, f"{directory.name}/{name}: sha256 {actual} != VERSION {expected}"


@pytest.mark.parametrize("directory", vendor_dirs(), ids=lambda p: p.name)
def test_vendor_every_file_listed(directory: Path) -> None:
    """No unrecorded file slips in (a source map, a second copy, an edited build)."""
    info = read_version(directory)
    present = {p.name for p in directory.iterdir() if p.is_file() and p.name not in META_FILES}
    assert present == set(info.files), f"{directory.name}: unlisted {present - set(info.files)}"


@pytest.mark.parametrize("directory", vendor_dirs(), ids=lambda p: p.name)
def test_vendor_has_licence(directory: Path) -> None:
    licences = [
        p for p in directory.iterdir() if p.name.upper().startswith(("LICENSE", "LICENCE", "COPYING"))
    ]
    assert licences, f"{directory.name} has no licence file"
    text = " ".join(p.read_text(encoding="utf-8") for p in licences)
    assert "Copyright" in text and "License" in text, f"{directory.name}: licence file looks empty"


@pytest.mark.parametrize("directory", vendor_dirs(), ids=lambda p: p.name)
def test_vendor_banner_matches_version(directory: Path) -> None:
    """The version in the file's own header comment is the one VERSION claims."""
    info = read_version(directory)
    for name in info.files:
        head = (directory / name).read_text(encoding="utf-8")[:400]
        assert f"v{info.version}" in head, f"{directory.name}/{name} header does not say v{info.version}"


def test_vendor_readme_lists_each_package() -> None:
    readme = (VENDOR / "README.md").read_text(encoding="utf-8")
    for directory in vendor_dirs():
        info = read_version(directory)
        assert info.package in readme and info.version in readme, (
            f"README lacks {info.package} {info.version}"
        )


@pytest.mark.parametrize("path", asset_files(), ids=lambda p: str(p.relative_to(VENDOR)))
def test_vendor_no_outside_host(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    patterns = CSS_REMOTE if path.suffix == ".css" else JS_REMOTE
    for pattern in patterns:
        match = pattern.search(text)
        assert match is None, f"{path.relative_to(VENDOR)} references an outside host: {match.group(0)!r}"


def test_vendor_remote_patterns_catch_remote_references() -> None:
    """The scanners above would notice what they are meant to notice."""
    css_bad = [
        '@import url("https://fonts.googleapis.com/css?family=X");',
        "@import 'http://example.com/a.css';",
        "a{background:url(https://example.com/a.png)}",
        "a{background:url( '//example.com/a.png')}",
    ]
    css_good = "a{background:url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E\")}"
    for sample in css_bad:
        assert any(p.search(sample) for p in CSS_REMOTE), sample
    assert not any(p.search(css_good) for p in CSS_REMOTE)
    assert any(p.search('s.src="https://cdn.socket.io/4.8.1/socket.io.min.js"') for p in JS_REMOTE)
    assert not any(p.search('Error("see https://socket.io/docs/v3/migrating")') for p in JS_REMOTE)


FONTS = VENDOR.parent.parent / "printables" / "fonts"


def test_vendor_printable_fonts_are_recorded_unmodified_and_licensed() -> None:
    """The fonts embedded in every PDF: each one listed in printables/fonts/VERSION with its
    version and source, byte for byte, with the licence beside them."""
    info = read_version(FONTS)
    assert info.package and info.version == "2.37" and info.source
    fonts = {p.name for p in FONTS.glob("*.ttf")}
    assert fonts == set(info.files) == {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf",
                                        "DejaVuSansMono-Bold.ttf"}
    for name, expected in info.files.items():
        assert hashlib.sha256((FONTS / name).read_bytes()).hexdigest() == expected, name
    licence = (FONTS / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Copyright" in licence and "Bitstream Vera" in licence
