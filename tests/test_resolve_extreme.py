"""`companion resolve` on extreme input (issue 17, item 7): JSON nested near and past the recursion
limit, numbers of thousands of digits, keys and values holding line breaks, coins the box cannot
hold. Every one is an outcome or a refusal: exit status 2, nothing on standard output and exactly
one line on standard error (by str.splitlines, which also breaks at U+2028, U+0085, ...) that
names the field, never a traceback. A few cases run the real command, the fuzzing runs in-process."""

from __future__ import annotations

import functools
import io
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import run_companion
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import cli
from companion.rules.coop.scenario import one_line, show
from companion.rules.machi_koro.catalog import load_catalog

BOX_COINS = load_catalog().bank_coins  # 210: "Coins (worth 210)"
DIGITS = sys.get_int_max_str_digits()  # 4300: the longest number Python converts
HUGE = int("9" * DIGITS)
# Every character str.splitlines breaks a line at, and other control characters.
BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
CONTROLS = BREAKS + "\x00\x07\x1b\x7f\x9f"
FIELDS = ("scenario", "ruleset", "players", "active", "dice", "bonus_turn", "choices", "coins",
          "assessed", "draws")


def table(**changes: Any) -> dict[str, Any]:
    """A legal base-game table (B's bakery pays on a 2), with top-level `changes`."""
    return {
        "ruleset": "machi-koro",
        "players": [
            {"name": "A", "coins": 3, "cards": {"wheat_field": 1, "bakery": 1}, "landmarks": []},
            {"name": "B", "coins": 3, "cards": {"wheat_field": 1, "bakery": 1}, "landmarks": []},
        ],
        "active": 1, "dice": [2], **changes,
    }


def assessor(**changes: Any) -> dict[str, Any]:
    return {"ruleset": "tax-assessor", "coins": 13, "assessed": [], "draws": ["wheat_field"],
            **changes}


def player(seat: int, **changes: Any) -> dict[str, Any]:
    """table() with players[seat] changed."""
    scenario = table()
    scenario["players"][seat].update(changes)
    return scenario


def cards(seat: int, **counts: Any) -> dict[str, Any]:
    scenario = table()
    scenario["players"][seat]["cards"].update(counts)
    return scenario


def assert_refused(code: int, out: str, err: str, field: str | tuple[str, ...] | None) -> str:
    """Exit 2, nothing on stdout, one line on stderr starting with `field:` (one of them, when a
    tuple; None: any); the line."""
    assert "Traceback" not in err, err[-2000:]
    assert code == 2, (code, out[:200], err[:500])
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err[:500]
    if field is not None:
        fields = (field,) if isinstance(field, str) else field
        assert lines[0].startswith(tuple(f + ":" for f in fields)), lines[0][:500]
    return lines[0]


def assert_resolved(code: int, out: str, err: str) -> dict[str, Any]:
    assert "Traceback" not in err, err[-2000:]
    assert (code, err) == (0, ""), err[:500]
    outcome = json.loads(out)
    assert isinstance(outcome, dict)
    return outcome


def command(text: str) -> tuple[int, str, str]:
    """The real command in a subprocess, the scenario on standard input."""
    result = run_companion("resolve", "-", stdin=text)
    return result.returncode, result.stdout, result.stderr


@contextmanager
def _standard_streams(text: str) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """sys.stdin reads `text`; stdout and stderr (text over bytes, as the command's) are caught."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = io.StringIO(text)
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace",
                                  write_through=True)
    wrappers = sys.stdout, sys.stderr
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for wrapper in wrappers:
            wrapper.flush()
            wrapper.detach()  # else collecting the wrapper closes the bytes before they are read


def in_process(text: str) -> tuple[int, str, str]:
    """cli.main(["resolve", "-"]) in this process: the fuzzing cannot afford a subprocess each."""
    with _standard_streams(text) as (out, err):
        code = cli.main(["resolve", "-"])
    return code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def nested_objects(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def with_raw(scenario: dict[str, Any], key: str, raw: str) -> str:
    """The scenario's JSON text with `key`'s value replaced by the JSON text `raw` (which
    json.dumps could not write itself: too deep, or too many digits)."""
    return json.dumps({**scenario, key: "@RAW@"}).replace('"@RAW@"', raw)


def test_the_bases_are_legal() -> None:
    assert assert_resolved(*command(json.dumps(table())))["coins"] == {"A": 3, "B": 4}
    assert assert_resolved(*command(json.dumps(assessor())))["result"] == "continue"
    assert assert_resolved(*in_process(json.dumps(table())))["coins"] == {"A": 3, "B": 4}


# ---------------------------------------------------------------- nesting
# Near the recursion limit (1000) json.loads still reads what json.dumps can no longer write back;
# where exactly depends on the stack below, so these run in the real command.


@pytest.mark.parametrize("depth", [900, 990, 995, 5000, 100_000])
def test_command_refuses_deep_nesting_at_the_top(depth: int) -> None:
    for text in (nested(depth), "[" * depth):
        assert_refused(*command(text), "scenario")
    assert_refused(*command(nested_objects(depth)), ("scenario", "ruleset"))  # a missing ruleset


@pytest.mark.parametrize("depth", [500, 990, 100_000])
@pytest.mark.parametrize("key", ["active", "dice", "choices"])
def test_command_refuses_deep_nesting_in_a_field(key: str, depth: int) -> None:
    """Nested so deep that json.loads refuses it (`scenario:`), or not (the field, or its first
    item)."""
    line = assert_refused(*command(with_raw(table(), key, nested(depth))), None)
    assert line.startswith((f"{key}:", f"{key}[0]:", "scenario:")), line
    if depth <= 900:
        assert not line.startswith("scenario:")


def test_command_refuses_nesting_the_parser_takes_and_json_dumps_cannot_write() -> None:
    """The fuzzer's case: a few levels below the parser's limit the refusal, quoting the value,
    overflowed the recursion limit. Which depths those are depends on the stack: all near 1000."""
    lines = [assert_refused(*command(with_raw(table(), "active", nested(depth))), ("active", "scenario"))
             for depth in range(970, 1000, 2)]
    assert any(line.endswith("not a value nested too deep to show") for line in lines), lines


@pytest.mark.parametrize("depth", [500, 990, 100_000])
@pytest.mark.parametrize("key", ["coins", "draws"])
def test_command_refuses_deep_nesting_in_an_assessor_field(key: str, depth: int) -> None:
    line = assert_refused(*command(with_raw(assessor(), key, nested(depth))), None)
    assert line.startswith((f"{key}:", f"{key}[0]:", "scenario:")), line


# ---------------------------------------------------------------- numbers

HUGE_NUMBERS = [
    ("players[0].coins", player(0, coins=HUGE)),
    ("players[1].coins", player(1, coins=HUGE)),
    ("players[1].coins", player(1, coins=-HUGE)),
    ("players[0].cards.wheat_field", cards(0, wheat_field=HUGE)),
    ("players[1].cards.ranch", cards(1, ranch=HUGE)),
    ("players[1].cards.stadium", cards(1, stadium=HUGE)),
    ("players[0].cards.bakery", cards(0, bakery=-HUGE)),
    ("active", table(active=HUGE)),
    ("active", table(active=-HUGE)),
    ("dice[0]", table(dice=[HUGE])),
    ("dice[1]", table(dice=[1, -HUGE])),
    ("coins", assessor(coins=HUGE)),
    ("coins", assessor(coins=-HUGE)),
    ("assessed[0]", assessor(assessed=[HUGE])),
    ("draws[1]", assessor(draws=["mine", HUGE])),
]


@pytest.mark.parametrize(("field", "scenario"), HUGE_NUMBERS, ids=[f for f, _ in HUGE_NUMBERS])
def test_refuses_a_number_of_the_most_digits_naming_the_field(field: str, scenario: dict) -> None:
    line = assert_refused(*in_process(json.dumps(scenario)), field)
    assert len(line) < 300, "the number is cut short"


@pytest.mark.parametrize("key", ["coins", "active", "dice"])
def test_refuses_a_number_of_more_digits_than_python_converts(key: str) -> None:
    for digits in (DIGITS + 1, 10 * DIGITS):
        line = assert_refused(*in_process(with_raw(table(), key, "1" * digits)), "scenario")
        assert "set_int_max_str_digits" not in line  # Python's advice is not the user's


def test_command_refuses_numbers_of_the_most_digits_and_more() -> None:
    assert_refused(*command("9" * DIGITS), "scenario")
    assert_refused(*command(with_raw(table(), "active", "1" * (DIGITS + 1))), "scenario")
    assert_refused(*command(json.dumps(player(1, coins=HUGE))), "players[1].coins")
    assert_refused(*command(json.dumps(cards(0, wheat_field=HUGE))), "players[0].cards.wheat_field")
    assert_refused(*command(json.dumps(assessor(coins=HUGE))), "coins")


def test_command_refuses_coins_the_box_cannot_hold() -> None:
    all_of_them = player(0, coins=BOX_COINS)
    all_of_them["players"][1]["coins"] = 0
    assert_resolved(*command(json.dumps(all_of_them)))
    assert_refused(*command(json.dumps(player(0, coins=BOX_COINS + 1))), "players[0].coins")
    shared = table(players=[
        {"name": n, "coins": 60, "cards": {"wheat_field": 1, "bakery": 1}, "landmarks": []}
        for n in "ABCD"])
    line = assert_refused(*command(json.dumps(shared)), "players")
    assert f"240 coins at the table; the box has {BOX_COINS}" in line
    assert_resolved(*command(json.dumps(assessor(coins=BOX_COINS))))
    assert_refused(*command(json.dumps(assessor(coins=BOX_COINS + 1))), "coins")


# ---------------------------------------------------------------- line breaks


def _named(seat: int, name: str, **changes: Any) -> dict[str, Any]:
    """table() with players[seat] called `name`, and top-level `changes`."""
    scenario = table(**changes)
    scenario["players"][seat]["name"] = name
    return scenario


def escaped(char: str) -> str:
    """How a refusal writes a control character or line break: as Python writes it in a string."""
    return char.encode("unicode_escape").decode("ascii")


@pytest.mark.parametrize("char", list(CONTROLS), ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_a_refusal_quoting_a_line_break_stays_one_line(char: str) -> None:
    odd = f"x{char}y"
    twice = _named(0, odd * 30)
    twice["players"][1]["name"] = odd * 30
    cases = [
        ("ruleset", table(ruleset=odd)),
        ("players[1].name", twice),  # quoted, and cut short
        (f"players[0].cards.x{escaped(char)}y", cards(0, **{odd: 1})),  # the key itself
        ("dice", _named(1, odd, dice=[1, 2])),  # "two dice need a Train Station; NAME has none"
        ("bonus_turn", _named(1, odd, bonus_turn=True)),  # the roller's name, unquoted
        ("players[0].landmarks[0]", player(0, landmarks=[odd])),
        ("players[0].coins", player(0, coins=odd)),
        ("coins", assessor(coins=odd)),
        ("assessed[0]", assessor(assessed=[odd])),
        ("draws[0]", assessor(draws=[odd])),
    ]
    for field, scenario in cases:
        line = assert_refused(*in_process(json.dumps(scenario, ensure_ascii=False)), field)
        assert not set(CONTROLS) & set(line), line


def test_command_refusal_names_an_odd_card_key_escaped() -> None:
    line = assert_refused(*command(json.dumps(cards(0, **{"x\u2028y": 1}))), None)
    assert line.startswith("players[0].cards.x\\u2028y:"), line


def test_command_refuses_a_swap_naming_a_player_with_a_line_break() -> None:
    """The engine's own message has the owner's name as it is, unquoted: escaped all the same."""
    scenario = table(players=[
        {"name": "A", "coins": 3, "cards": {"wheat_field": 1, "bakery": 1, "business_center": 1},
         "landmarks": []},
        {"name": "B\u2029\r\nC", "coins": 3, "cards": {"wheat_field": 1, "bakery": 1, "ranch": 1},
         "landmarks": []},
    ], active=0, dice=[6], choices={"business_center": {"with": "B\u2029\r\nC", "give": "bakery",
                                                        "take": "cafe"}})
    assert_refused(*command(json.dumps(scenario, ensure_ascii=False)), "choices.business_center.take")


def test_show_and_one_line_never_fail_and_stay_short() -> None:
    deep: list[Any] = []
    for _ in range(10_000):
        deep = [deep]
    assert show(deep) == "a value nested too deep to show"
    assert show(HUGE * 10) == "a number too long to show"  # more digits than Python writes
    assert show("x" * 100) == '"' + "x" * 36 + "..."
    assert one_line("a\r\nb\u2028c\x85d\ud800") == "a\\r\\nb\\u2028c\\x85d\\ud800"
    assert one_line("\u05d0\u200f ok") == "\u05d0\u200f ok"  # Hebrew and its marks stay


# ---------------------------------------------------------------- the guard


def test_an_unexpected_error_is_still_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.rules.machi_koro.scenario as scenario_module

    def broken(scenario: Any) -> Any:
        raise RuntimeError("boom\r\nsecond line\u2028third")

    monkeypatch.setattr(scenario_module, "resolve", broken)
    line = assert_refused(*in_process(json.dumps(table())), "scenario")
    assert "RuntimeError" in line and "boom" in line


# ---------------------------------------------------------------- fuzzing

NASTY_RAW = st.sampled_from([
    "9" * DIGITS, "-" + "9" * DIGITS, "1" * (DIGITS + 1), "1e999", "-1e999", "1.5", "3.0",
    nested(500), nested(980), nested(990), nested(995), nested(1000), nested(3000),
    nested_objects(990), "[" * 2000, "true", "null", "{}", "[]",
])
NASTY_TEXT = st.lists(st.sampled_from(
    [*CONTROLS, "x", "A", "B", "bank", "cafe", "stadium", "mine", "wheat_field", "\ud800", "\u05d0",
     "\u200f", '"', "\\"]), max_size=6).map("".join)
NASTY_INT = st.sampled_from([-1, 0, 1, 2, 6, 7, 13, BOX_COINS, BOX_COINS + 1, 10**6, HUGE, -HUGE])
NASTY = st.one_of(NASTY_INT, NASTY_TEXT, st.just("@RAW@"))


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a JSON value, containers included, the root excepted."""
    if path:
        yield path
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield from _paths(child, (*path, key))


def _mutate(data: st.DataObject, scenario: dict[str, Any]) -> str:
    """A published scenario with one to three places replaced (a value, or a key renamed), as
    JSON text; raw text (too deep or too many digits for json.dumps) goes in by placeholder."""
    scenario = json.loads(json.dumps(scenario))
    raws: list[str] = []
    for _ in range(data.draw(st.integers(1, 3))):
        *parents, last = data.draw(st.sampled_from(list(_paths(scenario))))
        node = scenario
        for key in parents:
            node = node[key]
        value = data.draw(NASTY)
        if value == "@RAW@":
            raws.append(data.draw(NASTY_RAW))
            value = f"@RAW{len(raws) - 1}@"
        if isinstance(node, dict) and data.draw(st.booleans()):
            node[value if isinstance(value, str) else str(value)] = node.pop(last)  # a key renamed
        else:
            node[last] = value
    text = json.dumps(scenario, ensure_ascii=data.draw(st.booleans()))
    for i, raw in enumerate(raws):
        text = text.replace(f'"@RAW{i}@"', raw)
    return text


@functools.cache
def _published(paths: tuple[Path, ...]) -> list[dict[str, Any]]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in paths]


@settings(max_examples=300)
@given(data=st.data())
def test_property_any_mutated_published_scenario_is_resolved_or_refused_in_one_line(
    example_scenarios: list[Path], data: st.DataObject,
) -> None:
    """The published examples (examples/scenarios) with values or keys replaced by extreme ones:
    an outcome, or a one-line refusal that starts with a field; never a traceback."""
    text = _mutate(data, data.draw(st.sampled_from(_published(tuple(example_scenarios)))))
    code, out, err = in_process(text)
    if code == 0:
        assert_resolved(code, out, err)
        return
    line = assert_refused(code, out, err, None)  # one line; the field is checked next
    assert re.match(rf"({'|'.join(FIELDS)})[\\[.:]", line), line[:300]
