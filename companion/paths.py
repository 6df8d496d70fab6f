"""Where the top-level resource folders are, from a source checkout or an installed wheel."""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The folder `name` (templates, static, printables): inside the package in a wheel,
    beside it in a checkout."""
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name
