"""Game options beyond the decks: the expansions' rule switches, modules, and card instances
in no deck (a module's cards), through the registry, the table and the records."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.catalog import default_catalog
from deckbuilder.cli import app
from deckbuilder.engine.compiled import game_spec
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.games import get_game, new_game
from deckbuilder.protocol import UnplayableDeckError
from deckbuilder.sim.records.transcript import GameRecord, read_record


def revolver_decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]


def test_an_expansions_rule_switch_is_read_and_can_be_chosen() -> None:
    plain = new_game(revolver_decks(), 1)
    assert plain.spec.rules.variant("saloon-duel-resolution", "?") == "by-response"
    chosen = new_game(revolver_decks(), 1, switches={"saloon-duel-resolution": "printed-sequence"})
    assert chosen.spec.rules.variant("saloon-duel-resolution", "?") == "printed-sequence"


def _playable_mcready_card_in_no_base_deck() -> str:
    catalog = default_catalog()
    in_decks = {card for deck in revolver_decks() for card in deck}
    game_rules = get_game("revolver").rules
    return next(entry.id for entry in catalog.cards()
                if entry.game == "revolver" and entry.record.faction == "mcready"
                and entry.id not in in_decks
                and not unimplemented_reasons(entry.record, game_rules.steps))


def test_a_card_in_no_deck_becomes_an_instance_of_its_player() -> None:
    catalog = default_catalog()
    game_rules = get_game("revolver").rules
    card_id = _playable_mcready_card_in_no_base_deck()
    plain = game_spec(catalog, game_rules, revolver_decks(), None)
    spec = game_spec(catalog, game_rules, revolver_decks(), None, extra_cards=[(1, card_id)])
    (uid,) = spec.extra_uids
    assert spec.card_def[uid].id == card_id and spec.owner[uid] == 1
    assert uid not in spec.decks[0] and uid not in spec.decks[1]
    assert spec.n_cards == plain.n_cards + 1 and spec.character_base == uid + 1
    definition = spec.def_of[uid]
    assert spec.action_def[spec.pay_action[definition]] == definition
    assert plain.extra_uids == () and plain.modules == frozenset()


HOMEBREW_MODULE_SET = """\
id: test-rodeo
name: Test rodeo
version: "1.0"
game: revolver
kind: homebrew
modules:
  - id: test-rodeo-module
    name: The rodeo
    description: A homebrew module no engine plays.
"""


def test_every_packaged_module_is_played() -> None:
    packaged = {module.id for loaded in default_catalog().sets.values()
                for module in loaded.card_set.modules if loaded.card_set.game == "revolver"}
    assert packaged and packaged <= get_game("revolver").rules.modules


def test_a_module_the_engine_does_not_play_is_refused_by_name(tmp_path: Path) -> None:
    from deckbuilder.catalog import build_catalog

    homebrew = tmp_path / "test-rodeo.yaml"
    homebrew.write_text(HOMEBREW_MODULE_SET, encoding="utf-8")
    catalog = build_catalog(user_sets=[homebrew])
    with pytest.raises(UnplayableDeckError, match="cannot be played with module test-rodeo-module"):
        new_game(revolver_decks(), 1, catalog=catalog, modules=["test-rodeo-module"])
    with pytest.raises(UnplayableDeckError, match="no-such-module"):
        new_game(revolver_decks(), 1, modules=["no-such-module"])


def test_the_command_line_refuses_an_unknown_module_in_one_line() -> None:
    runner = CliRunner()
    for command in (["play", "--module", "no-such-module", "-q"],
                    ["simulate", "colty", "--games", "2", "--module", "no-such-module"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, command
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "no-such-module" in lines[0]


def test_a_record_keeps_its_modules(tmp_path: Path) -> None:
    record = GameRecord({"colty": {"38-special": 1}, "mcready": {"deputy": 1}}, 3, "rulebook-en",
                        {"colty": "random", "mcready": "random"}, modules=["saloon-duel"],
                        winner="colty", termination="border_emptied", turns=1)
    assert record.header()["modules"] == ["saloon-duel"]
    assert "modules" not in GameRecord({}, 3, "rulebook-en", {}).header()
    path = tmp_path / "game.jsonl"
    path.write_text(record.to_jsonl(), encoding="utf-8")
    assert read_record(path).modules == ["saloon-duel"]


SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def test_scenario_asks_the_same_question_under_another_reading() -> None:
    runner = CliRunner()
    path = str(SCENARIOS / "switch-true-grit-kill-not-a-kill.yaml")
    assert runner.invoke(app, ["scenario", path]).exit_code == 0
    other = runner.invoke(app, ["scenario", path, "--switch", "true-grit-kill=counts-as-kill"])
    assert other.exit_code == 1 and "expected" in other.stderr
    ruleset = runner.invoke(app, ["scenario", path, "--ruleset", "reviews"])
    assert ruleset.exit_code == 1  # the reviews' reading counts the token as a kill
    bad = runner.invoke(app, ["scenario", path, "--ruleset", "no-such-ruleset"])
    assert bad.exit_code == 2 and len(bad.stderr.strip().splitlines()) == 1
    typo = runner.invoke(app, ["scenario", path, "--switch", "true-grit-kill=maybe"])
    assert typo.exit_code == 2 and "not a reading" in typo.stderr


def test_a_card_that_can_do_nothing_in_the_set_up_is_named_with_why() -> None:
    from deckbuilder.games import dead_card_warnings

    colty, mcready = revolver_decks()
    assert dead_card_warnings([colty, mcready]) == []
    mcready = {**mcready, "double-the-guard": 1}
    colty = {**colty, "pull-the-bars-out-with-a-horse": 1}
    warnings = dead_card_warnings([colty, mcready])
    assert len(warnings) == 2
    assert warnings[0].startswith("Double the guard can do nothing") and "Prison" in warnings[0]
    assert warnings[1].startswith("Pull the bars out with a horse can do nothing")
    assert "Double the guard" in warnings[1]


def test_a_card_whose_only_target_neither_deck_holds_is_dead() -> None:
    """Pull the bars acts only on Double the guard: against a McReady deck without one it can
    never be played, even though nothing else in the set-up is dead."""
    from deckbuilder.games import dead_card_warnings

    colty, mcready = revolver_decks()
    colty = {**colty, "pull-the-bars-out-with-a-horse": 1}
    (warning,) = dead_card_warnings([colty, mcready])
    assert warning.startswith("Pull the bars out with a horse can do nothing")
    assert "neither deck holds" in warning


def test_validate_and_simulate_report_a_dead_card(tmp_path: Path) -> None:
    import json

    cards = dict(revolver_decks()[1])
    cards["deputy"] -= 1
    cards["double-the-guard"] = 1
    deck = tmp_path / "guard.yaml"
    deck.write_text("name: Guarded\ngame: revolver\nfaction: mcready\ncards:\n"
                    + "".join(f"  {card}: {copies}\n" for card, copies in cards.items()),
                    encoding="utf-8")
    runner = CliRunner()
    validated = runner.invoke(app, ["validate", str(deck), "--json"])
    assert any("Double the guard can do nothing" in w
               for w in json.loads(validated.stdout)["warnings"])
    simulated = runner.invoke(app, ["simulate", str(deck), "--games", "2", "--bot", "random",
                                    "--json", "--allow-illegal"])
    assert simulated.exit_code == 0, simulated.output
    assert any("can do nothing" in w for w in json.loads(simulated.stdout)["warnings"])


def test_every_decision_kind_has_a_name() -> None:
    """A new decision kind shows in positions and to bots by its name, not as "decision":
    every kind the table or a game defines has its record (the table's in `TABLE_KINDS`, a
    game's in its declaration), and no two records share a code."""
    from deckbuilder.engine import actions
    from deckbuilder.games.revolver import declaration as revolver
    from deckbuilder.games.revolver2 import declaration as revolver2

    for module, records in ((actions, actions.TABLE_KINDS),
                            (revolver, revolver.DECISION_KINDS),
                            (revolver2, revolver2.DECISION_KINDS)):
        kinds = {value for name, value in vars(module).items()
                 if name.startswith("K_") and isinstance(value, int)}
        assert kinds and kinds <= {record.code for record in records}, module.__name__
        assert all(record.words for record in records)
    for game in (revolver, revolver2):
        assert set(actions.decision_kinds(game.DECISION_KINDS)) >= {
            record.code for record in game.DECISION_KINDS}
