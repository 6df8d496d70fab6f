"""The hall service: events, tables, seats and tokens; every action takes one path:
decide, commit to the journal, evolve, publish."""

from companion.hall.service import HallError, HallService

__all__ = ["HallError", "HallService"]
