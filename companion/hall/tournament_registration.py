"""The organizer's input to a tournament, checked before anything is written (RULES.md 25):
the pasted list of players, the keep-apart groups, whether a count of players can be seated,
and the settings (rounds, a ruleset whose tables seat 3 and 4, its options, the roll mode and
the round time). Each refusal is a `tournament/...` code with a message that says what to
change."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from companion.hall import checks
from companion.hall.checks import HallError, clean_name
from companion.hall.tournament_model import refuse
from companion.rules import registry as rules_registry
from companion.rules.ruleset import needs_series
from companion.tournament.errors import TournamentError
from companion.tournament.seating import table_sizes

DEFAULT_ROUNDS = 3
MAX_ROUNDS = 10
ROUND_MINUTES = (5, 300)
MAX_PLAYERS = 2_000
TABLE_SIZES = (3, 4)  # the seating's tables (tournament/seating.py): a ruleset must seat both


def name_key(name: str) -> str:
    """A name as names are compared: Unicode-normalised, any case."""
    return unicodedata.normalize("NFKC", name).casefold()


def player_names(value: Any) -> list[str]:
    """A pasted list (text, one name a line; or a list of names), cleaned; blank lines go."""
    if isinstance(value, str):
        lines = [line for line in value.splitlines() if line.strip()]
    elif isinstance(value, list):
        lines = value
    else:
        raise refuse("invalid", "players is the pasted list of names, one a line (or a list)")
    names = []
    for line in lines:
        try:
            names.append(clean_name(line, "player name"))
        except HallError as error:
            raise refuse("invalid", f"players: {error.message} (line {len(names) + 1})") from None
    if len(names) > MAX_PLAYERS:
        raise refuse("invalid", f"players: {len(names)} names; a tournament takes at most {MAX_PLAYERS}")
    return names


def no_duplicates(names: Sequence[str], known: Sequence[str] = ()) -> None:
    seen = {name_key(name): i for i, name in enumerate(known)}
    for number, name in enumerate(names, start=1):
        if name_key(name) in seen:
            raise refuse("duplicate_name",
                         f"players: {name!r} is listed twice; add an initial or a surname to "
                         "one of them so every player has a name of their own")
        seen[name_key(name)] = number


def keep_apart_groups(value: Any, names: Sequence[str]) -> list[list[int]]:
    """Groups of names (text: one group a line, names separated by commas; or lists of names)
    as lists of player ids. A player in two groups is refused: the seating keeps each group
    apart, and a player cannot be dealt apart from two groups at once."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        groups: Any = [line.split(",") for line in value.splitlines() if line.strip()]
    elif isinstance(value, list) and all(isinstance(g, list) for g in value):
        groups = value
    else:
        raise refuse("invalid", "keep_apart is a list of groups of names (a line each, names "
                     "separated by commas)")
    ids = {name_key(name): i for i, name in enumerate(names)}
    found: list[list[int]] = []
    grouped: dict[int, int] = {}  # player -> the line of their group
    for line, group in enumerate(groups, start=1):
        members: list[int] = []
        for name in group:
            if not isinstance(name, str) or not name.strip():
                continue
            player = ids.get(name_key(" ".join(name.split())))
            if player is None:
                raise refuse("keep_apart", f"keep_apart: {name.strip()!r} is not on the list of "
                              "players; write the name as it is on the list")
            if player in members:
                continue  # listed twice in one group: once is enough
            if player in grouped:
                raise refuse("keep_apart", f"keep_apart: {names[player]!r} is in two groups "
                              f"(lines {grouped[player]} and {line}); list each player in one "
                              "group only, or merge the two lines into one group")
            members.append(player)
        if len(members) > 1:
            for player in members:
                grouped[player] = line
            found.append(members)
    return found


def check_seating(count: int, groups: Sequence[Sequence[int]], names: Sequence[str]) -> None:
    """Refuse a count of players that cannot be seated, or a keep-apart group larger than the
    number of tables (RULES.md 25), saying what to change."""
    try:
        tables = len(table_sizes(count))
    except TournamentError as error:
        raise refuse("cannot_seat", f"{count} players cannot be seated at tables of 4 and 3: "
                     + ("add or remove one player" if count == 5
                        else f"add {3 - count} more") + f" ({error.message})") from None
    for group in groups:
        if len(group) > tables:
            listed = ", ".join(names[p] for p in group)
            raise refuse("keep_apart", f"keep_apart: the group {listed} has {len(group)} "
                         f"players but there are only {tables} tables; split the group into "
                         f"groups of at most {tables}")


def seats_tables(ruleset: str, options: dict[str, Any]) -> bool:
    """Whether a table of the ruleset, with these options, seats 3 and 4 players."""
    rules = rules_registry.ruleset(ruleset)
    seats = rules.seats(rules.table_setup(options), options)
    return seats.least <= min(TABLE_SIZES) and max(TABLE_SIZES) <= seats.most


def check_ruleset(ruleset: str, options: dict[str, Any]) -> None:
    """Refuse a ruleset whose tables cannot take the seating's tables of 3 and 4 (the co-op
    game seats exactly 2): its rounds could never start."""
    if seats_tables(ruleset, options):
        return
    rules = rules_registry.ruleset(ruleset)
    seats = rules.seats(rules.table_setup(options), options)
    fitting = [name for name in checks.RULESETS if seats_tables(name, {})]
    counted = (f"exactly {seats.least}" if seats.least == seats.most
               else f"{seats.least} to {seats.most}")
    raise refuse("invalid", f"ruleset {ruleset!r} seats {counted} players a table, but a "
                 f"tournament seats tables of 3 and 4; it cannot be a tournament's ruleset: "
                 f"choose {' or '.join(fitting) or 'another'}")


def settings(data: dict[str, Any]) -> dict[str, Any]:
    rounds = data.get("rounds", DEFAULT_ROUNDS)
    if not (isinstance(rounds, int) and not isinstance(rounds, bool) and 1 <= rounds <= MAX_ROUNDS):
        raise refuse("invalid", f"rounds is the number of preliminary rounds, 1 to {MAX_ROUNDS}")
    ruleset = data.get("ruleset", "machi-koro")
    if ruleset not in checks.RULESETS:
        raise refuse("invalid", f"ruleset is one of {', '.join(checks.RULESETS)}")
    rules = rules_registry.ruleset(ruleset)
    if needs_series(rules):  # its games belong to their series (a Legacy campaign's register)
        raise refuse("invalid", f"a {ruleset} game is played in its series, not in a tournament")
    try:
        options = checks.table_options(rules, data.get("options"))
    except HallError as error:
        raise refuse("invalid", error.message) from None
    check_ruleset(ruleset, options)
    roll_mode = data.get("roll_mode", "own")
    if roll_mode not in checks.ROLL_MODES:
        raise refuse("invalid", "roll_mode is hall or own")
    minutes = data.get("round_minutes")
    low, high = ROUND_MINUTES
    if minutes is not None and not (isinstance(minutes, int) and not isinstance(minutes, bool)
                                    and low <= minutes <= high):
        raise refuse("invalid", f"round_minutes is a whole number from {low} to {high}, or null "
                     "for rounds without a time")
    return {"rounds": rounds, "ruleset": ruleset, "options": options, "roll_mode": roll_mode,
            "round_minutes": minutes}
