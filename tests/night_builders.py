"""A demo-like evening for the morning after's report (tests/test_night_report.py): four tables,
two of them won by hall rolls, one rolling its own dice with a move taken back, one still playing;
a correction, a hall roll taken back; the journal's clock a minute on per hall roll."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from companion.hall.model import HallEvent, Table
from companion.hall.service import HallService
from companion.rules.machi_koro.state import Phase

LANDMARKS = ("train_station", "shopping_mall", "amusement_park", "radio_tower")
DICE = ((3, 4), (1, 1), (6, 5), (2, 3), (4, 4), (6, 6), (1, 2), (5, 2), (3, 3), (6, 1), (2, 5),
        (4, 3), (5, 5), (2, 2), (6, 4), (1, 6), (3, 5))


@dataclass
class Clock:
    """The journal's clock (`utc_now`), moved on by hand: a game's length is read from it."""

    minutes: float = 0.0
    start: datetime = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)

    def __call__(self) -> str:
        self.minutes += 0.001 / 60  # every append a little later, as on a real evening
        return (self.start + timedelta(minutes=self.minutes)).isoformat(timespec="microseconds")


def started(hall: HallService, event: HallEvent, name: str, players: list[str],
            mode: str) -> Table:
    table = hall.create_table(event.id, name, players, roll_mode=mode)
    hall.set_status(table.id, "start")
    return table


def rich(hall: HallService, table: Table) -> None:
    """The organizer's correction: seat 0 gets nearly every coin of the bank."""
    state = table.state
    hall.adjust(table.id, 0, state.total_coins() - state.players[0].coins - 1,
                "a rich start for the test")


def build_if_due(hall: HallService, table: Table, roll: int) -> None:
    """Seat 0 builds its next landmark when the roll left it in its build step."""
    state = table.state
    if state.phase is Phase.BUILD and state.active == 0:
        missing = [card for card in LANDMARKS if card not in state.players[0].landmarks]
        answer = hall.move(table.seats[0].token, f"b-{table.id}-{roll}",
                           {"kind": "build", "card": missing[0]})
        assert answer["ok"], answer


def evening(hall: HallService, clock: Clock) -> tuple[HallEvent, dict[str, Table]]:
    """The night, played: Table 1 won in a few rolls, Table 4 (started 5 minutes later, three
    players) won later, Table 2 rolls its own dice (one roll taken back), Table 3 plays on."""
    event = hall.create_event("Demo night")
    tables = {"1": started(hall, event, "Table 1 (hall roll)", ["Avi", "Dana"], "hall"),
              "2": started(hall, event, "Table 2 (own roll)", ["Sam", "יעל"], "own"),
              "3": started(hall, event, "Table 3", ["Noa", "Lotte", "Zoë"], "hall")}
    rich(hall, tables["1"])
    answer = hall.move(tables["2"].seats[0].token, "sam-roll", {"kind": "roll"})
    assert answer["ok"], answer
    hall.undo(tables["2"].id)
    hall.hall_roll(event.id, [6, 6])
    hall.undo_hall_roll(event.id)
    for roll in range(120):
        if roll == 5:
            tables["4"] = started(hall, event, "Table 4", ["Eli", "Maya", "Ori"], "hall")
            rich(hall, tables["4"])
        clock.minutes += 1
        hall.hall_roll(event.id, list(DICE[roll % len(DICE)]))
        for key in ("1", "4"):
            if key in tables and tables[key].state.phase is not Phase.FINISHED:
                build_if_due(hall, tables[key], roll)
        if all(key in tables and tables[key].state.phase is Phase.FINISHED for key in ("1", "4")):
            return hall.event(event.id), tables
    raise AssertionError("tables 1 and 4 were not both won in 120 hall rolls")


def journal_totals(hall: HallService, event: HallEvent) -> Counter[int]:
    """The hall's totals as the journal has them: every hall roll, less those taken back."""
    rolls: list[list[int]] = []
    for record in hall.journal.read(event.stream):
        if record.kind == "hall_rolled":
            rolls.append(record.data["dice"])
        elif record.kind == "roll_undone":
            assert rolls.pop() == record.data["dice"]
    return Counter(sum(pair) for pair in rolls)
