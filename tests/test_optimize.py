"""`deckbuilder optimize`: the legal decks near a deck, raced on paired games and confirmed on
fresh seeds; a planted weakness is found; the results do not depend on the executor."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckbuilder.catalog import default_catalog
from deckbuilder.cli import app
from deckbuilder.legality import deck_supply, validate_deck
from deckbuilder.models import Deck
from deckbuilder.sim.optimiser.optimize import single_swaps
from deckbuilder.sim.optimiser.optimize_candidates import Swap, apply_swaps

runner = CliRunner()


def _weakened(tmp_path: Path) -> tuple[Path, Path]:
    """McReady's base deck with his ten Deputies swapped for ten Texas Rangers (a weak card
    here: its text needs cards no deck holds), and a collection that owns exactly that."""
    cards = dict(default_catalog().base_deck("revolver", "mcready"))
    del cards["deputy"]
    cards["texas-ranger"] = 10
    deck = tmp_path / "weakened.yaml"
    deck.write_text("# my deck\nname: McReady without his deputies\ngame: revolver\n"
                    "faction: mcready\ncards:\n"
                    + "".join(f"  {card}: {copies}\n" for card, copies in cards.items()),
                    encoding="utf-8")
    collection = tmp_path / "collection.yaml"
    collection.write_text("name: a base game and five Tarnished Stars\nsets:\n"
                          "  revolver-base: 1\n  tarnished-star: 5\n", encoding="utf-8")
    return deck, collection


def test_every_candidate_is_legal_and_one_replacement_away(tmp_path: Path) -> None:
    catalog = default_catalog()
    deck_path, collection = _weakened(tmp_path)
    from deckbuilder.decks import load_collection, load_deck

    loaded = load_deck(deck_path, catalog)
    owned = load_collection(collection, catalog)
    candidates = single_swaps(loaded.deck, loaded.counts(), catalog,
                              deck_supply(catalog, collection=owned))
    assert candidates
    for candidate in candidates:
        (swap,) = candidate.swaps
        assert swap.count in (1, loaded.counts()[swap.out])
        model = Deck(name="x", game="revolver", faction="mcready", cards=candidate.cards)
        assert validate_deck(model, catalog, owned).is_legal
    ins = {candidate.swaps[0].into for candidate in candidates}
    assert "deputy" in ins and "texas-ranger" not in ins
    # a card the collection does not own enough of is never put in (two per box)
    assert not any(c.swaps[0].into == "rock-strewn-vantage-point" and c.swaps[0].count > 10
                   for c in candidates)


def test_apply_swaps_moves_copies_and_refuses_what_is_not_there() -> None:
    cards = {"deputy": 2, "cowboy": 1}
    assert apply_swaps(cards, [Swap("deputy", "texas-ranger", 2)]) == {
        "cowboy": 1, "texas-ranger": 2}
    assert apply_swaps(cards, [Swap("cowboy", "deputy"), Swap("cowboy", "deputy")]) is None


#: What may go in besides the Deputies: cards of both sets, none of them the one (Rock-strewn
#: vantage point, whose values are unconfirmed) that races the Deputies close in a free search.
DISTRACTORS = ("cowboy", "bounty-hunter", "lee-shao-chinese-railworker",
               "trained-in-the-pinkerton-ways", "volcanic-pistol", "double-the-guard")


def _planted(tmp_path: Path, seed: int, *extra: str) -> tuple[dict[str, Any], Path]:
    deck, collection = _weakened(tmp_path)
    out = tmp_path / f"better-{seed}.yaml"
    result = runner.invoke(app, ["optimize", str(deck), "--collection", str(collection),
                                 "--in", ",".join(("deputy", *DISTRACTORS)),
                                 "--budget", "1200", "--seed", str(seed), "--workers", "1",
                                 "--json", "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_planted_weakness_is_found_at_every_seed(tmp_path: Path, seed: int) -> None:
    """The Deputies taken out come back as the top suggestion, confirmed better on fresh
    seeds, at budget 1,200 among about thirty legal swaps (every card of the deck out, six
    cards in), for every seed 1-8 (racing by halving lost them at seed 4; the race on plain
    means lost them at seeds 1 and 6 to smaller swaps that won their first games); and the
    deck written says what changed, keeps the player's comments and stays legal."""
    report, out = _planted(tmp_path, seed)
    # Double the guard, dead without the prison, brings no candidate (its 30 swaps were half
    # the case's until the search stopped racing cards that can do nothing in the set-up)
    assert [card["card"] for card in report["left_out"]] == ["double-the-guard"]
    assert report["candidates"] > 25
    top = report["finalists"][0]
    assert ("texas-ranger", "deputy", 10) in {
        (swap["out"], swap["in"], swap["count"]) for swap in top["swaps"]}, top
    assert top["difference"]["low"] > 0  # confirmed on fresh seeds, not only chosen
    assert report["games"] <= 1200 and report["improved"]
    assert report["told_apart"]["better_than_the_deck"] >= 1
    assert out.exists() and report["output"] == str(out)
    written = out.read_text(encoding="utf-8")
    first = written.splitlines()
    # a schema line only where one resolves (user_schemas.deck_header), then the header
    header_at = 1 if first[0].startswith("# yaml-language-server: $schema=") else 0
    assert first[header_at].startswith("# Written by `deckbuilder optimize`")
    assert written.count("# yaml-language-server") <= 1 and "# my deck" in written
    assert "swapped:" in written and "deputy" in written and "GUESS" not in written
    _deck, collection = _weakened(tmp_path)
    assert runner.invoke(app, ["validate", str(out), "--collection", str(collection)]
                         ).exit_code == 0


#: The TEST FIXTURE set of invented Revolver 2 cards (not card data; see its header).
REVOLVER2_FIXTURE = Path(__file__).parent / "fixtures" / "sets" / "test-fixture-revolver2.yaml"
#: The Revolver 2 case's budget and seeds here: one seed, to keep this file's time (it is found
#: and confirmed at 4 of seeds 1-8 at 1,200, 5 at 2,400 and all 8 at 4,800; the benchmark
#: benchmarks/bench_optimize.py --case revolver2 measures them, docs/players/optimise.md has
#: the figures).
REVOLVER2_BUDGET = 1200
REVOLVER2_SEEDS = (6,)


def test_a_planted_weakness_in_a_revolver2_deck_is_found(tmp_path: Path) -> None:
    """Revolver 2's base set leaves no deck-building freedom (every change to a base deck
    is illegal), so a player optimises a Revolver 2 deck with an imported set: here the TEST
    FIXTURE set of invented cards, imported as a player imports an expansion. Padre
    Esteban's fourteen Armed villagers swapped for its Scarecrows (villagers without
    firepower) come back as the top suggestion, confirmed better on fresh seeds."""
    assert runner.invoke(app, ["sets", "import", str(REVOLVER2_FIXTURE)]).exit_code == 0
    cards = dict(default_catalog().base_deck("revolver2", "esteban"))
    cards["test-fixture-scarecrow"] = cards.pop("armed-villager")
    deck = tmp_path / "scarecrows.yaml"
    deck.write_text("name: Esteban with scarecrows\ngame: revolver2\nfaction: esteban\n"
                    "sets: [test-fixture-revolver2]\ncards:\n"
                    + "".join(f"  {card}: {copies}\n" for card, copies in cards.items()),
                    encoding="utf-8")
    for seed in REVOLVER2_SEEDS:
        result = runner.invoke(app, ["optimize", str(deck), "--budget", str(REVOLVER2_BUDGET),
                                     "--seed", str(seed), "--workers", "1", "--json"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        top = report["finalists"][0]
        assert ("test-fixture-scarecrow", "armed-villager", 14) in {
            (swap["out"], swap["in"], swap["count"]) for swap in top["swaps"]}, (seed, top)
        assert top["difference"]["low"] > 0 and report["improved"], seed
        # 18 candidates: no swap puts in more copies than one box of the fixture holds
        assert report["candidates"] >= 18 and report["games"] <= REVOLVER2_BUDGET


def test_results_are_the_same_for_any_worker_count(tmp_path: Path) -> None:
    deck, collection = _weakened(tmp_path)
    common = ["optimize", str(deck), "--collection", str(collection), "--out", "texas-ranger",
              "--budget", "160", "--seed", "5", "--bot", "random", "--json"]
    serial = runner.invoke(app, [*common, "--workers", "1"])
    pooled = runner.invoke(app, [*common, "--workers", "2"])
    assert serial.exit_code == 0 and pooled.exit_code == 0, serial.output + pooled.output
    assert json.loads(serial.stdout) == json.loads(pooled.stdout)


def test_the_best_deck_is_written_only_when_confirmed_better(tmp_path: Path) -> None:
    """A search always has a best candidate; unless its confirmed interval lies above zero,
    -o writes nothing (exit 0, and a line that says why and what budget would tell), and
    --write-guess writes it with a header that calls it a guess."""
    deck, collection = _weakened(tmp_path)
    common = ["optimize", str(deck), "--collection", str(collection), "--out", "texas-ranger",
              "--budget", "160", "--seed", "5", "--bot", "random"]
    out = tmp_path / "better.yaml"
    result = runner.invoke(app, [*common, "--json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    best = report["finalists"][0]["difference"]
    assert best["low"] <= 0 and report["improved"] is False  # 160 games tell nothing here
    assert not out.exists() and report["output"] is None
    assert "no swap is clearly better at this budget; about " in report["advice"]
    text = runner.invoke(app, [*common, "-o", str(out)])
    assert text.exit_code == 0 and not out.exists()
    assert "nothing written to" in text.stdout and "--write-guess" in text.stdout
    guessed = runner.invoke(app, [*common, "--json", "-o", str(out), "--write-guess"])
    assert guessed.exit_code == 0, guessed.output
    assert json.loads(guessed.stdout)["output_is_a_guess"] is True
    assert "A GUESS (--write-guess)" in out.read_text(encoding="utf-8")


def test_an_illegal_or_unknown_request_is_one_line(tmp_path: Path) -> None:
    deck, _ = _weakened(tmp_path)
    result = runner.invoke(app, ["optimize", str(deck), "--out", "no-such-card",
                                 "--budget", "40"])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    existing = tmp_path / "taken.yaml"
    existing.write_text("mine\n")
    refused = runner.invoke(app, ["optimize", str(deck), "--budget", "40", "-o",
                                  str(existing)])
    assert refused.exit_code == 2 and existing.read_text() == "mine\n"
