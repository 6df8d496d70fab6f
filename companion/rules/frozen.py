"""The frozen dataclasses of the rules: `journal_fact` declares a fact a journal stores; quick
construction and in-place drafts for the ones a roll builds by the dozen.

A frozen dataclass's `__init__` stores every field through `object.__setattr__` to get past
its own frozen `__setattr__`: about 0.1 us a field, 1.4 us for a 15-field TableState, the
largest cost of resolving a roll. A `Twin` is a private class with the same slots but plain,
writable attributes: an object is filled (or edited) as a twin, then made an instance of the
real class (CPython allows `__class__` assignment between classes of the same slot layout).
The result is the same value `__init__` would give: equal, printed, hashed and frozen alike,
for a fifth of the cost. Only for classes whose `__init__` does nothing but store its fields;
checked here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Generic, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def journal_fact(kind: str) -> Callable[[type[T]], type[T]]:
    """Declares a fact: a frozen slots dataclass that journals store under `kind`, its `KIND`.
    The kind is fixed for good, whatever the class is called later: the journals already
    written name it (tests/test_golden_journal.py replays one), so never change it."""

    def declare(cls: type[T]) -> type[T]:
        cls.KIND = kind  # type: ignore[attr-defined]
        return dataclass(frozen=True, slots=True)(cls)

    return declare


def kind_of(cls: Any) -> str:
    """The name journals store the facts of a `journal_fact` class under."""
    kind: str = cls.KIND
    return kind


class Twin(Generic[T]):
    """The writable twin of one frozen slots dataclass `cls`.

    `make(*fields)` builds a frozen value; `replacer(field)` makes a quick one-field
    `dataclasses.replace`; `thaw(value)` gives a writable copy (a draft) and `freeze(draft)`
    turns that draft, in place, into a frozen value. A frozen draft must not be written
    again: it is the value."""

    __slots__ = ("cls", "mutable", "make", "thaw")

    def __init__(self, cls: type[T]) -> None:
        names = _field_names(cls)
        self.cls = cls
        self.mutable = type(f"_{cls.__name__}Draft", (), {"__slots__": names})
        self.make: Callable[..., T] = _compile(
            f"make_{cls.__name__}", ", ".join(names), "mutable()",
            [f"obj.{name} = {name}" for name in names] + ["obj.__class__ = cls"],
            mutable=self.mutable, cls=cls,
        )
        self.thaw: Callable[[T], Any] = _compile(
            f"thaw_{cls.__name__}", "value", "mutable()",
            [f"obj.{name} = value.{name}" for name in names],
            mutable=self.mutable,
        )

    def replacer(self, field: str) -> Callable[[T, Any], T]:
        """A function (value, new) -> `dataclasses.replace(value, field=new)`, unchecked."""
        names = _field_names(self.cls)
        if field not in names:
            raise TypeError(f"{self.cls!r} has no field {field!r}")
        lines = [f"obj.{name} = value.{name}" for name in names if name != field]
        replace: Callable[[T, Any], T] = _compile(
            f"replace_{field}", f"value, {field}", "mutable()",
            [*lines, f"obj.{field} = {field}", "obj.__class__ = cls"],
            mutable=self.mutable, cls=self.cls,
        )
        return replace

    def freeze(self, draft: Any) -> T:
        draft.__class__ = self.cls
        frozen: T = draft
        return frozen


def quick_constructor(cls: type[T]) -> Callable[..., T]:
    """A function taking every field of `cls` positionally, in field order, that returns the
    instance `cls(...)` would. It checks nothing: the caller passes values of the right types."""
    return Twin(cls).make


def _compile(name: str, params: str, start: str, lines: list[str], **names: Any) -> Any:
    """A function `name(params)` that sets `obj = start`, runs `lines` and returns obj: the
    technique dataclasses uses to write __init__, so no loop runs per field at call time."""
    body = "".join(f"    {line}\n" for line in lines)
    source = f"def {name}({params}):\n    obj = {start}\n{body}    return obj\n"
    exec(source, names)
    return names[name]


def _field_names(cls: type) -> tuple[str, ...]:
    """The fields of a frozen slots dataclass whose __init__ only stores them, or TypeError."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls!r} is not a dataclass")
    names = tuple(field.name for field in fields(cls))
    if (
        not vars(cls)["__dataclass_params__"].frozen
        or getattr(cls, "__slots__", None) != names
        or hasattr(cls, "__post_init__")
        or not all(field.init for field in fields(cls))
    ):
        raise TypeError(f"{cls!r} is not a frozen slots dataclass with a plain __init__")
    return names
