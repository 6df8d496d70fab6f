"""What the hall refuses and why: `HallError`, the phone's refusal answer, and the checks of
the organizer's input, made before the lock is taken so a refusal changes nothing.

A malformed request's detail is a `Detail`: an English message id marked with `N_` (the
catalogs' test finds it) and the values it names. The web layer says it in the request's
language; the hall stays free of Flask, and `HallError.message` is the English for logs and
the command line."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.rules import registry
from companion.rules.errors import RuleError, is_whole_number
from companion.rules.registry import AnyRuleset
from companion.rules.ruleset import CardSets, base_only

RULESETS = registry.names()
ROLL_MODES = ("hall", "own")
DICE_MODES = ("random", "balanced")
NAME_LIMIT = 40
CHOICE_SECONDS = (5, 600)


def N_(message: str) -> str:
    """Mark an English message id for the catalogs (gettext's name for a marker); it is
    translated where it is shown."""
    return message


@dataclass(frozen=True)
class Detail:
    """A message id with `{name}` placeholders and their values; a value that is a Detail is
    said in the same language (a ruleset's name)."""

    message: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def say(self, translate: Callable[[str], str] = N_) -> str:
        """The message with its values, each message id passed through `translate` (by
        default none: English)."""
        if not self.params:
            return translate(self.message)
        values = {name: value.say(translate) if isinstance(value, Detail) else value
                  for name, value in self.params.items()}
        try:
            return translate(self.message).format_map(values)
        except (KeyError, IndexError, ValueError):  # a broken translation: English, never a 500
            return self.message.format_map(values)

    def __str__(self) -> str:
        return self.say()


RULESET_NAMES = {name: Detail(registry.ruleset(name).title) for name in RULESETS}


def ruleset_name(ruleset: str) -> Detail | str:
    return RULESET_NAMES.get(ruleset, ruleset)


class HallError(Exception):
    """An action the hall refuses: `code` is stable (the web edge picks the HTTP status from
    it, `web/errors.status_of`), `detail` the message for the web layer to translate (None:
    `message` is only English)."""

    def __init__(self, code: str, message: str | Detail, bad_input: bool = False) -> None:
        super().__init__(str(message))
        self.code, self.message = code, str(message)
        self.detail = message if isinstance(message, Detail) else None
        self.bad_input = bad_input  # the rules' word on a game's own code (RuleError)


def rules_refusal(error: RuleError) -> HallError:
    """The hall's refusal for the rules' one: the same code and message."""
    return HallError(error.code, error.message, error.bad_input)


def refusal(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "code": code, "message": message}


def invalid(message: str | Detail, **params: Any) -> HallError:
    """A request the hall cannot take (HTTP 400): `message` is a message id, `params` its values."""
    return HallError("request/invalid", as_detail(message, params))


def malformed(message: str, **params: Any) -> HallError:
    """A request that is not even well formed (HTTP 400)."""
    return HallError("request/malformed", as_detail(message, params))


def as_detail(message: str | Detail, params: Mapping[str, Any]) -> Detail:
    return message if isinstance(message, Detail) else Detail(message, params)


def unicode_only(data: Any) -> Any:
    """The request's data, refused if any text in it is not Unicode: JSON may carry a lone
    surrogate ("\\ud800"), which no UTF-8 journal or page can hold."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise malformed("the request holds text that is not valid Unicode (a lone surrogate)") from None
    except RecursionError:  # nested about as deep as the decoder takes: deeper than any request
        raise malformed("the request is nested too deep") from None
    return data


NameKind = Literal["event name", "table name", "player name"]
NAME_MESSAGES: dict[NameKind, tuple[str, str]] = {  # (missing, too long), whole sentences to translate
    "event name": (N_("an event name is required"),
                   N_("an event name has at most {limit} characters")),
    "table name": (N_("a table name is required"),
                   N_("a table name has at most {limit} characters")),
    "player name": (N_("a player name is required"),
                    N_("a player name has at most {limit} characters")),
}


# Characters a name never needs and a screen must not get: bidi embeddings, overrides and
# isolates (a name could turn the text after it around); control characters go too (below).
BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def clean_name(name: Any, what: NameKind) -> str:
    """A name as the screens and printouts show it: one space between words, no control or
    bidi-control characters (a pasted list may hold a NUL or a right-to-left override), and
    something to see (not only zero-width format characters such as U+200B)."""
    missing, too_long = NAME_MESSAGES[what]
    if not isinstance(name, str):
        raise invalid(missing)
    visible = "".join(" " if unicodedata.category(ch) == "Cc" else ch
                      for ch in name.translate(BIDI_CONTROLS))
    cleaned = " ".join(visible.split())
    if all(ch == " " or unicodedata.category(ch) == "Cf" for ch in cleaned):
        raise invalid(missing)
    if len(cleaned) > NAME_LIMIT:
        raise invalid(too_long, limit=NAME_LIMIT)
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
        seconds, (low, high) = settings["choice_seconds"], CHOICE_SECONDS
        if not is_whole_number(seconds) or not low <= seconds <= high:
            raise invalid("choice_seconds is {low} to {high}", low=low, high=high)
        data["choice_seconds"] = seconds
    if "seat_auto_roll" in settings:
        if not isinstance(settings["seat_auto_roll"], bool):
            raise invalid("seat_auto_roll is true or false")
        data["seat_auto_roll"] = settings["seat_auto_roll"]
    if not data:
        raise invalid("nothing to change: send {fields}", fields="dice_mode, choice_seconds")
    return data


def table_request(ruleset: Any, roll_mode: Any, players: Any) -> tuple[AnyRuleset, list[str]]:
    """New tables' ruleset and cleaned player names, with their roll mode checked: one set of
    checks for a table made by hand and for tables seated from a pasted list."""
    if ruleset not in RULESETS:
        raise invalid("ruleset is one of {rulesets}", rulesets=", ".join(RULESETS))
    if roll_mode not in ROLL_MODES:
        raise invalid("roll_mode is hall or own")
    if not isinstance(players, list):
        raise invalid("players is a list of names")
    return registry.ruleset(ruleset), [clean_name(player, "player name") for player in players]


def card_sets(value: Any) -> tuple[str, ...]:
    """The card sets a new table plays (the base set when none are named), each one the
    table's ruleset has (`table_setup` says): a list of set names."""
    if value is None:
        return ("base",)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise invalid("card_sets is a list of card set names")
    return tuple(value)


def table_setup(rules: AnyRuleset, options: Mapping[str, Any], card_sets: tuple[str, ...]) -> Any:
    """The set-up a new table of `rules` with these options and card sets has
    (`Ruleset.table_setup`: a Machi Koro table's catalog); the rules' refusal (a card set it
    lacks) in their English. A game without card sets (`CardSets`) refuses any but the base
    one here, at creation: its set-up ignores them, so a table stored by 0.2.0 (which took
    them for any table) still replays."""
    try:
        if not isinstance(rules, CardSets):
            base_only(rules, card_sets)
        return rules.table_setup(options, card_sets)
    except RuleError as error:
        raise invalid(Detail(error.message)) from None


def largest_table() -> int:
    """The most seats a table of any ruleset has with its base cards: a pasted list's
    `table_size` may name it for a ruleset that seats fewer (and is cut to that ruleset's)."""
    sizes = [registry.ruleset(name) for name in RULESETS]
    return max(rules.seats(rules.table_setup({}), {}).most for rules in sizes)


def table_options(rules: AnyRuleset, options: Any) -> dict[str, Any]:
    """A table's set-up options (the co-op game's `assessor_coins`), checked by its ruleset;
    the rules' refusals, English only, are said here in words the web layer translates."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise invalid("options is an object")
    try:
        return rules.check_options(options)
    except registry.BadOptions:
        raise invalid("a {ruleset} table takes no option {options}", ruleset=ruleset_name(rules.name),
                      options=", ".join(unknown_options(rules, options))) from None
    except RuleError as error:
        spec = next((s for s in rules.option_specs() if s.kind == "int" and s.name in options
                     and not s.accepts(options[s.name])), None)
        if spec is not None:  # said in words the web layer translates
            raise invalid("{option} is a whole number from {low} to {high}", option=spec.name,
                          low=spec.minimum, high=spec.maximum) from None
        raise invalid(Detail(error.message)) from None  # a ruleset's own refusal: its English


def unknown_options(rules: AnyRuleset, options: dict[str, Any]) -> list[str]:
    """The options the ruleset does not know, each tried alone (a known option with a bad
    value is refused otherwise)."""
    unknown = []
    for name in sorted(options):
        try:
            rules.check_options({name: options[name]})
        except registry.BadOptions:
            unknown.append(name)
        except RuleError:
            pass
    return unknown or sorted(options)


def player_count(rules: AnyRuleset, setup: Any, options: Mapping[str, Any], ruleset: str,
                 names: list[str]) -> None:
    """Refuse a table of more or fewer players than its ruleset seats."""
    seats = rules.seats(setup, options)
    low, high = seats.least, seats.most
    if not low <= len(names) <= high:
        if low == high:
            raise invalid("a {ruleset} table seats exactly {count} players",
                          ruleset=ruleset_name(ruleset), count=low)
        raise invalid("a {ruleset} table seats {low} to {high} players",
                      ruleset=ruleset_name(ruleset), low=low, high=high)


def table_size(rules: AnyRuleset, setup: Any, size: Any) -> int:
    """The most players at one table of a pasted list: `size` (by default, and at most, what
    the ruleset seats with the table's set-up, `setup`)."""
    seats = rules.seats(setup, {})
    low, high = seats.least, seats.most
    most = max(high, largest_table())
    size = high if size is None else size
    if not is_whole_number(size) or not low <= size <= most:
        raise invalid("table_size is {low} to {high}", low=low, high=most)
    return min(int(size), high)


def seat_number(seats: int, seat: Any) -> int:
    """`seat` as the index of one of a table's `seats` seats."""
    if not is_whole_number(seat) or not 0 <= seat < seats:
        raise invalid("there is no seat {seat} at this table", seat=repr(seat))
    return int(seat)
