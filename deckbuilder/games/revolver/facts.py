"""Revolver's own facts about one game, read once from the base set and the rule switches
(`bind`, called by the table when it builds the spec): where Derail the Train lies, the
train's space, Cortez's deadline, and the chosen readings of the disputed rules."""

from __future__ import annotations

from typing import Any

from deckbuilder.engine.codes import SPACE_REGULAR
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.effects import compile_steps

#: Switch ids and the variants this engine plays (the one home of variants is
#: `deckbuilder.rulesets`; this says which of the declared readings Revolver can play).
MCREADY_VICTORY = "mcready-victory"
TRAIN_VICTORY = "train-victory"
SKINNY_TOKEN = "skinny-token"
KNOWN_VARIANTS: dict[str, frozenset[str]] = {
    MCREADY_VICTORY: frozenset({"gang-wiped-out", "cortez-before-train", "jack-killed"}),
    TRAIN_VICTORY: frozenset({"jack-survives-space-4", "alive-end-of-round", "any-member"}),
    SKINNY_TOKEN: frozenset({"power", "true-grit"}),
}
NO_STEPS: tuple = ()


class RevolverFacts:
    __slots__ = ("cortez", "cortez_deadline_bf", "derail_bf", "derail_steps", "mcready_extra",
                 "skinny_true_grit", "train_any_member", "train_bf", "train_space")

    cortez: int  # the bandit whose early death wins for McReady (Dutch reading), or -1
    cortez_deadline_bf: int
    derail_bf: int  # where Derail the Train lies, or -1
    derail_steps: tuple
    mcready_extra: str
    skinny_true_grit: bool
    train_any_member: bool
    train_bf: int
    train_space: int


def bind(spec: GameSpec, compiled: CompiledCatalog) -> None:
    rules = spec.rules
    facts = RevolverFacts()
    facts.derail_bf, facts.derail_steps = -1, NO_STEPS
    for special in compiled.base_set.specials:
        if any(step.do == "derail" for step in special.effect):
            resolver = compiled.resolver
            beside = resolver.bf(special.beside) if special.beside else len(compiled.bfs) - 1
            facts.derail_bf = beside
            facts.derail_steps = compile_steps(special.effect, resolver)
            break
    last = spec.bfs[-1]
    facts.train_bf = last.idx
    facts.train_space = (last.labels.index("4") if "4" in last.labels else
                         max(i for i, kind in enumerate(last.kinds) if kind == SPACE_REGULAR))
    # The Dutch variant names a bandit whose early death wins for McReady: data, not code.
    deadline: dict[str, Any] = rules.params.get(MCREADY_VICTORY, {})
    facts.cortez = next(
        (c.idx for c in spec.bandits if c.id == deadline.get("character")), -1)
    before = deadline.get("before")
    facts.cortez_deadline_bf = (
        compiled.bf_index[before] if isinstance(before, str) and before in compiled.bf_index
        else facts.train_bf)
    facts.mcready_extra = rules.variant(MCREADY_VICTORY, "gang-wiped-out")
    facts.train_any_member = rules.variant(TRAIN_VICTORY, "jack-survives-space-4") == "any-member"
    facts.skinny_true_grit = rules.variant(SKINNY_TOKEN, "power") == "true-grit"
    spec.facts = facts
