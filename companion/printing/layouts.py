"""Sheet geometry read from `printables/layouts/*.toml`, in points, origin bottom-left."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.lib.units import inch, mm

from companion.paths import resource_dir

UNITS = {"mm": mm, "in": inch, "pt": 1.0}


@dataclass(frozen=True)
class Rect:
    """A rectangle on the page: bottom-left corner, width and height in points."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class CardGrid:
    """A business-card sheet: where each card lies on the page."""

    name: str
    page: tuple[float, float]
    cards: tuple[Rect, ...]

    @property
    def per_page(self) -> int:
        """How many cards one sheet holds."""
        return len(self.cards)


@dataclass(frozen=True)
class PageSpec:
    """A plain page: its size and the margin on every side."""

    page: tuple[float, float]
    margin: float


def _read(name: str) -> dict[str, Any]:
    """One layout file, parsed."""
    path = _folder() / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in path.parent.glob("*.toml"))
        raise ValueError(f"no layout {name!r} in {path.parent}; known: {known}")
    with path.open("rb") as handle:
        return tomllib.load(handle)


def _folder() -> Path:
    return resource_dir("printables") / "layouts"


@cache
def page_papers() -> tuple[str, ...]:
    """The plain papers there is a page for, in pages.toml's order (a4, letter, a3)."""
    return tuple(_read("pages"))


@cache
def card_papers() -> tuple[str, ...]:
    """The papers there is a business-card sheet for (cards-PAPER.toml): a4, letter."""
    return tuple(sorted(p.stem.removeprefix("cards-") for p in _folder().glob("cards-*.toml")))


@cache
def card_grid(paper: str) -> CardGrid:
    """The card grid for `paper` (a4, letter): rows top to bottom, columns left to right."""
    data = _read(f"cards-{paper}")  # an unknown paper names the file it looked for
    unit = UNITS[data["unit"]]
    page_w, page_h = (v * unit for v in data["page"])
    card_w, card_h = (v * unit for v in data["card"])
    left, top = (v * unit for v in data["first"])
    step_x, step_y = (v * unit for v in data["pitch"])
    cols, rows = data["grid"]
    cards = tuple(
        Rect(left + col * step_x, page_h - top - row * step_y - card_h, card_w, card_h)
        for row in range(rows)
        for col in range(cols)
    )
    return CardGrid(data["name"], (page_w, page_h), cards)


@cache
def page_spec(paper: str) -> PageSpec:
    """Size and margin of a plain page of `paper` (a4, letter, a3)."""
    data = _read("pages")
    if paper not in data:
        raise ValueError(f"unknown paper {paper!r}; expected one of {sorted(data)}")
    entry = data[paper]
    unit = UNITS[entry["unit"]]
    width, height = (v * unit for v in entry["page"])
    return PageSpec((width, height), entry["margin"] * unit)
