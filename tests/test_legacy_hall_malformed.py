"""Malformed campaign commands (review 8, finding 3): JSON of every type in every field of every
command, and in every field of a catalog entry, is refused with a RuleError that names the
field, never another exception (a list or an object used as a key was a TypeError and a 500);
through the API the refusal is a 4xx with its code, and nothing changes."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_legacy_builders import COMMUNITY, ESTABLISHMENTS, GROUP, LANDMARKS, new_campaign, run

from companion.rules.errors import RuleError
from companion.rules.legacy import campaign as cp
from companion.rules.legacy import series
from companion.rules.legacy.campaign_commands import RecordGame, RollForStart, StartGame
from companion.rules.legacy.catalog import parse_entry, with_entry, with_replaced
from companion.rules.legacy.ruleset import LEGACY
from companion.web import create_app

ODD = [None, True, False, 0, 1, -1, 10**30, 1.5, "", "x", "add_entry", "landmarks", [], {},
       [1], [[1, 2]], ["x"], {"a": 1}, {"id": "smithy"}, [[]], [{}]]
"""A JSON value of every type (and some that are almost right)."""
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)
COMMANDS = {"add_entry": ("kind", "entry"), "replace_entry": ("kind", "entry"),
            "set_status": ("card", "status"), "set_picks": ("seat", "picks"),
            "roll_for_start": ("dice",), "record_game": ("number", "winner", "date"),
            "tick_step": ("number", "step"), "start_game": ("landmarks", "community",
                                                           "town_square", "slot_costs")}
GOOD = {"kind": "landmarks", "entry": copy.deepcopy(LANDMARKS[3]), "card": "cafe",
        "status": "reserve", "seat": 0, "picks": 1, "dice": [[6, 6], [1, 1], [1, 2]],
        "number": 1, "winner": 0, "date": "2026-11-24", "step": 2}
"""A value each field takes (so a command reaches the field that is odd)."""


def campaigns() -> list[cp.Campaign]:
    """A campaign at each point a command is judged differently: new, its first start player
    rolled, its first game started, that game recorded."""
    new, facts = new_campaign()
    rolled, facts = run(new, facts, RollForStart([[6, 6], [1, 1], [1, 2]]))
    started, facts = run(rolled, facts, StartGame())
    recorded, _ = run(started, facts, RecordGame(1, 0, "2026-11-24"))
    return [new, rolled, started, recorded]


CAMPAIGNS = campaigns()


def refused_or_applied(campaign: cp.Campaign, wire: Any) -> None:
    """The command is refused with a RuleError, or its facts apply (evolve never fails)."""
    try:
        facts = LEGACY.series_decide(campaign, wire, (), "2026-11-24")
    except RuleError as error:
        assert error.code and error.message, wire
        return
    LEGACY.series_evolve(campaign, facts)


@pytest.mark.parametrize("command", [*COMMANDS, *ODD])
def test_malformed_every_field_of_every_command_is_refused(command: Any) -> None:
    fields = COMMANDS.get(command, ("kind",)) if isinstance(command, str) else ("kind",)
    for campaign in CAMPAIGNS:
        refused_or_applied(campaign, {"command": command})
        for field in fields:
            for value in ODD:
                good = {name: copy.deepcopy(GOOD.get(name)) for name in fields}
                refused_or_applied(campaign, {"command": command, **good, field: value})
                refused_or_applied(campaign, {"command": command, field: value})
            refused_or_applied(campaign, {"command": command, field: GOOD.get(field), "x": 1})


@pytest.mark.parametrize("wire", [*ODD, {"command": []}, {"command": {}},
                                  {"command": "add_entry", "kind": []},
                                  {"command": "add_entry", "kind": {}},
                                  {"command": "replace_entry", "kind": [], "entry": {"id": "x"}}])
def test_malformed_commands_name_the_field(wire: Any) -> None:
    for campaign in CAMPAIGNS:
        with pytest.raises(RuleError) as refused:
            LEGACY.series_decide(campaign, wire, (), "2026-11-24")
        named = wire.get("command") if isinstance(wire, dict) else None
        field = "kind" if isinstance(named, str) and named in COMMANDS else "command"
        assert refused.value.message.startswith(f"{field}:"), refused.value.message
        assert refused.value.code in ("move/invalid", "rule/bad_catalog")


@pytest.mark.parametrize("kind", [None, 1, [], {}, ["landmarks"], {"landmarks": 1}, "cards"])
def test_malformed_catalog_kind_is_refused(kind: Any) -> None:
    catalog = CAMPAIGNS[0].catalog
    for edit in (lambda: parse_entry(kind, LANDMARKS[0], 0),
                 lambda: with_entry(catalog, kind, LANDMARKS[3]),
                 lambda: with_replaced(catalog, kind, LANDMARKS[0])):
        with pytest.raises(RuleError) as refused:
            edit()
        assert refused.value.code == "rule/bad_catalog"
        assert refused.value.message.startswith("kind: one of establishments, landmarks, community")


def entries() -> list[tuple[str, dict[str, Any]]]:
    return [("establishments", entry) for entry in ESTABLISHMENTS[:3] + ESTABLISHMENTS[9:12]] + [
        ("landmarks", entry) for entry in LANDMARKS[:2]] + [("community", e) for e in COMMUNITY]


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: its keys and list indexes, nested."""
    found = [path] if path else []
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, inner in items:
        found += paths(inner, (*path, key))
    return found


def put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    changed = copy.deepcopy(value)
    place = changed
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = new
    return changed


@pytest.mark.parametrize(("kind", "entry"), entries())
def test_malformed_every_field_of_an_entry_is_refused(kind: str, entry: dict[str, Any]) -> None:
    campaign = CAMPAIGNS[0]
    for path in paths(entry):
        for value in ODD:
            changed = put(entry, path, value)
            new = put(changed, ("id",), "new_card") if path[0] != "id" else changed
            if kind == "landmarks" and path[0] != "letter":
                new["letter"] = "Z"
            refused_or_applied(campaign, {"command": "add_entry", "kind": kind, "entry": new})
            refused_or_applied(campaign, {"command": "replace_entry", "kind": kind,
                                          "entry": changed})


@given(command=st.sampled_from([*COMMANDS, "fly"]), fields=st.dictionaries(
    st.sampled_from(["kind", "entry", "card", "status", "seat", "picks", "dice", "number",
                     "winner", "date", "step", "landmarks", "community", "x"]), JSON, max_size=4),
    at=st.integers(0, len(CAMPAIGNS) - 1))
def test_malformed_random_json_is_refused(command: str, fields: dict[str, Any], at: int) -> None:
    refused_or_applied(CAMPAIGNS[at], {"command": command, **fields})
    refused_or_applied(CAMPAIGNS[at], fields)


@given(setup=st.dictionaries(st.sampled_from(series.NEXT_FIELDS), JSON, max_size=4))
def test_malformed_next_game_set_up_is_refused(setup: dict[str, Any]) -> None:
    try:
        facts = LEGACY.series_next(CAMPAIGNS[1], setup)
    except RuleError:
        return
    LEGACY.series_table(LEGACY.series_evolve(CAMPAIGNS[1], facts))


@pytest.mark.parametrize(("wire", "code"), [
    ({"command": []}, "move/invalid"), ({"command": {}}, "move/invalid"),
    ({"command": "add_entry", "kind": [], "entry": {}}, "rule/bad_catalog"),
    ({"command": "add_entry", "kind": {}}, "rule/bad_catalog"),
    ({"command": "replace_entry", "kind": ["landmarks"], "entry": {"id": "smithy"}},
     "rule/bad_catalog"),
    ({"command": "set_status", "card": [], "status": {}}, "rule/bad_catalog"),
])
def test_malformed_command_through_the_api_is_a_4xx(tmp_path: Any, wire: dict[str, Any],
                                                    code: str) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "api.db")})
    client = app.test_client()
    headers = {"Authorization": f"Bearer {app.extensions['hall'].organizer_key}"}
    event = client.post("/api/events", json={"name": "Home"}, headers=headers).get_json()
    created = client.post(f"/api/events/{event['id']}/series", headers=headers, json={
        "ruleset": "legacy", "name": "Our island", "mayors": GROUP}).get_json()
    base = f"/api/series/{created['id']}"
    answer = client.post(f"{base}/commands", json=wire, headers=headers)
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["code"] == code
    assert client.get(base, headers=headers).get_json() == created
    app.extensions["hall"].journal.close()  # Python 3.13 warns of a connection left open
