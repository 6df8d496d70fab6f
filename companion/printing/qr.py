"""QR codes drawn as vector rectangles from the `qrcode` package's module matrix."""

from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode.constants import ERROR_CORRECT_M, ERROR_CORRECT_Q
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.printing.model import Wifi

QUIET_ZONE = 4  # modules of white around the symbol, as the QR standard asks
MIN_SYMBOL = 22 * mm  # smallest printed symbol (without the quiet zone) we allow
LEVELS = {"M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q}


@lru_cache(maxsize=4096)
def matrix(data: str, level: str = "Q") -> tuple[tuple[bool, ...], ...]:
    """The module matrix of `data`, quiet zone included (True is a dark module)."""
    code = qrcode.QRCode(error_correction=LEVELS[level], border=QUIET_ZONE)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def symbol_size(data: str, box: float, level: str = "Q") -> float:
    """Printed width of the symbol alone when its matrix with quiet zone fills `box`."""
    total = len(matrix(data, level))
    return box * (total - 2 * QUIET_ZONE) / total


def draw(c: Canvas, data: str, x: float, y: float, box: float, level: str = "Q") -> float:
    """Draw the QR of `data` filling the square (x, y, box) with its quiet zone; returns module."""
    rows = matrix(data, level)
    module = box / len(rows)
    path = c.beginPath()
    for r, row in enumerate(rows):
        start = None
        for col, dark in enumerate((*row, False)):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                path.rect(start, len(rows) - 1 - r, col - start, 1)
                start = None
    c.saveState()
    c.translate(x, y)
    c.scale(module, module)  # integer module coordinates keep the content stream short
    c.setFillColorRGB(0, 0, 0)
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()
    return module


def _escape(value: str) -> str:
    """Escape the characters the Wi-Fi QR format reserves: backslash ; , : and quote."""
    for char in ("\\", ";", ",", ":", '"'):
        value = value.replace(char, "\\" + char)
    return value


def wifi_payload(wifi: Wifi) -> str:
    """The `WIFI:` text phones understand: security type, network name and password."""
    if wifi.security.lower() == "nopass":
        return f"WIFI:T:nopass;S:{_escape(wifi.ssid)};;"
    return f"WIFI:T:{wifi.security};S:{_escape(wifi.ssid)};P:{_escape(wifi.password)};;"
