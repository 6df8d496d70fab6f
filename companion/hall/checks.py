"""What the hall refuses and why: `HallError`, the phone's refusal answer, and the checks of
the organizer's input, made before the lock is taken so a refusal changes nothing."""

from __future__ import annotations

import json
from typing import Any

from companion.rules import rulesets
from companion.rules.catalog import Catalog
from companion.rules.errors import RuleError, is_whole_number

RULESETS = tuple(rulesets.REGISTRY)
ROLL_MODES = ("hall", "own")
DICE_MODES = ("random", "balanced")
NAME_LIMIT = 40


class HallError(Exception):
    """An action the hall refuses; `code` is stable, `status` the HTTP status it maps to."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def refusal(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "code": code, "message": message}


def invalid(message: str) -> HallError:
    """A malformed request (HTTP 400)."""
    return HallError("request/invalid", message, 400)


def unicode_only(data: Any) -> Any:
    """The request's data, refused if any text in it is not Unicode: JSON may carry a lone
    surrogate ("\\ud800"), which no UTF-8 journal or page can hold."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise HallError("request/malformed",
                        "the request holds text that is not valid Unicode (a lone surrogate)",
                        400) from None
    return data


def clean_name(name: Any, what: str = "name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise invalid(f"a {what} is required")
    cleaned = " ".join(name.split())
    if len(cleaned) > NAME_LIMIT:
        raise invalid(f"a {what} has at most {NAME_LIMIT} characters")
    return cleaned


def dice_mode(mode: Any) -> str:
    if mode not in DICE_MODES:
        raise invalid("dice_mode is random or balanced")
    return str(mode)


def hall_dice(dice: Any) -> tuple[int, int] | None:
    """Dice rolled by hand in the hall, `[d1, d2]`; None when the server draws them."""
    if dice is None:
        return None
    if not (isinstance(dice, list | tuple) and len(dice) == 2
            and all(is_whole_number(d) and 1 <= d <= 6 for d in dice)):
        raise invalid("dice are two numbers from 1 to 6")
    return int(dice[0]), int(dice[1])


def event_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The `settings` record of an event's changed dice mode and choice window."""
    data: dict[str, Any] = {}
    if "dice_mode" in settings:
        data["dice_mode"] = dice_mode(settings["dice_mode"])
    if "choice_seconds" in settings:
        seconds = settings["choice_seconds"]
        if not is_whole_number(seconds) or not 5 <= seconds <= 600:
            raise invalid("choice_seconds is 5 to 600")
        data["choice_seconds"] = seconds
    if not data:
        raise invalid("nothing to change: dice_mode, choice_seconds")
    return data


def table_request(ruleset: Any, roll_mode: Any, players: Any) -> tuple[rulesets.Ruleset, list[str]]:
    """New tables' ruleset and cleaned player names, with their roll mode checked: one set of
    checks for a table made by hand and for tables seated from a pasted list."""
    if ruleset not in RULESETS:
        raise invalid(f"ruleset is one of {', '.join(RULESETS)}")
    if roll_mode not in ROLL_MODES:
        raise invalid("roll_mode is hall or own")
    if not isinstance(players, list):
        raise invalid("players is a list of names")
    return rulesets.ruleset(ruleset), [clean_name(player, "player name") for player in players]


def table_options(rules: rulesets.Ruleset, options: Any) -> dict[str, Any]:
    """A table's set-up options (the co-op game's `assessor_coins`), checked by its ruleset."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise invalid("options is an object")
    try:
        return rules.options(options)
    except RuleError as error:
        raise invalid(error.message) from None


def player_count(rules: rulesets.Ruleset, catalog: Catalog, ruleset: str, names: list[str]) -> None:
    """Refuse a table of more or fewer players than its ruleset seats."""
    low, high = rules.seats(catalog)
    if not low <= len(names) <= high:
        seats = f"{low} to {high}" if low != high else f"exactly {low}"
        raise invalid(f"a {ruleset} table seats {seats} players")


def table_size(rules: rulesets.Ruleset, catalog: Catalog, size: Any) -> int:
    """The most players at one table of a pasted list: `size` (by default, and at most, what
    the ruleset seats)."""
    low, high = rules.seats(catalog)
    size = high if size is None else size
    if not is_whole_number(size) or not low <= size <= catalog.players_max:
        raise invalid(f"table_size is {low} to {catalog.players_max}")
    return min(int(size), high)


def seat_number(seats: int, seat: Any) -> int:
    """`seat` as the index of one of a table's `seats` seats."""
    if not is_whole_number(seat) or not 0 <= seat < seats:
        raise invalid(f"there is no seat {seat!r} at this table")
    return int(seat)
