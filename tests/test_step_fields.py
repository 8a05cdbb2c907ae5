"""Each effect step's fields are written in three places, tied here.

A step of the vocabulary is (1) a pydantic model in `models/effects.py` (the table's, listed
in `TABLE_STEPS`) or in a game's card model (its own, `STEPS`), all in `STEP_MODELS` and the
`Step` union built from it that card data is read with; (2) an engine compiler
(`engine/effects.py`'s `REGISTRY` or a game's `steps`) that reads the model's fields into the
step's params; (3) a runner that reads the params. The params stay plain tuples (the compiled
build reads them at C speed, and the bots read a few by position); so these tests tie the
lists: the module's step classes and the games' own are `STEP_MODELS` and the union;
every step is implemented by exactly one registry (or is `manual`); every field of every
step is read by its compiler, for every step the packaged card data uses (all but
`manual`), so a field added to a model and forgotten by the engine fails here.
"""

from __future__ import annotations

import importlib
import inspect
import typing
from typing import Any

import pytest
from pydantic import BaseModel

from deckbuilder import integrity
from deckbuilder.catalog import default_catalog
from deckbuilder.engine.compiled import compiled_catalog
from deckbuilder.engine.effects import REGISTRY
from deckbuilder.games import games, get_game
from deckbuilder.models import effects as vocabulary
from deckbuilder.models.effects import STEP_MODELS, STEP_NAMES, Step

#: The one step no engine performs: its card is reported unimplemented (its text is words).
NOT_PERFORMED = frozenset({"manual"})


def _step_name(model: type[BaseModel]) -> str:
    return str(typing.get_args(model.model_fields["do"].annotation)[0])


def test_the_module_the_tuple_and_the_union_list_the_same_steps() -> None:
    """The table's steps are the classes of `models/effects.py`; each game's own are its card
    model's `STEPS` (named by its declaration); the union is both, written once."""
    defined = {model for _name, model in inspect.getmembers(vocabulary, inspect.isclass)
               if issubclass(model, BaseModel) and "do" in model.model_fields}
    assert set(vocabulary.TABLE_STEPS) == defined
    own = [model for steps in vocabulary.game_declared("STEPS") for model in steps]
    union, _discriminator = typing.get_args(Step)
    assert len(set(STEP_MODELS)) == len(STEP_MODELS)
    assert set(STEP_MODELS) == defined | set(own)
    assert set(typing.get_args(union)) == set(STEP_MODELS)
    assert {_step_name(model) for model in STEP_MODELS} == STEP_NAMES
    assert len(STEP_NAMES) == len(STEP_MODELS)


def test_a_game_declares_the_steps_its_rules_perform() -> None:
    """A game's own steps are declared in its package (its card model) and performed by its
    rules: Revolver's Derail the Train and Frontier steps, Revolver 2's Gatling Gun."""
    for game in games().values():
        module = importlib.import_module(game.declaration.card_model)
        assert {_step_name(model) for model in module.STEPS} == set(game.rules.steps), game.name
    assert "gatling-gun" in get_game("revolver2").rules.steps
    assert not {"derail", "gatling-gun"} & {_step_name(model) for model in vocabulary.TABLE_STEPS}


def _game_steps() -> dict[str, list[str]]:
    """Step name -> the registries that implement it (the table's, each game's)."""
    found: dict[str, list[str]] = {name: ["table"] for name in REGISTRY}
    for game in sorted(games()):
        for name in get_game(game).rules.steps:
            found.setdefault(name, []).append(game)
    return found


def test_every_step_is_performed_by_exactly_one_registry() -> None:
    implemented = _game_steps()
    assert set(implemented) <= STEP_NAMES, "an engine step no card data can name"
    assert sorted(STEP_NAMES - set(implemented)) == sorted(NOT_PERFORMED)
    assert {name: where for name, where in implemented.items() if len(where) > 1} == {}


class _Reading:
    """A step model that notes which fields its compiler reads."""

    def __init__(self, model: BaseModel) -> None:
        self._model = model
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self._model, name)


def _steps_in(value: Any, found: list[BaseModel]) -> None:
    if isinstance(value, BaseModel):
        if type(value) in STEP_MODELS:
            found.append(value)
        for name in type(value).model_fields:
            _steps_in(getattr(value, name), found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _steps_in(item, found)


def _data_steps(game: str) -> list[BaseModel]:
    found: list[BaseModel] = []
    for loaded in default_catalog().sets.values():
        if loaded.card_set.game == game:
            _steps_in(loaded.card_set, found)
    return found


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_every_field_of_a_step_is_read_by_its_compiler(game: str) -> None:
    rules = get_game(game).rules
    resolver = compiled_catalog(default_catalog(), rules).resolver
    unread: dict[str, set[str]] = {}
    for step in _data_steps(game):
        compiler, _runner = REGISTRY.get(step.do) or rules.steps[step.do]
        reading = _Reading(step)
        compiler(reading, resolver)
        fields = set(type(step).model_fields) - {"do"}
        missed = fields - reading.read
        unread[step.do] = unread[step.do] & missed if step.do in unread else missed
    assert {name: sorted(fields) for name, fields in unread.items() if fields} == {}


def test_the_card_data_uses_every_performed_step() -> None:
    """So the test above reads every step's compiler: a new step needs a card (or a test
    card set) that uses it."""
    used = {step.do for game in ("revolver", "revolver2") for step in _data_steps(game)}
    assert sorted(STEP_NAMES - NOT_PERFORMED - used) == []


def test_the_step_fields_other_modules_name_exist() -> None:
    """The integrity check names step fields by class and field (the card ids a step plays
    or discards); a renamed field would leave it checking nothing."""
    by_class = {model.__name__: model for model in STEP_MODELS}
    for class_name, field in integrity._CARD_FIELDS:
        assert field in by_class[class_name].model_fields, (class_name, field)
