"""Running a scenario: build the State of its position, play its actions, check expectations.

The position is laid out on a freshly set-up game of the same decks: every card instance is
taken back, then dealt where the file says, and the open decision is re-opened for the named
player, with the State's own fields, the board's primitives and each game's staging (found
through the registry, `scenario_kit.staging.Staging`): the engine needs no scenario hook.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.engine.actions import K_MAIN, kind_name
from deckbuilder.engine.board import find_row, place
from deckbuilder.engine.chance import shuffle
from deckbuilder.engine.codes import SLOT_NONE
from deckbuilder.engine.expansion_steps import (
    NEED_HOST,
    attach_card,
    attach_hosts,
    lay_face_down_under,
)
from deckbuilder.engine.position import player_name
from deckbuilder.engine.possible import ImpossiblePositionError, verify_position
from deckbuilder.engine.state import PHASE_PLAY, State
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import get_game, new_game
from deckbuilder.protocol import InvariantError
from deckbuilder.rulesets import UnknownRulesetError
from deckbuilder.scenario_kit.layout import OPEN_RANGE, Ids
from deckbuilder.scenario_kit.parts import (
    Check,
    Offer,
    PlacedCard,
    PlayedStep,
    ScenarioResult,
    Source,
    StepBase,
)
from deckbuilder.scenario_kit.staging import set_tokens
from deckbuilder.scenarios.checks import check_all, validate_ids
from deckbuilder.scenarios.choosing import choose_action
from deckbuilder.scenarios.dealt import (
    Dealt,
    DeckSupply,
    verify_setup_pieces,
    verify_sides,
)
from deckbuilder.scenarios.model import PARTS, AnyScenario, load_scenario

#: game turns counted so far when the file does not say, by side: the second turn of each
#: (on his first turn the side that moves first does not advance the marker)
DEFAULT_TURN_NUMBER = (3, 4)


def side_names(scenario: AnyScenario) -> tuple[str, str]:
    return get_game(scenario.game).side_names


# -- building the position ----------------------------------------------------------------------
def _needed(scenario: AnyScenario, ids: Ids) -> tuple[list[Dealt], dict[str, object]]:
    """Every card the position deals (`Dealt`), and the resolved ids by place."""
    position = scenario.position
    dealt: list[Dealt] = []
    resolved: dict[str, Any] = {}
    names = side_names(scenario)
    for player, name in enumerate(names):
        side = getattr(position, name)
        for zone in ("hand", "deck", "discard", "removed"):
            loc: tuple = ("position", name, zone)
            cards = ids.cards(getattr(side, zone), loc)
            resolved[f"{name}.{zone}"] = cards
            dealt.extend(Dealt(player, zone, card, (*loc, index))
                         for index, card in enumerate(cards))
    for bf_text, sides in position.battlefields.items():
        bf_id = bf_text if bf_text == OPEN_RANGE else \
            ids.resolve(bf_text, "battlefield", ("position", "battlefields", bf_text))
        for player, name in enumerate(names):
            for index, item in enumerate(getattr(sides, name)):
                placed = item if isinstance(item, PlacedCard) else PlacedCard(card=item)
                loc = ("position", "battlefields", bf_text, name, index)
                card = ids.resolve(placed.card, "card", loc)
                under = ids.cards(placed.under, (*loc, "under"))
                resolved.setdefault("in_play", []).append((bf_id, player, card, placed, loc))
                resolved.setdefault("under", []).append((player, under, loc))
                dealt.append(Dealt(player, "play", card, loc))
                dealt.extend(Dealt(player, "under", below, (*loc, "under", number))
                             for number, below in enumerate(under))
    verify_sides(dealt, names, ids)
    return dealt, resolved


def _decks(scenario: AnyScenario, ids: Ids,
           dealt: list[Dealt]) -> tuple[list[dict[str, int]], list[dict[str, int]]]:
    """Each side's deck: as `decks` gives it (the position may need no more than it holds),
    else the base deck with the copies the position needs added from one box of each
    product (a unique card once); and each deck as it was before those were added."""
    supply = DeckSupply(ids.catalog, scenario.game, ids.source, dict(scenario.switches))
    needed = [Counter(item.card for item in dealt if item.player == player) for player in (0, 1)]
    places = {(item.player, item.card): item.loc for item in reversed(dealt)}  # the first
    decks, own = [], []
    for player, name in enumerate(side_names(scenario)):
        side = getattr(scenario.position, name)
        given = getattr(scenario.decks, name, None) if scenario.decks else None
        if side.rest_of_deck == "none":
            deck: dict[str, int] = {}
        elif given is not None:
            deck = {}
            for card, copies in given.items():
                card_id = ids.resolve(card, "card", ("decks", name, card))
                deck[card_id] = int(copies)
                supply.check_unique(card_id, int(copies), ("decks", name, card))
        else:
            deck = dict(ids.catalog.base_deck(scenario.game, name))
        own.append(dict(deck))
        for card, count in needed[player].items():
            loc = places[(player, card)]
            supply.check_unique(card, count, loc)
            if given is not None and side.rest_of_deck != "none":
                supply.check_given(card, count, deck.get(card, 0), loc)
            elif count > deck.get(card, 0):
                supply.check_box(card, count, loc)
            deck[card] = max(deck.get(card, 0), count)
        decks.append(deck)
    return decks, own


def _mode_for(card: Any, placed: PlacedCard, source: Source, loc: tuple) -> Any:
    """The mode the file names (one that stays in play), else the first that stays."""
    staying = [mode for mode in card.modes if mode.slot != SLOT_NONE]
    if placed.mode is not None:
        for mode in staying:
            if mode.name.casefold() == placed.mode.casefold():
                return mode
        names = [m.name for m in staying]
        raise source.error(f"{card.name} has no mode '{placed.mode}' that stays in play",
                           (*loc, "mode"), f"use one of: {', '.join(names) or 'none'}")
    if staying:
        return staying[0]
    raise source.error(f"{card.name} is a one-shot card: it cannot be in play", loc,
                       "put it in a hand, a deck or a discard pile")


def put_under(state: State, uid: int, host: int, source: Source, loc: tuple) -> None:
    """Lay card `uid` under `host` as its `attach` step would (in the mode that attaches it;
    an eagle token on the host empties it too), if its text lets it lie under that card; a
    card that hides one (the Strongbox) takes any card of its owner's, face down."""
    spec = state.spec
    card, host_card = spec.card_def[uid], spec.card_def[host]
    if host_card.hides:  # the Strongbox: any card of its owner's lies face down under it
        if spec.owner[uid] != spec.owner[host]:
            raise source.error(f"{card.name} is not {host_card.name}'s owner's card", loc,
                               "put a card of the same side under it")
        lay_face_down_under(state, host, uid)
        return
    attaching = [(mode, params) for mode in card.modes for kind, params in mode.needs
                 if kind == NEED_HOST]
    if not attaching:
        raise source.error(f"{card.name} is not played under another card", loc,
                           "list it in the column itself, or under a card only if its text "
                           "puts it under one")
    mode, target = attaching[0]
    owner = spec.owner[host]
    bf = find_row(state, host) >> 1
    if host not in attach_hosts(state, target, (owner, -1, bf)):
        raise source.error(f"{card.name} cannot lie under {host_card.name} (its text does "
                           "not allow that card)", loc, "put it under a card its text names")
    attach_card(state, uid, host, mode)


def build_state(scenario: AnyScenario, source: Source, catalog: Catalog,
                ids: Ids | None = None) -> Any:
    """A State in the scenario's position, with the named player's decision open."""
    ids = ids if ids is not None else Ids(catalog, source, scenario.game)
    dealt, resolved = _needed(scenario, ids)
    decks, own_decks = _decks(scenario, ids, dealt)
    switches = getattr(scenario, "switches", None) or None
    modules = tuple(getattr(scenario, "modules", None) or ())
    try:
        state = new_game(decks, scenario.seed, ruleset=scenario.ruleset, catalog=catalog,
                         game=scenario.game, max_turns=scenario.max_turns, verbose=True,
                         switches=switches, modules=modules)
    except DeckbuilderError as error:
        raise source.error(error.message, _culprit(scenario, error), error.fix) from None
    staging = PARTS[scenario.game].staging
    staging.prepare(state, scenario, source, ids)
    if ids.in_play is None:
        ids.in_play = {bf.id: bf.idx for bf in state.spec.bfs}
    _clear(state)
    _deal(state, scenario, source, ids, resolved)
    staging.characters(state, scenario, source, ids)
    staging.table(state, scenario, source, ids)
    state.spec.game_rules.restage(state)  # the game's own set-up pieces (a module's cards)
    staging.modules(state, scenario, source, ids)
    verify_setup_pieces(state, dealt, own_decks, ids)  # where set-up and modules put them
    if not staging.opens(state, scenario):  # a decision of the game's own before its turns
        _open_turn(state, scenario)
    try:
        state.check_invariants()
    except InvariantError as error:
        raise source.error(f"the position is inconsistent: {error}", ("position",)) from None
    try:
        verify_position(state, catalog)
    except ImpossiblePositionError as error:
        raise source.error(f"impossible position: {error.message}",
                           ("position", *error.found.where)) from None
    return state


def _culprit(scenario: AnyScenario, error: DeckbuilderError) -> tuple:
    """Where in the file is what the new game refused: a rule switch, the ruleset, the decks."""
    message = str(error.message)
    for key in getattr(scenario, "switches", None) or {}:
        if f"'{key}'" in message:
            return ("switches", key)
    if isinstance(error, UnknownRulesetError):
        return ("ruleset",)
    return ("decks",) if scenario.decks is not None else ("position",)


def _clear(state: State) -> None:
    spec = state.spec
    state.tasks.clear()
    state.pending_resume = None
    state.legal = []
    for zone in (*state.decks, *state.hands, *state.discards, *state.removed):
        zone.clear()
    state.limbo.clear()
    state.rows = [()] * len(state.rows)
    for uid in range(spec.n_cards):
        state.own_placed()[uid] = None
        state.own_power()[uid] = state.own_grit()[uid] = state.own_eagle()[uid] = 0
    state.history.clear()
    state.log.clear()
    state._drawn = [[], []]
    state._played = [[], []]


def _deal(state: State, scenario: AnyScenario, source: Source, ids: Ids,
          resolved: dict[str, Any]) -> None:
    spec = state.spec
    pools: list[dict[str, list[int]]] = [{}, {}]  # each player's instances, by card id
    for player in (0, 1):
        for uid in spec.decks[player]:
            pools[player].setdefault(spec.card_def[uid].id, []).append(uid)
    hosts = []
    for bf_id, player, card, placed, loc in resolved.get("in_play", []):
        bf = ids.battlefield(bf_id, loc[:3], open_range=True)
        uid = pools[player][card].pop(0)  # the file's order is the instances' (`#2`)
        mode = _mode_for(spec.card_def[uid], placed, source, loc)
        place(state, uid, player, bf, mode)
        set_tokens(state, uid, placed)
        hosts.append(uid)
    for host, (player, under, loc) in zip(hosts, resolved.get("under", []), strict=True):
        for index, card in enumerate(under):
            put_under(state, pools[player][card].pop(0), host, source, (*loc, "under", index))
    for player, name in enumerate(side_names(scenario)):
        for zone, target in (("hand", state.hands), ("discard", state.discards),
                             ("removed", state.removed)):
            for card in resolved[f"{name}.{zone}"]:
                target[player].append(pools[player][card].pop())
        top = [pools[player][card].pop() for card in resolved[f"{name}.deck"]]
        rest = [uid for uids in pools[player].values() for uid in uids]
        rest.sort()
        shuffle(state.rng, rest)
        state.decks[player] = rest + top[::-1]  # the deck is drawn from its end


def _open_turn(state: State, scenario: AnyScenario) -> None:
    position = scenario.position
    assert position.turn is not None  # the model asks for it unless the game opens its own
    player = side_names(scenario).index(position.turn)
    number = position.turn_number or DEFAULT_TURN_NUMBER[player]
    state.active = player
    state.killed_this_turn = position.killed_this_turn
    state.attack_cancelled = False
    state.cancelled = False
    state.used_abilities = frozenset()
    state.pending_player = player
    state.pending_kind = K_MAIN
    if position.phase == "start":
        state.turn = number - 1
        state.spec.game_rules.start_turn(state, player)
    else:
        state.turn = number
        state.phase = PHASE_PLAY
    state.run()


# -- actions ----------------------------------------------------------------------------------
def _play(state: State, step: Any, index: int, plain: bool, source: Source,
          result: ScenarioResult) -> bool:
    where = source.where(*(("actions", index) if plain else ("actions", index, "do")))
    number = len(result.steps) + 1
    wanted = step.do or ""
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None, "the game is over"
        result.failure = (f"{where}: action {number} '{wanted}': the game is already over "
                          f"({player_name(state, outcome.winner).replace('none', 'nobody')}"
                          f" wins, {outcome.termination.value})")
        return False
    player = player_name(state, state.current_player())
    if step.by is not None and step.by != player:
        result.failure = (f"{where}: action {number} '{wanted}': it is {player} who must "
                          f"decide now, not {step.by}")
        return False
    action, problem, texts = choose_action(state, wanted)
    if action is None:
        result.failure = (f"{where}: action {number} '{wanted}' ({player}): {problem} "
                          f"(legal: {'; '.join(texts)})")
        return False
    text = state.action_to_string(action)
    alike = [a for a in state.legal_actions() if state.action_to_string(a) == text]
    if len(alike) > 1:  # say which of the actions that read alike was played
        text = f"{text} #{alike.index(action) + 1}"
    state.apply(action)
    result.steps.append(PlayedStep(number, player, text))
    return True


def _record_offer(state: State, result: ScenarioResult) -> None:
    """Note the decisions met since the last action for `offered`: those the engine took
    alone (one option: `State.resolved_alone`), then the one now open (who, what, options)."""
    alone = state.alone_log
    if alone:
        result.offers.extend(Offer(len(result.steps), player_name(state, player),
                                   kind_name(kind, state.spec), [text])
                             for player, kind, text in alone)
        alone.clear()
    if state.is_terminal():
        return
    result.offers.append(Offer(len(result.steps), player_name(state, state.current_player()),
                               kind_name(state.pending_kind, state.spec),
                               [state.action_to_string(a) for a in state.legal_actions()]))


def run_scenario(path: Path | str, catalog: Catalog | None = None, ruleset: str | None = None,
                 switches: dict[str, str] | None = None,
                 modules: list[str] | None = None) -> ScenarioResult:
    """Run the file; `ruleset`, `switches` (added to the file's) and `modules` replace what the
    file says, to ask the same question under another reading."""
    scenario, source = load_scenario(path)
    update: dict[str, object] = {}
    if ruleset is not None:
        update["ruleset"] = ruleset
    if switches:
        update["switches"] = {**scenario.switches, **switches}
    if modules is not None:
        if not hasattr(scenario, "modules"):
            raise source.error(f"a {scenario.game} scenario takes no modules", ("game",),
                               "leave --module out")
        update["modules"] = list(modules)
    if update:
        scenario = scenario.model_copy(update=update)
    return run(scenario, source, catalog)


def run(scenario: AnyScenario, source: Source, catalog: Catalog | None = None) -> ScenarioResult:
    """Build the position, play every action (checking on the way), check `expect`. Every id
    is resolved before an action is played, so a typo is exit 2, never a half-run."""
    catalog = catalog if catalog is not None else default_catalog()
    if scenario.expects_refusal:
        return _expect_refusal(scenario, source, catalog)
    ids = Ids(catalog, source, scenario.game)
    state = build_state(scenario, source, catalog, ids)
    for index, item in enumerate(scenario.actions):
        expect = getattr(item, "expect", None)
        if expect is not None:
            validate_ids(expect, ids, ("actions", index, "expect"))
    if scenario.expect is not None:
        validate_ids(scenario.expect, ids, ("expect",))
    scenario_format = PARTS[scenario.game].format
    result = ScenarioResult(scenario, source.path, state)
    ids.offers = result.offers
    state.alone_log = []  # the decisions the engine takes alone, for `offered`
    _record_offer(state, result)
    bfs_in_play = state.spec.bfs
    for index, item in enumerate(scenario.actions):
        step: Any = item if isinstance(item, StepBase) else scenario_format.step.model_validate(
            item if isinstance(item, dict) else {"do": item})
        plain = isinstance(item, str)
        if step.do is not None:
            if not _play(state, step, index, plain, source, result):
                return result
            _record_offer(state, result)
            if state.spec.bfs is not bfs_in_play:  # the game brought its chosen battlefields in
                bfs_in_play = state.spec.bfs
                ids.in_play = {bf.id: bf.idx for bf in bfs_in_play}
        if step.expect is not None:
            moment = f"after action {len(result.steps)}" if result.steps else "before any action"
            result.checks.extend(check_all(state, step.expect, ids,
                                           ("actions", index, "expect"), moment))
    final = scenario.expect if scenario.expect is not None else scenario_format.expectations()
    result.checks.extend(check_all(state, final, ids, ("expect",), ""))
    return result


def _expect_refusal(scenario: AnyScenario, source: Source, catalog: Catalog) -> ScenarioResult:
    """`expect: refused`: the position must be refused with the file's `refused` words; one
    laid out after all fails the scenario (exit 1)."""
    words = scenario.refused or ""
    where = str(source.where("refused"))
    try:
        state = build_state(scenario, source, catalog)
    except DeckbuilderError as error:
        said = str(error.message)
        result = ScenarioResult(scenario, source.path, None)
        result.checks.append(Check("refused", words.casefold() in said.casefold(),
                                   f'"{words}"', said, where, shown=said))
        return result
    result = ScenarioResult(scenario, source.path, state)
    result.checks.append(Check("refused", False, f'"{words}"',
                               "the position was laid out (nothing refused it)", where))
    return result
