"""Why a tournament input is refused: one class per stable code, a one-line message that
names the offending value and says what to change."""

from __future__ import annotations

from companion.rules.errors import RuleError


class TournamentError(RuleError):
    code = "tournament/invalid"

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class CannotSeat(TournamentError):
    """Too few players, five without tables of 2, no rounds, or a keep-apart group that
    cannot be kept apart (RULES.md 25)."""

    code = "tournament/cannot_seat"


class BadResult(TournamentError):
    """A table's result that cannot be scored: an unknown or repeated player, a negative
    count, a finisher who did not play at the table (RULES.md 26)."""

    code = "tournament/bad_result"

