"""The expansions' rule switches (the modules' readings of rules no document states): each
reading is sourced data, the engine plays it, `deckbuilder rules` lists it, and each reading
changes an outcome.

As for the base game's switches (test_revolver_switches.py), each reading has a scenario file
`tests/scenarios/switch-<id>-<reading>.yaml` that chooses it; the files of one switch share
their position, and one of each two fails under the other reading. Two switches are shown by
engine tests instead, named in `SHOWN_ELSEWHERE`, because a scenario cannot stage them yet.
The deck checks' switch (`card-copies`, Module D) is no engine's: test_supply.py shows it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from switch_scenarios import passes, readings, switch_file
from typer.testing import CliRunner

from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.games.revolver.facts import KNOWN_VARIANTS
from deckbuilder.legality import COPIES_SWITCH
from deckbuilder.scenarios.model import load_scenario

CATALOG = build_catalog()
SWITCHES = {switch.id: switch for set_id, loaded in sorted(CATALOG.sets.items())
            if loaded.card_set.game == "revolver" and set_id != "revolver-base"
            for switch in loaded.card_set.rule_switches if switch.id != COPIES_SWITCH}
#: switch -> the test that shows each reading changes an outcome (no scenario can stage it)
SHOWN_ELSEWHERE = {
    # the duel's cards are put down in the duel itself, and no packaged card has a Lock icon
    "saloon-duel-resolution": "test_module_a.py::test_a_face_up_lock_card_under_both_readings",
    # a staged position cannot empty the Frontier deck
    "frontier-empty": "test_frontier.py::test_switch_frontier_empty_decides_whether_the_"
                      "discards_come_back",
}
runner = CliRunner()


def _readings(switch_id: str) -> list[str]:
    return readings(SWITCHES[switch_id])


def _file(switch_id: str, reading: str) -> Path:
    return switch_file(switch_id, reading)


def _passes(path: Path, switches: dict[str, str] | None = None) -> bool:
    return passes(path, CATALOG, switches)


SCENARIO_SWITCHES = sorted(set(SWITCHES) - set(SHOWN_ELSEWHERE))


def test_the_expansions_declare_the_modules_switches() -> None:
    assert {"prison-position", "santiago-release", "prison-silence", "frontier-draw",
            "frontier-empty", "ambush-reveal", "saloon-duel-resolution"} <= set(SWITCHES)


@pytest.mark.parametrize("switch_id", sorted(SWITCHES))
def test_a_switch_is_sourced_and_played(switch_id: str) -> None:
    switch = SWITCHES[switch_id]
    assert switch.default in _readings(switch_id)
    assert all(variant.source.strip() for variant in switch.variants)
    assert KNOWN_VARIANTS.get(switch_id) == frozenset(_readings(switch_id))


def test_deckbuilder_rules_lists_them() -> None:
    result = runner.invoke(app, ["rules", "--game", "revolver", "--json"])
    assert result.exit_code == 0, result.output
    text = json.dumps(json.loads(result.stdout))
    for switch in SWITCHES.values():
        assert f'"{switch.id}"' in text
        assert all(f'"{variant.value}"' in text for variant in switch.variants)


@pytest.mark.parametrize(("switch_id", "reading"),
                         [(s, r) for s in SCENARIO_SWITCHES for r in _readings(s)],
                         ids="-".join)
def test_each_reading_has_its_scenario(switch_id: str, reading: str) -> None:
    path = _file(switch_id, reading)
    assert path.exists(), f"write {path.name}"
    scenario, _ = load_scenario(path)
    assert scenario.switches.get(switch_id) == reading
    assert _passes(path)


@pytest.mark.parametrize("switch_id", SCENARIO_SWITCHES)
def test_the_readings_of_a_switch_change_an_outcome(switch_id: str) -> None:
    positions = {json.dumps(load_scenario(_file(switch_id, r))[0].position.model_dump(),
                            sort_keys=True) for r in _readings(switch_id)}
    assert len(positions) == 1, "the files of one switch share their position"
    for first, second in itertools.combinations(_readings(switch_id), 2):
        assert not _passes(_file(switch_id, first), {switch_id: second}) or \
            not _passes(_file(switch_id, second), {switch_id: first}), (first, second)


def test_the_deck_checks_switch_is_shown_by_the_supply_tests() -> None:
    assert COPIES_SWITCH not in KNOWN_VARIANTS  # the engine never reads it
    text = (Path(__file__).parent / "test_supply.py").read_text()
    assert "def test_the_any_number_reading_makes_them_legal(" in text


@pytest.mark.parametrize("switch_id", sorted(SHOWN_ELSEWHERE))
def test_a_switch_shown_elsewhere_names_a_real_test(switch_id: str) -> None:
    file_name, test_name = SHOWN_ELSEWHERE[switch_id].split("::")
    assert f"def {test_name}(" in (Path(__file__).parent / file_name).read_text()
