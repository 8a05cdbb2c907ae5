"""`deckbuilder rules`: the rule variants and what each ruleset changes."""

from __future__ import annotations

from typing import Annotated

import typer

from deckbuilder.commands.common import console, guarded, load_catalog_for_cli, print_json


def rules(
    game: Annotated[str, typer.Option(help="revolver or revolver2")] = "revolver",
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """List the rulesets (where the rule documents disagree) and what each one changes."""
    guarded(_rules)(game, as_json)


def _rules(game: str, as_json: bool) -> None:
    from deckbuilder.rulesets import DEFAULT_RULESETS, list_rulesets

    catalog = load_catalog_for_cli()
    rulesets = list_rulesets(catalog, game)
    if as_json:
        print_json([
            {"id": r.id, "name": r.name, "description": r.description,
             "default": r.id == DEFAULT_RULESETS.get(game), "choices": r.choices,
             "changes": r.changes()}
            for r in rulesets
        ])
        return
    if not rulesets:
        console.print(f"no rulesets for {game}")
        return
    switches = rulesets[0].switches
    console.print(f"[bold]Rule switches ({game})[/bold]")
    for switch in switches.values():
        console.print(f"  {switch.id}: {switch.description}", markup=False)
        for variant in switch.variants:
            marker = "*" if variant.value == switch.default else "-"
            console.print(
                f"    {marker} {variant.value}: {variant.description} [{variant.source}]",
                markup=False,
            )
    console.print("\n[bold]Rulesets[/bold] (choose with --ruleset; * marks the default)")
    for ruleset in rulesets:
        marker = "*" if ruleset.id == DEFAULT_RULESETS.get(game) else " "
        changed = ", ".join(f"{k}={v}" for k, v in ruleset.changes().items()) or "all defaults"
        console.print(f" {marker} {ruleset.id}: {ruleset.description} ({changed})", markup=False)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
