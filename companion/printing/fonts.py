"""The embedded TrueType fonts: DejaVu Sans carries Latin, Dutch and Hebrew glyphs; DejaVu Sans
Mono Bold sets a join code apart, one even cell per character."""

from __future__ import annotations

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from companion.paths import resource_dir

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
MONO_BOLD = "DejaVuSansMono-Bold"


def register_fonts() -> None:
    """Register the fonts once per process; the standard PDF fonts have no Hebrew."""
    registered = pdfmetrics.getRegisteredFontNames()
    folder = resource_dir("printables") / "fonts"
    for name in (REGULAR, BOLD, MONO_BOLD):
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(folder / f"{name}.ttf")))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD)
