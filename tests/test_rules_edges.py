"""Rules at the edges (issue 19, section 4): a discard for its effect is no play and pays no
cost (the Volcanic pistol, the Garrotte, the Texas Ranger), and positions the scenario format
must either stage or refuse (Santiago in the prison, Module B's choice, Revolver 2's poker
tournament). The rule-switch readings of "I only came along fer the ride" against true grit
are the scenario files switch-lawmen-removal-*.yaml (tests/test_revolver_switches.py runs
them)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from table_staging import clear_hand, do, refresh, stage, stage_marker
from typer.testing import CliRunner

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.cli import app
from deckbuilder.engine.card_records import CardDef
from deckbuilder.engine.definitions import set_fast_path
from deckbuilder.engine.state import State
from deckbuilder.games import new_game
from deckbuilder.games.revolver import prison
from deckbuilder.scenarios.run import run_scenario

GANG, LAWMEN = 0, 1
GARROTTE = "garrotte-santiagos-special-weapon"
HEADER = "# yaml-language-server: $schema=../../schemas/scenario.schema.json\n"
#: "discard it from your hand to ...", "discard this card to ...": a use that is no play
DISCARD_USE = re.compile(r"discard (?:it|this card)(?: from your hand)?,? to ", re.IGNORECASE)
runner = CliRunner()


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return default_catalog()


@contextmanager
def costing(card: CardDef, cost: int) -> Iterator[None]:
    """Lend the shared compiled card another cost for one test (its cost is unconfirmed data),
    so the test shows the discard use ignores whatever the cost is read to be."""
    saved = card.cost
    card.cost = cost
    set_fast_path(card)
    try:
        yield
    finally:
        card.cost = saved
        set_fast_path(card)


def option_texts(state: State) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()]


# -- a discard for its effect is no play ------------------------------------------------------
def test_every_card_offering_a_discard_use_declares_it_free(catalog: Catalog) -> None:
    """Grep the card data: each card whose text offers a discard for an effect pays nothing
    for that use: a `discard_for_effect` mode, or (the Texas Ranger) a reaction from the
    hand, which costs a card that is not a one-shot nothing but itself."""
    offering = {entry.id: entry.record for entry in catalog.entries.values()
                if entry.kind == "card" and DISCARD_USE.search(entry.record.text or "")}
    assert set(offering) == {"volcanic-pistol", "texas-ranger", GARROTTE}
    state = new_game([catalog.base_deck("revolver", "colty"),
                      catalog.base_deck("revolver", "mcready")], seed=1, catalog=catalog)
    defs = {card.id: card for card in state.spec.defs}
    for card_id, record in offering.items():
        compiled = defs[card_id]
        free_modes = [mode for mode in compiled.modes if mode.discarded]
        if record.modes:
            assert free_modes, card_id
            assert all(mode.name.startswith(("Discard", "Remove")) for mode in free_modes)
        else:
            assert compiled.react_plays is not None and compiled.react_cost == 0, card_id
            assert compiled.cost > 0  # so the reaction's price is not its cost


def test_the_volcanic_pistol_is_discarded_for_no_cost_and_keeps_the_other_cards(
        catalog: Catalog) -> None:
    """With another card in hand, a discard use still costs nothing: the Cowboy stays in
    hand (the scenario ts-volcanic-pistol-discarded-alone-from-the-hand.yaml is the pistol
    alone)."""
    decks = [catalog.base_deck("revolver", "colty"),
             {**catalog.base_deck("revolver", "mcready"), "volcanic-pistol": 1}]
    state = new_game(decks, seed=1, catalog=catalog, verbose=True)
    state.apply(state.legal_actions()[0])  # the gang passes: McReady's play phase
    clear_hand(state, GANG)
    clear_hand(state, LAWMEN)
    special = stage(state, GANG, "38-special", "play")
    stage(state, LAWMEN, "volcanic-pistol", "hand")
    cowboy = stage(state, LAWMEN, "cowboy", "hand")
    refresh(state)
    do(state, "play Volcanic pistol",
       "play Volcanic pistol as: Discard to destroy a bandit firepower card")
    assert special in state.discards[GANG]
    assert state.hands[LAWMEN] == [cowboy]
    assert any("no play: no cost" in line for line in state.log)


def _garrotte_game(catalog: Catalog) -> State:
    """Modules A, B and the prison, two dollars: the Garrotte under Santiago; Santiago freed
    (the Garrotte to the gang's hand), then killed; a Deputy at the current battlefield."""
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    state = new_game(decks, seed=4, catalog=catalog, verbose=True,
                     modules=("saloon-duel", "mcreadys-choice", prison.PRISON_MODULE))
    do(state, "start with two silver dollars")
    facts = prison.prison_facts(state)
    prison.free_santiago(state)
    state.alive[facts.santiago] = False
    clear_hand(state, GANG)
    state.hands[GANG].append(facts.garrotte)
    stage_marker(state, "whiskey-canyon", "2")
    stage(state, LAWMEN, "deputy", "play", "whiskey-canyon")
    refresh(state)
    return state


@pytest.mark.parametrize("use", ["Discard it from your hand to kill one lawman",
                                 "Remove it from the game to kill one lawman"])
def test_the_garrotte_alone_in_hand_is_used_whatever_its_cost(catalog: Catalog,
                                                              use: str) -> None:
    """Its cost is unconfirmed (0 in the data): read as 1, both uses are still offered with
    the Garrotte alone in hand, since neither is a play."""
    state = _garrotte_game(catalog)
    garrotte = prison.prison_facts(state).garrotte
    card = state.spec.card_def[garrotte]
    with costing(card, 1):
        refresh(state)
        do(state, "play Garrotte")
        assert option_texts(state) == [
            "play Garrotte – Santiago's special weapon as: Discard it from your hand to kill "
            "one lawman",
            "play Garrotte – Santiago's special weapon as: Remove it from the game to kill one "
            "lawman"]
        do(state, f"play Garrotte – Santiago's special weapon as: {use}")
    deputy_gone = not any(state.spec.card_def[uid].id == "deputy"
                          for row in state.rows for uid in row)
    assert deputy_gone
    pile = state.removed[GANG] if use.startswith("Remove") else state.discards[GANG]
    assert garrotte in pile


def test_a_played_mode_still_pays_its_cost(catalog: Catalog) -> None:
    """Only the discard uses are free: put under a lawman, the pistol costs its discard."""
    decks = [catalog.base_deck("revolver", "colty"),
             {**catalog.base_deck("revolver", "mcready"), "volcanic-pistol": 1}]
    state = new_game(decks, seed=1, catalog=catalog, verbose=True)
    state.apply(state.legal_actions()[0])
    clear_hand(state, GANG)
    clear_hand(state, LAWMEN)
    stage(state, LAWMEN, "deputy", "play")
    stage(state, LAWMEN, "volcanic-pistol", "hand")
    refresh(state)
    do(state, "play Volcanic pistol")
    assert "play Volcanic pistol as: Place under a lawman card" not in option_texts(state)


def run_text(tmp_path: Path, name: str, text: str) -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(HEADER + text, encoding="utf-8")
    result = runner.invoke(app, ["scenario", str(path)])
    return result.exit_code, result.output


def passes(tmp_path: Path, name: str, text: str) -> bool:
    path = tmp_path / name
    path.write_text(HEADER + text, encoding="utf-8")
    return run_scenario(path).passed


# -- positions the format refuses (one line, file:line:col, exit 2) ----------------------------
PRISON_GAME = """\
name: x
rule: tarnished-star-en, Module B
modules: [saloon-duel, mcreadys-choice, san-manzanillo-prison-rules]
position:
  turn: colty
  mcreadys_choice: 2
  bandits:
{bandits}
expect: {{over: false}}
"""


@pytest.mark.parametrize(("bandits", "line", "says"), [
    ("    dead: [santiago]", 9, "held in the San Manzanillo Prison"),
    ("    alive: [jack-colty, santiago]", 9, "held in the San Manzanillo Prison"),
    ("    tokens: {santiago: {true_grit: 1}}", 9, "held in the San Manzanillo Prison"),
])
def test_a_bandit_the_prison_holds_is_neither_alive_nor_dead(tmp_path: Path, bandits: str,
                                                             line: int, says: str) -> None:
    code, output = run_text(tmp_path, "held.yaml", PRISON_GAME.format(bandits=bandits))
    assert code == 2, output
    (message,) = output.strip().splitlines()
    assert re.match(rf"error: .*held\.yaml:{line}:\d+: ", message) and says in message
    assert "fix: free him first" in message


def test_a_freed_bandit_is_alive_or_dead_as_the_file_says(tmp_path: Path) -> None:
    alive = PRISON_GAME.format(bandits="    freed: [santiago]").replace(
        "expect: {over: false}", "expect: {alive: [santiago], hand: {colty: "
                                 "[garrotte-santiagos-special-weapon]}}")
    assert passes(tmp_path, "alive.yaml", alive)
    held = PRISON_GAME.format(bandits="    dead: []").replace(
        "expect: {over: false}", "expect: {alive: [santiago]}")
    assert not passes(tmp_path, "held.yaml", held)  # held: not alive


def test_santiago_without_the_prison_module_is_refused(tmp_path: Path) -> None:
    text = PRISON_GAME.format(bandits="    dead: [santiago]").replace(
        "modules: [saloon-duel, mcreadys-choice, san-manzanillo-prison-rules]",
        "modules: []").replace("  mcreadys_choice: 2\n", "")
    code, output = run_text(tmp_path, "nomodule.yaml", text)
    assert code == 2 and "not in this game" in output and len(output.strip().splitlines()) == 1


@pytest.mark.parametrize(("modules", "choice", "says"), [
    ("[saloon-duel, mcreadys-choice]", "", "McReady's choice is part of the position"),
    ("[saloon-duel]", "  mcreadys_choice: 1\n", "module 'mcreadys-choice' is not in use"),
])
def test_module_b_needs_its_choice_and_the_choice_needs_module_b(
        tmp_path: Path, modules: str, choice: str, says: str) -> None:
    text = (f"name: x\nrule: tarnished-star-en, Module B\nmodules: {modules}\nposition:\n"
            f"  turn: colty\n{choice}expect: {{over: false}}\n")
    code, output = run_text(tmp_path, "choice.yaml", text)
    assert code == 2 and says in output and len(output.strip().splitlines()) == 1


@pytest.mark.parametrize("dollars", [1, 2])
def test_module_b_choice_is_staged_with_what_follows(tmp_path: Path, dollars: int) -> None:
    text = (f"name: x\nrule: tarnished-star-en, Module B\nmodules: [saloon-duel, "
            f"mcreadys-choice]\nposition:\n  turn: colty\n  mcreadys_choice: {dollars}\n"
            f"expect:\n  silver_dollars: {{mcready: {dollars}}}\n"
            f"  tokens: {{armed-train-guard@3-15-express: {{true_grit: {dollars - 1}}}}}\n")
    assert passes(tmp_path, "choice.yaml", text)


POKER = """\
name: x
game: revolver2
rule: malpaso-es, Torneo de poker
position:
{extra}  poker:
    hands:
      esteban: [all-rivers-poker-esteban-1, all-rivers-poker-esteban-2,
                all-rivers-poker-esteban-3, all-rivers-poker-esteban-4,
                all-rivers-poker-esteban-cheat-1]
      mapache: [all-rivers-poker-mapache-1, all-rivers-poker-mapache-2,
                all-rivers-poker-mapache-3, all-rivers-poker-mapache-4,
                all-rivers-poker-mapache-5]
{poker}expect: {{to_act: esteban, battlefield_set: none}}
"""


@pytest.mark.parametrize(("extra", "poker", "says"), [
    ("  army: 3\n", "", "`army` cannot be set during the poker tournament"),
    ("  battlefields: {malpaso: {mapache: [rurales]}}\n", "",
     "`battlefields` cannot be set during the poker tournament"),
    ("  turn: esteban\n", "", "it is nobody's turn"),
    ("", "    wins: {esteban: 1}\n", "the rounds played give 0-0, not 1-0"),
    ("", "    played: {esteban: [all-rivers-poker-esteban-cheat-2]}\n", "as many played"),
    ("", "    face_down: all-rivers-poker-mapache-1\n", "poker card of mapache, not of esteban"),
    ("", "    set_aside: {esteban: [all-rivers-poker-esteban-1]}\n", "puts back exactly one"),
])
def test_an_impossible_tournament_is_refused(tmp_path: Path, extra: str, poker: str,
                                             says: str) -> None:
    code, output = run_text(tmp_path, "poker.yaml", POKER.format(extra=extra, poker=poker))
    assert code == 2, output
    (message,) = output.strip().splitlines()
    assert re.match(r"error: .*poker\.yaml:\d+:\d+: ", message) and says in message


def test_a_tournament_at_its_start_is_the_guardians_choice(tmp_path: Path) -> None:
    assert passes(tmp_path, "start.yaml", POKER.format(extra="", poker=""))
