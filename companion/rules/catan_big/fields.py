"""Reading JSON fields for the Catan event: required or optional, whole numbers in a range,
true or false; every refusal names the field (`claims[1].cities: ...`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.catan_big.errors import CatanError
from companion.rules.coop.scenario import show
from companion.rules.errors import is_whole_number


def field_name(where: str, key: str) -> str:
    """The full name of `key` inside the object at `where` ("" for the top level)."""
    return f"{where}.{key}" if where else key


def required(data: Mapping[str, Any], key: str, where: str = "",
             error: type[CatanError] = CatanError) -> Any:
    """data[key]; `error` naming the field when it is missing."""
    if key not in data:
        raise error(f"{field_name(where, key)}: missing")
    return data[key]


def whole(value: Any, name: str, low: int, high: int | None = None,
          error: type[CatanError] = CatanError, over: type[CatanError] | None = None,
          why: str = "") -> int:
    """`value` as a whole number from `low` to `high` (JSON true is not 1, nor is 1.0 a whole
    number); `error` when it is not one or is below `low`, `over` when it is above `high`."""
    if not is_whole_number(value):
        raise error(f"{name}: a whole number is required, not {show(value)}")
    if value < low:
        raise error(f"{name}: a whole number >= {low} is required, not {show(value)}")
    if high is not None and value > high:
        raise (over or error)(f"{name}: at most {high}{why}, not {show(value)}")
    return value


def boolean(value: Any, name: str, error: type[CatanError] = CatanError) -> bool:
    """`value` as true or false (the number 1 is not true)."""
    if not isinstance(value, bool):
        raise error(f"{name}: true or false is required, not {show(value)}")
    return value


def an_object(value: Any, name: str, error: type[CatanError] = CatanError) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise error(f"{name}: an object is required, not {show(value)}")
    return value


def written_out(value: str, name: str, error: type[CatanError] = CatanError) -> str:
    """`value`, text that can be written out: `error` for a lone surrogate (JSON allows one)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise error(f"{name}: not valid Unicode text: {show(value)}") from None
    return value


def a_list(value: Any, name: str, error: type[CatanError] = CatanError) -> list[Any]:
    if not isinstance(value, list):
        raise error(f"{name}: a list is required, not {show(value)}")
    return value
