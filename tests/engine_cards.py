"""A synthetic Revolver card set for the engine tests.

It mirrors the base game (five battlefields, sixteen bandits, the border, Derail the Train,
the rule switches) with card values taken from the rulebook's examples, so rule tests do not
depend on the guessed values of the packaged data. A few homebrew cards exercise the effect
steps the base game never uses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deckbuilder.catalog import Catalog, LoadedSet
from deckbuilder.engine.state import State
from deckbuilder.games import new_game
from deckbuilder.models import CardSet


def _card(card_id: str, faction: str, play: str, cost: int = 0, firepower: int | None = None,
          category: str | None = None, copies: int = 2, **extra: Any) -> dict[str, Any]:
    card = {
        "id": card_id, "name": extra.pop("name", card_id.replace("-", " ").title()),
        "faction": faction, "play": play, "cost": cost, "copies": copies,
        "category": category or ("firepower" if play == "firepower" else "action"),
    }
    if firepower is not None:
        card["firepower"] = firepower
    card.update(extra)
    return card


def _kill(where: str = "current", **extra: Any) -> dict[str, Any]:
    return {"do": "kill", "target": {"side": "opponent", "where": where,
                                     "categories": ["character"]}, **extra}


COLTY_CARDS = [
    _card("38-special", "colty", "firepower", 0, 1, copies=6, name=".38 Special"),
    _card("hail-of-bullets", "colty", "firepower", 1, 3, copies=3),
    _card("gatling-gun", "colty", "firepower", 2, 4),
    _card("peacemaker-45", "colty", "firepower", 0, 2),
    _card("derringer", "colty", "firepower", 0, 1, counts_toward_limit=False,
          name="1866 Double Barrel Derringer"),
    _card("lets-shoot", "colty", "firepower", 0, 1, modes=[
        {"name": "gain one firepower", "play": "firepower", "firepower": 1},
        {"name": "destroy one row-blocking card", "play": "one-shot", "effect": [
            {"do": "destroy", "target": {"side": "opponent", "plays": ["row-blocking"]}}]},
    ]),
    _card("yellow-boy-rifle", "colty", "firepower", 1, 2, effect=[
        {"do": "optional-cost", "discard": 1, "steps": [_kill()]}]),
    _card("the-jackson-clan", "colty", "firepower", 3, 4, category="character", copies=1,
          icons=["impervious"], cost_waived_at=["3-15-express"]),
    _card("stick-of-dynamite", "colty", "one-shot", 1, not_at=["bank"], effect=[
        _kill(count="all", up_to=True, max_total_firepower=3)]),
    _card("fire-at-will-boys", "colty", "one-shot", 0, effect=[
        {"do": "destroy", "target": {"side": "opponent", "plays": ["firepower"]}}]),
    _card("chew-on-this-gringo", "colty", "one-shot", 0, effect=[_kill()]),
    _card("polecats", "colty", "one-shot", 2, effect=[
        _kill(count=2, up_to=True, remove_from_game=True)]),
    _card("pack-yer-bags", "colty", "one-shot", 1, effect=[
        {"do": "move-marker", "spaces": 1, "stay_on_battlefield": True}]),
    _card("lightning-reflexes", "colty", "one-shot", 1, triggers=[
        {"when": "opponent-attack-kills", "steps": [{"do": "cancel-attack"}]}]),
    _card("adios-amigo", "colty", "one-shot", 1, effect=[
        {"do": "kill", "target": {"side": "opponent", "where": "any",
                                  "cards": ["colonel-ned-mcready"]}, "ignore_true_grit": True},
        {"do": "draw", "count": 1}]),
    _card("saddlebags", "colty", "one-shot", 1, effect=[
        {"do": "bounce", "target": {"side": "self", "where": "any",
                                    "categories": ["firepower", "character"],
                                    "exclude": ["gatling-gun"]}}]),
    _card("came-along-for-the-ride", "colty", "one-shot", 0, effect=[
        {"do": "sacrifice", "count": 2}, _kill(count="all")]),
    _card("sandstorm", "colty", "row-blocking", 1, placement="beside",
          effect=[{"do": "row-limit", "limit": 2}]),
]

MCREADY_CARDS = [
    _card("deputy", "mcready", "firepower", 1, 2, category="character", copies=6),
    _card("cowboy", "mcready", "firepower", 0, 1, category="character", copies=6),
    _card("charlie-weathers", "mcready", "firepower", 1, 3, category="character", copies=1,
          icons=["true-grit"]),
    _card("buffalo-stampede", "mcready", "firepower", 2, 3, copies=2),
    _card("colonel-ned-mcready", "mcready", "firepower", 3, 4, category="character", copies=1,
          icons=["true-grit"], cost_waived_at=["rattlesnake-creek", "3-15-express"],
          reshuffles=False, effect=[{"do": "casualty"}]),
    _card("josie-logan", "mcready", "firepower", 2, 3, category="character", copies=1,
          placement="any", effect=[{"do": "add-token", "only_if_upcoming": True}]),
    _card("quincey-whitmore", "mcready", "firepower", 1, 2, category="character", copies=1,
          abilities=[{"name": "ride", "discard_cost": 1, "steps": [
              {"do": "move-card", "target": {"side": "self", "where": "any",
                                             "cards": ["quincey-whitmore"]},
               "to": "adjacent"}]}]),
    _card("cactus-field", "mcready", "row-blocking", 1, category="location"),
    _card("rickety-bridge", "mcready", "row-blocking", 1, category="location",
          placement="opponent-any"),
    _card("pilgrim", "mcready", "one-shot", 1, effect=[
        {"do": "move-marker", "spaces": -1, "stay_on_battlefield": True}]),
    _card("didnt-see-this-comin", "mcready", "one-shot", 0, effect=[
        {"do": "move-card", "target": {"side": "self", "where": "any",
                                       "categories": ["character"]}, "to": "current"}]),
    _card("outta-bullets", "mcready", "one-shot", 0, effect=[
        {"do": "destroy", "target": {"side": "opponent", "cards": ["gatling-gun"]},
         "up_to": True}, {"do": "draw"}]),
    _card("he-shot-my-hat", "mcready", "one-shot", 0, triggers=[
        {"when": "opponent-plays", "cards": ["fire-at-will-boys"],
         "steps": [{"do": "cancel-card"}]}]),
    _card("about-time-partner", "mcready", "one-shot", 0, effect=[
        {"do": "retrieve", "categories": ["character"], "to": "hand"}]),
    _card("shucks", "mcready", "one-shot", 1, effect=[
        {"do": "retrieve", "categories": ["character"], "to": "play"}]),
    _card("get-the-rope", "mcready", "one-shot", 2, effect=[{"do": "casualty"}]),
]

# Homebrew cards for the steps the base game does not use (never in the default decks).
HOMEBREW_CARDS = [
    _card("pickpocket", "colty", "one-shot", 0, deckable=False, effect=[
        {"do": "discard", "side": "opponent", "count": 1, "random": True}]),
    _card("name-your-poison", "colty", "one-shot", 0, deckable=False, effect=[
        {"do": "discard", "side": "opponent", "named": True}]),
    _card("tax-collector", "mcready", "one-shot", 0, deckable=False, effect=[
        {"do": "discard", "side": "opponent", "count": 2}]),
    _card("scout-ahead", "colty", "one-shot", 0, deckable=False, effect=[{"do": "search-deck"}]),
    _card("card-sharp", "colty", "one-shot", 0, deckable=False,
          effect=[{"do": "shuffle-hands"}]),
    _card("smuggler", "colty", "one-shot", 0, deckable=False,
          effect=[{"do": "border-tokens", "count": 2}, {"do": "remove-self"}]),
    _card("deadly-oath", "mcready", "one-shot", 0, deckable=False,
          effect=[{"do": "forbid", "cards": ["38-special"]}]),
    _card("cursed-idol", "colty", "one-shot", 0, deckable=False, effect=[{"do": "lose-game"}]),
    _card("ammo-wagon", "mcready", "firepower", 0, 0, deckable=False, effect=[
        {"do": "add-token", "target": {"side": "self", "categories": ["character"]},
         "count": 2}]),
    _card("fan-the-hammer", "mcready", "one-shot", 0, deckable=False, effect=[
        {"do": "add-token", "count": 2, "each": True,
         "target": {"side": "self", "cards": ["deputy", "cowboy"]}}]),
    _card("war-chest", "mcready", "firepower", 0, 1, deckable=False, effect=[
        {"do": "add-token", "per_card_in_discard": ["cowboy"]}]),
    _card("eagle-eye", "colty", "one-shot", 0, deckable=False, effect=[
        {"do": "add-token", "token": "eagle", "target": {"side": "opponent", "where": "any"}}]),
    _card("lucky-dollar", "colty", "one-shot", 0, deckable=False,
          effect=[{"do": "add-token", "token": "silver-dollar"}]),
    _card("dust-off", "mcready", "one-shot", 0, deckable=False, effect=[
        {"do": "retrieve", "to": "deck-top"}]),
    _card("last-stand", "mcready", "one-shot", 0, deckable=False,
          effect=[{"do": "sacrifice", "count": 1}]),
    _card("wrecking-ball", "mcready", "one-shot", 0, deckable=False, effect=[
        {"do": "destroy", "target": {"side": "opponent", "where": "any"}, "count": "all"}]),
    _card("lookout-post", "mcready", "firepower", 0, 1, deckable=False, triggers=[
        {"when": "on-destroyed", "steps": [{"do": "draw"}]},
        {"when": "draw-phase-here", "steps": [{"do": "draw"}]},
        {"when": "leave-battlefield", "steps": [{"do": "remove-self"}]},
        {"when": "marker-enters", "battlefield": "3-15-express",
         "steps": [{"do": "border-tokens"}]}]),
    _card("bounty-posse", "mcready", "firepower", 0, 1, category="character", deckable=False,
          triggers=[{"when": "on-death", "steps": [{"do": "draw", "side": "opponent"}]}]),
    _card("smoke-signals", "colty", "one-shot", 0, deckable=False, effect=[
        {"do": "move-marker", "spaces": 2, "stay_on_battlefield": False}]),
    _card("sheriffs-decree", "mcready", "one-shot", 0, deckable=False,
          effect=[{"do": "draw", "count": 1, "side": "any"}]),
    _card("ghost-story", "colty", "one-shot", 0, deckable=False,
          effect=[{"do": "manual", "text": "something no engine can do"}]),
    _card("hidden-trick", "colty", "one-shot", 0, deckable=False, effect=[
        {"do": "optional-cost", "steps": [{"do": "manual", "text": "a nested mystery"}]}]),
]
#: Homebrew cards no engine can play (a `manual` step, at the top or nested).
UNPLAYABLE = frozenset({"ghost-story", "hidden-trick"})


def _bandit(bandit_id: str, survival: int, **extra: Any) -> dict[str, Any]:
    return {"id": bandit_id, "name": extra.pop("name", bandit_id.replace("-", " ").title()),
            "faction": "colty", "survival": survival, **extra}


BANDITS = [
    _bandit("jack-colty", 5, leader=True, on_death=[{"do": "lose-game"}]),
    _bandit("cortez", 4, triggers=[{"when": "marker-enters", "battlefield": "3-15-express",
                                    "optional": False,
                                    "steps": [{"do": "add-token", "token": "power"}]}]),
    _bandit("missy-jameson", 3),
    _bandit("kittens-mackenzie", 3, on_death=[
        {"do": "extra-turns", "face": "kittens", "count": 2, "unless_reached": "3-15-express"}]),
    _bandit("manolito", 2),
    _bandit("josie-newcombe", 2),
    _bandit("salomon-mason", 2),
    _bandit("skinny-landell", 1, power_tokens=1, triggers=[
        {"when": "on-token-lost", "optional": False, "steps": [
            {"do": "extra-turns", "face": "skinny", "unless_reached": "rattlesnake-creek"}]}]),
    _bandit("annie-mcgraw", 1),
    _bandit("harry-houndy", 1),
    _bandit("bruno-caple", 1, on_death=[{"do": "forbid", "cards": ["peacemaker-45"]}]),
    _bandit("lenny-mason", 1),
    _bandit("marmaduke", 0),
    _bandit("bullet", 0),
    _bandit("micky-mason", 0),
    _bandit("poppy-mcready", 0),
]


def _spaces(*labels: str) -> list[dict[str, str]]:
    spaces = []
    for label in labels:
        if label == "-":
            spaces.append({"label": "-", "kind": "extra"})
        elif label.isdigit():
            spaces.append({"label": label})
        else:
            spaces.append({"label": label, "kind": "face", "face": label})
    return spaces


BATTLEFIELDS = [
    {"id": "bank", "name": "The Bank at Repentance Springs", "order": 1, "defence": 0,
     "spaces": _spaces("-", "1", "2", "3", "4")},
    {"id": "whiskey-canyon", "name": "Whiskey Canyon", "order": 2, "defence": 0,
     "spaces": _spaces("-", "1", "2", "3")},
    {"id": "buzzard-point", "name": "Buzzard Point", "order": 3, "defence": 1,
     "spaces": _spaces("-", "1", "2", "3")},
    {"id": "rattlesnake-creek", "name": "Rattlesnake Creek", "order": 4, "defence": 1,
     "spaces": _spaces("-", "1", "2", "3", "kittens", "kittens", "skinny")},
    {"id": "3-15-express", "name": "3:15 Express from Rattlesnake Station", "order": 5,
     "defence": 1, "spaces": _spaces("-", "1", "2", "3", "4")},
]

SWITCHES = [
    {"id": "mcready-victory", "description": "extra McReady victories", "default":
     "gang-wiped-out", "variants": [
         {"value": "gang-wiped-out", "description": "en", "source": "rulebook-en"},
         {"value": "cortez-before-train", "description": "nl", "source": "rulebook-nl",
          "params": {"character": "cortez", "before": "3-15-express"}},
         {"value": "jack-killed", "description": "reviews", "source": "reviews"}]},
    {"id": "train-victory", "description": "the train", "default": "jack-survives-space-4",
     "variants": [
         {"value": "jack-survives-space-4", "description": "en", "source": "rulebook-en"},
         {"value": "alive-end-of-round", "description": "nl", "source": "rulebook-nl"},
         {"value": "any-member", "description": "reviews", "source": "reviews"}]},
    {"id": "skinny-token", "description": "Skinny's token", "default": "power", "variants": [
        {"value": "power", "description": "set-up", "source": "rulebook-en"},
        {"value": "true-grit", "description": "FAQ", "source": "rulebook-en"}]},
]

RULESETS = [
    {"id": "rulebook-en", "name": "English", "description": "default", "choices": {
        "mcready-victory": "gang-wiped-out", "train-victory": "jack-survives-space-4",
        "skinny-token": "power"}},
    {"id": "rulebook-nl", "name": "Dutch", "description": "nl", "choices": {
        "mcready-victory": "cortez-before-train", "train-victory": "alive-end-of-round",
        "skinny-token": "true-grit"}},
    {"id": "reviews", "name": "Reviews", "description": "reviews", "choices": {
        "mcready-victory": "jack-killed", "train-victory": "any-member",
        "skinny-token": "true-grit"}},
]


def synthetic_set() -> CardSet:
    return CardSet.model_validate({
        "id": "synthetic-revolver", "name": "Synthetic Revolver", "version": "1.0",
        "game": "revolver", "kind": "base",
        "cards": COLTY_CARDS + MCREADY_CARDS + HOMEBREW_CARDS,
        "characters": BANDITS, "battlefields": BATTLEFIELDS,
        "specials": [
            {"id": "derail-the-train", "name": "Derail the Train", "faction": "colty",
             "beside": "3-15-express", "effect": [{"do": "derail"}, {"do": "remove-self"}]},
            {"id": "mexican-border", "name": "Mexican Border", "faction": "colty",
             "tokens": 12},
        ],
        "rule_switches": SWITCHES, "rulesets": RULESETS,
    })


_CATALOG: Catalog | None = None


def synthetic_catalog() -> Catalog:
    global _CATALOG
    if _CATALOG is None:
        catalog = Catalog()
        catalog.add_set(LoadedSet(synthetic_set(), Path("<synthetic>"), "package"))
        _CATALOG = catalog
    return _CATALOG


def synthetic_decks() -> list[dict[str, int]]:
    catalog = synthetic_catalog()
    return [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]


def synthetic_game(seed: int = 0, ruleset: str = "rulebook-en",
                   decks: list[dict[str, int]] | None = None, **options: Any) -> State:
    return new_game(decks or synthetic_decks(), seed=seed, ruleset=ruleset,
                    catalog=synthetic_catalog(), **options)


def with_cards(extra: dict[str, int], player: int) -> list[dict[str, int]]:
    """The synthetic decks with some cards added to one player's deck."""
    decks = synthetic_decks()
    decks[player] = {**decks[player], **extra}
    return decks


def ready(state: State, player: int) -> State:
    """Advance to `player`'s first play phase (0: the gang's turn 1, 1: McReady's turn 2) and
    put both hands back under the decks, so a test stages exactly the cards it needs."""
    from table_staging import clear_hand, refresh

    if player == 1 and state.active == 0:
        state.apply(0)  # the gang passes its first turn
    clear_hand(state, 0)
    clear_hand(state, 1)
    refresh(state)
    return state


def hand(state: State, player: int, *card_ids: str) -> None:
    """Give `player` these cards (from his deck) and recompute the open decision."""
    from table_staging import refresh, stage

    for card_id in card_ids:
        stage(state, player, card_id, "hand")
    refresh(state)


def in_play(state: State, player: int, *card_ids: str, battlefield: str | None = None) -> list[int]:
    """Put these cards of `player` into play (at the marker's battlefield by default)."""
    from table_staging import refresh, stage

    uids = [stage(state, player, card_id, "play", battlefield) for card_id in card_ids]
    refresh(state)
    return uids


def bandit(state: State, bandit_id: str) -> int:
    return next(c.idx for c in state.spec.characters if c.id == bandit_id)


def alive(state: State, bandit_id: str) -> bool:
    return state.alive[bandit(state, bandit_id)]


def names(state: State) -> list[str]:
    """The open decision's legal actions, as text."""
    return [state.action_to_string(action) for action in state.legal]
