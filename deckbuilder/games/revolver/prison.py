"""The San Manzanillo Prison of Expansion 1.2 (Hunt the Man Down), as far as the Tarnished
Star's cards depend on it: a battlefield in the row, Santiago held there, the texts it
silences, and his release (tarnished-star-en: Module A, Module B step 3, FAQ Q4 and Q6,
Tokens and Card Notes: Garrotte).

No document gives the 1.2 rules: each value is a marked reading (the data's provenance), and
the readings of equal weight are rule switches (docs/players/rules.md). The row is compiled
per layout, so `prison-position` travels in the layout string as an item
`prison-position=<value>` (`row_switches`); the silenced texts are `engine/wording.py`'s to
say (`state.silent_bf`). Santiago is compiled with the bandits because the module's record
lists him, so card data can name him (the Garrotte's `dead: [santiago]`); held, he is out of
the lineup (`state.alive` false).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from deckbuilder.engine.addons import cards_under_character, take_from_character
from deckbuilder.engine.board import firepower
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.rule_switches import PlayableSwitch, known_variants
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver.plugin import ModulePlugin, module_data, set_module_data
from deckbuilder.protocol import UnplayableDeckError

#: The module, its battlefield and bandit, and the cards it places or reads (the data's ids).
PRISON_MODULE = "san-manzanillo-prison-rules"
PRISON = "san-manzanillo-prison"
SANTIAGO = "santiago"
GARROTTE = "garrotte-santiagos-special-weapon"
DOUBLE_THE_GUARD = "double-the-guard"
MCREADYS_CHOICE = "mcreadys-choice"  # Module B: with two dollars the Garrotte lies under him
#: The rule switches (hunt-the-man-down.yaml `rule_switches`) and their readings.
DEFAULT_POSITION = "after-whiskey-canyon"
POSITION = PlayableSwitch("prison-position", DEFAULT_POSITION, ("after-buzzard-point",))
NO_DOUBLE_GUARD, OUTGUN = "no-double-guard", "outgun-the-guards"
RELEASE = PlayableSwitch("santiago-release", NO_DOUBLE_GUARD, (OUTGUN,))
CARDS_IN_PLAY, EVERY_TEXT = "cards-in-play", "every-text"
SILENCE = PlayableSwitch("prison-silence", CARDS_IN_PLAY, (EVERY_TEXT,))
KNOWN_VARIANTS = known_variants(POSITION, RELEASE, SILENCE)
#: Santiago's places (strings: readable in snapshots and observations).
IMPRISONED, FREED = "imprisoned", "freed"


class PrisonData(NamedTuple):
    """The module's state (immutable): where Santiago is, and the battlefield the marker was
    last seen on (to tell when it leaves the prison)."""

    santiago: str
    last_bf: int


class PrisonFacts:
    """Where the prison's pieces are in this game (`spec.facts.plugin_facts[PRISON_MODULE]`)."""

    __slots__ = ("bf", "double_guard", "garrotte", "release", "santiago")

    bf: int  # the prison's battlefield index
    double_guard: int  # Double the guard's card definition, -1 when not in this catalog
    garrotte: int  # the Garrotte's instance (Module B), -1 when not in this game
    release: str  # the reading of santiago-release
    santiago: int  # Santiago's bandit index


# -- the row ------------------------------------------------------------------------------------
def place_prison(row: list[Any], layout: str | None) -> list[Any]:
    """The row with the prison right after the battlefield the position names ("after-<id>")."""
    prison = next((battlefield for battlefield in row if battlefield.id == PRISON), None)
    if prison is None:
        raise UnplayableDeckError(f"module '{PRISON_MODULE}' needs the battlefield '{PRISON}'",
                                  fix="install Expansion 1.2's set (hunt-the-man-down.yaml)")
    items = (layout or "").removeprefix("modules:").split(",")  # `prison-position=<value>`
    prefix = POSITION.id + "="
    position = next((item.removeprefix(prefix) for item in items if item.startswith(prefix)),
                    DEFAULT_POSITION)
    after = position.removeprefix("after-")
    rest = [battlefield for battlefield in row if battlefield.id != PRISON]
    index = next((i for i, battlefield in enumerate(rest) if battlefield.id == after), -1)
    if position not in KNOWN_VARIANTS[POSITION.id] or index < 0 or index == len(rest) - 1:
        raise UnplayableDeckError(
            f"the San Manzanillo Prison cannot lie '{position}'",
            fix=f"choose {POSITION.id} among: {', '.join(sorted(KNOWN_VARIANTS[POSITION.id]))}")
    return [*rest[:index + 1], prison, *rest[index + 1:]]


# -- binding ------------------------------------------------------------------------------------
def bind_prison(spec: GameSpec, compiled: CompiledCatalog) -> PrisonFacts:
    if PRISON not in compiled.bf_index:
        raise UnplayableDeckError(f"module '{PRISON_MODULE}': the prison is not in the row",
                                  fix="install Expansion 1.2's set (hunt-the-man-down.yaml)")
    facts = PrisonFacts()
    facts.bf = compiled.bf_index[PRISON]
    before = spec.bfs[facts.bf - 1].id if facts.bf > 0 else ""
    chosen = POSITION.chosen(spec.rules)
    if chosen != f"after-{before}":
        # the row was compiled for another position: the layout did not carry the switch
        raise UnplayableDeckError(
            f"rule switch {POSITION.id}={chosen} does not match the row (the prison lies after "
            f"{spec.bf_name(facts.bf - 1)})",
            fix=f"the layout must name '{POSITION.id}={chosen}' (modules.layout_of)")
    facts.release = RELEASE.chosen(spec.rules)
    # the table reads this one: whether the cards played at the prison lose their text too
    spec.silences_plays = SILENCE.chosen(spec.rules) == EVERY_TEXT
    # Santiago is compiled with the bandits (the module's characters join the base set's)
    facts.santiago = next((c.idx for c in spec.characters if c.id == SANTIAGO), -1)
    if facts.santiago < 0:
        raise UnplayableDeckError(f"module '{PRISON_MODULE}' needs the bandit '{SANTIAGO}'",
                                  fix="install Expansion 1.2's set (hunt-the-man-down.yaml)")
    facts.double_guard = compiled.def_index.get(DOUBLE_THE_GUARD, -1)
    facts.garrotte = next((uid for uid in spec.extra_uids
                           if spec.card_def[uid].id == GARROTTE), -1)
    return facts


def prison_facts(state: State) -> PrisonFacts:
    facts: PrisonFacts = state.spec.facts.plugin_facts[PRISON_MODULE]
    return facts


def _data(state: State) -> PrisonData:
    data: PrisonData = module_data(state, PRISON_MODULE)
    return data


# -- set-up and the marker -----------------------------------------------------------------------
def set_up(state: State) -> None:
    """Santiago's card goes into the prison (out of the lineup); the Garrotte, if this game
    has it, waits out of the game until Module B's choice puts it under him."""
    restage(state)
    if state.verbose:
        state.note(f"the San Manzanillo Prison lies at place {prison_facts(state).bf + 1} of "
                   "the row; Santiago is held there")


def _sync_silence(state: State) -> None:
    """While the marker is at the prison the texts there are ignored (FAQ Q6)."""
    bf = prison_facts(state).bf
    silent = bf if state.marker_bf == bf else -1
    if silent != state.silent_bf:
        state.silent_bf = silent
        if state.verbose:
            state.note("at the San Manzanillo Prison the text on the cards is ignored"
                       if silent >= 0 else "the turn marker has left the San Manzanillo Prison")


def marker_moved(state: State) -> None:
    facts = prison_facts(state)
    data = _data(state)
    left = data.last_bf == facts.bf and state.marker_bf > facts.bf
    if data.last_bf != state.marker_bf:
        set_module_data(state, PRISON_MODULE, data._replace(last_bf=state.marker_bf))
    _sync_silence(state)
    if left and data.santiago == IMPRISONED:  # Santiago is freed, or stays there for good
        if not guard_holds(state):
            free_santiago(state)
        elif state.verbose:
            state.note("Santiago stays in the San Manzanillo Prison")


def guard_holds(state: State) -> bool:
    """Does the prison keep Santiago when the marker leaves it, under the chosen reading?"""
    facts = prison_facts(state)
    bf = facts.bf
    if facts.release == OUTGUN:
        gang, lawmen = firepower(state, bf, DEFENDER), firepower(state, bf, ATTACKER)
        if state.verbose:
            state.note(f"at the prison: the gang's firepower {gang}, McReady's {lawmen}")
        return gang <= lawmen
    def_of = state.spec.def_of
    return any(def_of[uid] == facts.double_guard for uid in state.rows[2 * bf + ATTACKER])


def free_santiago(state: State) -> None:
    """Santiago joins the living gang; the Garrotte under his card goes to the gang's hand."""
    facts = prison_facts(state)
    state.alive[facts.santiago] = True
    set_module_data(state, PRISON_MODULE, _data(state)._replace(santiago=FREED))
    if state.verbose:
        state.note("Santiago is freed from the San Manzanillo Prison and joins the gang")
    for uid in cards_under_character(state, facts.santiago):
        take_from_character(state, uid, "hand")


# -- what players see ------------------------------------------------------------------------------
def santiago_place(state: State) -> str:
    """imprisoned, freed (alive in the gang) or dead."""
    facts = prison_facts(state)
    place = _data(state).santiago
    return "dead" if place == FREED and not state.alive[facts.santiago] else place


def view(state: State, player: int | None) -> dict[str, object]:
    facts = prison_facts(state)
    return {"santiago": santiago_place(state),
            "silent_battlefield": state.spec.bf_name(state.silent_bf)
            if state.silent_bf >= 0 else None,
            "under_santiago": tuple(state.spec.card_def[uid].id for uid in
                                    cards_under_character(state, facts.santiago))}


def restage(state: State) -> None:
    """A staged position: Santiago back in the prison, the silence as the marker stands."""
    facts = prison_facts(state)
    uid = state.spec.character_base + facts.santiago
    state.alive[facts.santiago] = False
    state.own_grit()[uid] = state.own_power()[uid] = 0
    if facts.garrotte >= 0 and state.card_zone(facts.garrotte) == "nowhere":
        state.removed[DEFENDER].append(facts.garrotte)
    set_module_data(state, PRISON_MODULE, PrisonData(IMPRISONED, state.marker_bf))
    _sync_silence(state)


# -- the plug-in (modules.py) -------------------------------------------------------------------
def held_characters(state: State) -> dict[int, str]:
    data = module_data(state, PRISON_MODULE)
    if data is None or data.santiago != IMPRISONED:
        return {}
    return {prison_facts(state).santiago: "in the San Manzanillo Prison"}


#: The prison in a game: its place in the row, Santiago, the silence, the release; Module B's
#: two dollars put the Garrotte under Santiago, the gang's card (its note).
PLUGIN = ModulePlugin(
    ids=(PRISON_MODULE,), row_switches=(POSITION.id,), known_variants=KNOWN_VARIANTS,
    select_battlefields=place_prison, held_characters=held_characters, bind=bind_prison,
    set_up=set_up, marker_moved=marker_moved, view=view, restage=restage,
    extra_cards=lambda modules, catalog: (
        [(DEFENDER, GARROTTE)] if MCREADYS_CHOICE in modules else []))
