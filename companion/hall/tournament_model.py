"""A tournament as memory holds it (RULES.md 25-29): its players, the seating planned for the
preliminary rounds not played yet, the rounds played, and what follows from them (the
standings, the stage, what the organizer may start next). Pure: no hall, no journal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.hall.checks import HallError
from companion.tournament.scoring import Standing, TableResult, cut_count, standings

PRELIMINARY, SEMI_FINAL, FINAL = "preliminary", "semi-final", "final"


def stream_of(event_id: str) -> str:
    return f"tournament:{event_id}"


def refuse(code: str, message: str) -> HallError:
    """A refusal of a tournament's action, `tournament/CODE`, saying what to change."""
    return HallError(f"tournament/{code}", " ".join(message.split()))


@dataclass
class Player:
    id: int  # registration order, from 0: the seating's player id
    name: str
    token: str  # the player token: one for the whole tournament
    checked_in: bool = True
    dropped: bool = False
    late: bool = False  # arrived after the start

    @property
    def join_path(self) -> str:
        return f"/t/{self.token}"


@dataclass
class Round:
    number: int  # 1, 2, ...: the preliminaries, then a semi-final round, then the final
    stage: str  # PRELIMINARY, SEMI_FINAL or FINAL
    seating: tuple[tuple[int, ...], ...]  # player ids per table, in start order
    tables: list[str]  # the hall's table ids, one per seating table
    started_at: float
    results: tuple[TableResult, ...] | None = None  # set when the round closes

    @property
    def open(self) -> bool:
        return self.results is None


@dataclass(frozen=True)
class Draw:
    """The server's draw among the players equal at the cut (RULES.md 28): the `tied`, the
    `seats` left for them of `count` (the `sure` being above them), and the drawn `order`
    (the first `seats` play on)."""

    count: int
    sure: tuple[int, ...]
    tied: tuple[int, ...]
    seats: int
    order: tuple[int, ...]


@dataclass
class Tournament:
    event_id: str
    rounds: int
    ruleset: str
    options: dict[str, Any]
    roll_mode: str
    round_minutes: int | None
    players: list[Player]
    keep_apart: list[list[int]]
    seed: int
    plan: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)  # unplayed preliminaries
    played: list[Round] = field(default_factory=list)
    started: bool = False
    draw: Draw | None = None  # the draw at the cut, once the server has drawn
    seq: int = 0

    @property
    def stream(self) -> str:
        return stream_of(self.event_id)

    def player(self, player_id: Any) -> Player:
        if not (isinstance(player_id, int) and not isinstance(player_id, bool)
                and 0 <= player_id < len(self.players)):
            raise HallError("tournament/unknown_player", f"there is no player {player_id!r}")
        return self.players[player_id]

    def by_token(self, token: str) -> Player | None:
        return next((p for p in self.players if p.token == token), None)

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    @property
    def open_round(self) -> Round | None:
        current = self.current
        return current if current is not None and current.open else None

    def preliminaries(self) -> list[Round]:
        return [r for r in self.played if r.stage == PRELIMINARY]

    def remaining(self) -> int:
        """Preliminary rounds not started yet."""
        return self.rounds - len(self.preliminaries())

    def present(self) -> list[int]:
        return [p.id for p in self.players if p.checked_in and not p.dropped]

    def absent(self) -> set[int]:
        return {p.id for p in self.players if p.dropped or not p.checked_in}

    def standing(self) -> tuple[Standing, ...]:
        """The standings over the closed preliminary rounds (RULES.md 27); every player who
        has played or is present, dropped players included (they keep their line)."""
        results = [result for r in self.preliminaries() if r.results for result in r.results]
        seated = {p for r in self.played for table in r.seating for p in table}
        players = [p.id for p in self.players if p.id in seated or (p.checked_in and not p.dropped)]
        return standings(results, players)

    def drawn(self) -> tuple[int, ...]:
        """The draw's order for the pure seeding (empty when nothing was drawn)."""
        return self.draw.order if self.draw is not None else ()

    def semi_results(self) -> list[TableResult]:
        return [result for r in self.played if r.stage == SEMI_FINAL and r.results
                for result in r.results]

    def stage(self) -> str:
        """registration, preliminaries, semi-final, final or done."""
        if not self.started:
            return "registration"
        current = self.current
        if current is not None and current.stage == FINAL:
            return "final" if current.open else "done"
        if current is not None and current.stage == SEMI_FINAL:
            return SEMI_FINAL
        return "preliminaries"

    def next_stage(self) -> str | None:
        """What the organizer may start next: a preliminary round, the semi-finals, the
        final, or nothing (a round is open, or the final is over)."""
        if not self.started or self.open_round is not None:
            return None
        if len(self.preliminaries()) < self.rounds:
            return PRELIMINARY
        stages = [r.stage for r in self.played]
        if FINAL in stages:
            return None
        if SEMI_FINAL not in stages and cut_count(self.standing()) == 16:
            return SEMI_FINAL
        return FINAL
