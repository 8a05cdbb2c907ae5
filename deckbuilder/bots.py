"""Bots that play any game implementing the engine protocol: random, greedy and search.

Every bot answers one question, `choose(state, rng) -> action`, and sees only what its player
may see: a bot that looks ahead first re-deals the hidden cards at random
(`state.resample_hidden(player, rng)`), so it never reads the opponent's hand or the order of a
deck. Bots draw all their randomness from the `rng` they are given, so a game is reproducible
from its seed; the one thing they remember between calls is how long the turn under way has
gone on (`TurnBudget`), so that a card loop in the data (an overlay's card that draws and takes
itself back for free) cannot keep a bot playing one turn for ever. No game in which that bound
is not reached plays differently for it.

Bots know no game: each game hands its own `Heuristics` (how to judge a position, the small
decisions taken without judging, a faster greedy of its own) through the game registry.

    >>> bot = make_bot("search:rollouts=200", Heuristics(lambda state, player: 0.0))
    >>> bot.name
    'search:rollouts=200'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from deckbuilder.engine.actions import PASS
from deckbuilder.engine.chance import below
from deckbuilder.engine.state import State
from deckbuilder.errors import DeckbuilderError
from deckbuilder.protocol import Bot, Evaluator, Heuristics, QuickChoice

_TIE: Final = 1e-9
#: Whether a state class offers `fork` (see `copy_world`).
_FORKS: Final[dict[type, bool]] = {}
#: Whether a state class offers `adopt` (see `_settle_choice`).
_ADOPTS: Final[dict[type, bool]] = {}


#: The most actions (both players', sub-decisions included) a turn may take, counted from a
#: bot's first decision in it, before the bot ends it. A turn of the packaged decks takes under
#: 25 (greedy, search and random, both games); a card loop takes one without end.
TURN_ACTION_LIMIT: Final = 100


#: The most actions one look-ahead may apply: a play-out greedy's decision (every option
#: tried and settled), or one search rollout (its plies and the trials inside them). The
#: packaged decks need under 700; a hand grown huge by a card loop would need millions.
LOOKAHEAD_STEPS: Final = 5000


class BotSpecError(DeckbuilderError):
    """A bot specification such as `search:rollouts=abc` cannot be understood."""


class TurnBudget:
    """How long the turn under way has gone on, for one bot: a bound no data can get past.

    A card loop (a free card that draws a card and takes itself back from the discard pile)
    makes every play look better than ending the play phase, so a bot that judges its options
    would play one turn for ever, while each decision stays cheap. The budget counts the
    actions applied (`state.history`) since the bot's first decision of the turn in this
    state; once `limit` are spent, `is_spent` says so (once a turn it adds one to
    `cut_short`) and the bot ends the turn. It remembers, per player, the state it last
    decided in: a new game, a look-ahead copy or a new turn starts a new count. The bot adds
    to `looks_cut` each look-ahead (play-out, rollout) its own bound stopped.
    """

    __slots__ = ("_marks", "cut_short", "limit", "looks_cut")

    def __init__(self, limit: int = TURN_ACTION_LIMIT) -> None:
        self.limit = limit
        #: Turns ended by the budget (the bot's own and its look-ahead copies').
        self.cut_short = 0
        #: Look-aheads stopped before every option was tried (`StepBudget`, `max_plies`).
        self.looks_cut = 0
        #: player -> (state, turn, actions applied when the count began, already counted)
        self._marks: dict[int, tuple[Any, int, int, bool]] = {}

    def is_spent(self, state: Any, player: int) -> bool:
        """True when the turn `player` decides in has taken `limit` actions since this bot's
        first decision in it: the bot should end it now."""
        done = len(state.history)
        mark = self._marks.get(player)
        if mark is None or mark[0] is not state or mark[1] != state.turn or done < mark[2]:
            self._marks[player] = (state, state.turn, done, False)
            return False
        if done - mark[2] < self.limit:
            return False
        if not mark[3]:
            self.cut_short += 1
            self._marks[player] = (state, mark[1], mark[2], True)
        return True


class StepBudget:
    """The actions one look-ahead may still apply (`LOOKAHEAD_STEPS`): `best_action` and
    `settle_move` stop trying options once it is spent, judge what they tried, and set
    `cut`, so no data makes one decision take unbounded work."""

    __slots__ = ("cut", "left")

    def __init__(self, steps: int = LOOKAHEAD_STEPS) -> None:
        self.left = steps
        self.cut = False


def cut_short_count(bot: Bot) -> int:
    """How often `bot` ended a turn, or a look-ahead, because its bound was reached (its
    `TurnBudget`'s counts, and its rollout bot's; 0 for a bot without bounds: `random`)."""
    budget = getattr(bot, "budget", None)
    inner = getattr(bot, "rollout_bot", None)
    own = budget.cut_short + budget.looks_cut if isinstance(budget, TurnBudget) else 0
    return own + (cut_short_count(inner) if inner is not None else 0)


def cut_short_note(name: str, count: int) -> str:
    """The one-line warning for a report: the bound was reached, so a card may loop.

    >>> cut_short_note("greedy", 3).partition(":")[0]
    "greedy's play was cut short 3 times (limit 100 actions in a turn)"
    """
    return (f"{name}'s play was cut short {count} time{'s' if count != 1 else ''} (limit "
            f"{TURN_ACTION_LIMIT} actions in a turn): a card in play may loop "
            f"(see `deckbuilder overlay show`)")


def options_of(state: Any) -> list[int]:
    """The open decision's options, for reading only: the engine's own state lends its list
    (replaced at each decision, never changed), with no copy and no call by name; another
    game's state answers `legal_actions()`."""
    return state.legal if type(state) is State else state.legal_actions()


@dataclass
class RandomBot:
    """Uniformly random among legal actions: the floor every other bot must clear."""

    name: str = "random"

    def choose(self, state: Any, rng: random.Random) -> int:
        # `options_of`, in line: one call more a decision costs plain Python 0.6% a game.
        actions: list[int] = state.legal if type(state) is State else state.legal_actions()
        return actions[below(rng, len(actions))]


@dataclass
class GreedyBot:
    """One ply: try each action on a determinized copy and keep the best heuristic value.

    This is `greedy` for any game given its own heuristic, and `greedy:judge=playout` on
    Revolver, whose `greedy` scores actions from the cards instead (`scoring.py`: the same
    race model, about five times faster). The heuristic (`evaluate`) carries the rules'
    priorities: win conditions, border tokens, firepower balance, cards in hand (costs).
    Determinizing first means an action that draws a card is judged on a random card, not
    on the real top of the deck, and a heuristic that reads hands reads a re-dealt
    opponent's hand, not the real one. Settling means an action is judged once its move is
    complete (cost paid, targets chosen, casualty taken), not half-way through;
    `settle=false` switches that off, for comparison. While settling, the small decisions
    `quick` knows (which card pays a cost) are taken without judging each option
    (`quick=false` judges them too); the bot's own decisions are always judged in full.
    """

    evaluate: Evaluator
    settle: bool = True
    name: str = "greedy"
    quick: QuickChoice | None = None
    budget: TurnBudget = field(default_factory=TurnBudget)

    def choose(self, state: Any, rng: random.Random) -> int:
        actions = options_of(state)
        if len(actions) == 1:
            return actions[0]
        player = state.current_player()
        if self.budget.is_spent(state, player):
            return play_on_at_random(actions, rng)
        world = state.resample_hidden(player, rng)
        steps = StepBudget()
        action = best_action(world, actions, player, self.evaluate, rng, spend_world=True,
                             settle=self.settle, quick=self.quick, budget=steps)
        if steps.cut:
            self.budget.looks_cut += 1
        return action


def play_on_at_random(actions: list[int], rng: random.Random) -> int:
    """A bot that knows no game's "end the turn" action, once its turn budget is spent: at
    random, as the random bot plays, which ends a turn soon (ending it is one of its choices)
    and costs no look-ahead."""
    return actions[below(rng, len(actions))]


def pick_best(actions: list[int], values: list[float], rng: random.Random) -> int:
    """The action of the highest value (within `_TIE`); equal ones drawn at random."""
    if len(actions) != len(values):
        raise ValueError("pick_best: one value an action")
    best: list[int] = []
    best_value = -math.inf
    for index in range(len(actions)):  # not zip(strict=True): mypyc calls that generically
        value = values[index]
        if value > best_value + _TIE:
            best_value, best = value, [actions[index]]
        elif value >= best_value - _TIE:
            best.append(actions[index])
    return best[0] if len(best) == 1 else best[below(rng, len(best))]


def sort_ranks(keys: Sequence[Any]) -> list[int]:
    """Each key's place among the distinct keys in sorted order (equal keys, equal places).
    A sort by these numbers is the sort by the keys, ties kept in order as before, and it
    compares ints instead of tuples: the bots' cost payment orders, worked out once a game."""
    places = {key: place for place, key in enumerate(sorted(set(keys)))}
    return [places[key] for key in keys]


def is_mid_move(state: Any) -> bool:
    """True while an action is still being resolved (a cost to pay, a target, a casualty).

    Uses the state's `is_mid_move()` when it has one; otherwise an open decision kind
    (`pending_kind`) other than 0 (the main decision, where a move starts).
    """
    method = getattr(state, "is_mid_move", None)
    if method is not None:
        return bool(method())
    kind = getattr(state, "pending_kind", None)
    return kind is not None and kind != 0 and not state.is_terminal()


def settle_move(world: Any, evaluate: Evaluator, rng: random.Random, limit: int = 30,
                quick: QuickChoice | None = None, budget: StepBudget | None = None,
                evaluate_keeps: bool = False) -> None:
    """Finish the move under way, each side choosing greedily (or by `quick` where it has an
    answer): a card is judged after its cost is paid and its effect (and any casualty)
    resolved, not half-way through. At most `limit` actions, and no more than `budget`
    allows (the move is then judged where it stands). `evaluate_keeps`: `evaluate` leaves
    the position it judges as it was (Revolver's may play a throw-away copy on), so the copy
    a chosen option was tried on can be kept (`_settle_choice`)."""
    for _ in range(limit):
        if not is_mid_move(world):
            return
        if budget is not None:
            if budget.left <= 0:
                budget.cut = True
                return
            budget.left -= 1
        actions = options_of(world)
        action = actions[0] if len(actions) == 1 else None
        if action is None and quick is not None:
            action = quick(world, actions)
        if action is None and evaluate_keeps and _adopts(world):
            _settle_choice(world, actions, evaluate, rng, budget)
            continue
        if action is None:
            action = best_action(world, actions, world.current_player(), evaluate, rng,
                                 budget=budget)
        world.apply(action)


def _settle_choice(world: Any, actions: list[int], evaluate: Evaluator, rng: random.Random,
                   budget: StepBudget | None) -> None:
    """A decision inside a move being settled, taken greedily as `best_action` takes it (the
    same options tried, the same values, the same tie-break) and applied: each option tried
    on a copy but the last, which is tried on `world` itself, and `world` then takes over the
    chosen option's copy (`adopt`) instead of applying the option again: a copy and an
    application fewer per decision."""
    best, afters = _judged(world, actions, world.current_player(), evaluate, rng, True, budget,
                           keep=True)
    chosen = afters[0] if len(best) == 1 else afters[below(rng, len(best))]
    if chosen is not world:
        world.adopt(chosen)


def _offers(world: Any, method: str, known: dict[type, bool]) -> bool:
    """Whether `world`'s class offers `method`, asked once per class (`known` holds the
    answers: a missing attribute costs an exception)."""
    kind = type(world)
    offered = known.get(kind)
    if offered is None:
        offered = known[kind] = callable(getattr(kind, method, None))
    return offered


def _adopts(world: Any) -> bool:
    """Whether `world`'s class can take over a copy's position (`adopt`)."""
    return _offers(world, "adopt", _ADOPTS)


def _forks(world: Any) -> bool:
    """Whether `world`'s class offers `fork` (see `copy_world`)."""
    return _offers(world, "fork", _FORKS)


def copy_world(world: Any, rng: random.Random) -> Any:
    """A copy to try an action on. A state may offer `fork(rng)`, a copy whose chance draws
    from `rng` rather than from a copy of its own generator (cheaper where copying the
    generator is costly); any other state is cloned."""
    return world.fork(rng) if _forks(world) else world.clone()


def best_action(
    world: Any, actions: list[int], player: int, evaluate: Evaluator, rng: random.Random,
    spend_world: bool = False, settle: bool = False, quick: QuickChoice | None = None,
    budget: StepBudget | None = None, evaluate_keeps: bool = False,
) -> int:
    """The action whose result `evaluate` likes best for `player`; ties broken at random.

    `spend_world`: `world` is a throw-away copy, so the last action is tried on it directly
    (one clone fewer per decision). `settle`: judge each action once its move is complete,
    taking the small decisions on the way with `quick` where it answers. `budget`: each
    action tried (and settled) spends from it; once it is spent the options not yet tried
    are left out (the first is always tried). `evaluate_keeps`: see `settle_move`.
    """
    settled = (quick, evaluate_keeps) if settle else None
    best, _ = _judged(world, actions, player, evaluate, rng, spend_world, budget, settled)
    return best[0] if len(best) == 1 else best[below(rng, len(best))]


def _judged(world: Any, actions: list[int], player: int, evaluate: Evaluator,
            rng: random.Random, spend_world: bool, budget: StepBudget | None,
            settled: tuple[QuickChoice | None, bool] | None = None, keep: bool = False
            ) -> tuple[list[int], list[Any]]:
    """The options `evaluate` likes best for `player` (equal values: all of them, in order)
    and, with `keep`, the position each left; `best_action`'s loop (see it for `spend_world`
    and `budget`). `settled`: (quick, evaluate_keeps) to settle each option's move first."""
    best: list[int] = []
    afters: list[Any] = []
    best_value = -math.inf
    last = actions[-1]
    for action in actions:
        if budget is not None:
            if budget.left <= 0 and best:
                budget.cut = True
                break
            budget.left -= 1
        after = world if spend_world and action == last else copy_world(world, rng)
        after.apply(action)
        if settled is not None:
            settle_move(after, evaluate, rng, quick=settled[0], budget=budget,
                        evaluate_keeps=settled[1])
        value = evaluate(after, player)
        if value > best_value + _TIE:
            best_value = value
            best = [action]
            if keep:
                afters = [after]
        elif value >= best_value - _TIE:
            best.append(action)
            if keep:
                afters.append(after)
    return best, afters


#: How a bot values every option of a main decision: (state, options, player, rng) -> values
#: (the games' scoring greedy bots' `action_values`).
RankActions = Callable[[Any, list[int], int, random.Random], list[float]]


@dataclass
class SearchBot:
    """Determinized Monte Carlo search over the bot's own observation.

    Each iteration re-deals the hidden cards once (`resample_hidden`: a world consistent with
    what the bot has seen), then tries every candidate action still in the running in that
    same world, letting both sides play on with the rollout policy until `horizon` game
    turns after the decision, and scores the position with `evaluate`. Trying the
    candidates in the same world with the same chance (common random numbers) compares them
    on equal luck. The budget is `rollouts` in total per decision (reproducible), or `ms`
    milliseconds per decision (then results depend on the machine's speed).

    `allocate="halving"` (sequential halving, Karnin, Koren and Somekh 2013) spends the budget
    in rounds and keeps the better half of the candidates after each, so the close contest
    between the last two gets most of the worlds instead of an equal share with moves that
    were plainly worse after a few; `allocate="uniform"` gives every candidate the same
    number of worlds, for comparison; `allocate="check"` spends them as uniform does, then
    one more world on the rollouts' best and the `rank`'s favourite where the two differ.

    Economies that keep a decision within 1 ms compiled: the small decisions the game's
    `quick` takes by a rule inside every look-ahead (which card pays a cost) are taken by it
    here too, without a search (`quick_small`); and the last candidate of each world plays on
    the re-dealt world itself. A game may end the rollouts with a `judge` of its own that
    sees what a one-turn rollout cannot (`Heuristics.search_judge`: Revolver 2 counts the
    guardians the spaces ahead can still recruit).
    """

    evaluate: Evaluator
    #: With sequential halving, 21 rollouts played as well as 64 spent uniformly did (the
    #: Revolver ladder against greedy from both seats) in a third of the time; 12 keep a
    #: decision within 1 ms compiled (docs/maintainers/performance.md, the bot ladders).
    rollouts: int = 12
    ms: float | None = None
    horizon: int = 1
    policy: str = "greedy"
    max_plies: int = 400
    name: str = "search"
    quick: QuickChoice | None = None
    #: Plays both sides in a `greedy` rollout where the game has a faster greedy bot than
    #: trying each action (Revolver: the scoring greedy); None: play out each action.
    rollout_bot: Bot | None = None
    allocate: str = "halving"
    #: Counts the rollouts that reached `max_plies` or spent their `StepBudget` before their
    #: horizon as `looks_cut`.
    budget: TurnBudget = field(default_factory=TurnBudget)
    #: Judges the position where a rollout stops (None: `evaluate`). A game may offer one
    #: that sees further than its greedy's value (`Heuristics.search_judge`).
    judge: Evaluator | None = None
    #: Take the small decisions `quick` answers (which card pays a cost, which casualty)
    #: by its rule instead of searching them (`quick=false` searches them too).
    quick_small: bool = True
    #: Search only the `top` options `rank` values most at a main decision; 0: every option.
    top: int = 0
    #: Values the options for `top` (None: every option is searched).
    rank: RankActions | None = None
    #: Search only the small decisions `quick` leaves open (a target, a casualty, staying or
    #: moving on) of at most this many options; the rollout bot takes the others (None: search
    #: them all).
    small: int | None = None
    #: The option `rank` valued most at the decision under way (for `allocate="check"`).
    _favourite: int | None = field(default=None, init=False, repr=False)

    def choose(self, state: Any, rng: random.Random) -> int:
        actions = self._candidates(state, rng)
        return actions[0] if len(actions) == 1 else self._search(state, actions, rng)

    def _candidates(self, state: Any, rng: random.Random) -> list[int]:
        """The options worth a search, or the one to play without a search: forced, the turn
        budget spent, the game's `quick` rule."""
        actions = options_of(state)
        self._favourite = None
        if len(actions) == 1:
            return actions
        if self.budget.is_spent(state, state.current_player()):
            return [play_on_at_random(actions, rng)]
        if is_mid_move(state):
            if self.quick_small and self.quick is not None:
                small = self.quick(state, actions)
                if small is not None:
                    return [small]
            bot = self.rollout_bot
            if bot is not None and self.small is not None and len(actions) > self.small:
                return [bot.choose(state, rng)]
            return actions
        return self._best_ranked(state, actions, rng) if self.top else actions

    def _search(self, state: Any, actions: list[int], rng: random.Random) -> int:
        """The candidate whose rollouts the judge values most (see the class docstring)."""
        totals = [0.0] * len(actions)
        counts = [0] * len(actions)
        alive = list(range(len(actions)))
        rounds = 1 if self.allocate != "halving" else max(1, math.ceil(math.log2(len(actions))))
        started = time.perf_counter()
        for done_rounds in range(rounds):
            left = rounds - done_rounds
            if self.ms is None:
                spent = sum(counts)
                worlds = max(1, (self.rollouts - spent) // (left * len(alive)))
                deadline = math.inf
            else:
                worlds = 1 << 62
                used = time.perf_counter() - started
                deadline = time.perf_counter() + (self.ms / 1000.0 - used) / left
            self._try(state, actions, alive, worlds, deadline, totals, counts, rng)
            if left > 1:
                ranked = sorted(alive, key=lambda index: (-totals[index] / counts[index], index))
                alive = sorted(ranked[:math.ceil(len(alive) / 2)])
        if self.allocate == "check" and self.ms is None:
            alive = self._check(state, actions, alive, totals, counts, rng)
        best_value = max(totals[index] / counts[index] for index in alive)
        best = [actions[index] for index in alive
                if totals[index] / counts[index] >= best_value - _TIE]
        return best[0] if len(best) == 1 else best[below(rng, len(best))]

    def _check(self, state: Any, actions: list[int], alive: list[int], totals: list[float],
               counts: list[int], rng: random.Random) -> list[int]:
        """`allocate="check"`: where the rollouts' best is not the option `rank` valued most,
        one more world for the two of them, which are then the candidates left."""
        favourite, self._favourite = self._favourite, None
        if favourite is None:
            return alive
        best_value = max(totals[index] / counts[index] for index in alive)
        leaders = [index for index in alive if totals[index] / counts[index] >= best_value - _TIE]
        chosen = actions.index(favourite)
        if chosen in leaders:
            return alive
        pair = sorted((leaders[0], chosen))
        self._try(state, actions, pair, 1, math.inf, totals, counts, rng)
        return pair

    def _best_ranked(self, state: Any, actions: list[int], rng: random.Random) -> list[int]:
        """The `top` options the rollout bot values most, in their order (ties: the first),
        and ending the play phase (`PASS`), which its values under-rate: without it the cheap
        level's McReady won 8 points fewer against greedy (docs/maintainers/performance.md)."""
        if self.rank is None or len(actions) <= self.top:
            return actions
        values = self.rank(state, actions, state.current_player(), rng)
        ranked = sorted(range(len(actions)), key=values.__getitem__, reverse=True)
        self._favourite = actions[ranked[0]]
        kept = set(ranked[:self.top])
        if PASS in actions:
            kept.add(actions.index(PASS))
        return [actions[index] for index in sorted(kept)]

    def _try(self, state: Any, actions: list[int], alive: list[int], worlds: int,
             deadline: float, totals: list[float], counts: list[int],
             rng: random.Random) -> None:
        """Try each candidate in `alive` in `worlds` re-dealt worlds (at least one; fewer
        once `deadline` passes), adding each rollout's value to its total."""
        player = state.current_player()
        # The horizon counts from the decision, not from after the action: otherwise ending
        # the turn would buy a whole extra turn of look-ahead and look better than it is.
        stop_turn = state.turn + self.horizon
        # The last candidate plays on the re-dealt world itself (one copy fewer per world),
        # unless the state forks: a fork's chance comes from `chance`, the world's own from
        # its generator, and the candidates would no longer share their luck.
        last = alive[-1] if not _forks(state) else -1
        for done in range(worlds):
            if done and time.perf_counter() >= deadline:
                break
            world = state.resample_hidden(player, rng)
            luck = rng.getrandbits(64)
            for index in alive:
                chance = random.Random(luck)
                trial = world if index == last else copy_world(world, chance)
                trial.apply(actions[index])
                totals[index] += self._rollout(trial, player, stop_turn, chance)
                counts[index] += 1

    def _rollout(self, world: Any, player: int, stop_turn: int, rng: random.Random) -> float:
        evaluate = self.evaluate
        policy = self.policy
        budget = StepBudget()
        for _ in range(self.max_plies):
            if world.is_terminal() or world.turn >= stop_turn:
                break
            if budget.left <= 0:  # each ply spends one, each trial inside it one more
                self.budget.looks_cut += 1
                break
            budget.left -= 1
            actions = options_of(world)
            if len(actions) == 1:
                action = actions[0]
            elif policy == "random":
                action = actions[below(rng, len(actions))]
            elif policy == "greedy" and self.rollout_bot is not None:
                action = self.rollout_bot.choose(world, rng)
            else:
                action = best_action(world, actions, world.current_player(), evaluate, rng,
                                     settle=policy != "fast", quick=self.quick, budget=budget)
            world.apply(action)
        else:  # the plies ran out before the horizon (a card loop in the data, say)
            if not (world.is_terminal() or world.turn >= stop_turn):
                self.budget.looks_cut += 1
        judge = self.judge
        return evaluate(world, player) if judge is None else judge(world, player)


#: One node of `IsmctsBot`'s tree: option -> [times tried, total value for the mover].
Node = dict[int, list[float]]


@dataclass
class IsmctsBot(SearchBot):
    """Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012; as
    OpenSpiel's ISMCTS): one tree for the decision, grown over `rollouts` iterations, each in
    a fresh re-deal of the hidden cards (`resample_hidden`). A node is the sequence of actions
    taken since the decision, which both players see, so every world shares it whatever was
    dealt. At a node the options legal in this world are chosen by UCB1 on the mover's own
    value, a new one added as the node's visits grow (the rollout bot's choice first), the
    first new option ends the descent, the rollout
    policy plays on to `horizon` turns after the decision, and the judge's value (negated for
    the opponent's nodes) is added along the path. The root option tried most is played.
    Forced moves, the game's `quick` answers, the small decisions and the `top` options are
    taken as `SearchBot` takes them."""

    #: UCB1's exploration constant, on the judge's scale (-1 to 1).
    exploration: float = 0.3
    #: Which option a node adds next: "greedy", the rollout bot's first then at random;
    #: "rank", in the order `rank` values them (progressive bias towards the greedy's).
    widen: str = "greedy"

    def _search(self, state: Any, actions: list[int], rng: random.Random) -> int:
        player = state.current_player()
        stop_turn = state.turn + self.horizon
        tree: dict[tuple[int, ...], Node] = {}
        orders: dict[tuple[int, ...], list[int]] = {}
        for _ in range(self.rollouts):
            world = state.resample_hidden(player, rng)
            path: list[tuple[list[float], bool]] = []
            key: tuple[int, ...] = ()
            legal = actions
            while True:
                mover = world.current_player()
                action = legal[0] if len(legal) == 1 else self._quick(world, legal, key, rng)
                if action is None:
                    node = tree.setdefault(key, {})
                    order = orders.setdefault(key, [])
                    action, new = self._select(node, world, legal, order, rng)
                    path.append((node[action], mover == player))
                    if new:
                        world.apply(action)
                        break
                world.apply(action)
                if world.is_terminal() or world.turn >= stop_turn:
                    break
                key += (action,)
                legal = options_of(world)
            value = self._rollout(world, player, stop_turn, rng)
            for stats, own in path:
                stats[0] += 1.0
                stats[1] += value if own else -value
        root = tree[()]
        tried = [action for action in actions if action in root]
        return pick_best(tried, [root[action][0] for action in tried], rng)  # tried most

    def _quick(self, world: Any, legal: list[int], key: tuple[int, ...],
               rng: random.Random) -> int | None:
        """A small decision below the root, taken by the game's `quick` rule or else the
        rollout bot (None: a main decision, a node of the tree)."""
        if not key or not is_mid_move(world):
            return None
        action = self.quick(world, legal) if self.quick is not None else None
        if action is None and self.rollout_bot is not None:
            action = self.rollout_bot.choose(world, rng)
        return action

    def _select(self, node: Node, world: Any, legal: list[int], order: list[int],
                rng: random.Random) -> tuple[int, bool]:
        """A new option while the node has been visited enough for one more (progressive
        widening: 1 + the square root of its visits), else UCB1's among those tried; and
        whether it is new. The new one is the first of `order` not yet tried (`widen="rank"`:
        `order` holds the node's options as `rank` values them, best first), else the
        rollout bot's choice at a fresh node, else one at random."""
        tried_here = [action for action in legal if action in node]
        visits = sum(node[action][0] for action in tried_here)
        if len(tried_here) < len(legal) and (
                not tried_here or len(tried_here) < 1 + math.isqrt(int(visits))):
            untried = [action for action in legal if action not in node]
            if not order and self.widen == "rank" and self.rank is not None \
                    and not is_mid_move(world):
                values = self.rank(world, legal, world.current_player(), rng)
                ranked = sorted(range(len(legal)), key=values.__getitem__, reverse=True)
                order.extend(legal[index] for index in ranked)
            first = next((action for action in order if action not in node), -1)
            if first not in untried and not node and self.rollout_bot is not None:
                first = self.rollout_bot.choose(world, rng)
            action = first if first in untried else untried[below(rng, len(untried))]
            node[action] = [0.0, 0.0]
            return action, True
        log_tried = math.log(visits)
        best, best_score = tried_here[0], -math.inf
        for action in tried_here:
            tried, total = node[action]
            score = total / tried + self.exploration * math.sqrt(log_tried / tried)
            if score > best_score:
                best, best_score = action, score
        return best, False


# -- the registry ----------------------------------------------------------------------------
#: How the greedy bot judges an action: from the cards' profiles without playing it
#: (`scoring.py`, the engine's heuristic only), or by playing it out on a copy.
GREEDY_JUDGES = ("score", "playout")
#: How both sides play inside a search rollout: the greedy bot (on Revolver the scoring
#: one), greedy judging each move played out and settled, greedy judging each decision
#: alone (half-finished moves), or uniformly at random.
ROLLOUT_POLICIES = ("greedy", "playout", "fast", "random")
#: How the search spends its budget over the candidate actions (`SearchBot.allocate`).
ALLOCATIONS = ("halving", "uniform", "check")
#: How the search judges where a rollout stops: the game's own search judge where it offers
#: one (`Heuristics.search_judge`, else its evaluator), or the evaluator the greedy uses.
SEARCH_JUDGES = ("game", "value")
#: Which option an `IsmctsBot` node adds next (`IsmctsBot.widen`).
WIDENINGS = ("greedy", "rank")
#: The cheap search: the rollout bot's three best options of a main decision and ending the
#: play phase, each rolled out once in one re-dealt world, and once more for the best and the
#: rollout bot's favourite where they differ; the small decisions of two options searched
#: alike, the others the rollout bot's. Within ten times the greedy's cost a game, compiled
#: (docs/maintainers/performance.md, the bot ladder).
CHEAP_SEARCH: Final = "search:allocate=check,rollouts=1,small=2,top=3"


@dataclass(frozen=True)
class BotOption:
    """One option of a bot's spec: its key, the values it allows (as the help shows them),
    and how its text is read (raising ValueError with the reason when it cannot be)."""

    key: str
    allowed: str
    read: Callable[[str], object]


def _choice(what: str, values: tuple[str, ...]) -> Callable[[str], object]:
    def read(text: str) -> object:
        if text.lower() not in values:
            raise ValueError(f"names an unknown {what} (one of {', '.join(values)})")
        return text.lower()
    return read


def _at_least(kind: type[int] | type[float], low: float) -> Callable[[str], object]:
    def read(text: str) -> object:
        try:
            number = kind(text)
        except ValueError:
            raise ValueError("is not a number") from None
        if number < low:
            raise ValueError(f"must be at least {low}")
        return number
    return read


def _flag(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "yes", "1", "on"):
        return True
    if lowered in ("false", "no", "0", "off"):
        return False
    raise ValueError("is not true/false")


class BotOptions(Protocol):
    """A bot kind's options model, read from its spec: it builds the bot."""

    def build(self, heuristics: Heuristics, spec: str, given: dict[str, str]) -> Bot: ...


@dataclass(frozen=True)
class RandomOptions:
    """`random` takes no options."""

    def build(self, heuristics: Heuristics, spec: str, given: dict[str, str]) -> Bot:
        return RandomBot()


@dataclass(frozen=True)
class GreedyOptions:
    """`greedy[:judge=score|playout,settle=false,quick=false]`; no judge: the game's scoring
    greedy where it has one, else the play-out greedy."""

    judge: str | None = None
    settle: bool = True
    quick: bool = True

    def build(self, heuristics: Heuristics, spec: str, given: dict[str, str]) -> Bot:
        scoring = heuristics.greedy
        judge = self.judge or ("score" if scoring is not None else "playout")
        if judge == "score":
            if scoring is None:
                raise BotSpecError(f"bot '{spec}': this game has no scoring greedy",
                                   fix="use judge=playout")
            if "settle" in given or "quick" in given:
                raise BotSpecError(f"bot '{spec}': settle and quick apply to judge=playout",
                                   fix="add judge=playout, or drop settle and quick")
            return scoring()
        switched_off = {key: "false" for key, on in (("quick", self.quick),
                                                      ("settle", self.settle)) if not on}
        if scoring is not None:
            switched_off["judge"] = "playout"
        return GreedyBot(heuristics.evaluate, settle=self.settle,
                         name=_canonical_name("greedy", switched_off),
                         quick=heuristics.quick if self.quick else None)


@dataclass(frozen=True)
class SearchOptions:
    """`search[:rollouts=N|ms=M,horizon=T,policy=...,allocate=...,judge=game|value,
    quick=false,top=K,small=K]`; what is not given keeps `SearchBot`'s default."""

    rollouts: int | None = None
    ms: float | None = None
    horizon: int | None = None
    policy: str | None = None
    allocate: str | None = None
    judge: str = "game"
    quick: bool = True
    top: int = 0
    small: int | None = None

    def build(self, heuristics: Heuristics, spec: str, given: dict[str, str]) -> Bot:
        if self.rollouts is not None and self.ms is not None:
            raise BotSpecError(f"bot '{spec}' sets both rollouts and ms",
                               fix="give the budget as rollouts=N or as ms=M")
        rollout_bot = heuristics.greedy() if heuristics.greedy else None
        bot = SearchBot(heuristics.evaluate, quick=heuristics.quick, rollout_bot=rollout_bot,
                        rank=getattr(rollout_bot, "action_values", None),
                        judge=heuristics.search_judge if self.judge == "game" else None,
                        quick_small=self.quick, ms=self.ms, top=self.top,
                        small=self.small, name=_canonical_name("search", given))
        if self.rollouts is not None:
            bot.rollouts = self.rollouts
        if self.horizon is not None:
            bot.horizon = self.horizon
        if self.policy is not None:
            bot.policy = self.policy
        if self.allocate is not None:
            bot.allocate = self.allocate
        return bot


@dataclass(frozen=True)
class IsmctsOptions:
    """`ismcts[:iterations=N,horizon=T,exploration=C,top=K,judge=game|value,
    widen=greedy|rank]`; what is not given keeps `IsmctsBot`'s default."""

    iterations: int = 100
    horizon: int = 2
    exploration: float = 0.3
    top: int = 0
    judge: str = "game"
    widen: str = "greedy"

    def build(self, heuristics: Heuristics, spec: str, given: dict[str, str]) -> Bot:
        rollout_bot = heuristics.greedy() if heuristics.greedy else None
        return IsmctsBot(heuristics.evaluate, quick=heuristics.quick, rollout_bot=rollout_bot,
                         rank=getattr(rollout_bot, "action_values", None),
                         judge=heuristics.search_judge if self.judge == "game" else None,
                         rollouts=self.iterations, horizon=self.horizon, top=self.top,
                         exploration=self.exploration, widen=self.widen,
                         name=_canonical_name("ismcts", given))


@dataclass(frozen=True)
class BotKind:
    """A kind of bot as specs name it: its options (their keys, values and readers), the
    frozen model they fill in, and examples for the help and the shell's completion."""

    name: str
    options: tuple[BotOption, ...]
    model: Callable[..., BotOptions]
    examples: tuple[str, ...] = ()

    def usage(self) -> str:
        """`name[:key=values,...]`, as `BOT_HELP` lists it."""
        shown = ",".join(f"{option.key}={option.allowed}" for option in self.options)
        return f"{self.name}[:{shown}]" if shown else self.name


#: Every bot a spec can name, by name: `make_bot` builds them, `BOT_NAMES` (the command
#: line's `--bot` help and completion) lists them. A new bot registers here.
BOT_KINDS: Final[dict[str, BotKind]] = {kind.name: kind for kind in (
    BotKind("random", (), RandomOptions),
    BotKind("greedy", (BotOption("judge", "score|playout", _choice("judge", GREEDY_JUDGES)),
                       BotOption("settle", "false", _flag),
                       BotOption("quick", "false", _flag)),
            GreedyOptions, ("greedy:judge=playout",)),
    BotKind("search", (BotOption("rollouts", "N", _at_least(int, 1)),
                       BotOption("ms", "M", _at_least(float, 0.1)),
                       BotOption("horizon", "T", _at_least(int, 1)),
                       BotOption("policy", "|".join(ROLLOUT_POLICIES),
                                 _choice("rollout policy", ROLLOUT_POLICIES)),
                       BotOption("allocate", "|".join(ALLOCATIONS),
                                 _choice("allocation", ALLOCATIONS)),
                       BotOption("judge", "|".join(SEARCH_JUDGES),
                                 _choice("judge", SEARCH_JUDGES)),
                       BotOption("quick", "false", _flag),
                       BotOption("top", "K", _at_least(int, 0)),
                       BotOption("small", "K", _at_least(int, 0))),
            SearchOptions, ("search:rollouts=200", "search:ms=50", CHEAP_SEARCH)),
    BotKind("ismcts", (BotOption("iterations", "N", _at_least(int, 1)),
                       BotOption("horizon", "T", _at_least(int, 1)),
                       BotOption("exploration", "C", _at_least(float, 0.0)),
                       BotOption("top", "K", _at_least(int, 0)),
                       BotOption("judge", "|".join(SEARCH_JUDGES),
                                 _choice("judge", SEARCH_JUDGES)),
                       BotOption("widen", "|".join(WIDENINGS), _choice("widening", WIDENINGS))),
            IsmctsOptions, ("ismcts:iterations=400",)),
)}
BOT_NAMES: Final = tuple(BOT_KINDS)
#: Specs shown as examples after the names (any `key=value` options may follow).
BOT_EXAMPLES: Final = tuple(example for kind in BOT_KINDS.values() for example in kind.examples)
#: What `--bot` offers and its help lists: each bot's name, then its examples.
BOT_OFFERS: Final = tuple(spec for kind in BOT_KINDS.values()
                          for spec in (kind.name, *kind.examples))
BOT_HELP: Final = " | ".join(kind.usage() for kind in BOT_KINDS.values())


def _parse_options(spec: str) -> tuple[str, dict[str, str]]:
    kind, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for part in filter(None, (piece.strip() for piece in rest.split(","))):
        key, equals, value = part.partition("=")
        if not equals or not key.strip() or not value.strip():
            raise BotSpecError(f"bot option '{part}' in '{spec}' is not key=value", fix=BOT_HELP)
        options[key.strip().lower()] = value.strip()
    return kind.strip().lower(), options


def _read_options(kind: BotKind, spec: str, given: dict[str, str]) -> BotOptions:
    """The kind's options model filled in from the spec; a bad option is one line naming the
    bot, the option and what it allows."""
    readers = {option.key: option for option in kind.options}
    values: dict[str, object] = {}
    for key, text in given.items():
        option = readers.get(key)
        if option is None:
            takes = ", ".join(readers) or "no options"
            raise BotSpecError(f"unknown option '{key}' in bot '{spec}' ({kind.name} takes "
                               f"{takes})", fix=kind.usage())
        try:
            values[key] = option.read(text)
        except ValueError as reason:
            raise BotSpecError(f"bot '{spec}': option {key}={text} {reason}",
                               fix=f"{key}={option.allowed}") from None
    return kind.model(**values)


def make_bot(spec: str, heuristics: Heuristics | Evaluator) -> Bot:
    """Build a bot from a short spec: `random`, `greedy`, `search:rollouts=200`, `search:ms=50`,
    judging positions with the game's `heuristics` (a bare evaluator is taken as heuristics
    with nothing else: the play-out greedy and no quick choices)."""
    if not isinstance(heuristics, Heuristics):
        heuristics = Heuristics(heuristics)
    name, given = _parse_options(spec)
    kind = BOT_KINDS.get(name)
    if kind is None:
        raise BotSpecError(f"unknown bot '{name}'", fix=f"choose one of: {BOT_HELP}")
    return _read_options(kind, spec, given).build(heuristics, spec, given)


def _canonical_name(kind: str, options: dict[str, str]) -> str:
    if not options:
        return kind
    return kind + ":" + ",".join(f"{key}={options[key]}" for key in sorted(options))


def is_reproducible(spec: str) -> bool:
    """False for time-budgeted bots: their choices depend on how fast the machine is."""
    _, options = _parse_options(spec)
    return "ms" not in options
