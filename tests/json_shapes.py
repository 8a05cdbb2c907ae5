"""A check that JSON a command prints has the shape of the TypedDict its readers are typed
with (`deckbuilder.sim.reports.*_json`): mypy checks the readers against the TypedDict, these
tests check the printed JSON against it."""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping


def shape_problems(shape: object, value: object, where: str = "report") -> list[str]:
    """Where `value` (JSON) differs from the type `shape`: a TypedDict (its keys, no other),
    a list, a mapping, a union, a Literal, or a plain type (an int is a float too)."""
    origin, args = typing.get_origin(shape), typing.get_args(shape)
    if typing.is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{where} is not an object"]
        # NotRequired read from the hints: __required_keys__ misses it under postponed
        # annotations before Python 3.14
        hints = typing.get_type_hints(shape, include_extras=True)
        optional = {key for key, hint in hints.items()
                    if typing.get_origin(hint) is typing.NotRequired}
        hints = {key: typing.get_args(hint)[0] if key in optional else hint
                 for key, hint in hints.items()}
        wrong = [f"{where}.{key} is not in {shape.__name__}" for key in set(value) - set(hints)]
        wrong += [f"{where}.{key} is missing" for key in set(hints) - optional - set(value)]
        return wrong + [problem for key, item in value.items() if key in hints
                        for problem in shape_problems(hints[key], item, f"{where}.{key}")]
    if origin is typing.Literal:
        return [] if value in args else [f"{where} is not one of {args}"]
    if origin in (typing.Union, types.UnionType):
        tries = [shape_problems(member, value, where) for member in args]
        return [] if [] in tries else [f"{where} is none of {shape}"]
    if origin in (list, dict, Mapping):
        if not isinstance(value, list if origin is list else dict):
            return [f"{where} is not a {origin.__name__}"]
        items = value if isinstance(value, list) else list(value.values())
        return [problem for index, item in enumerate(items)
                for problem in shape_problems(args[-1], item, f"{where}[{index}]")]
    kinds = {float: (int, float), object: (object,), type(None): (type(None),)}
    fits = isinstance(value, kinds.get(shape, shape)) and not (
        isinstance(value, bool) and shape in (int, float))
    return [] if fits else [f"{where} is not {shape}: {value!r}"]
