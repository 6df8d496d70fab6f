"""The hall service: events, tables, seats and tokens; every action takes one path:
decide, commit to the journal, evolve, publish."""

from companion.hall.checks import HallError
from companion.hall.service import HallService

__all__ = ["HallError", "HallService"]
