"""The scoring greedy bot (`deckbuilder.games.revolver.bots.scoring`): its values against the
heuristic's, honesty, reproducibility, legal play, the play-out fallback and its rules for
sub-decisions.

Positions come from seeded games (the bot playing both seats) on the base decks, and from the
homebrew decks of `engine_cards.py`, whose cards include effect steps no profile describes.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Iterator

import pytest
from engine_cards import (
    HOMEBREW_CARDS,
    UNPLAYABLE,
    in_play,
    names,
    ready,
    synthetic_catalog,
    synthetic_decks,
    synthetic_game,
)
from engine_cards import hand as give_hand
from table_staging import do, stage, stage_character, stage_marker, unstage

from deckbuilder.bots import RandomBot
from deckbuilder.catalog import build_catalog
from deckbuilder.engine import actions as act
from deckbuilder.engine.board import column_count, firepower
from deckbuilder.engine.card_records import CardDef
from deckbuilder.engine.codes import FIREPOWER, SLOT_OWN
from deckbuilder.engine.state import State
from deckbuilder.games import new_game
from deckbuilder.games.revolver.bots.card_profiles import profiles_for
from deckbuilder.games.revolver.bots.quick import card_worth
from deckbuilder.games.revolver.bots.scoring import (
    ScoringBot,
    _take_out,
    card_value,
    play_change,
)
from deckbuilder.games.revolver.bots.scoring_position import DECIDED_GAME, Change, Reading, value
from deckbuilder.games.revolver.bots.scoring_rules import hand_after_paying, rule_choice

# `deckbuilder.engine` re-exports the function `evaluate` under the module's name.
heuristic = importlib.import_module("deckbuilder.games.revolver.bots.evaluate")
GANG, MCREADY = 0, 1
#: Starts a game from a seed.
GameMaker = Callable[[int], State]
#: `evaluate` keeps a game not yet over strictly inside (-1, 1) by this much.
INSIDE = 1.0 - 1e-9


# -- positions -------------------------------------------------------------------------------
def _base_game(seed: int) -> State:
    catalog = build_catalog()
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    return new_game(decks, seed, catalog=catalog)


def _homebrew_game(seed: int) -> State:
    """The synthetic decks plus two of every playable homebrew card (as in
    test_engine_protocol.py)."""
    decks = synthetic_decks()
    for card in HOMEBREW_CARDS:
        if card["id"] not in UNPLAYABLE | {"cursed-idol"}:
            decks[0 if card["faction"] == "colty" else 1][card["id"]] = 2
    return new_game(decks, seed, catalog=synthetic_catalog())


def _positions(make: GameMaker, seeds: range) -> Iterator[State]:
    """Every open decision of seeded games the scoring bot plays from both seats."""
    bot = ScoringBot()
    for seed in seeds:
        state = make(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            state.apply(bot.choose(state, rng))


def _is_plain_firepower(card: CardDef) -> bool:
    """Played at the marker's battlefield for nothing, it only adds its firepower there."""
    mode = card.modes[0]
    return (card.simple and card.cost == 0 and mode.slot == SLOT_OWN and mode.play == FIREPOWER
            and not mode.effect and not card.watch and not card.enter_grit
            and not card.enter_power)


def _plain_plays(state: State) -> Iterator[tuple[int, int, list[int]]]:
    """(action, card definition, the hand without the card) for each plain firepower card the
    player in his play phase can play."""
    layout = state.spec.layout
    def_of = state.spec.def_of
    for action in state.legal_actions():
        if layout.play_base <= action < layout.pay_base:
            definition = state.spec.action_def[action]
            if _is_plain_firepower(state.spec.defs[definition]):
                hand = list(state.hands[state.current_player()])
                hand.remove(next(uid for uid in hand if def_of[uid] == definition))
                yield action, definition, hand


# -- the scorer and the heuristic --------------------------------------------------------------
def test_for_the_gang_the_scorer_values_a_plain_card_as_the_heuristic_does() -> None:
    """In the gang's play phase both read the same race: the board after the card, the hand it
    leaves, McReady's coming attack. `evaluate` clamps a live game to +-(1 - 1e-9) and `value`
    does not (its tie-break may pass +-1: see the decided-game test below), so the scorer's
    value is clamped the same way."""
    checked = inside = 0
    for state in _positions(_base_game, range(12)):
        if state.pending_kind != act.K_MAIN or state.current_player() != GANG:
            continue
        reading = Reading(state, GANG)
        for action, definition, hand in _plain_plays(state):
            after = state.clone()
            after.apply(action)
            assert after.pending_kind == act.K_MAIN and after.active == GANG  # settled
            change = play_change(reading, definition, 0, state.marker_bf, 0, hand)
            assert change is not None
            scored = max(-INSIDE, min(INSIDE, value(reading, change, False)))
            expected = heuristic.evaluate(after, GANG)
            assert scored == pytest.approx(expected, abs=1e-9), (state.history, action)
            checked += 1
            inside += abs(expected) < 0.99
    assert checked >= 200 and inside >= 200


def _end_play_phase(state: State) -> State:
    """McReady ends his play phase; the attack and what follows resolve as `evaluate` plays
    them (the gang reacts when it can, other choices take the first option)."""
    state.apply(act.PASS)
    while not state.is_terminal() and state.pending_kind != act.K_MAIN:
        legal = state.legal_actions()
        state.apply(legal[-1] if state.pending_kind == act.K_REACT else legal[0])
    return state


def test_for_mcready_both_prefer_a_card_that_makes_the_attack_kill() -> None:
    """McReady's values cannot agree exactly: `evaluate` ends his phase on the real game (the
    gang's real hand, the casualty the engine's rule picks, the marker's move and the next
    draws), the scorer estimates the attack from what he can see. What holds: where a free
    card lifts his firepower above the gang's, the gang cannot hold a reaction and the race
    is open, both value playing it and then attacking above attacking without it."""
    checked = 0
    # 120 games: the positions this needs are rarer since greedy stopped discarding for nothing
    for state in _positions(_base_game, range(120)):
        if state.pending_kind != act.K_MAIN or state.current_player() != MCREADY:
            continue
        reading = Reading(state, MCREADY)
        if reading.react_chance or reading.last:
            continue
        for action, definition, hand in _plain_plays(state):
            fire = state.spec.defs[definition].modes[0].firepower
            if not reading.lawmen <= reading.gang < reading.lawmen + fire:
                continue
            attack_now = heuristic.evaluate(_end_play_phase(state.clone()), MCREADY)
            if abs(attack_now) > 0.9:
                continue
            played = state.clone()
            played.apply(action)
            attack_after = heuristic.evaluate(_end_play_phase(played), MCREADY)
            change = play_change(reading, definition, 0, state.marker_bf, 0, hand)
            assert change is not None
            assert value(reading, change, True) > value(reading, Change(reading.hand), True)
            assert attack_after > attack_now
            checked += 1
        if checked >= 10:
            break  # enough positions checked
    assert checked >= 10


def test_a_decided_game_outranks_every_live_position() -> None:
    """Live values stay inside the race's range (+-1 plus the firepower tie-break), and a
    won or lost game lies beyond it: the gang never prefers losing at once to a position
    nearly lost, nor a live position to a win."""
    live = 1.0 + heuristic.MARGIN_TIE
    checked = 0
    for state in _positions(_base_game, range(12)):
        if state.pending_kind == act.K_MAIN:
            player = state.current_player()
            reading = Reading(state, player)
            assert -live <= value(reading, Change(reading.hand), False) <= live
            checked += 1
            won = Change(reading.hand)
            won.casualties = int(reading.lives)  # every life the gang has left
            assert value(reading, won, False) == (
                DECIDED_GAME if player == MCREADY else -DECIDED_GAME)
    assert checked >= 100


def test_the_scorer_assumes_the_payment_the_rule_makes() -> None:
    """A card with a cost is scored with the hand `hand_after_paying` leaves; paid by the
    bot's rule, the real hand is the same."""
    checked = 0
    for state in _positions(_base_game, range(10)):
        if state.pending_kind != act.K_MAIN:
            continue
        player = state.current_player()
        layout = state.spec.layout
        for action in state.legal_actions():
            definition = state.spec.action_def[action]
            if not layout.play_base <= action < layout.pay_base:
                continue
            card = state.spec.defs[definition]
            if not card.simple or card.cost == 0 or card.modes[0].effect:
                continue  # (an effect could change the hand too)
            hand = list(state.hands[player])
            hand.remove(next(uid for uid in hand if state.spec.def_of[uid] == definition))
            expected = hand_after_paying(profiles_for(state.spec), hand,
                                         card.cost)
            after = state.clone()
            after.apply(action)
            while after.pending_kind in (act.K_PAY, act.K_DISCARD) and \
                    after.pending_player == player:
                after.apply(rule_choice(after, after.legal_actions()))
            def_of = state.spec.def_of  # which copy of a card is played does not matter
            assert sorted(map(def_of.__getitem__, after.hands[player])) == \
                sorted(map(def_of.__getitem__, expected))
            checked += 1
    assert checked >= 500


# -- honesty, reproducibility, legality --------------------------------------------------------
def _choices_hidden_cards_change(positions: Iterator[State]) -> tuple[int, int]:
    """(decisions checked, decisions whose choice changed when the cards the deciding player
    cannot see were re-dealt). Decisions where the bot played an option out are skipped: it
    plays out on a random re-deal of its own, which differs between the two copies even for an
    honest bot."""
    checked = changed = 0
    for state in positions:
        if len(state.legal_actions()) < 2:
            continue
        player = state.current_player()
        seen = ScoringBot()
        choice = seen.choose(state, random.Random(1))
        for k in range(2):
            other = ScoringBot()
            other_choice = other.choose(state.resample_hidden(player, random.Random(k)),
                                        random.Random(1))
            if seen.fallbacks or other.fallbacks:
                continue
            checked += 1
            changed += other_choice != choice
    return checked, changed


@pytest.mark.parametrize("make", [_base_game, _homebrew_game], ids=["base", "homebrew"])
def test_the_choice_does_not_depend_on_cards_the_player_cannot_see(make: GameMaker) -> None:
    checked, changed = _choices_hidden_cards_change(_positions(make, range(6)))
    assert checked >= 500
    assert changed == 0


def test_the_honesty_check_catches_a_scorer_that_peeks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: McReady reads from the gang's real hand whether it can cancel his attack,
    instead of the chance its unseen hand holds a reaction."""
    honest_init = Reading.__init__

    def peeking_init(self: Reading, state: State, player: int) -> None:
        honest_init(self, state, player)
        if player == MCREADY:
            reacts = self.tables.uid_reacts
            self.react_chance = float(any(reacts[uid] for uid in state.hands[GANG]))

    monkeypatch.setattr(Reading, "__init__", peeking_init)
    _checked, changed = _choices_hidden_cards_change(_positions(_base_game, range(6)))
    assert changed > 0


def _history(make: GameMaker, seed: int, bots: tuple[ScoringBot, ScoringBot]) -> list[int]:
    state = make(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(bots[state.current_player()].choose(state, rng))
    return state.history


@pytest.mark.parametrize("make", [_base_game, _homebrew_game], ids=["base", "homebrew"])
def test_the_same_seed_gives_the_same_game(make: GameMaker) -> None:
    for seed in range(3):
        first = _history(make, seed, (ScoringBot(), ScoringBot()))
        again = _history(make, seed, (ScoringBot(), ScoringBot()))
        assert first == again
    other = _history(make, 3, (ScoringBot(), ScoringBot()))
    assert other != first  # the seed matters: the check above is not vacuous


@pytest.mark.parametrize("make", [_base_game, _homebrew_game], ids=["base", "homebrew"])
@pytest.mark.parametrize("seat", [GANG, MCREADY])
def test_every_choice_is_legal_and_leaves_the_state_alone(make: GameMaker, seat: int) -> None:
    bots: list[RandomBot | ScoringBot] = [RandomBot(), RandomBot()]
    bots[seat] = ScoringBot()
    for seed in range(10):
        state = make(seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            before = state.snapshot() if steps % 7 == 0 else None
            action = bots[state.current_player()].choose(state, rng)
            assert action in legal, state.action_to_string(action)
            if before is not None:
                assert state.snapshot() == before, "choosing changed the game"
            state.apply(action)
            steps += 1
        assert state.outcome() is not None


# -- what the profiles do not know is played out ------------------------------------------------
class _Recording(ScoringBot):
    """Records the options it plays out."""

    def __init__(self) -> None:
        super().__init__()
        self.played_out: list[int] = []

    def _played_out(self, state: State, action: int, player: int, rng: random.Random) -> float:
        self.played_out.append(action)
        return super()._played_out(state, action, player, rng)


@pytest.mark.parametrize(("player", "card_id"), [(GANG, "pickpocket"),
                                                  (MCREADY, "tax-collector")])
def test_a_step_no_profile_knows_is_played_out(player: int, card_id: str) -> None:
    """Pickpocket and Tax Collector make the opponent discard: no profile step reads that."""
    state = ready(_homebrew_game(4), player)
    give_hand(state, player, card_id, "cowboy" if player == MCREADY else "38-special")
    give_hand(state, 1 - player, "cowboy" if player == GANG else "38-special")
    definition = next(card.idx for card in state.spec.defs if card.id == card_id)
    assert not profiles_for(state.spec).modes[definition][0].known
    assert play_change(Reading(state, player), definition, 0, state.marker_bf, 0,
                       list(state.hands[player])) is None
    play = state.spec.play_action[definition]
    assert play in state.legal_actions()
    bot = _Recording()
    choice = bot.choose(state, random.Random(0))
    assert choice in state.legal_actions()
    assert bot.played_out == [play]  # that option, and only it
    assert bot.fallbacks == 1


# -- sub-decisions by rule ---------------------------------------------------------------------
def test_paying_discards_the_card_its_owner_misses_least() -> None:
    checked = 0
    for state in _positions(_base_game, range(8)):
        actions = state.legal_actions()
        if state.pending_kind != act.K_PAY or len(actions) < 2:
            continue
        action_def = state.spec.action_def
        worths = {action: card_worth(state.spec.defs[action_def[action]]) for action in actions}
        choice = ScoringBot().choose(state, random.Random(0))
        assert worths[choice] == min(worths.values())
        if len(set(worths.values())) > 1:
            checked += 1
    assert checked >= 100


def _casualty_decision(kill_ids: tuple[str, ...], battlefield: str | None = None) -> State:
    """McReady's attack kills; the gang picks the casualty among its lowest-rated members
    still alive (those in `kill_ids` are dead already)."""
    state = ready(synthetic_game(1), MCREADY)
    if battlefield is not None:
        stage_marker(state, battlefield, state.spec.bfs[
            next(bf.idx for bf in state.spec.bfs if bf.id == battlefield)].labels[0])
    for bandit_id in kill_ids:
        stage_character(state, bandit_id, alive=False)
    in_play(state, MCREADY, "deputy", "deputy", "cowboy", "charlie-weathers")
    do(state, "end play phase")
    assert state.pending_kind == act.K_CASUALTY
    return state


def _casualty(state: State, bandit_id: str) -> int:
    return act.CHARACTER_BASE + next(c.idx for c in state.spec.characters if c.id == bandit_id)


ZERO_AND_ONE_RATED = ("marmaduke", "bullet", "micky-mason", "poppy-mcready", "skinny-landell",
                      "annie-mcgraw", "harry-houndy", "bruno-caple", "lenny-mason")
TWO_RATED = ("manolito", "josie-newcombe", "salomon-mason")


def test_a_casualty_whose_death_gains_turns_goes_first() -> None:
    """Kittens' death gives the gang two extra turns (unless the express is reached): of two
    3-rated members she is the cheaper loss."""
    state = _casualty_decision(ZERO_AND_ONE_RATED + TWO_RATED)
    kittens, missy = _casualty(state, "kittens-mackenzie"), _casualty(state, "missy-jameson")
    assert sorted(state.legal_actions()) == sorted([kittens, missy])
    assert rule_choice(state, state.legal_actions()) == kittens
    turns_on = {}
    for action in (kittens, missy):
        after = state.clone()
        after.apply(action)
        turns_on[action] = sum(after.face_on)
    assert turns_on[kittens] == turns_on[missy] + 2  # the game agrees: two more turns


def test_at_the_express_kittens_gains_nothing_and_is_not_preferred() -> None:
    state = _casualty_decision(ZERO_AND_ONE_RATED + TWO_RATED, battlefield="3-15-express")
    assert rule_choice(state, state.legal_actions()) == _casualty(state, "missy-jameson")


def test_a_casualty_spares_members_whose_loss_costs_more() -> None:
    """Among the 1-rated: Skinny loses his power token first and gains a turn by it; Bruno's
    death forbids the gang a card, so a plain member goes before him."""
    state = _casualty_decision(("marmaduke", "bullet", "micky-mason", "poppy-mcready"))
    legal = state.legal_actions()
    skinny, annie, bruno = (_casualty(state, name)
                            for name in ("skinny-landell", "annie-mcgraw", "bruno-caple"))
    assert {skinny, annie, bruno} <= set(legal)
    assert rule_choice(state, legal) == skinny
    assert rule_choice(state, [annie, bruno]) == annie
    assert rule_choice(state, [bruno, annie]) == annie


def test_a_reaction_always_cancels_a_killing_attack() -> None:
    state = ready(synthetic_game(15), MCREADY)
    in_play(state, MCREADY, "deputy")
    give_hand(state, GANG, "lightning-reflexes", "38-special")
    do(state, "end play phase")
    assert state.pending_kind == act.K_REACT
    assert names(state) == ["do not react", "react with Lightning Reflexes"]
    react = state.legal_actions()[1]
    assert rule_choice(state, state.legal_actions()) == react
    assert ScoringBot().choose(state, random.Random(0)) == react


def test_mcready_cancels_a_card_that_destroys_his_lawmen() -> None:
    state = ready(synthetic_game(16), GANG)
    in_play(state, MCREADY, "cowboy")
    give_hand(state, MCREADY, "he-shot-my-hat")
    give_hand(state, GANG, "fire-at-will-boys")
    do(state, "play Fire At Will Boys")
    assert state.pending_kind == act.K_REACT
    assert rule_choice(state, state.legal_actions()) == state.legal_actions()[1]


def test_a_kill_takes_the_opponents_strongest_card() -> None:
    state = ready(synthetic_game(5), GANG)
    in_play(state, MCREADY, "cowboy", "deputy")
    give_hand(state, GANG, "chew-on-this-gringo")
    do(state, "play Chew On This Gringo")
    assert names(state) == ["kill Cowboy at The Bank at Repentance Springs",
                            "kill Deputy at The Bank at Repentance Springs"]
    assert rule_choice(state, state.legal_actions()) == state.legal_actions()[1]


def test_a_one_shot_with_nothing_to_act_on_is_not_played_for_nothing() -> None:
    """With no row-blocking card in play, "destroy one" would only spend the card: the gang
    plays it for its firepower, and never prefers the empty destroy to ending its phase.
    Once McReady has a row-blocking card here, destroying it is worth the card again."""
    state = ready(synthetic_game(7), GANG)
    give_hand(state, GANG, "lets-shoot")
    reading = Reading(state, GANG)
    definition = state.spec.defs.index(next(d for d in state.spec.defs if d.id == "lets-shoot"))
    destroy = [(1, state.marker_bf, 0)]
    assert card_value(reading, definition, destroy, []) == -math.inf
    do(state, "play Lets Shoot")
    assert state.pending_kind == act.K_MODE
    assert ScoringBot().choose(state, random.Random(0)) == act.MODE_BASE  # the firepower

    state = ready(synthetic_game(7), GANG)
    in_play(state, MCREADY, "cactus-field")
    give_hand(state, GANG, "lets-shoot")
    reading = Reading(state, GANG)
    assert card_value(reading, definition, destroy, []) > -math.inf


# -- moves the scorer describes as the engine makes them ---------------------------------------
def _definition(state: State, card_id: str) -> int:
    return next(card.idx for card in state.spec.defs if card.id == card_id)


def _play_by_rule(state: State, card_id: str) -> None:
    """Play the card, its sub-decisions (payment, choices) answered by the bot's rules."""
    player = state.current_player()
    state.apply(state.spec.play_action[_definition(state, card_id)])
    while state.pending_kind != act.K_MAIN or state.pending_player != player:
        legal = state.legal_actions()
        if state.pending_kind == act.K_REACT:
            state.apply(act.PASS)
            continue
        choice = rule_choice(state, legal)
        state.apply(legal[0] if choice is None else choice)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize("card_id", ["shucks", "didnt-see-this-comin"])
def test_mcready_brings_no_lawman_into_a_closed_column(card_id: str, closed: bool) -> None:
    """Shucks (a lawman from the discard pile into play here) and Didn't See This Comin' (a
    lawman from another battlefield to this one) add his firepower only where McReady's
    column has room: the gang's Sandstorm with two of his cards here closes it, and the
    engine then brings nobody."""
    state = ready(synthetic_game(3), MCREADY)
    bf = state.marker_bf
    if closed:
        in_play(state, GANG, "sandstorm")
    in_play(state, MCREADY, "cowboy", "cowboy")
    in_play(state, MCREADY, "deputy", battlefield="whiskey-canyon")
    stage(state, MCREADY, "deputy", "discard")
    give_hand(state, MCREADY, card_id, "cowboy")
    reading = Reading(state, MCREADY)
    assert reading.m_room is not closed
    definition = _definition(state, card_id)
    hand = [uid for uid in state.hands[MCREADY] if state.spec.def_of[uid] != definition]
    cost = state.spec.defs[definition].cost
    change = play_change(reading, definition, 0, bf, cost, hand)
    assert change is not None
    before = firepower(state, bf, MCREADY)
    _play_by_rule(state, card_id)
    gained = firepower(state, bf, MCREADY) - before
    assert gained == (0 if closed else 2)  # the engine: a Deputy, or nobody
    assert change.lawmen == gained


def _gang_moves_jackson_clan(state: State) -> None:
    """Run a "move one of your characters to the current battlefield" step for the gang."""
    mode = state.spec.defs[_definition(state, "didnt-see-this-comin")].modes[0]
    for runner, params in mode.effect:
        runner(state, (runner, params, (GANG, -1, state.marker_bf)))


@pytest.mark.parametrize("guns_here", [2, 3])
def test_a_card_moved_to_the_gang_column_needs_and_takes_a_place(guns_here: int) -> None:
    """No gang card of the synthetic set moves a card to the current battlefield, so the gang
    reads the profile of McReady's Didn't See This Comin' (one of the player's characters to
    the current battlefield) and the engine runs its step for the gang: the Jackson Clan comes
    only into a column with room, and fills a place there."""
    state = ready(synthetic_game(3), GANG)
    bf = state.marker_bf
    in_play(state, GANG, *["38-special"] * guns_here)
    in_play(state, GANG, "the-jackson-clan", battlefield="whiskey-canyon")
    reading = Reading(state, GANG)
    change = play_change(reading, _definition(state, "didnt-see-this-comin"), 0, bf, 0,
                         list(state.hands[GANG]))
    assert change is not None
    limit = state.spec.column_limit[GANG]
    fire_before, free_before = firepower(state, bf, GANG), limit - column_count(state, bf, GANG)
    after = state.clone()
    _gang_moves_jackson_clan(after)
    fire_gained = firepower(after, bf, GANG) - fire_before
    free_after = limit - column_count(after, bf, GANG)
    assert fire_gained == (4 if guns_here < limit else 0)
    assert change.gang == fire_gained
    assert reading.room == free_before
    assert reading.room + change.room == free_after


def test_a_card_sent_back_to_mcready_counts_in_his_hand() -> None:
    """A lawman the gang sends back to McReady's hand leaves the column and joins his hand,
    which the gang counts by its size (his expected firepower, the cards a kill costs him):
    the scorer values that as the heuristic values the position after it."""
    state = ready(synthetic_game(2), GANG)
    for bandit_id in ZERO_AND_ONE_RATED:  # a race still open
        stage_character(state, bandit_id, alive=False)
    give_hand(state, MCREADY, "cowboy")
    give_hand(state, GANG, "38-special", "peacemaker-45")
    deputy = in_play(state, MCREADY, "deputy")[0]
    in_play(state, GANG, "38-special")
    reading = Reading(state, GANG)
    change = Change(list(reading.hand))
    _take_out(reading, change, deputy, True)
    scored = max(-INSIDE, min(INSIDE, value(reading, change, False)))
    after = state.clone()
    unstage(after, deputy, "hand")  # as a bounce does: out of play, into its owner's hand
    assert len(after.hands[MCREADY]) == len(state.hands[MCREADY]) + 1
    expected = heuristic.evaluate(after, GANG)
    assert abs(expected) < 0.9
    assert scored == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("card_id", ["fan-the-hammer", "ammo-wagon", "war-chest"])
def test_power_tokens_count_as_the_firepower_the_engine_adds(card_id: str) -> None:
    """Power tokens on cards here are firepower: on every matching card ("Fan" the gun's
    `each`), on the one the token rule picks (Ammo Wagon), or on the played card itself,
    one per card in the discard pile (War Chest)."""
    state = ready(_homebrew_game(6), MCREADY)
    bf = state.marker_bf
    in_play(state, MCREADY, "deputy", "cowboy", "cowboy")
    in_play(state, MCREADY, "deputy", battlefield="whiskey-canyon")
    for _ in range(2):
        stage(state, MCREADY, "cowboy", "discard")
    give_hand(state, MCREADY, card_id)
    definition = _definition(state, card_id)
    hand = [uid for uid in state.hands[MCREADY] if state.spec.def_of[uid] != definition]
    change = play_change(Reading(state, MCREADY), definition, 0, bf, 0, hand)
    assert change is not None
    before = firepower(state, bf, MCREADY)
    _play_by_rule(state, card_id)
    gained = firepower(state, bf, MCREADY) - before
    assert gained == {"fan-the-hammer": 6, "ammo-wagon": 2, "war-chest": 1 + 2}[card_id]
    assert change.lawmen == gained


def test_a_card_sent_back_to_its_own_hand_is_counted_there() -> None:
    """Saddlebags cannot be declined: with only the gang's own cards in play it sends one
    back to the gang's hand, one away from the fight before one here. The scorer counts
    that card in the hand and its firepower gone from where it was."""
    state = ready(synthetic_game(8), GANG)
    bf = state.marker_bf
    here = in_play(state, GANG, "hail-of-bullets")[0]
    away = in_play(state, GANG, "38-special", battlefield="whiskey-canyon")[0]
    give_hand(state, GANG, "saddlebags", "38-special")
    definition = _definition(state, "saddlebags")
    hand = [uid for uid in state.hands[GANG] if state.spec.def_of[uid] != definition]
    change = play_change(Reading(state, GANG), definition, 0, bf, 1, hand)
    assert change is not None and away in change.hand and here not in change.hand
    assert change.gang == 0  # the card here stays
    _play_by_rule(state, "saddlebags")
    assert away in state.hands[GANG] and state.placed[here] is not None
    assert sorted(change.hand) == sorted(state.hands[GANG])


def test_greedy_plays_every_card_of_both_base_decks() -> None:
    """A card the scorer misreads as doing nothing (as Saddlebags once was) is never played,
    and the simulator's numbers for a deck holding it mean little. Over 150 games every card
    of both base decks is played at least now and then (the rarest: about 0.16 a game)."""
    from deckbuilder.sim import Contestant, simulate
    from deckbuilder.sim.runs.runner import prime_catalog

    catalog = build_catalog()
    prime_catalog(catalog)
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    run = simulate(Contestant("colty", decks[GANG], "greedy"),
                   Contestant("mcready", decks[MCREADY], "greedy"), side=GANG, games=150,
                   seed=5, keep_results=True)
    for seat in (GANG, MCREADY):
        played = {card for result in run.results for card in result.played[seat]}
        never = sorted(set(decks[seat]) - played)
        assert not never, f"greedy never played {never}"
