"""What a game hands the registry for its scenarios (`ScenarioParts`): its format, how its
position is laid out (`Staging`) and the checks of its own expectations; a game that hands
none gets the generic format and `GENERIC_STAGING`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckbuilder.engine.state import State
from deckbuilder.scenario_kit.generic import ScenarioFormat
from deckbuilder.scenario_kit.layout import Ids, set_forbidden, set_marker
from deckbuilder.scenario_kit.parts import PlacedCard, Source, Tokens

#: One step of laying out a position: (state, scenario, source, ids).
Setup = Callable[[State, Any, Source, Ids], None]
#: A check's findings: (name suffix, holds, expected, actual) and optionally what to show even
#: when it holds.
Result = list[tuple[Any, ...]]
#: The check of one expectation field: (state, the field's value, ids, where) -> findings.
CheckFn = Callable[[State, Any, Ids, tuple], Result]


def same(expected: object, actual: object, suffix: str = "") -> Result:
    """The finding of a check that compares one value."""
    return [(suffix, expected == actual, expected, actual)]


def reading(read: Callable[[State], object]) -> CheckFn:
    """The check of one value the position shows, `read(state)`, compared whole."""
    def check(state: State, value: object, ids: Ids, loc: tuple) -> Result:
        return same(value, read(state))

    return check


def side_findings(state: State, value: object,
                  compare: Callable[[int, str, Any], tuple[object, object]],
                  label: str = "") -> Result:
    """One finding per side the expectation `value` names (a side left out is not checked):
    `compare(player, side name, wanted)` -> (expected, actual)."""
    findings: Result = []
    for player, name in enumerate(state.spec.game_rules.side_names):
        wanted = getattr(value, name)
        if wanted is not None:
            expected, actual = compare(player, name, wanted)
            findings.append((f"{label} {name}", expected == actual, expected, actual))
    return findings


def side_values(state: State, value: object, actual: Sequence[object],
                label: str = "") -> Result:
    """Each side's value `value` names against the side's `actual[player]`."""
    return side_findings(state, value, lambda player, _, wanted: (wanted, actual[player]),
                         label)


def per_side_count(read: Callable[[State, int], int]) -> CheckFn:
    """The check of a number each side has, `read(state, player)` (cards in hand, dollars)."""
    def check(state: State, value: object, ids: Ids, loc: tuple) -> Result:
        return side_values(state, value, [read(state, player) for player in (0, 1)])

    return check


def set_tokens(state: State, uid: int, tokens: Tokens | PlacedCard) -> None:
    """Lay the tokens the file gives on `uid`; a kind left out keeps set-up's."""
    for kind, counts in (("power", state.own_power()), ("true_grit", state.own_grit()),
                         ("eagle", state.own_eagle())):
        if getattr(tokens, kind) is not None:
            counts[uid] = getattr(tokens, kind)


def set_alive(state: State, index: int, living: bool) -> None:
    """Character `index` alive with set-up's tokens, or dead with none."""
    character = state.spec.characters[index]
    uid = state.spec.character_base + index
    state.alive[index] = living
    state.own_grit()[uid] = character.true_grit if living else 0
    state.own_power()[uid] = character.power if living else 0


def set_characters(state: State, scenario: Any, source: Source, ids: Ids,
                   field_name: str = "characters") -> None:
    """The characters alive and dead and their tokens (`position.characters`; a game's own
    format may name them otherwise: Revolver's `position.bandits`)."""
    spec = state.spec
    characters = getattr(scenario.position, field_name)
    index = {character.id: character.idx for character in spec.characters}
    word = ids.word("character")

    def character(text: str, loc: tuple) -> int:
        character_id = ids.resolve(text, "character", loc)
        if character_id not in index:
            raise source.error(f"{word} '{character_id}' is not in this game", loc,
                               "add the module that brings them to `modules` (`deckbuilder "
                               "rules` lists them), or leave them out")
        return index[character_id]

    if characters.alive is not None:
        alive = {character(t, ("position", field_name, "alive", i)) for i, t in
                 enumerate(characters.alive)}
        state.alive = [i in alive for i in range(len(spec.characters))]
    for i, text in enumerate(characters.dead):
        state.alive[character(text, ("position", field_name, "dead", i))] = False
    for i, living in enumerate(state.alive):
        if not living:
            set_alive(state, i, False)
    for text, tokens in characters.tokens.items():
        uid = spec.character_base + character(text, ("position", field_name, "tokens", text))
        set_tokens(state, uid, tokens)
        if tokens.eagle:
            raise source.error(f"an eagle token may not lie on a {word} card",
                               ("position", field_name, "tokens", text, "eagle"),
                               "tarnished-star-en, Tokens and Card Notes: put it on a card")


def set_generic_table(state: State, scenario: Any, source: Source, ids: Ids) -> None:
    """The generic format's table: the marker, the countdown card, the forbidden cards."""
    position = scenario.position
    set_marker(state, position.marker, source, ids)
    if position.countdown is not None:
        state.countdown = position.countdown
    set_forbidden(state, position.forbidden, ids)
    state.log.clear()


@dataclass(frozen=True, kw_only=True)
class Staging:
    """How a game's scenario position is laid out: before dealing, the characters, the table's
    pieces, the modules' pieces (after the game's `restage`); `opens` opens a decision of the
    game's own before the first turn (the poker tournament) and says whether it did."""

    characters: Setup
    table: Setup
    prepare: Setup = lambda state, scenario, source, ids: None
    modules: Setup = lambda state, scenario, source, ids: None
    opens: Callable[[State, Any], bool] = lambda state, scenario: False


GENERIC_STAGING = Staging(characters=set_characters, table=set_generic_table)


@dataclass(frozen=True)
class ScenarioParts:
    """A game's own scenario format and staging, and the checks of its own expectations
    (expectation field -> check; the table's are `scenarios.checks.CHECKS`)."""

    format: ScenarioFormat
    staging: Staging
    checks: Mapping[str, CheckFn] = field(default_factory=dict)
