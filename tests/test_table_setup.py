"""Each table's own set-up (issue 28): its ruleset makes it from the table's options and card
sets (`Ruleset.table_setup`), the hall keeps it with the table, and what the hall shows or
checks of a table's cards comes from it, not from a catalog the hall holds."""

from __future__ import annotations

import pytest

from companion.hall.checks import HallError
from companion.rules.registry import ruleset
from companion.web.organizer import card_names, table_sizes

HARBOR_ONLY = "sushi_bar"  # a card of the Harbor set alone (RULES.md 30)


def test_a_harbor_tables_set_up_is_the_catalog_of_its_card_sets(hall):
    event = hall.create_event("Night")
    base = hall.create_table(event.id, "T1", ["A", "B"])
    harbor = hall.create_table(event.id, "T2", ["C", "D"], card_sets=["base", "harbor"])
    assert HARBOR_ONLY in harbor.setup.establishments
    assert HARBOR_ONLY not in base.setup.establishments
    assert harbor.story().setup is harbor.setup  # the views are made from it


def test_a_tables_set_up_is_made_again_when_its_options_are_replaced(hall):
    event = hall.create_event("Night")
    board = hall.create_table(event.id, "B1", ["Sun", "Moon"], "catan-big",
                              options={"letter": "A"})
    assert board.setup.letter == "A"
    board.options = {**board.options, "letter": "B"}
    assert board.setup.letter == "B"


def test_a_game_without_card_sets_refuses_a_table_that_names_one(hall):
    """A Catan board has no card sets: asking for Harbor is refused, and nothing is made."""
    event = hall.create_event("Night")
    with pytest.raises(HallError, match="harbor"):
        hall.create_table(event.id, "B1", ["Sun", "Moon"], "catan-big",
                          card_sets=["base", "harbor"])
    assert hall.events[event.id].tables == []


def test_a_card_set_the_catalogs_lack_is_refused_naming_it(hall):
    event = hall.create_event("Night")
    with pytest.raises(HallError, match="moon_base"):
        hall.create_table(event.id, "T1", ["A", "B"], card_sets=["base", "moon_base"])


def test_the_consoles_card_names_follow_the_card_sets_the_halls_tables_play(app):
    """Harbor's cards are named once a table plays them (the console's journal names them)."""
    with app.test_request_context():
        assert HARBOR_ONLY not in card_names("en", set())
        assert card_names("en", {("machi-koro", ("base", "harbor"))})[HARBOR_ONLY] == "Sushi Bar"


def test_the_consoles_table_sizes_are_the_rulesets_seats():
    """The plain table form seats 2 to 4 (the base game's cities; co-op and a Catan board seat
    2), as the base catalog said before the set-up moved to the rulesets."""
    assert table_sizes() == (2, 4)
    assert ruleset("machi-koro").seats(ruleset("machi-koro").table_setup({}, ("base", "harbor")),
                                       {}).most == 5


def test_a_board_stored_with_a_card_set_it_ignored_still_replays(tmp_path):
    """Version 0.2.0 took `card_sets` for any table and a Catan board ignored them; such a
    journal must replay and show its board (issue 28: every stored journal replays), though a
    new board that names a card set is refused (above)."""
    from companion.hall import HallService
    from companion.journal import SqliteJournal

    with SqliteJournal(tmp_path / "old.db") as journal:
        hall = HallService(journal)
        event = hall.create_event("Night")
        board = hall.create_table(event.id, "B1", ["Sun", "Moon"], "catan-big",
                                  options={"letter": "A"})
        records = journal.read(board.stream)
        event_records = [(r.kind, r.data) for r in journal.read(event.stream)]
    stored = [(r.kind, {**r.data, "card_sets": ["base", "harbor"]} if r.kind == "table_created"
               else r.data) for r in records]
    with SqliteJournal(tmp_path / "from-0.2.0.db") as journal:
        journal.append(event.stream, 0, event_records, author="organizer")
        journal.append(board.stream, 0, stored, author="organizer")
        again = HallService(journal)
        replayed = again.tables[board.id]
        assert replayed.card_sets == ("base", "harbor")
        assert replayed.setup.letter == "A"
        assert again.seat_view(replayed, 0)["table"]["id"] == board.id
