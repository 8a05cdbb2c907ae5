"""What a game is written against and what every face presents stay under `mypy --strict`
(issue 36): pyproject.toml's strict override names them with every flag strict sets."""

import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

#: The flags `mypy --strict` turns on that a per-module override can set.
STRICT_FLAGS = ("disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls",
                "disallow_untyped_defs", "disallow_incomplete_defs", "check_untyped_defs",
                "disallow_untyped_decorators", "warn_return_any", "no_implicit_reexport",
                "strict_equality", "extra_checks")

#: The plug-in surface, the declarations, the registry, the rules base class, the game
#: protocol and the service layer.
STRICT_MODULES = ("deckbuilder.game_kit", "deckbuilder.protocol", "deckbuilder.declaration",
                  "deckbuilder.declared", "deckbuilder.engine.game_rules", "deckbuilder.games",
                  "deckbuilder.app.*")


def _overrides() -> list[dict[str, object]]:
    with PYPROJECT.open("rb") as file:
        return list(tomllib.load(file)["tool"]["mypy"]["overrides"])


def test_the_surface_and_the_service_layer_are_checked_strictly() -> None:
    strict = [override for override in _overrides()
              if all(override.get(flag) is True for flag in STRICT_FLAGS)]
    covered = {module for override in strict for module in override["module"]}
    assert set(STRICT_MODULES) <= covered, sorted(set(STRICT_MODULES) - covered)


def test_only_table_answers_relaxes_a_strict_flag() -> None:
    """A narrower override beats `deckbuilder.app.*`: only app.table_answers has one, and it
    turns off warn_return_any alone (its JSON readers answer their models untyped)."""
    narrower = {module: {key: value for key, value in override.items() if key != "module"}
                for override in _overrides() for module in override["module"]
                if module.startswith("deckbuilder.app.") and module != "deckbuilder.app.*"}
    assert narrower in ({}, {"deckbuilder.app.table_answers": {"warn_return_any": False}})
