"""Join codes (issue 5: the short URL to type): eight Crockford base32 characters derived from a
seat's token, read back forgivingly, and the hall's index of them on a real SQLite journal,
kept in step with new, reassigned and removed seats, across a restart, and refusing a code two
seats share (a forced collision)."""

from __future__ import annotations

import base64
import hashlib
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hall import HallError, HallService
from companion.hall import registry as hall_registry
from companion.hall.join_codes import ALPHABET, join_code, printed, read_code
from companion.journal import SqliteJournal
from companion.web.errors import status_of

# Two real 22-character tokens whose SHA-256 begin with the same 40 bits, found once by a
# birthday search over 1.6 million random tokens (the test checks they still collide).
CLASHING = ("G6CBeIaKVI_QRG7s_BV7fg", "y5xVECv2VWsocjoLI0FWoQ")
TOKENS = st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=1, max_size=43)
RFC_4648 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def crockford_of_sha256(token: str) -> str:
    """The expected code by another road: the standard library's base32 of the first 5 bytes
    of the digest, its letters mapped onto Crockford's."""
    standard = base64.b32encode(hashlib.sha256(token.encode()).digest()[:5]).decode()
    return standard.translate(str.maketrans(RFC_4648, ALPHABET))


# ---------------------------------------------------------------- the code itself


def test_join_code_is_crockford_base32_of_the_tokens_sha256():
    token = "kq7LmP2vR9sT4wY8zAbC3d"
    assert join_code(token) == crockford_of_sha256(token)
    assert len(join_code(token)) == 8 and set(join_code(token)) <= set(ALPHABET)
    assert join_code(token) != join_code(token[:-1] + "e")  # a new token, a new code


def test_join_code_alphabet_leaves_out_the_letters_people_misread():
    assert len(ALPHABET) == len(set(ALPHABET)) == 32
    assert not set("ILOU") & set(ALPHABET)


def test_join_code_printed_in_two_groups_of_four():
    assert printed("K7M3QX9A") == "K7M3-QX9A"


@pytest.mark.parametrize("typed", [
    "K7M3-QX9A", "k7m3-qx9a", "K7M3QX9A", " k7m3 qx9a ", "K7M3 - QX9A", "k 7 m 3 q x 9 a",
    "K7M3\u2013QX9A",  # an en dash, as a phone's keyboard may put for a hyphen
    "Ｋ７Ｍ３－ＱＸ９Ａ",  # full-width characters from an East Asian keyboard
])
def test_join_code_read_ignores_case_spaces_and_dashes(typed):
    assert read_code(typed) == "K7M3QX9A"


@pytest.mark.parametrize(("typed", "code"), [
    ("IL00-0000", "11000000"), ("il00-0000", "11000000"), ("OO00-0000", "00000000"),
    ("o1l1-i0O0", "01111000"),
])
def test_join_code_read_takes_i_and_l_for_1_and_o_for_0(typed, code):
    assert read_code(typed) == code


@pytest.mark.parametrize("typed", [
    "", "K7M3-QX9", "K7M3-QX9AB", "K7M3-QX9U", "K7M3_QX9A", "K7M3.QX9A", "K7M3-QX9!",
    "kq7LmP2vR9sT4wY8zAbC3d",  # a whole token is no code
])
def test_join_code_read_refuses_what_cannot_be_a_code(typed):
    assert read_code(typed) is None


@given(token=TOKENS, data=st.data())
def test_join_code_reads_back_from_its_printed_form_in_any_case_with_spaces(token, data):
    code = join_code(token)
    shown = printed(code)
    typed = "".join(
        data.draw(st.sampled_from([ch.lower(), ch.upper()])) + data.draw(st.sampled_from(["", " "]))
        for ch in shown)
    assert read_code(typed) == code == crockford_of_sha256(token)


@given(token=st.text(min_size=1, max_size=30))
def test_join_code_of_any_text_is_eight_unambiguous_characters(token):
    assert read_code(printed(join_code(token))) == join_code(token)


# ---------------------------------------------------------------- the hall's index


def codes_from_tokens(hall: HallService) -> dict[str, set[str]]:
    """The index as it must be: every seat's token under its code."""
    expected: dict[str, set[str]] = {}
    for token in hall.tokens:
        expected.setdefault(join_code(token), set()).add(token)
    return expected


def test_join_code_finds_every_seats_token_typed_as_printed(hall):
    event = hall.create_event("Night")
    tables = hall.seat_players(event.id, [f"P{n}" for n in range(12)], table_size=4)
    for table in tables:
        for number, seat in enumerate(table.seats):
            assert seat.join_code == printed(join_code(seat.token))
            token = hall.token_for_code(seat.join_code.lower().replace("-", " "))
            assert token == seat.token and hall.seat_for(token) == (table, number)
    assert hall.codes == codes_from_tokens(hall)


def test_join_code_follows_reassignment_removal_and_a_restart(tmp_path):
    with SqliteJournal(tmp_path / "hall.db") as journal:
        hall = HallService(journal)
        event = hall.create_event("Night")
        table = hall.create_table(event.id, "T1", ["A", "B", "C"])
        old = table.seats[1].join_code
        hall.reassign_seat(table.id, 1)
        new = table.seats[1].join_code
        assert new != old and hall.token_for_code(new) == table.seats[1].token
        with pytest.raises(HallError) as stale:
            hall.token_for_code(old)
        assert (stale.value.code, status_of(stale.value.code)) == ("seat/unknown_code", 404)
        added = hall.add_player(table.id, "D").seats[3]
        assert hall.token_for_code(added.join_code) == added.token
        removed = table.seats[3].join_code
        hall.remove_player(table.id, 3)
        with pytest.raises(HallError):
            hall.token_for_code(removed)
        assert hall.codes == codes_from_tokens(hall)
        index = {code: set(tokens) for code, tokens in hall.codes.items()}
    with SqliteJournal(tmp_path / "hall.db") as journal:
        again = HallService(journal)
        assert again.codes == index
        assert again.token_for_code(new) == again.table(table.id).seats[1].token


@pytest.mark.parametrize("typed", [None, 42, "", "no code", "K7M3-QX9U"])
def test_join_code_lookup_refuses_what_is_no_seats_code(hall, typed):
    hall.create_table(hall.create_event("Night").id, "T1", ["A", "B"])
    with pytest.raises(HallError) as refused:
        hall.token_for_code(typed)
    assert refused.value.code == "seat/unknown_code"


def test_join_code_two_seats_share_opens_neither_until_one_is_reassigned(hall, monkeypatch):
    """A forced collision: the first two seats get tokens with the same code. Neither phone can
    take a seat by it (a guesser or a player would get a stranger's seat half the time), while
    both tokens, the QR codes, still open their own seats. A new token for one seat gives it a
    new code and leaves the other's code its own again."""
    assert join_code(CLASHING[0]) == join_code(CLASHING[1])
    fresh = hall_registry.new_token
    handed = iter(CLASHING)
    monkeypatch.setattr(hall_registry, "new_token", lambda: next(handed, None) or fresh())
    table = hall.create_table(hall.create_event("Night").id, "T1", ["A", "B", "C"])
    assert [s.token for s in table.seats[:2]] == list(CLASHING)
    shared = table.seats[0].join_code
    assert table.seats[1].join_code == shared and hall.codes[join_code(CLASHING[0])] == set(CLASHING)
    with pytest.raises(HallError) as refused:
        hall.token_for_code(shared)
    assert (refused.value.code, status_of(refused.value.code)) == ("seat/shared_code", 409)
    assert hall.seat_for(CLASHING[0]) == (table, 0) and hall.seat_for(CLASHING[1]) == (table, 1)
    assert hall.token_for_code(table.seats[2].join_code) == table.seats[2].token
    hall.reassign_seat(table.id, 0)
    assert hall.token_for_code(shared) == CLASHING[1]
    assert hall.codes == codes_from_tokens(hall)
