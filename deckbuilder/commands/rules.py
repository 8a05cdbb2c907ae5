"""`deckbuilder rules`: each game's rule switches (with the documents behind every reading),
its rulesets and what each one changes."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.rule_listing import game_rules
from deckbuilder.commands.choices import GAME
from deckbuilder.commands.common import (
    AsJson,
    console,
    guarded,
    print_json,
    safe,
)
from deckbuilder.games import games, get_game


@guarded
def rules(
    game: Annotated[str | None, typer.Option(
        help="revolver or revolver2 (default: both)", show_default=False,
        **GAME.option())] = None,
    as_json: AsJson = False,
) -> None:
    """List the rule switches (where the rule documents disagree) and the rulesets.

    `--ruleset ID` chooses one for `play`, `simulate` and `scenario`; `--switch ID=VALUE` one
    switch over it."""
    catalog = project_catalog()
    names = [get_game(game).name] if game is not None else list(games())
    data = [game_rules(catalog, name) for name in names]
    if as_json:
        print_json(data)
        return
    for index, entry in enumerate(data):
        if index:
            console.print()
        _print_game(entry)


def _print_game(entry: dict[str, Any]) -> None:
    name = entry["game"]
    console.print(f"[bold]{safe(entry['title'], markup=True)}[/bold] ({safe(name, markup=True)})")
    if not entry["rulesets"]:
        console.print(safe(f"  no rulesets for {name}"), markup=False)
        return
    console.print("  Rule switches (set one with --switch ID=VALUE; * marks the default):")
    for switch in entry["switches"]:
        note = "" if switch["switchable"] else \
            f" [declared by {switch['set']}; the engine does not read it]"
        console.print(safe(f"    {switch['id']}: {switch['description']}{note}"), markup=False)
        for variant in switch["variants"]:
            marker = "*" if variant["default"] else "-"
            unplayable = "" if variant["playable"] or not switch["switchable"] else \
                " (the engine cannot play this reading)"
            console.print(safe(f"      {marker} {variant['value']}: {variant['description']} "
                               f"[{variant['source']}]{unplayable}"), markup=False)
    if entry["modules"]:
        console.print("  Modules (play with --module ID):")
        for module in entry["modules"]:
            letter = f"{module['letter']}. " if module["letter"] else ""
            needs = f"; needs {', '.join(module['requires'])}" if module["requires"] else ""
            state = "" if module["playable"] else " [the engine does not play it yet]"
            console.print(safe(f"    {module['id']} ({letter}{module['name']}, {module['set']}"
                               f"{needs}){state}"), markup=False)
    console.print("  Rulesets (choose with --ruleset; * marks the default):")
    for ruleset in entry["rulesets"]:
        marker = "*" if ruleset["default"] else " "
        changed = ", ".join(f"{k}={v}" for k, v in ruleset["changes"].items()) or "all defaults"
        console.print(safe(f"   {marker} {ruleset['id']}: {ruleset['description']} ({changed})"),
                      markup=False)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
