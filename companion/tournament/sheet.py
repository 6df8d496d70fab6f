"""A table's score sheet (RULES.md 29): event, round, table, the players in start order, then
each player's place, landmarks, coins and points and a signature line. Once every player has
signed, the result stands: a correction is refused. A correction before that voids the
signatures given, since they were given to another result."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from companion.tournament.errors import BadResult, ResultStands
from companion.tournament.scoring import TableResult, place


@dataclass(frozen=True)
class SheetLine:
    """One player's line, in start order; the numbers are None until a result is written."""

    player: int
    place: int | None
    landmarks: int | None
    coins: int | None
    points: Fraction | None
    signed: bool


@dataclass(frozen=True)
class ScoreSheet:
    """The sheet of one table of one round; `round` counts on after the preliminaries
    (the semi-finals, then the final)."""

    event: str
    round: int
    table: int
    players: tuple[int, ...]
    result: TableResult | None = None
    signed: frozenset[int] = frozenset()

    def lines(self) -> tuple[SheetLine, ...]:
        """The lines in start order."""
        placings = {p.player: p for p in place(self.result)} if self.result else {}
        lines = []
        for player in self.players:
            signed = player in self.signed
            if (placing := placings.get(player)) is None:
                lines.append(SheetLine(player, None, None, None, None, signed))
            else:
                lines.append(SheetLine(player, placing.place, placing.landmarks, placing.coins,
                                       placing.points, signed))
        return tuple(lines)

    def stands(self) -> bool:
        """Whether every player has signed the result, which then stands."""
        return self.result is not None and self.signed == frozenset(self.players)


def write_result(sheet: ScoreSheet, result: TableResult) -> ScoreSheet:
    """The sheet with this result (a first one or a correction) and no signatures; refused
    when the result stands, or for players who are not the table's."""
    if sheet.stands():
        raise ResultStands(f"table {sheet.table} of round {sheet.round}: every player signed, "
                           "the result stands")
    players = sorted(score.player for score in result.scores)
    if players != sorted(sheet.players):
        raise BadResult(f"scores: players {players}; the table's are {sorted(sheet.players)}")
    place(result)  # refuses a result that cannot be scored
    return replace(sheet, result=result, signed=frozenset())


def sign(sheet: ScoreSheet, player: int) -> ScoreSheet:
    """The sheet signed by `player`; refused before a result is written or for a player not
    at the table."""
    if sheet.result is None:
        raise BadResult(f"sign: table {sheet.table} of round {sheet.round} has no result to sign yet")
    if player not in sheet.players:
        raise BadResult(f"sign: player {player!r} did not play at table {sheet.table}")
    return replace(sheet, signed=sheet.signed | {player})
