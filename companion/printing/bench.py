"""How long join cards take for a big hall: `python -m companion.printing.bench [seats]`."""

from __future__ import annotations

import sys
import time

from companion.printing.join_cards import join_cards, pages
from companion.printing.layouts import card_grid
from companion.printing.model import SeatCard, Wifi


def short_code(n: int) -> str:
    """A join code as a card prints it, `K7M3-QX9A`: eight characters of Crockford's
    alphabet (made up here: the hall derives the real ones from the tokens)."""
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    code = "".join(alphabet[((n + 1) * 2654435761 >> shift) % 32] for shift in range(0, 40, 5))
    return f"{code[:4]}-{code[4:]}"


def hall_cards(seats: int) -> list[SeatCard]:
    """Seats of four-player tables with realistic URLs (22-character tokens, join codes)."""
    tokens = [f"{n:06d}Xq7LmP2vR9sT4wY8zA" for n in range(seats)]
    return [
        SeatCard(
            event_name="Machi Koro Night",
            table_name=f"Table {n // 4 + 1}",
            seat_number=n % 4 + 1,
            player_name=f"Player {n + 1}" if n % 3 else None,
            join_url=f"http://192.168.178.20:5000/j/{token}",
            short_url=f"192.168.178.20:5000/j/{short_code(n)}",
        )
        for n, token in enumerate(tokens)
    ]


def bench_join_cards(seats: int = 1100, paper: str = "a4") -> dict[str, float]:
    """Render join cards for `seats` seats once; the time includes QR encoding."""
    cards, wifi = hall_cards(seats), Wifi("HallNet", "correct horse")
    start = time.perf_counter()
    pdf = join_cards(cards, paper=paper, wifi=wifi)
    seconds = time.perf_counter() - start
    return {"seats": seats, "seconds": round(seconds, 3), "bytes": len(pdf),
            "pages": len(pages(cards, card_grid(paper), wifi))}


if __name__ == "__main__":
    print(bench_join_cards(int(sys.argv[1]) if len(sys.argv) > 1 else 1100))
