"""Rules questions as files (YAML, schema `scenario.schema.json`, docs/players/scenarios.md):
a position set up by card id, actions written as `action_to_string` prints them (exactly or
by a unique prefix, so files survive a renumbering of the action table), what must follow.
Each game's format is found through the registry (`GameParts.scenario`, else the generic one
built from its declaration); this module holds `Scenario`, the union of every game's (the
schema), and reads a file in its game's format.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Union

from pydantic import Discriminator, RootModel, Tag

from deckbuilder.declaration import GameDeclaration
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import get_game, load_entry
from deckbuilder.models.common import Strict
from deckbuilder.scenario_kit.generic import generic_format
from deckbuilder.scenario_kit.parts import Source
from deckbuilder.scenario_kit.staging import GENERIC_STAGING, ScenarioParts

#: A scenario in its game's format (the formats are built from each game's declaration and
#: parts, so no one class names them all).
AnyScenario = Any


def scenario_parts(declaration: GameDeclaration) -> ScenarioParts:
    """The game's scenario parts (its `GameParts.scenario`); a game that brings none, or whose
    rules cannot be loaded, gets the generic format built from its declaration."""
    try:
        where = get_game(declaration.id).parts.scenario
    except DeckbuilderError:
        where = ""
    if not where:
        return ScenarioParts(generic_format(declaration), GENERIC_STAGING)
    parts: ScenarioParts = load_entry(declaration.id, where, "scenario format")
    return parts


#: game name -> its scenario format, staging and checks, for every declared game
PARTS: dict[str, ScenarioParts] = {
    declaration.id: scenario_parts(declaration) for declaration in DECLARATIONS}
#: game name -> its scenario model
SCENARIO_MODELS: dict[str, type[Strict]] = {
    game: parts.format.scenario for game, parts in PARTS.items()}
DEFAULT_GAME = DECLARATIONS[0].id


def _game_of(data: object) -> str:
    if isinstance(data, dict):
        return str(data.get("game", DEFAULT_GAME))
    return str(getattr(data, "game", DEFAULT_GAME))


_TAGGED: Any = Union[tuple(Annotated[model, Tag(game)]  # noqa: UP007 - built from data
                           for game, model in SCENARIO_MODELS.items())]


class Scenario(RootModel[Annotated[_TAGGED, Discriminator(_game_of)]]):
    """A scenario file of either game; `game` (default revolver) says which format it is."""


def load_scenario(path: Path | str) -> tuple[AnyScenario, Source]:
    """Read and validate a scenario file in its game's format (errors carry file:line:col)."""
    from deckbuilder.yamlio import load_yaml, validate_document

    path = Path(path)
    document = load_yaml(path)
    source = Source(path, document)
    game = _game_of(document)
    model = SCENARIO_MODELS.get(game)
    if model is None:
        raise source.error(f"unknown game '{game}'", ("game",),
                           f"use one of: {', '.join(SCENARIO_MODELS)}")
    scenario: object = validate_document(document, model, path)  # the game's own format
    return scenario, source
