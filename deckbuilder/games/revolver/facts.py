"""Revolver's own facts about one game, read once from the base set and the rule switches
(`bind`): where Derail the Train lies, the train's space, Cortez's deadline, the chosen
readings. Every switch is read here and nowhere else: a reading that changes a card reshapes
the spec's own copy (`readings`), one the table must know is a spec flag (`grit_loss_kills`).
"""

from __future__ import annotations

from typing import Any

from deckbuilder.engine.codes import SPACE_REGULAR
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.effects import compile_steps
from deckbuilder.engine.rule_switches import PlayableSwitch, known_variants
from deckbuilder.games.revolver import modules, readings

#: The rule switches and the readings this engine plays (the one home of variants is
#: `deckbuilder.rulesets`; this says which of the declared readings Revolver can play).
# mcready-victory's jack-killed: an older reading, now jack-death (a set may still declare it)
MCREADY_VICTORY = PlayableSwitch("mcready-victory", "gang-wiped-out",
                                 ("cortez-before-train", "jack-killed"))
TRAIN_VICTORY = PlayableSwitch("train-victory", "jack-survives-space-4",
                               ("alive-end-of-round", "any-member"))
SKINNY_TOKEN = PlayableSwitch("skinny-token", "power", ("true-grit", "power-firepower-only"))
TRUE_GRIT_KILL = PlayableSwitch("true-grit-kill", "not-a-kill", ("counts-as-kill",))
JACK_DEATH = PlayableSwitch("jack-death", "loses-the-game", ("gang-fights-on",))
JACKSON_CLAN_DERAILED = PlayableSwitch("jackson-clan-derailed", "discarded", ("removed-from-game",))
ALONG_FER_THE_RIDE = PlayableSwitch("along-fer-the-ride", "lowest-rating-removed",
                                    ("any-members", "casualties"))
LAWMEN_REMOVAL = PlayableSwitch("lawmen-removal", "true-grit-saves", ("true-grit-ignored",))
QUINCEY_RIDES = PlayableSwitch("quincey-rides", "once-per-turn", ("each-discard",))
SADDLEBAGS_GATLING_GUN = PlayableSwitch("saddlebags-gatling-gun", "gang-gatling-excluded",
                                        ("gang-gatling-allowed",))
KNOWN_VARIANTS: dict[str, frozenset[str]] = {
    **known_variants(MCREADY_VICTORY, TRAIN_VICTORY, SKINNY_TOKEN, TRUE_GRIT_KILL, JACK_DEATH,
                     JACKSON_CLAN_DERAILED, ALONG_FER_THE_RIDE, LAWMEN_REMOVAL, QUINCEY_RIDES,
                     SADDLEBAGS_GATLING_GUN),
    # the modules' own switches (the saloon duel's, the prison's, the Frontier deck's ...)
    **{switch: readings for plugin in modules.PLUGINS
       for switch, readings in plugin.known_variants.items()},
}
#: The cards and bandits the disputed readings are about.
SKINNY = "skinny-landell"
JACKSON_CLAN = "the-jackson-clan"
ALONG_FOR_THE_RIDE_CARD = "i-only-came-along-fer-the-ride"
QUINCEY = "quincey-whitmore"
SADDLEBAGS = "saddlebags"
GATLING_GUN = "gatling-gun"
NO_STEPS: tuple = ()


class RevolverFacts:
    __slots__ = (
        "cortez",
        "cortez_deadline_bf",
        "derail_bf",
        "derail_removes",
        "derail_steps",
        "duel",
        "game_action_offsets",
        "mcready_extra",
        "plugin_facts",
        "plugins",
        "skinny_true_grit",
        "train_any_member",
        "train_bf",
        "train_space",
    )

    cortez: int  # the bandit whose early death wins for McReady (Dutch reading), or -1
    cortez_deadline_bf: int
    derail_bf: int  # where Derail the Train lies, or -1
    derail_removes: frozenset[int]  # card definitions Derail removes from the game
    derail_steps: tuple
    duel: Any  # Module A's pieces (duel.DuelFacts), None without the module
    game_action_offsets: dict[str, int]  # module id -> its share of the piece range
    plugin_facts: dict[str, Any]  # module id -> its plug-in's facts
    plugins: tuple  # the module plug-ins in use (modules.PLUGINS order); () without modules
    mcready_extra: str
    skinny_true_grit: bool
    train_any_member: bool
    train_bf: int
    train_space: int


def bind(spec: GameSpec, compiled: CompiledCatalog) -> None:
    rules = spec.rules
    facts = RevolverFacts()
    spec.facts = facts  # the module plug-ins' binds read and add to it
    facts.duel = None
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
    deadline: dict[str, Any] = rules.params.get(MCREADY_VICTORY.id, {})
    facts.cortez = next(
        (c.idx for c in spec.characters if c.id == deadline.get("character")), -1)
    before = deadline.get("before")
    facts.cortez_deadline_bf = (
        compiled.bf_index[before] if isinstance(before, str) and before in compiled.bf_index
        else facts.train_bf)
    facts.mcready_extra = MCREADY_VICTORY.chosen(rules)
    facts.train_any_member = TRAIN_VICTORY.chosen(rules) == "any-member"
    skinny = SKINNY_TOKEN.chosen(rules)
    facts.skinny_true_grit = skinny == "true-grit"
    facts.derail_removes = frozenset(
        {compiled.def_index[JACKSON_CLAN]} if JACKSON_CLAN in compiled.def_index and
        JACKSON_CLAN_DERAILED.chosen(rules) == "removed-from-game" else ())
    spec.grit_loss_kills = TRUE_GRIT_KILL.chosen(rules) == "counts-as-kill"
    _bind_card_readings(spec, compiled, skinny)
    facts.plugins, facts.plugin_facts, facts.game_action_offsets = modules.bind(spec, compiled)


def _bind_card_readings(spec: GameSpec, compiled: CompiledCatalog, skinny: str) -> None:
    """The readings that reshape a card or a bandit (none under the defaults)."""
    rules = spec.rules
    bandit_index = {character.id: character.idx for character in spec.characters}
    if skinny == "power-firepower-only" and SKINNY in bandit_index:
        readings.power_token_is_no_life(spec, compiled, bandit_index[SKINNY])
    if JACK_DEATH.chosen(rules) == "gang-fights-on" and \
            MCREADY_VICTORY.chosen(rules) != "jack-killed" and spec.leader >= 0:
        readings.without_loss_on_death(spec, compiled, spec.leader)
    ride = ALONG_FER_THE_RIDE.chosen(rules)
    if ride == "any-members":
        readings.sacrifice_any_members(spec, compiled, ALONG_FOR_THE_RIDE_CARD)
    elif ride == "casualties":
        readings.sacrifice_as_casualties(spec, compiled, ALONG_FOR_THE_RIDE_CARD)
    if LAWMEN_REMOVAL.chosen(rules) == "true-grit-ignored":
        readings.kill_ignoring_true_grit(spec, compiled, ALONG_FOR_THE_RIDE_CARD)
    if QUINCEY_RIDES.chosen(rules) == "each-discard":
        readings.rides_for_each_discard(spec, compiled, QUINCEY)
    if SADDLEBAGS_GATLING_GUN.chosen(rules) == "gang-gatling-allowed":
        readings.bounce_without_exception(spec, compiled, SADDLEBAGS, GATLING_GUN)
