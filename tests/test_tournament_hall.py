"""A tournament on the hall service itself (issue 18, RULES.md 25-29): a round's points follow
the landmark-cost tie-break of real games; a round's tables and its record are one transaction
(a crash at the round's commit leaves no tables); two services on one journal (two processes)
see each other's tournaments, players and rounds, and an append on stale memory is decided
again instead of failing."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.hall import HallError, HallService, tournament_journal
from companion.hall import tournament as tour
from companion.hall.tournament_views import current_seat
from companion.journal import AppendRequest, open_journal


def hall_on(path: Path, shared: bool = False) -> HallService:
    return HallService(open_journal(path), shared=shared)


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[HallService]:
    service = hall_on(tmp_path / "cup.db")
    yield service
    service.journal.close()


def move(hall: HallService, token: str, tag: str, wire: dict[str, Any]) -> None:
    answer = hall.move(token, tag, wire)
    assert answer["ok"], answer


def test_equal_coins_and_landmarks_rank_by_the_landmarks_cost(hall: HallService) -> None:
    """RULES.md 26: a Shopping Mall (10) beats a Train Station (4) at equal coins: 5 and 3
    points at a table of three, not a shared 4 and 4."""
    event = hall.create_event("Cup")
    tour.create(hall, event.id, {"players": "Ann\nBob\nCy", "rounds": 1})
    tour.start(hall, event.id)
    table = hall.table(tour.start_round(hall, event.id).tables[0])
    tokens = [seat.token for seat in table.seats]
    for seat, card in ((0, "shopping_mall"), (1, "train_station")):
        hall.adjust(table.id, seat, 20, "test")
        move(hall, tokens[seat], f"roll-{seat}", {"kind": "roll"})
        move(hall, tokens[seat], f"build-{seat}", {"kind": "build", "card": card})
        move(hall, tokens[seat], f"end-{seat}", {"kind": "end_turn"})
    coins = [player.coins for player in table.state.players]
    for seat in (0, 1):
        hall.adjust(table.id, seat, 30 - coins[seat], "equal coins")
    tour.close_round(hall, event.id)
    t = tour.tournament_of(hall, event.id)
    points = {t.players[s.player].name: s.points for s in t.standing()}
    mall, station, third = (table.seats[seat].name for seat in range(3))
    assert (points[mall], points[station], points[third]) == (5, 3, 1)


class FailingJournal:
    """The hall's journal, except that a write holding a round's record fails (a crash at
    the round's commit): nothing of that write reaches the journal."""

    def __init__(self, journal: Any) -> None:
        self.journal = journal

    def __getattr__(self, name: str) -> Any:
        return getattr(self.journal, name)

    def append(self, stream: str, expected_seq: int, events: Sequence[Any], **kw: Any) -> Any:
        self.check([AppendRequest(stream, expected_seq, events)])
        return self.journal.append(stream, expected_seq, events, **kw)

    def append_many(self, batch: Sequence[AppendRequest]) -> Any:
        self.check(batch)
        return self.journal.append_many(batch)

    @staticmethod
    def check(batch: Sequence[AppendRequest]) -> None:
        if any(kind == "round_started" for request in batch for kind, _ in request.records):
            raise OSError("the power went out")


def test_a_crash_at_the_rounds_commit_leaves_no_tables_and_the_round_can_start_again(
        hall: HallService, tmp_path: Path) -> None:
    event = hall.create_event("Cup")
    tour.create(hall, event.id, {"players": "\n".join(f"P{n}" for n in range(1, 9))})
    tour.start(hall, event.id)
    streams = set(hall.journal.streams())
    real = hall.journal
    hall.journal = FailingJournal(real)  # type: ignore[assignment]
    try:
        with pytest.raises(OSError):
            tour.start_round(hall, event.id)
    finally:
        hall.journal = real
    assert set(real.streams()) == streams, "no table was committed without its round"
    assert hall.tables == {} and hall.event(event.id).tables == []
    assert tour.tournament_of(hall, event.id).played == []
    started = tour.start_round(hall, event.id)
    assert started.tables == ["1", "2"]
    again = hall_on(tmp_path / "cup.db")  # the restart sees the round and its started tables
    try:
        t = tour.tournament_of(again, event.id)
        assert [r.tables for r in t.played] == [["1", "2"]]
        assert all(again.table(i).status == "running" for i in started.tables)
        assert [again.table(i).state for i in started.tables] == [
            hall.table(i).state for i in started.tables]
    finally:
        again.journal.close()


@pytest.fixture
def two_halls(tmp_path: Path) -> Iterator[tuple[HallService, HallService]]:
    """Two services on one journal, as two processes (shared: memory is a cache)."""
    a = hall_on(tmp_path / "shared.db", shared=True)
    b = hall_on(tmp_path / "shared.db", shared=True)
    yield a, b
    a.journal.close()
    b.journal.close()


def test_two_processes_see_each_others_tournament_players_and_rounds(two_halls) -> None:
    a, b = two_halls
    event = a.create_event("Cup")
    created = tour.create(a, event.id, {"players": "\n".join(f"P{n}" for n in range(1, 8))})
    refused = pytest.raises(HallError, tour.create, b, event.id, {"players": "X\nY\nZ"})
    assert refused.value.code == "tournament/exists"
    assert tour.tournament_of(b, event.id).players[0].token == created.players[0].token
    tour.arrive(b, event.id, "Late")  # eight now: two tables of four
    late = tour.tournament_of(b, event.id).players[-1]
    t, player, seat = current_seat(a, late.token)  # A finds B's late arrival by its link
    assert (player.name, seat) == ("Late", None)
    tour.start(a, event.id)
    started = tour.start_round(b, event.id)  # B starts the round A seated
    assert len(started.tables) == 2
    _, player, seat = current_seat(a, late.token)  # A sends the phone to B's new table
    assert seat is not None and a.seat_for(seat)[0].id in started.tables
    closed = tour.close_round(a, event.id)
    assert closed.number == 1 and not closed.open
    assert tour.tournament_of(b, event.id).open_round is None
    assert tour.tournament_of(b, event.id).seq == tour.tournament_of(a, event.id).seq


def test_an_append_on_stale_memory_is_decided_again_after_catching_up(
        two_halls, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = two_halls
    event = a.create_event("Cup")
    tour.create(a, event.id, {"players": "\n".join(f"P{n}" for n in range(1, 10)),
                              "absent": ["P9"]})
    tour.tournament_of(b, event.id)
    tour.check_in(a, event.id, 8, True)  # B's memory does not know yet
    # B skips its look-up's catch-up: its append finds the stream moved on
    original = tournament_journal.catch_up
    monkeypatch.setattr(tournament_journal, "catch_up",
                        lambda hall, t: t if hall is b else original(hall, t))
    t = tour.drop(b, event.id, 0)
    assert t.players[8].checked_in and t.players[0].dropped, "decided on the journal's tournament"
    started = tour.start(b, event.id)
    assert sorted(p for table in started.plan[0] for p in table) == list(range(1, 9))
    tour.start_round(a, event.id)  # A's round: B's memory has neither its record nor its tables
    refused = pytest.raises(HallError, tour.start_round, b, event.id)
    assert refused.value.code == "tournament/round_open", "decided again, refused, no 500"
    closed = tour.close_round(b, event.id)
    assert closed.number == 1


def test_a_co_op_tournament_journalled_before_the_check_is_refused_not_failed(
        hall: HallService) -> None:
    """An old journal may hold a co-op tournament (registered before registration checked the
    ruleset's seats): its round is refused with what to do, and nothing is written."""
    event = hall.create_event("Cup")
    tour.create(hall, event.id, {"players": "\n".join(f"P{n}" for n in range(1, 9))})
    t = tour.tournament_of(hall, event.id)
    t.ruleset, t.options = "machi-koro-coop", {}
    tour.start(hall, event.id)
    streams = hall.journal.streams()
    with pytest.raises(HallError) as refused:
        tour.start_round(hall, event.id)
    assert refused.value.code == "tournament/invalid" and "exactly 2" in refused.value.message
    assert hall.journal.streams() == streams and hall.tables == {}
