"""The draw at the cut (RULES.md 28, issue 25 item 5): players still equal at the cut for the
final (or the semi-finals) on wins, points, landmarks and coins are named on the console and
the projector; the server draws among them for the seats left when the organizer starts that
round; the draw is journalled in the tournament's stream, shown as a draw, and replayed
identically after a restart (a new HallService on the same SQLite file).

Eight players, one preliminary round closed before anyone played: at both tables every
player is equal (no winner, no landmark, the same coins), so all eight share rank 1 and four
seats of the final are drawn among them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.hall import HallService
from companion.hall import tournament as tour
from companion.hall.tournament_views import organizer_view, public_view
from companion.journal import AppendRequest, open_journal
from companion.tournament.scoring import SNAKE

NAMES = [f"P{n}" for n in range(1, 9)]


def hall_on(path: Path) -> HallService:
    return HallService(open_journal(path))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "cup.db"


@pytest.fixture
def hall(db: Path) -> Iterator[HallService]:
    service = hall_on(db)
    yield service
    service.journal.close()


def preliminaries_all_equal(hall: HallService) -> str:
    event = hall.create_event("Cup")
    tour.create(hall, event.id, {"players": "\n".join(NAMES), "rounds": 1})
    tour.start(hall, event.id)
    tour.start_round(hall, event.id)
    tour.close_round(hall, event.id)
    return event.id


def draws(hall: HallService, event_id: str) -> list[dict[str, Any]]:
    return [r.data for r in hall.journal.read(f"tournament:{event_id}") if r.kind == "cut_drawn"]


def test_ruling_28_players_equal_at_the_cut_are_named_before_the_draw(hall: HallService) -> None:
    event_id = preliminaries_all_equal(hall)
    t = tour.tournament_of(hall, event_id)
    assert {s.rank for s in t.standing()} == {1}
    view = public_view(hall, t)
    assert view["next"] == "final"
    assert view["cut"] == {"count": 4, "seats": 4, "sure": [], "tied": NAMES, "drawn": None}
    assert organizer_view(hall, t, "http://hall")["cut"] == view["cut"]
    assert draws(hall, event_id) == [], "nothing is drawn before the final starts"


def test_ruling_28_the_server_draws_the_seats_left_journalled_and_shown_as_a_draw(
        hall: HallService) -> None:
    event_id = preliminaries_all_equal(hall)
    final = tour.start_round(hall, event_id, tour.FINAL)
    [record] = draws(hall, event_id)
    assert record["count"] == 4 and record["seats"] == 4 and record["tied"] == list(range(8))
    assert sorted(record["order"]) == list(range(8))
    assert final.seating == (tuple(record["order"][:4]),), "the final is the draw's four"
    view = public_view(hall, tour.tournament_of(hall, event_id))
    drawn = [NAMES[p] for p in record["order"][:4]]
    assert view["cut"] == {"count": 4, "seats": 4, "sure": [], "tied": NAMES, "drawn": drawn}
    assert view["seating"]["tables"][0]["players"] == drawn


def test_ruling_28_the_draw_is_replayed_identically_after_a_restart(hall: HallService, db: Path) -> None:
    event_id = preliminaries_all_equal(hall)
    tour.start_round(hall, event_id, tour.FINAL)
    tour.close_round(hall, event_id)
    before = public_view(hall, tour.tournament_of(hall, event_id))
    again = hall_on(db)
    try:
        after = public_view(again, tour.tournament_of(again, event_id))
        assert after["cut"] == before["cut"] and after["cut"]["drawn"]
        assert after["ranking"] == before["ranking"]
        assert {r["name"] for r in after["ranking"][:4]} == set(before["cut"]["drawn"])
        assert [r["stage"] for r in after["ranking"]] == ["final"] * 4 + ["preliminaries"] * 4
    finally:
        again.journal.close()


class FailingRound:
    """The journal, except that the write holding a round's record fails (a crash just after
    the draw was journalled)."""

    def __init__(self, journal: Any) -> None:
        self.journal = journal

    def __getattr__(self, name: str) -> Any:
        return getattr(self.journal, name)

    def append_many(self, batch: Sequence[AppendRequest]) -> Any:
        if any(kind == "round_started" for request in batch for kind, _ in request.records):
            raise OSError("the power went out")
        return self.journal.append_many(batch)


def test_ruling_28_a_crash_after_the_draw_keeps_the_draw_after_a_restart(
        hall: HallService, db: Path) -> None:
    event_id = preliminaries_all_equal(hall)
    real = hall.journal
    hall.journal = FailingRound(real)  # type: ignore[assignment]
    try:
        with pytest.raises(OSError):
            tour.start_round(hall, event_id, tour.FINAL)
    finally:
        hall.journal = real
    [record] = draws(hall, event_id)
    again = hall_on(db)
    try:
        assert public_view(again, tour.tournament_of(again, event_id))["cut"]["drawn"] == [
            NAMES[p] for p in record["order"][:4]]
        final = tour.start_round(again, event_id, tour.FINAL)
        assert draws(again, event_id) == [record], "drawn once: the restart uses that draw"
        assert final.seating == (tuple(record["order"][:4]),)
    finally:
        again.journal.close()


def test_ruling_28_no_draw_when_the_ranks_decide(hall: HallService) -> None:
    """Four players: the final is everyone, nobody is cut, nothing is drawn."""
    event = hall.create_event("Small cup")
    tour.create(hall, event.id, {"players": "A\nB\nC\nD", "rounds": 1})
    tour.start(hall, event.id)
    tour.start_round(hall, event.id)
    tour.close_round(hall, event.id)
    assert public_view(hall, tour.tournament_of(hall, event.id))["cut"] is None
    tour.start_round(hall, event.id, tour.FINAL)
    assert draws(hall, event.id) == []


def test_ruling_28_a_draw_at_the_cut_of_the_semi_finals_seeds_them_in_snake_order(
        hall: HallService, db: Path) -> None:
    """32 players (8 tables of 4) all equal after one round: the 16 seats of the semi-finals
    are drawn among all 32, the draw's order is the seed order (snake seating), and the final after them
    draws nothing more; a restart shows the same draw."""
    event = hall.create_event("Big cup")
    names = [f"Q{n:02}" for n in range(1, 33)]
    tour.create(hall, event.id, {"players": "\n".join(names), "rounds": 1})
    tour.start(hall, event.id)
    tour.start_round(hall, event.id)
    tour.close_round(hall, event.id)
    cut = public_view(hall, tour.tournament_of(hall, event.id))["cut"]
    assert cut == {"count": 16, "seats": 16, "sure": [], "tied": names, "drawn": None}
    semis = tour.start_round(hall, event.id, tour.FINAL)
    [record] = draws(hall, event.id)
    top = record["order"][:16]
    assert semis.stage == tour.SEMI_FINAL
    assert semis.seating == tuple(tuple(top[seed - 1] for seed in table) for table in SNAKE)
    tour.close_round(hall, event.id)
    final = tour.start_round(hall, event.id, tour.FINAL)
    assert draws(hall, event.id) == [record], "the final after the semi-finals draws nothing"
    assert final.seating == ((top[0], top[1], top[2], top[3]),), "closed all equal: the best seeds"
    again = hall_on(db)
    try:
        shown = public_view(again, tour.tournament_of(again, event.id))["cut"]
        assert shown["drawn"] == [names[p] for p in top]
    finally:
        again.journal.close()
