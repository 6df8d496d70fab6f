"""A Harbor table in the hall (docs/rules.md 30-35): made with its card set, dealt the variable
supply, played by the phones' moves, the Harbor's question answered or defaulted, the Tuna
Boats' roll drawn by the server and journalled."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.hall import HallError, HallService
from companion.journal import SqliteJournal


def harbor_table(hall, players=("Avi", "Dana", "Eli", "Fay", "Gil"), roll_mode="own"):
    event = hall.create_event("Harbor night")
    table = hall.create_table(event.id, "Harbor 1", list(players), roll_mode=roll_mode,
                              card_sets=["base", "harbor"])
    hall.set_status(table.id, "start")
    return event, hall.table(table.id)


def set_cities(table, **cities):
    """Give seats cities for a test (the state the hall keeps; not journalled)."""
    players = list(table.state.players)
    for seat, (coins, cards, landmarks) in cities.items():
        index = int(seat[1:])
        player = players[index]
        players[index] = replace(player, coins=coins, cards={**player.cards, **cards},
                                 landmarks=player.landmarks | set(landmarks),
                                 dice_count=2 if "train_station" in landmarks else 1)
    table.state = replace(table.state, players=tuple(players))


def test_ruling_30_a_harbor_table_seats_five_and_deals_ten_kinds(hall):
    _, table = harbor_table(hall)
    assert table.card_sets == ("base", "harbor")
    assert table.state.variable_supply
    assert len([c for c, n in table.state.supply.items() if n]) == 10
    assert all("city_hall" in p.landmarks for p in table.state.players)
    with pytest.raises(HallError):
        harbor_table(hall, players=("A", "B", "C", "D", "E", "F"))


def test_ruling_30_a_base_table_still_seats_at_most_four(hall):
    event = hall.create_event("Base night")
    with pytest.raises(HallError):
        hall.create_table(event.id, "T", ["A", "B", "C", "D", "E"], roll_mode="own")


def test_ruling_31_the_phone_answers_the_harbor_and_the_table_plays_on(hall):
    _, table = harbor_table(hall)
    first = table.state.active
    set_cities(table, **{f"s{first}": (5, {}, {"train_station", "harbor"})})
    token = table.seats[first].token
    for attempt in range(200):  # roll until the dice show 10 or more
        answer = hall.move(token, f"r{attempt}", {"kind": "roll"}, view=True)
        assert answer["ok"], answer
        if hall.table(table.id).state.phase.value == "harbor":
            break
        hall.move(token, f"e{attempt}", {"kind": "end_turn"})
        for other in range(1, 5):  # the others pass their turns
            seat = (first + other) % 5
            hall.move(table.seats[seat].token, f"o{attempt}-{other}", {"kind": "roll"})
            hall.move(table.seats[seat].token, f"p{attempt}-{other}", {"kind": "end_turn"})
    waiting = hall.table(table.id)
    assert waiting.state.phase.value == "harbor"
    assert {"kind": "harbor", "add": True} in answer["view"]["choices"]
    answer = hall.move(token, "add", {"kind": "harbor", "add": True}, view=True)
    assert answer["ok"], answer
    assert answer["view"]["added"] == 2
    assert hall.table(table.id).state.phase.value in ("build", "choose")


def test_ruling_31_a_hall_roll_defaults_the_harbor_to_not_adding(hall_db):
    with SqliteJournal(hall_db) as journal:
        hall = HallService(journal)
        event, table = harbor_table(hall, players=("Avi", "Dana"), roll_mode="hall")
        first = table.state.active
        set_cities(table, **{f"s{first}": (5, {}, {"train_station", "harbor"})})
        hall.hall_roll(event.id, [5, 6])
        assert hall.table(table.id).state.phase.value == "harbor"
        hall.hall_roll(event.id, [1, 1])  # the next roll closes the turn: no 2 added
        closed = hall.table(table.id)
        assert closed.state.turn == 2


def test_ruling_32_the_tuna_roll_is_drawn_by_the_server_and_journalled(hall_db):
    with SqliteJournal(hall_db) as journal:
        hall = HallService(journal)
        event, table = harbor_table(hall, players=("Avi", "Dana"), roll_mode="hall")
        first = table.state.active
        other = 1 - first
        set_cities(table, **{f"s{first}": (0, {}, {"train_station"}),
                             f"s{other}": (0, {"tuna_boat": 2}, {"harbor"})})
        hall.hall_roll(event.id, [6, 6])
        records = [r for r in journal.read(table.stream) if r.kind == "TunaRolled"]
        assert len(records) == 1
        rolled = sum(records[0].data["dice"])
        assert hall.table(table.id).state.players[other].coins == 2 * rolled
