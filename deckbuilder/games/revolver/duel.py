"""The Tarnished Star's Module A, the duel outside the Black Dog saloon, and Module B,
McReady's choice (tarnished-star-en: Module A, How to Play, The Saloon Duel; Module B).
docs/players/rules.md says what they play.

The face-down card lies in `state.limbo`, hidden from McReady; a world re-dealt for him
(`resample`) deals it anew among all the gang's cards he cannot see (hand and deck: the hand
alone would keep the real card too often). The duel's state is a `SaloonDuel`.

Readings no document states (besides those marked READING below): a card's firepower in the
duel is its printed firepower; McReady chooses his dollars before the opening hands; the
Garrotte goes under Santiago only with the prison module (else a logged note); the data
marks the guard `reshuffles: false` (a module card never joins McReady's deck).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from deckbuilder.engine.addons import put_under_character
from deckbuilder.engine.board import draw, place, remove_anywhere, take_from_hand
from deckbuilder.engine.chance import below
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.rule_switches import PlayableSwitch, known_variants
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver.declaration import K_DOLLARS, K_DUEL_CARD, K_DUEL_RESPONSE
from deckbuilder.games.revolver.plugin import (
    ModulePlugin,
    module_data,
    piece_action,
    set_module_data,
)
from deckbuilder.protocol import UnplayableDeckError

#: The modules played here (tarnished-star-en: Modules A and B), and the piece's name.
SALOON_DUEL = "saloon-duel"
MCREADYS_CHOICE = "mcreadys-choice"
#: The prison module (its plug-in, prison.py, places Santiago and hands the Garrotte over).
PRISON_MODULE = "san-manzanillo-prison-rules"
#: The records Module A and B use (tarnished-star.yaml) and where they go.
DUEL_CARD = "duel-outside-the-black-dog-saloon"
GUARD = "armed-train-guard"
GUARD_AT = "3-15-express"  # Module A step 1: "at the location Express 3:15"
CORTEZ = "cortez"
LOCK = "lock"
#: The rule switch between the sheet's steps 5 and 6, and its readings.
BY_RESPONSE, PRINTED_SEQUENCE = "by-response", "printed-sequence"
RESOLUTION = PlayableSwitch("saloon-duel-resolution", BY_RESPONSE, (PRINTED_SEQUENCE,))

# The duel's stages and the hostage token's places (strings: readable in snapshots).
WAITING, FACE_DOWN, RESPONSE, OVER, NOT_STARTED = (
    "waiting", "face-down", "response", "over", "not-started")
ON_CREEK, ON_CORTEZ, REMOVED = "rattlesnake-creek", "cortez", "removed"
# Outcomes.
COLTY_WINS, MCREADY_WINS, RETREAT = "colty-wins", "mcready-wins", "mcready-retreats"

# The game's own actions (the piece range): the duel's two answers, Module B's two choices.
CALL, RETREAT_PIECE, ONE_DOLLAR, TWO_DOLLARS = range(4)
GAME_ACTION_TEXTS = ("call the bluff", "retreat from the duel", "start with one silver dollar",
               "start with two silver dollars")


class SaloonDuel(NamedTuple):
    """The duel as it stands (immutable: each step makes a new one)."""

    stage: str
    hostage: str  # where the child hostage token is
    face_down: int  # the gang's face-down card (an instance id), -1 when none lies there
    outcome: str  # "" until the duel is over
    dollars: int  # Module B: McReady's choice, 0 before it (or without Module B)


class DuelFacts:
    """Where Module A's pieces are in this game (`spec.facts.duel`; None without it)."""

    __slots__ = ("bf", "by_response", "choice", "cortez", "guard", "guard_bf")

    bf: int  # the battlefield the duel card lies beside (Rattlesnake Creek)
    by_response: bool  # the switch saloon-duel-resolution: by-response (else printed order)
    choice: bool  # Module B is in use
    cortez: int  # Cortez's bandit index (-1: no Cortez, so the duel is never offered)
    guard: int  # the Armed train guard's instance id
    guard_bf: int


# -- binding (facts.bind) -----------------------------------------------------------------------
def bind_duel(spec: GameSpec, compiled: CompiledCatalog) -> DuelFacts:
    """Module A's facts (with the switch saloon-duel-resolution), kept as `spec.facts.duel`."""
    if SALOON_DUEL not in spec.modules:  # Module B alone: checked away by its requires
        raise UnplayableDeckError(f"module '{MCREADYS_CHOICE}' needs module '{SALOON_DUEL}'",
                                  fix=f"add --module {SALOON_DUEL}")
    special = next((s for card_set in compiled.rule_sets for s in card_set.specials
                    if s.id == DUEL_CARD), None)
    if special is None or special.beside not in compiled.bf_index:
        raise UnplayableDeckError(f"module '{SALOON_DUEL}' needs the card '{DUEL_CARD}' beside "
                                  "a battlefield in play",
                                  fix="install the Tarnished Star set (tarnished-star.yaml)")
    facts = DuelFacts()
    facts.bf = compiled.bf_index[special.beside]
    facts.guard_bf = compiled.bf_index.get(GUARD_AT, spec.n_bf - 1)
    facts.guard = next(uid for uid in spec.extra_uids if spec.card_def[uid].id == GUARD)
    facts.cortez = next((c.idx for c in spec.characters if c.id == CORTEZ), -1)
    facts.by_response = RESOLUTION.chosen(spec.rules) == BY_RESPONSE
    facts.choice = MCREADYS_CHOICE in spec.modules
    spec.facts.duel = facts
    return facts


def _piece(state: State, index: int) -> int:
    return piece_action(state, PLUGIN, index)


def _duel(state: State) -> Any:
    """The duel as it stands (a SaloonDuel), None before set-up."""
    return module_data(state, SALOON_DUEL)


def _set_duel(state: State, duel: SaloonDuel) -> None:
    set_module_data(state, SALOON_DUEL, duel)


# -- set-up -------------------------------------------------------------------------------------
def set_up(state: State) -> None:
    """Module A's pieces, then Module B's choice: McReady chooses before the opening hands."""
    place_pieces(state)
    if state.spec.facts.duel.choice:
        state.tasks.append((t_mcready_choice,))


def place_pieces(state: State) -> None:
    """Module A steps 1-3: the guard at the 3:15 Express, the duel card and the hostage token
    at Rattlesnake Creek (a staged position gets them back, without Module B's choice)."""
    facts: DuelFacts = state.spec.facts.duel
    guard = facts.guard
    if state.spec.owner[guard] != ATTACKER:  # the registry's extra cards are McReady's
        raise UnplayableDeckError("the Armed train guard must be McReady's card")
    place(state, guard, ATTACKER, facts.guard_bf, state.spec.card_def[guard].modes[0])
    _set_duel(state, SaloonDuel(WAITING, ON_CREEK, -1, "", 0))
    if state.verbose:
        spec = state.spec
        state.note(f"Module A: the Armed train guard stands at {spec.bf_name(facts.guard_bf)}; "
                   f"the duel card and the child hostage token lie at {spec.bf_name(facts.bf)}")


def t_mcready_choice(state: State, task: tuple) -> None:
    """Module B: McReady chooses one silver dollar or two before the game."""
    state.decide(ATTACKER, [_piece(state, ONE_DOLLAR), _piece(state, TWO_DOLLARS)],
                 _resume_choice, None, K_DOLLARS)


def _resume_choice(state: State, action: int, data: None) -> None:
    facts: DuelFacts = state.spec.facts.duel
    dollars = 2 if action == _piece(state, TWO_DOLLARS) else 1
    state.silver[ATTACKER] = dollars  # READING: the chosen dollars are his silver dollars
    _set_duel(state, _duel(state)._replace(dollars=dollars))
    if state.verbose:
        state.note(f"Module B: McReady starts with {dollars} silver dollar"
                   f"{'s' if dollars > 1 else ''}")
    if dollars == 2:
        if state.placed[facts.guard] is not None:
            state.own_grit()[facts.guard] += 1
        if state.verbose:
            state.note("Module B: a true grit token on the Armed train guard")
        _garrotte_under_santiago(state)


def stage_choice(state: State, dollars: int) -> None:
    """Module B's choice as made before a position laid out by hand (a scenario's): what
    choosing `dollars` (1 or 2) does, without the decision."""
    _resume_choice(state, _piece(state, TWO_DOLLARS if dollars == 2 else ONE_DOLLAR), None)


def _garrotte_under_santiago(state: State) -> None:
    """Module B step 3: the Garrotte goes under Santiago in the prison. Without the prison
    module the step is skipped with a note rather than refusing Module B (nothing else
    depends on it)."""
    prison = state.spec.facts.plugin_facts.get(PRISON_MODULE)
    garrotte = getattr(prison, "garrotte", -1)
    if prison is None or garrotte < 0:
        if state.verbose:
            state.note("Module B: the Garrotte is not placed under Santiago (the San "
                       "Manzanillo Prison is not in this game: step skipped)")
        return
    put_under_character(state, garrotte, prison.santiago)


# -- the table piece ----------------------------------------------------------------------------
def duel_available(state: State, player: int) -> str | None:
    """The gang may start the duel in his turn at Rattlesnake Creek while Cortez lives, once."""
    facts = state.spec.facts.duel
    if facts is None or player != DEFENDER or state.active != DEFENDER or \
            state.marker_bf != facts.bf or facts.cortez < 0 or not state.alive[facts.cortez]:
        return None
    duel = _duel(state)
    return SALOON_DUEL if isinstance(duel, SaloonDuel) and duel.stage == WAITING else None


def marker_moved(state: State) -> None:
    """The marker has left Rattlesnake Creek and the duel was never started: the hostage
    token is removed from the game; the guard stays (Module A, last paragraph)."""
    duel = _duel(state)
    facts = state.spec.facts.duel
    if isinstance(duel, SaloonDuel) and duel.stage == WAITING and state.marker_bf > facts.bf:
        _set_duel(state, duel._replace(stage=NOT_STARTED, hostage=REMOVED))
        if state.verbose:
            state.note("the duel outside the Black Dog saloon was not started: the child "
                       "hostage token is removed from the game; the Armed train guard stays")


def start_duel(state: State, player: int) -> None:
    """The gang starts the duel: his turn pauses; step 1, both draw two; step 2 follows."""
    state.pieces_used = state.pieces_used | {SALOON_DUEL}
    _set_duel(state, _duel(state)._replace(stage=FACE_DOWN))
    if state.verbose:
        state.note("the gang starts the duel outside the Black Dog saloon (his turn pauses)")
    draw(state, DEFENDER, 2)
    draw(state, ATTACKER, 2)
    state.tasks.append((_t_ask_face_down,))


def _face_down_options(state: State) -> list[int]:
    spec = state.spec
    return sorted({spec.card_action[spec.def_of[uid]] for uid in state.hands[DEFENDER]})


def _t_ask_face_down(state: State, task: tuple) -> None:
    """Step 2: the gang puts one card from his hand face down on the duel card."""
    if not state.hands[DEFENDER]:  # READING: nothing to put down counts as no Lock icon
        if state.verbose:
            state.note("the gang has no card to put face down")
        _ask_response(state)
        return
    state.decide(DEFENDER, _face_down_options(state), _resume_face_down, None, K_DUEL_CARD)


def _resume_face_down(state: State, action: int, data: None) -> None:
    uid = take_from_hand(state, DEFENDER, state.spec.action_def[action])
    state.limbo.append(uid)
    _set_duel(state, _duel(state)._replace(face_down=uid))
    if state.verbose:
        state.note("the gang puts a card face down on the duel card")
    _ask_response(state)


def _response_options(state: State) -> list[int]:
    """Step 3: call the bluff, retreat, or show a Lock-icon card from hand."""
    spec = state.spec
    card_def = spec.card_def
    shown = {spec.card_action[spec.def_of[uid]] for uid in state.hands[ATTACKER]
             if LOCK in card_def[uid].icons}
    return sorted({*shown, _piece(state, CALL), _piece(state, RETREAT_PIECE)})


def _ask_response(state: State) -> None:
    _set_duel(state, _duel(state)._replace(stage=RESPONSE))
    state.decide(ATTACKER, _response_options(state), _resume_response, None, K_DUEL_RESPONSE)


def _resume_response(state: State, action: int, data: None) -> None:
    spec = state.spec
    facts: DuelFacts = spec.facts.duel
    face_down = _duel(state).face_down
    if action == _piece(state, RETREAT_PIECE):
        if state.verbose:
            state.note("McReady retreats from the duel")
        _finish(state, RETREAT, -1)
        return
    shown = -1
    if action != _piece(state, CALL):
        shown = take_from_hand(state, ATTACKER, spec.action_def[action])
        state.limbo.append(shown)  # READING: shown, not played: no cost, no effect of its own
        if state.verbose:
            state.note(f"McReady shows {spec.card_def[shown].name} face up")
    elif state.verbose:
        state.note("McReady calls the bluff")
    lock = face_down >= 0 and LOCK in spec.card_def[face_down].icons  # READING: the `lock` icon
    if state.verbose:
        name = spec.card_def[face_down].name if face_down >= 0 else "nothing"
        state.note(f"the gang turns over {name} ({'a' if lock else 'no'} Lock icon)")
    if shown < 0 or not facts.by_response:
        # Step 5 (a bluff call; under printed-sequence, after either answer): the Lock icon
        # on the gang's card decides.
        _finish(state, COLTY_WINS if lock else MCREADY_WINS, shown)
        return
    # Steps 6-7 (by-response, after a face-up Lock card): no Lock, McReady wins; else the
    # greater firepower wins, a tie goes to the gang.
    if not lock:
        _finish(state, MCREADY_WINS, shown)
        return
    gang, lawmen = spec.card_def[face_down].firepower, spec.card_def[shown].firepower
    if state.verbose:
        state.note(f"duel firepower: the gang {gang}, McReady {lawmen}")
    _finish(state, MCREADY_WINS if lawmen > gang else COLTY_WINS, shown)


def _finish(state: State, outcome: str, shown: int) -> None:
    """The three outcomes (Module A, "There are three possible outcomes of the duel")."""
    spec = state.spec
    facts: DuelFacts = spec.facts.duel
    duel: SaloonDuel = _duel(state)
    for uid, owner in ((duel.face_down, DEFENDER), (shown, ATTACKER)):
        if uid >= 0:  # the cards used in the duel are discarded
            state.limbo.remove(uid)
            state.discards[owner].append(uid)
    hostage = REMOVED
    if outcome in (COLTY_WINS, RETREAT):
        remove_anywhere(state, facts.guard)  # from wherever it is now (a no-op if gone)
        if state.alive[facts.cortez]:  # he is: the duel starts only while he lives
            state.own_grit()[spec.character_base + facts.cortez] += 1  # READING: a true grit token
            hostage = ON_CORTEZ
    _set_duel(state, duel._replace(stage=OVER, hostage=hostage, face_down=-1, outcome=outcome))
    if state.verbose:
        winner = {COLTY_WINS: "the gang wins the duel", MCREADY_WINS: "McReady wins the duel",
                  RETREAT: "McReady has retreated"}[outcome]
        gone = "the duel card and the child hostage token are" if hostage == REMOVED else \
            "the duel card and the Armed train guard are"
        state.note(f"{winner}: the duel cards are discarded; {gone} removed from the game")
        if hostage == ON_CORTEZ:
            state.note("the child hostage token goes on Cortez (it works as a true grit token)")
    hand = state.hands[ATTACKER]
    if outcome == COLTY_WINS and hand:
        lost = hand.pop(below(state.rng, len(hand)))
        state.discards[ATTACKER].append(lost)
        if state.verbose:
            state.note(f"McReady discards {spec.card_def[lost].name} at random")
    if state.verbose:
        state.note("the gang's turn continues")


# -- hidden information -------------------------------------------------------------------------
def resample(state: State, player: int, rng: random.Random) -> None:
    """Re-deal what `player` cannot see of the duel (the table has re-dealt hand and deck as
    one pool: a uniform swap keeps the deal uniform), and refresh the other player's open
    duel decision, whose hand may have changed."""
    duel = _duel(state)
    if not isinstance(duel, SaloonDuel) or state.over:
        return
    if player == ATTACKER and duel.face_down >= 0:
        hand, deck = state.hands[DEFENDER], state.decks[DEFENDER]
        pick = below(rng, len(hand) + len(deck) + 1)
        old = duel.face_down
        if pick < len(hand) + len(deck):
            zone, index = (hand, pick) if pick < len(hand) else (deck, pick - len(hand))
            new = zone[index]
            zone[index] = old
            state.limbo[state.limbo.index(old)] = new
            _set_duel(state, duel._replace(face_down=new))
    if state.pending_player != player:
        if state.pending_kind == K_DUEL_CARD:
            state.legal = _face_down_options(state)
        elif state.pending_kind == K_DUEL_RESPONSE:
            state.legal = _response_options(state)


def view(state: State, player: int | None) -> dict[str, object]:
    """The duel as `player` sees it: McReady sees only that a card lies face down."""
    duel = _duel(state)
    if not isinstance(duel, SaloonDuel):
        return {}
    facts: DuelFacts = state.spec.facts.duel
    face_down: str | None = None
    if duel.face_down >= 0:
        face_down = (state.spec.card_def[duel.face_down].id if player in (DEFENDER, None)
                     else "a card")
    hostage = duel.hostage
    if hostage == ON_CORTEZ and not state.grit[state.spec.character_base + facts.cortez]:
        hostage = REMOVED  # spent as a true grit token, or gone with Cortez
    shown: Mapping[str, object] = {"silver_dollars": tuple(state.silver)} if facts.choice else {}
    return {"saloon_duel": duel.stage, "duel_face_down": face_down,
            "duel_outcome": duel.outcome or None, "child_hostage_token": hostage, **shown}


# -- the plug-in (modules.py) -------------------------------------------------------------------
#: Modules A and B in a game's turn: set-up, the marker leaving Rattlesnake Creek, the duel as
#: the gang's table piece, and what McReady may not see.
PLUGIN = ModulePlugin(
    ids=(SALOON_DUEL, MCREADYS_CHOICE), game_action_texts=GAME_ACTION_TEXTS,
    known_variants=known_variants(RESOLUTION), bind=bind_duel,
    extra_cards=lambda modules, catalog: [(ATTACKER, GUARD)] if SALOON_DUEL in modules else [],
    set_up=set_up, marker_moved=marker_moved, piece_available=duel_available,
    use_piece=start_duel, resample=resample, view=view, restage=place_pieces,
    describe_piece=lambda state: "start the duel outside the Black Dog saloon")
