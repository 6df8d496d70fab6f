"""The `table` message: a table's change, made once for every phone at the table (docs/api.md).

A table's *frame* is what all its seat views hold: the common part (`views.common_part`) and
each seat's own part (`views.seat_part`), at the table's seq. A phone keeps its seat view; the
`table` message carries the patch from the frame at `base` (the seq of the last frame this
process sent) to the frame at `seq`: the common part's patch and every seat's, so one message,
its JSON made once, serves the whole table. A phone whose view is at `base` applies the common
patch and its own seat's and has exactly the seat view the server would build; any other phone
asks for its full view (`sync`). `base` null: a patch from nothing, the whole frame.

A patch is game-blind JSON: an object whose keys are the keys (or, in a list, the indexes) that
changed; each value is `[new value]` (set it), `[]` (delete it) or a patch of the value inside.
Lists that shrink are set whole. `apply_patch` is the phone's algorithm (static/js/play.js,
`applyPatch`) in Python, for the tests and the servers' own use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.hall import views
from companion.hall.model import Table

# Sent in every patch: they change with the clock and the event's settings, not with the seq,
# so a view a phone got on connect may hold other values than the frame it is patched from.
ALWAYS = ("waited", "choice_seconds")


@dataclass(frozen=True)
class Frame:
    """Every seat view of a table at `seq`: the common part and each seat's own part."""

    seq: int
    common: dict[str, Any]
    seats: tuple[dict[str, Any], ...]

    def seat_view(self, seat: int) -> dict[str, Any]:
        return {**self.common, **self.seats[seat]}


def frame_of(table: Table, choice_seconds: int | None = None) -> Frame:
    """The table's frame now (its story made once for every seat)."""
    story = table.story()
    return Frame(table.seq, views.common_part(table, choice_seconds, story),
                 tuple(views.seat_part(table, seat, story) for seat in range(len(table.seats))))


def table_message(table_id: str, old: Frame | None, new: Frame) -> dict[str, Any]:
    """The `table` message from `old` (None: from nothing) to `new`."""
    if old is None or len(old.seats) != len(new.seats):
        return {"table": table_id, "seq": new.seq, "base": None, "common": whole(new.common),
                "seats": [whole(own) for own in new.seats]}
    common = diff(old.common, new.common)
    for key in ALWAYS:
        if key in new.common:
            common[key] = [new.common[key]]
    return {"table": table_id, "seq": new.seq, "base": old.seq, "common": common,
            "seats": [diff(was, now) for was, now in zip(old.seats, new.seats, strict=True)]}


def whole(value: dict[str, Any]) -> dict[str, Any]:
    """The patch from nothing to `value`."""
    return {key: [item] for key, item in value.items()}


def diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The patch that makes `old` into `new` (both JSON objects)."""
    patch: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            patch[key] = [value]
        elif not same(old[key], value):
            patch[key] = _change(old[key], value)
    for key in old:
        if key not in new:
            patch[key] = []
    return patch


def _change(old: Any, new: Any) -> Any:
    if type(old) is dict and type(new) is dict:
        inner = diff(old, new)
        whole_anyway = len(inner) == len(new) and all(type(v) is list for v in inner.values())
        return [new] if whole_anyway else inner
    if type(old) is list and type(new) is list and old and len(new) >= len(old):
        patch: dict[str, Any] = {}
        for index, value in enumerate(new):
            if index >= len(old):
                patch[str(index)] = [value]
            elif not same(old[index], value):
                patch[str(index)] = _change(old[index], value)
        # set whole when most of it is set anyway (a patch of every item costs its indexes)
        wholes = sum(1 for change in patch.values() if type(change) is list)
        return [new] if 2 * wholes > len(new) else patch
    return [new]


def same(a: Any, b: Any) -> bool:
    """JSON equality at this level: a bool is not a number (True == 1 in Python, not in JSON).
    Inside equal containers Python's equality is trusted: a view's field keeps its type."""
    return type(a) is type(b) and bool(a == b)


def apply_patch(target: Any, patch: dict[str, Any], shared: bool = False) -> None:
    """Apply a patch in place (static/js/play.js `applyPatch`, the same steps). `shared`: the
    values inside `target` are another's too (a frame the fan-out keeps): each one the patch
    goes into is copied first, not deeply, so what it does not touch stays shared."""
    for key, change in patch.items():
        index: Any = int(key) if type(target) is list else key
        if type(change) is list:
            if change:
                if type(target) is list and index == len(target):
                    target.append(change[0])
                else:
                    target[index] = change[0]
            else:
                del target[index]
        else:
            if shared:
                target[index] = list(target[index]) if type(target[index]) is list \
                    else dict(target[index])
            apply_patch(target[index], change, shared)


def apply_table_message(view: dict[str, Any], message: dict[str, Any],
                        in_place: bool = False) -> dict[str, Any] | None:
    """What a phone does with a `table` message (static/js/play.js `viewAfter`): the seat view
    after it; `view` itself when the message is older or not for this table; None when the
    phone cannot apply it (a gap: it asks for its full view with `sync`). `view` is not changed
    unless `in_place` (and then the message's values become the view's: a message decoded for
    this phone alone, as the benchmark's phones do)."""
    base, seq = message["base"], message["seq"]
    # a whole frame (base None) at the view's own seq applies: a memory-only change (a board's
    # neighbours after a rename) sent by a process that had no frame to patch from
    older = seq < view["seq"] or (seq == view["seq"] and base is not None)
    if message.get("table") != view["table"]["id"] or (base != view["seq"] and older):
        return view
    if base is not None and base != view["seq"]:
        return None
    seats, seat = message["seats"], view["seat"]
    if not 0 <= seat < len(seats) or seats[seat] is None:
        return None
    fresh: dict[str, Any] = {} if base is None else view if in_place else _copy(view)
    take = (lambda patch: patch) if in_place else _copy
    apply_patch(fresh, take(message["common"]))
    apply_patch(fresh, take(seats[seat]))
    return fresh


def _copy(value: Any) -> Any:
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value
