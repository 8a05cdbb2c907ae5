"""Revolver 2's own facts about one game, read once from the base set and the rule switches
(`bind`): which battlefields are the bridge and the mine, the showdown space, the poker cards,
the table pieces' effects, and the chosen readings of what the documents leave open."""

from __future__ import annotations

from typing import Any, NamedTuple

from deckbuilder.engine.compiled import CompiledCatalog, GameSpec, renumber_game_actions
from deckbuilder.engine.effects import compile_steps
from deckbuilder.engine.rule_switches import PlayableSwitch, known_variants
from deckbuilder.engine.state import DEFENDER

#: The rule switches and the readings this engine plays.
MALPASO_VICTORY = PlayableSwitch("malpaso-victory", "esteban-survives-mine",
                                 ("any-guardian-alive",))
PILE_VICTORY = PlayableSwitch("guardian-pile-victory", "in-play-only", ("pile-counts",))
GATLING_TRUE_GRIT = PlayableSwitch("gatling-true-grit", "discarded", ("saves",))
GATLING_CASUALTY = PlayableSwitch("gatling-casualty", "lowest-survival", ("owner-chooses",))
POKER_TIE = PlayableSwitch("poker-tie", "replay", ("guardians",))
KNOWN_VARIANTS = known_variants(MALPASO_VICTORY, PILE_VICTORY, GATLING_TRUE_GRIT,
                                GATLING_CASUALTY, POKER_TIE)
#: The battlefield sets the poker tournament's winner brings in (malpaso-es: Torneo de póquer).
LAYOUT_OF_WINNER = ("crystal-river", "buffalo-falls")  # the guardians won / Mapache won
FIXED_GROUP = "fixed"
#: The showdown space of the mine (malpaso-es: Objeto del juego, turn space "4").
SHOWDOWN_LABEL = "4"


class PokerDef(NamedTuple):
    """One All Rivers Poker card, compiled (slot: its place in `facts.poker`)."""

    slot: int
    id: str
    name: str
    owner: int
    value: int
    cheat: bool
    calls_cheat: bool
    returns_to_hand: bool
    extra_cards: int
    tokens: tuple[tuple[int, int, int], ...]  # (battlefield, side relative to owner: 0 own, count)


class Revolver2Facts:
    __slots__ = ("any_guardian_survives", "bridge_bf", "bridge_steps", "collapse_steps",
                 "gatling_grit_saves", "gatling_lowest", "gatling_steps", "layouts", "mine_bf",
                 "pile_counts", "poker", "poker_of", "poker_tie_to_guardians",
                 "showdown_space")

    any_guardian_survives: bool
    bridge_bf: int
    bridge_steps: tuple
    collapse_steps: tuple
    gatling_grit_saves: bool
    gatling_lowest: bool
    gatling_steps: tuple
    layouts: dict[str, GameSpec]  # the same decks with each battlefield set
    mine_bf: int
    pile_counts: bool
    poker: tuple[PokerDef, ...]
    poker_of: tuple[tuple[int, ...], tuple[int, ...]]
    poker_tie_to_guardians: bool
    showdown_space: int


def select_battlefields(battlefields: list[Any], layout: str | None) -> list[Any]:
    """The row in play: the chosen set's three (Crystal River by default, before the
    tournament has chosen), then the fixed three, each in printed order."""
    group = layout or LAYOUT_OF_WINNER[0]
    chosen = [b for b in battlefields if b.group in (group, FIXED_GROUP)]
    return sorted(chosen, key=lambda battlefield: battlefield.order)


def bind(spec: GameSpec, compiled: CompiledCatalog) -> None:
    rules = spec.rules
    facts = Revolver2Facts()
    resolver = compiled.resolver
    facts.bridge_bf = facts.mine_bf = -1
    facts.bridge_steps = facts.collapse_steps = facts.gatling_steps = ()
    poker: list[PokerDef] = []
    for special in compiled.base_set.specials:
        steps = compile_steps(special.effect, resolver) if special.effect else ()
        beside = resolver.bf(special.beside)
        if any(step.do == "gatling-gun" for step in special.effect):
            facts.mine_bf, facts.gatling_steps = beside, steps
        elif special.beside and special.effect and special.faction == "esteban":
            if beside == len(compiled.bfs) - 1:
                facts.collapse_steps = steps
            else:
                facts.bridge_bf, facts.bridge_steps = beside, steps
        if special.poker is not None:
            data = special.poker
            owner = DEFENDER if special.faction == "esteban" else 1 - DEFENDER
            tokens = tuple((resolver.bf(t.battlefield), 0 if t.side == "self" else 1, t.count)
                           for t in data.battlefield_tokens)
            poker.append(PokerDef(0, special.id, special.name, owner, data.value, data.cheat,
                                  data.calls_cheat, data.returns_to_hand, data.extra_cards,
                                  tokens))
    poker.sort(key=lambda card: card.owner)  # stable: each side's cards in data order
    facts.poker = tuple(card._replace(slot=i) for i, card in enumerate(poker))
    facts.poker_of = (tuple(c.slot for c in facts.poker if c.owner == 0),
                      tuple(c.slot for c in facts.poker if c.owner == 1))
    mine = spec.bfs[facts.mine_bf] if facts.mine_bf >= 0 else spec.bfs[-1]
    facts.mine_bf = mine.idx
    facts.showdown_space = (mine.labels.index(SHOWDOWN_LABEL) if SHOWDOWN_LABEL in mine.labels
                            else len(mine.labels) - 1)
    facts.any_guardian_survives = MALPASO_VICTORY.chosen(rules) == "any-guardian-alive"
    facts.pile_counts = PILE_VICTORY.chosen(rules) == "pile-counts"
    facts.gatling_grit_saves = GATLING_TRUE_GRIT.chosen(rules) == "saves"
    facts.gatling_lowest = GATLING_CASUALTY.chosen(rules) == "lowest-survival"
    facts.poker_tie_to_guardians = POKER_TIE.chosen(rules) == "guardians"
    facts.layouts = {}
    spec.facts = facts
    renumber_game_actions(spec, len(facts.poker), poker_text)


def poker_text(state: Any, index: int) -> str:
    return f"show {state.spec.facts.poker[index].name}"
