"""What a card says now (engine/wording.py): an eagle token empties a card (no value, icons or
text) and the cards under it; a silent battlefield (the prison, FAQ Q6) keeps printed
firepower but silences text; the eagle token never goes on the cards the sheet excludes.

Each test would fail if the code it covers ignored the eagle token (or the silent
battlefield): every assertion is checked against the same position without it first.
"""

from __future__ import annotations

from collections.abc import Iterable

from table_staging import clear_hand, refresh, stage, stage_marker

from deckbuilder.catalog import default_catalog
from deckbuilder.engine import wording
from deckbuilder.engine.actions import IN_PLAY_BASE, PASS
from deckbuilder.engine.board import (
    card_firepower,
    column_count,
    column_has_room,
    destroy_card,
    firepower,
    is_protected,
    kill_card,
    targets,
)
from deckbuilder.engine.card_steps import Resolver, TargetFilter
from deckbuilder.engine.expansion_steps import attach_card, card_cost
from deckbuilder.engine.observe import observe
from deckbuilder.engine.play import main_options
from deckbuilder.engine.position import render, snapshot
from deckbuilder.engine.state import State
from deckbuilder.games import new_game
from deckbuilder.models.effects import Target

GANG, LAWMEN = 0, 1
WHISKEY = "whiskey-canyon"


def game(colty: Iterable[str] = (), mcready: Iterable[str] = (), player: int = GANG,
         seed: int = 0) -> State:
    """The base decks plus the named cards (one copy each), at `player`'s first play phase
    with both hands put back under the decks."""
    catalog = default_catalog()
    decks = [dict(catalog.base_deck("revolver", "colty")),
             dict(catalog.base_deck("revolver", "mcready"))]
    for deck, extra in zip(decks, (colty, mcready), strict=True):
        for card_id in extra:
            deck[card_id] = deck.get(card_id, 0) + 1
    state = new_game(decks, seed=seed, catalog=catalog, verbose=True)
    if player == LAWMEN:
        state.apply(PASS)
    clear_hand(state, GANG)
    clear_hand(state, LAWMEN)
    refresh(state)
    return state


def drain(state: State) -> None:
    """Run the queued tasks now (the play-phase decision stays open around them)."""
    while state.tasks:
        task = state.tasks.pop()
        task[0](state, task)


def option_texts(state: State) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()]


def test_an_emptied_card_has_no_firepower_and_its_add_on_neither() -> None:
    state = game(mcready=["volcanic-pistol"], player=LAWMEN)
    deputy = stage(state, LAWMEN, "deputy", "play")
    pistol = stage(state, LAWMEN, "volcanic-pistol", "hand")
    state.hands[LAWMEN].remove(pistol)
    attach_card(state, pistol, deputy, state.spec.card_def[pistol].modes[0])
    assert firepower(state, 0, LAWMEN) == 2 + 3
    state.eagle[deputy] = 1
    state.eagle[pistol] = 1  # what the eagle step and attach_card do for a card under it
    assert firepower(state, 0, LAWMEN) == 0
    assert card_firepower(state, deputy) == 0
    view = observe(state, GANG)
    assert [card.firepower for card in view.battlefields[0].cards[LAWMEN]] == [0, 0]
    assert all(card.eagle for card in view.battlefields[0].cards[LAWMEN])


def test_the_eagle_step_empties_the_card_under_its_target() -> None:
    state = game(colty=["shadow-of-chikara"], mcready=["volcanic-pistol"])
    deputy = stage(state, LAWMEN, "deputy", "play")
    pistol = stage(state, LAWMEN, "volcanic-pistol", "hand")
    state.hands[LAWMEN].remove(pistol)
    attach_card(state, pistol, deputy, state.spec.card_def[pistol].modes[0])
    stage(state, GANG, "shadow-of-chikara", "hand")
    refresh(state)
    state.apply(next(a for a, t in zip(state.legal_actions(), option_texts(state), strict=True)
                     if t == "play Shadow of Chikara"))
    assert state.eagle[deputy] and state.eagle[pistol]
    assert firepower(state, 0, LAWMEN) == 0
    assert "eagle 1" in "\n".join(render(snapshot(state)))


def test_the_eagle_token_never_goes_on_locations_or_event_cards() -> None:
    state = game(colty=["shadow-of-chikara", "upturned-wagon"],
                 mcready=["rock-strewn-vantage-point"])
    vantage = stage(state, LAWMEN, "rock-strewn-vantage-point", "play")
    deputy = stage(state, LAWMEN, "deputy", "play")
    wagon = stage(state, GANG, "upturned-wagon", "play")
    stage(state, GANG, "shadow-of-chikara", "hand")
    stage(state, GANG, "38-special", "hand")
    refresh(state)
    state.apply(state.spec.play_action[state.spec.def_of[
        next(u for u in state.hands[GANG] if state.spec.card_def[u].id == "shadow-of-chikara")]])
    chosen = {action - IN_PLAY_BASE for action in state.legal_actions()}
    assert chosen == {deputy, wagon}  # a choice among the others: the location is excluded
    assert vantage not in chosen
    assert state.spec.card_def[vantage].eagle_proof
    assert wording.eagle_proof("action", "neutral")  # an event card on the table


def test_an_emptied_card_counts_toward_the_card_limit() -> None:
    state = game(colty=["upturned-wagon"])
    wagon = stage(state, GANG, "upturned-wagon", "play")
    stage(state, GANG, "38-special", "play")
    stage(state, GANG, "38-special", "play")
    assert column_count(state, 0, GANG) == 2
    assert column_has_room(state, 0, GANG)
    state.eagle[wagon] = 1
    assert column_count(state, 0, GANG) == 3
    assert not column_has_room(state, 0, GANG)


def test_a_silent_battlefield_keeps_firepower_but_not_the_limit_exemption() -> None:
    state = game(colty=["upturned-wagon"])
    wagon = stage(state, GANG, "upturned-wagon", "play")
    stage(state, GANG, "38-special", "play")
    stage(state, GANG, "38-special", "play")
    before = firepower(state, 0, GANG)
    state.silent_bf = 0
    assert firepower(state, 0, GANG) == before  # printed firepower kept (FAQ Q6 reading)
    assert column_count(state, 0, GANG) == 3
    assert not wording.text_applies(state, wagon)
    state.silent_bf = 1  # another battlefield is silent: this one speaks again
    assert wording.text_applies(state, wagon) and column_count(state, 0, GANG) == 2
    other = state.clone()
    assert other.silent_bf == 1 and other.snapshot() == state.snapshot()
    state.silent_bf = -1
    assert other.snapshot() != state.snapshot()


def test_an_emptied_row_limit_stops_nobody() -> None:
    state = game(player=LAWMEN)
    sandstorm = stage(state, GANG, "sandstorm", "play")
    stage(state, LAWMEN, "deputy", "play")
    stage(state, LAWMEN, "cowboy", "play")
    assert not column_has_room(state, 0, LAWMEN)
    state.eagle[sandstorm] = 1
    assert column_has_room(state, 0, LAWMEN)
    state.eagle[sandstorm] = 0
    state.silent_bf = 0
    assert column_has_room(state, 0, LAWMEN)


def test_an_emptied_card_loses_unaffected_by() -> None:
    """The Armed train guard's "not affected by the Sandstorm": gone when emptied."""
    state = game(mcready=["armed-train-guard"], player=LAWMEN)
    stage(state, GANG, "sandstorm", "play")
    guard = stage(state, LAWMEN, "armed-train-guard", "play")
    stage(state, LAWMEN, "deputy", "play")
    assert column_has_room(state, 0, LAWMEN)  # the guard does not count toward the two
    state.eagle[guard] = 1
    assert not column_has_room(state, 0, LAWMEN)


def test_an_emptied_card_has_no_on_destroyed_effect() -> None:
    for eagle in (0, 1):
        state = game(mcready=["rock-strewn-vantage-point"])
        vantage = stage(state, LAWMEN, "rock-strewn-vantage-point", "play")
        state.eagle[vantage] = eagle
        hand = len(state.hands[LAWMEN])
        destroy_card(state, vantage)
        drain(state)
        assert len(state.hands[LAWMEN]) == hand + (1 - eagle)  # "draw a card" only if it speaks


def test_an_emptied_card_has_no_opponent_plays_trigger() -> None:
    """FAQ Q7's vantage point is destroyed first by a Dynamite here: not when emptied."""
    for eagle in (0, 1):
        state = game(mcready=["rock-strewn-vantage-point"])
        stage_marker(state, WHISKEY, "2")  # Dynamite is no use at the bank
        vantage = stage(state, LAWMEN, "rock-strewn-vantage-point", "play")
        stage(state, LAWMEN, "deputy", "play")
        state.eagle[vantage] = eagle
        stage(state, GANG, "stick-of-dynamite", "hand")
        stage(state, GANG, "38-special", "hand")
        refresh(state)
        state.apply(next(a for a, t in zip(state.legal_actions(), option_texts(state),
                                           strict=True) if t == "play Stick of dynamite"))
        assert (state.placed[vantage] is None) == (not eagle)


def test_an_emptied_card_offers_no_ability_and_can_be_discarded_from_play() -> None:
    state = game(mcready=["drusilla-wilcox-wolf-in-sheeps-clothing"], player=LAWMEN)
    drusilla = stage(state, LAWMEN, "drusilla-wilcox-wolf-in-sheeps-clothing", "play", 1)
    stage(state, LAWMEN, "deputy", "hand")
    refresh(state)
    ability = ("use Drusilla Wilcox – Wolf in sheep's clothing: "
               "Move Drusilla to the current location")
    assert ability in option_texts(state)
    state.eagle[drusilla] = 1
    refresh(state)
    assert ability not in option_texts(state)


def test_an_emptied_discounter_discounts_nothing() -> None:
    state = game(mcready=["clarence-stickley-pinkerton-detective",
                          "trained-in-the-pinkerton-ways"], player=LAWMEN)
    clarence = stage(state, LAWMEN, "clarence-stickley-pinkerton-detective", "play")
    trained = state.spec.defs[state.spec.def_of[
        stage(state, LAWMEN, "trained-in-the-pinkerton-ways", "hand")]]
    stage(state, LAWMEN, "deputy", "play")
    full = trained.cost
    assert card_cost(state, LAWMEN, trained, 0) == max(0, full - 1)
    state.eagle[clarence] = 1
    assert card_cost(state, LAWMEN, trained, 0) == full


def test_an_emptied_card_is_no_target_of_an_icon_filter_and_loses_impervious() -> None:
    state = game(colty=["the-jackson-clan"], mcready=["rock-strewn-vantage-point"])
    vantage = stage(state, LAWMEN, "rock-strewn-vantage-point", "play")
    scoped = TargetFilter(Target(side="any", where="any", icons=["scope"]), Resolver({}, {}))
    ctx = (GANG, -1, 0)
    assert targets(state, scoped, ctx) == [vantage]
    state.eagle[vantage] = 1
    assert targets(state, scoped, ctx) == []
    clan = stage(state, GANG, "the-jackson-clan", "play")
    assert is_protected(state, clan, LAWMEN)
    state.eagle[clan] = 1
    assert not is_protected(state, clan, LAWMEN)


def test_an_emptied_character_keeps_no_on_death_effect() -> None:
    """kill_card reads the text before the card leaves play (the eagle is cleared by lift)."""
    state = game(mcready=["rock-strewn-vantage-point"])
    deputy = stage(state, LAWMEN, "deputy", "play")
    card = state.spec.card_def[deputy]
    marker = ((lambda s, t: s.note("on-death ran")), None)
    saved = card.on_death
    try:
        card.on_death = (marker,)
        kill_card(state, deputy, True, False)
        drain(state)
        assert state.log.count("on-death ran") == 1
        deputy = stage(state, LAWMEN, "deputy", "play")
        state.eagle[deputy] = 1
        kill_card(state, deputy, True, False)
        drain(state)
        assert state.log.count("on-death ran") == 1  # the emptied one said nothing
    finally:
        card.on_death = saved


def test_main_options_discard_an_emptied_immovable_card() -> None:
    """FAQ Q3: the card the eagle token is on can always be discarded from play."""
    state = game(mcready=["rock-strewn-vantage-point"], player=LAWMEN)
    vantage = stage(state, LAWMEN, "rock-strewn-vantage-point", "play")
    own = state.spec.layout.own_base + vantage
    assert own not in main_options(state, LAWMEN)
    state.eagle[vantage] = 1
    assert own in main_options(state, LAWMEN)
