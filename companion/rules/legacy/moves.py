"""The Legacy move beside the base game's (machi_koro/moves.py): building a landmark is the
base game's `Build` with the landmark's id."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.machi_koro.moves import Move


@dataclass(frozen=True, slots=True)
class Contribute:
    """Pay the community landmark's cost for its bonus: the turn's one action, once a game."""


LegacyMove = Move | Contribute
