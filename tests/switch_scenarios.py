"""The scenario files of the rule switches, shared by the switch tests: each reading of a
switch has `tests/scenarios/switch-<id>-<reading>.yaml`, and a file can be run under another
reading to show that the readings change an outcome."""

from __future__ import annotations

from pathlib import Path

from deckbuilder.catalog import Catalog
from deckbuilder.models.sets import RuleSwitch
from deckbuilder.scenarios.model import load_scenario
from deckbuilder.scenarios.run import run

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def readings(switch: RuleSwitch) -> list[str]:
    return [variant.value for variant in switch.variants]


def switch_file(switch_id: str, reading: str) -> Path:
    return SCENARIOS / f"switch-{switch_id}-{reading}.yaml"


def passes(path: Path, catalog: Catalog, switches: dict[str, str] | None = None) -> bool:
    """Does the scenario hold, under its own readings with these single switches over them?"""
    scenario, source = load_scenario(path)
    if switches:
        scenario = scenario.model_copy(update={"switches": {**scenario.switches, **switches}})
    return run(scenario, source, catalog).passed
