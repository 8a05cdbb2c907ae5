"""TAB completion: every parameter that names something completes it, and the completers offer
the right names for a prefix (deckbuilder.commands.completion, deckbuilder.commands.choices)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from jsonschema import Draft202012Validator, ValidationError, validators
from schema_support import offered_cards
from test_shell import complete

from deckbuilder import paths, user_schemas
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.cli import app
from deckbuilder.commands import completion
from deckbuilder.decks import packaged_deck_file, packaged_deck_names
from deckbuilder.importer import import_set
from deckbuilder.models import Deck
from deckbuilder.yamlio import load_model

SET_FIXTURES = Path(__file__).parent / "fixtures" / "sets"

#: Parameters that take free text, a number-like word, an address or a link: nothing to offer.
#: A new parameter that takes a name needs a completer, or its place here (with the reason).
FREE_TEXT = {
    ("characters", "search"), ("battlefields", "search"), ("cards", "search"),  # words
    ("deck new", "name"), ("deck rename", "new_name"), ("data review", "name"),  # your words
    ("deck import", "source"),  # a file (the shell's) or a share link
    ("overlay set", "value"), ("overlay set", "source"),  # a value and where it is stated
    ("data export", "pack_id"), ("data export", "version"),  # the new pack's id and version
    ("simulate", "scheduler"), ("optimize", "scheduler"), ("tournament", "scheduler"),
    ("serve", "host"), ("serve", "allow_host"),  # addresses
    ("join", "link"), ("replay", "commitment"),  # a link, 64 hex digits
}
#: Parameters typed as paths that also take a name (a faction, a packaged deck).
NAMED_PATHS = {("validate", "decks")}


def walk(command: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (command path, parameter) of the command line, loading every command."""
    for param in command.params:
        yield path, param
    for name in getattr(command, "commands", {}):
        yield from walk(command.commands[name], f"{path} {name}".strip())


def takes_text(param: Any) -> bool:
    annotation = param.type_descriptor.annotation
    return annotation is str or annotation == list[str]


@pytest.fixture(autouse=True)
def fresh_reading() -> Iterator[None]:
    """Completion reads the catalog once a process; each test reads its own user folder."""
    completion._catalog.cache_clear()
    completion._read_deck.cache_clear()
    yield
    completion._catalog.cache_clear()
    completion._read_deck.cache_clear()


def params_of(command_path: str) -> dict[str, Any]:
    root = typer.main.get_command(app)
    return {param.name: param for path, param in walk(root) if path == command_path}


def offers(command_path: str, name: str, incomplete: str, **typed: Any) -> list[str]:
    """What the shell is offered for one parameter, through click's own completion call."""
    command = typer.main.get_command(app)
    context = typer.Context(command)
    context.params.update(typed.pop("params", {}))
    context.args = typed.pop("args", [])
    return [item.value for item in params_of(command_path)[name].shell_complete(
        context, incomplete)]


# -- every name has a completer -------------------------------------------------------------
def test_every_parameter_that_takes_a_name_completes_it() -> None:
    root = typer.main.get_command(app)
    seen: set[tuple[str, str]] = set()
    missing = []
    for path, param in walk(root):
        key = (path, param.name)
        seen.add(key)
        completes = param._custom_shell_complete is not None
        named = key in NAMED_PATHS or (takes_text(param) and key not in FREE_TEXT)
        if named and not completes:
            missing.append(f"{path or 'deckbuilder'} {param.opts[0]}")
    assert not missing, f"no completion for: {', '.join(missing)}"
    assert not (FREE_TEXT | NAMED_PATHS) - seen, "a listed parameter is gone"


def test_the_walk_finds_the_parameters_of_every_command() -> None:
    root = typer.main.get_command(app)
    found = {(path, param.name) for path, param in walk(root)}
    assert {("sets remove", "set_id"), ("deck export", "output_format"),
            ("cards", "kind"), ("simulate", "vs"), ("play", "colty")} <= found


# -- the names offered ----------------------------------------------------------------------
def test_factions_complete_by_prefix() -> None:
    assert offers("deck new", "faction", "m") == ["mapache", "mcready"]
    assert offers("cards", "faction", "co") == ["colty"]


def test_packaged_decks_and_factions_complete_where_a_deck_is_named() -> None:
    assert "example-mcready-pinkertons" in offers("simulate", "deck", "exa")
    assert offers("validate", "decks", "example-mc") == [
        "example-mcready-pinkertons", "example-mcready-prison-guard"]
    assert offers("deck export", "deck_file", "mc") == ["mcready", "mcready-base"]


def test_a_path_is_left_to_the_shell() -> None:
    assert completion.complete_deck("./exa") == []
    assert completion.complete_deck("decks/") == []
    assert completion.complete_deck("nothing-named-so") == []


def test_a_sides_option_offers_that_sides_decks_only() -> None:
    assert offers("play", "colty", "") == [
        "colty", "colty-base", "example-colty-fan-the-gun", "example-colty-prison-break"]


def test_packaged_deck_names_hold_their_faction() -> None:
    """`deck_of_side` reads a packaged deck's side from its name: keep the names so."""
    for name in packaged_deck_names():
        path = packaged_deck_file(name)
        assert path is not None
        deck, _ = load_model(path, Deck)
        assert completion._side_of(name) == str(deck.faction), name


def test_opponents_are_decks_factions_and_weighted_decks() -> None:
    assert offers("simulate", "vs", "mcr") == ["mcready", "mcready-base"]
    assert offers("optimize", "vs", "example-mcready-pinkertons@") == [
        "example-mcready-pinkertons@2", "example-mcready-pinkertons@0.5"]
    assert offers("optimize", "vs", "colty@3") == ["colty@3"]
    assert offers("simulate", "vs", "decks/@") == ["decks/@2", "decks/@0.5"]
    assert offers("simulate", "vs", "", args=["example-colty-fan-the-gun"]) == [
        "mcready", "example-mcready-pinkertons", "example-mcready-prison-guard", "mcready-base"]
    assert offers("optimize", "vs", "", args=["esteban"]) == ["mapache", "mapache-base"]


def test_a_card_completes_by_the_start_of_its_id_or_its_name() -> None:
    catalog = project_catalog()
    assert offers("cards show", "name", "volcanic") == ["volcanic-pistol"]
    by_name = offers("cards show", "name", "first dep")
    assert by_name == ["first deputy-charlie-weathers"]
    found = catalog.find(by_name[0])
    assert found is not None and found.id == "charlie-weathers"
    assert offers("cards show", "name", "First-Dep") == ["First-Deputy-charlie-weathers"]
    assert catalog.find("First-Deputy-charlie-weathers") is not None


def test_a_card_offers_the_decks_game_only() -> None:
    catalog = project_catalog()
    offered = offers("deck stats", "cards", "", args=["esteban"])
    assert offered and {catalog.find(card, "revolver2").game for card in offered} == {"revolver2"}
    in_revolver = offers("optimize", "in_cards", "", args=["colty"])
    assert in_revolver and all(catalog.entries[card].game == "revolver" for card in in_revolver)


def test_a_card_taken_out_is_one_the_deck_holds() -> None:
    deck_file = paths.PACKAGED_DECKS / "mcready-base.yaml"
    offered = offers("deck swap", "out_card", "", params={"deck_file": deck_file})
    deck, _ = load_model(deck_file, Deck)
    assert offered and set(offered) <= {project_catalog().find(key).id for key in deck.cards}


def test_card_lists_and_swaps_complete_after_their_separator() -> None:
    assert offers("optimize", "out_cards", "volcanic-pistol,gatl") == [
        "volcanic-pistol,gatling-gun"]
    assert offers("play", "swap", "volcanic") == ["volcanic-pistol="]
    assert offers("play", "swap", "volcanic-pistol=gatl") == ["volcanic-pistol=gatling-gun"]
    assert offers("play", "swap", "volcanic-pistol=gatling-gun:") == []


def test_kinds_and_formats_complete() -> None:
    assert offers("cards", "kind", "b") == ["bandit", "battlefield"]
    assert offers("cards", "kind", "") == [
        "card", "character", "bandit", "guardian", "battlefield", "special", "token"]
    assert offers("deck export", "output_format", "") == [
        "text", "json", "markdown", "bbcode", "html", "pdf"]
    assert offers("deck export", "output_format", "m") == ["markdown"]


def test_a_replays_viewer_completes_to_a_side_or_everything() -> None:
    assert offers("replay", "viewer", "e") == ["esteban", "everything"]
    assert offers("replay", "viewer", "co") == ["colty"]


def test_installed_sets_complete_for_sets_remove() -> None:
    assert offers("sets remove", "set_id", "") == []
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    assert offers("sets remove", "set_id", "test-") == ["test-frontier-town"]
    assert offers("sets remove", "set_id", "tarn") == []  # packaged: not removable


def test_sets_rule_switches_modules_and_fields_complete() -> None:
    assert "tarnished-star" in offers("optimize", "sets", "tarn")
    switches = offers("simulate", "switch", "poker")
    assert switches == ["poker-tie="]
    readings = offers("simulate", "switch", "poker-tie=")
    assert readings and all(reading.startswith("poker-tie=") for reading in readings)
    assert "saloon-duel" in offers("play", "module", "sal")
    # validate reads only the deck-building switch: it offers that one and its readings
    assert offers("validate", "switch", "") == ["card-copies="]
    assert sorted(offers("validate", "switch", "card-copies=")) == [
        "card-copies=any-number", "card-copies=what-you-own"]
    helps = [help_text for _, help_text in completion.complete_switch(
        typer.Context(typer.main.get_command(app)), "")]
    assert helps and all("\n" not in text and len(text) <= 70 for text in helps)
    assert offers("overlay set", "field", "fire", params={"record_id": "texas-ranger"}) == [
        "firepower"]
    assert offers("data remove", "pack_id", "") == []


def test_a_broken_installed_set_can_still_be_removed(user_home: Path) -> None:
    folder = paths.installed_sets_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "broken.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    assert offers("sets remove", "set_id", "bro") == ["broken"]
    assert offers("cards show", "name", "volc") in ([], ["volcanic-pistol"])  # never fails


def test_a_broken_set_of_the_sets_folder_leaves_only_its_own_names_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    homebrew = tmp_path / "homebrew"
    homebrew.mkdir()
    (homebrew / "town.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    monkeypatch.setenv("DECKBUILDER_SETS_DIR", str(homebrew))
    assert offers("cards show", "name", "volc") == ["volcanic-pistol"]


# -- in a real shell's protocol -------------------------------------------------------------
@pytest.mark.parametrize(("words", "expected"), [
    ("deckbuilder validate example-mcready-pi", ["example-mcready-pinkertons"]),
    ("deckbuilder cards --kind gu", ["guardian"]),
    ("deckbuilder deck export mcready --format bb", ["bbcode"]),
    ("deckbuilder simulate colty --vs mcready@", ["mcready@2", "mcready@0.5"]),
    ("deckbuilder cards show volcanic-p", ["volcanic-pistol"]),
])
def test_completion_through_the_shell_protocol(words: str, expected: list[str]) -> None:
    assert complete(words) == expected


def test_a_decks_cards_complete_in_a_fresh_process_within_a_tab() -> None:
    """The deck read from the typed words, in a fresh process as on every TAB; the bound is
    generous for a loaded machine (0.3-0.6 s measured on 2 busy cores)."""
    started = time.perf_counter()
    assert complete("deckbuilder deck stats esteban --card malpaso-t") == ["malpaso-take-cover",
                                                                          "malpaso-telegram"]
    assert time.perf_counter() - started < 5



# -- the editor: the user deck schema offers the deck's game's cards only ---------------------
def deck_schema() -> dict[str, Any]:
    return user_schemas.user_deck_schema(project_catalog())


def revolver_deck(**changes: Any) -> dict[str, Any]:
    return {"name": "Mine", "game": "revolver", "faction": "mcready",
            "cards": {"apache-scout": 3}, **changes}


def test_the_deck_schema_flags_a_card_of_the_other_game() -> None:
    schema = deck_schema()
    validator = Draft202012Validator(schema)
    other = next(iter(offered_cards(schema, "revolver2")))
    assert list(validator.iter_errors(revolver_deck())) == []
    flagged = list(validator.iter_errors(revolver_deck(cards={"apache-scout": 3, other: 1})))
    assert len(flagged) == 1 and other in flagged[0].message
    mapache = revolver_deck(game="revolver2", faction="mapache", cards={other: 1})
    assert list(validator.iter_errors(mapache)) == []
    without_game = {key: value for key, value in revolver_deck(cards={other: 1}).items()
                    if key != "game"}  # the faction picks the game while game is unwritten
    assert any(other in error.message for error in validator.iter_errors(without_game))


def _begins(validator: Any, expected: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """`const`/`enum` as yaml-language-server reads them while it completes: a string equals
    any value it begins (`revolver` passes for `revolver2`)."""
    values = expected if isinstance(expected, list) else [expected]
    if not any(instance == value or (isinstance(instance, str) and isinstance(value, str)
                                     and value.startswith(instance)) for value in values):
        yield ValidationError(f"{instance!r} begins none of {values!r}")


#: How the editor picks the branches whose cards it offers.
CompletingValidator = validators.extend(Draft202012Validator,
                                        {"const": _begins, "enum": _begins})


def offered_to(schema: dict[str, Any], deck: dict[str, Any]) -> set[str]:
    """The card keys an editor offers in this deck: the `then` branches whose `if` holds."""
    keys: set[str] = set(schema["properties"]["cards"].get("properties", {}))
    for branch in schema["allOf"]:
        if CompletingValidator(branch["if"]).is_valid(deck):
            name = branch["then"]["properties"]["cards"]["$ref"].rpartition("/")[2]
            keys |= set(schema["$defs"][name]["properties"])
    return keys


def test_a_revolver_deck_is_offered_no_revolver2_card() -> None:
    schema = deck_schema()
    catalog = project_catalog()
    revolver2 = {entry.id for entry in catalog.cards() if entry.game == "revolver2"}
    revolver = {entry.id for entry in catalog.cards() if entry.game == "revolver"
                and getattr(entry.record, "deckable", True)}
    for deck in (revolver_deck(), {"name": "New", "faction": "colty"}):
        offered = offered_to(schema, deck)
        assert revolver <= offered
        assert not offered & revolver2
    assert revolver2 <= offered_to(schema, revolver_deck(game="revolver2", faction="esteban"))
