"""A whole position as plain data (card ids, token counts) and as text, in the words of the
game played: the omniscient view (both hands, the top of both decks), unlike `observe`.
Scenario files, `deckbuilder scenario --json`, golden transcripts and the end of
`deckbuilder play` all describe a position through it, so a change shows up in one place.
"""

from __future__ import annotations

from typing import Any

from deckbuilder.engine.actions import kind_name
from deckbuilder.engine.addons import host_of, is_hidden
from deckbuilder.engine.board import firepower
from deckbuilder.engine.codes import SPACE_FACE
from deckbuilder.engine.state import PHASE_NAMES, TERMINAL, State
from deckbuilder.engine.wording import is_emptied

#: How many cards of each deck's top the snapshot shows (the next ones to be drawn).
DECK_TOP_SHOWN = 3


def player_names(state: State) -> tuple[str, str]:
    return state.spec.game_rules.side_names


def player_name(state: State, player: int | None) -> str:
    if player is None or player == TERMINAL:
        return "none"
    return player_names(state)[player]


def pile_ids(state: State) -> list[str]:
    """The characters in the pile, the next to be recruited first."""
    characters = state.spec.characters
    return [characters[index].id for index in reversed(state.pile)]


def card_tokens(state: State, uid: int) -> dict[str, int]:
    """The tokens on a card or bandit, only the kinds it has."""
    tokens = {"power": state.power[uid], "true_grit": state.grit[uid]}
    if uid < state.spec.n_cards and is_emptied(state, uid):
        tokens["eagle"] = 1
    return {kind: count for kind, count in tokens.items() if count}


def in_play(state: State, bf: int, owner: int) -> list[dict[str, Any]]:
    """The cards `owner` has at battlefield `bf` (row-blocking cards under their owner)."""
    spec = state.spec
    cards = []
    for uid in state.rows[2 * bf + owner]:
        entry: dict[str, object] = {"card": spec.card_def[uid].id, **card_tokens(state, uid)}
        if len(spec.card_def[uid].modes) > 1 and not is_hidden(state, uid):
            entry["mode"] = state.mode_of(uid).name
        host = host_of(state, uid)
        if host >= 0:  # a card lying under another (an add-on, the Strongbox's hidden card)
            entry["under"] = spec.card_def[host].id
            if is_hidden(state, uid):
                entry["hidden"] = True
        cards.append(entry)
    return cards


def active_face_spaces(state: State) -> list[str]:
    """Labels of the face spaces (Kittens', Skinny's extra turns) now in use."""
    return [battlefield.labels[space] for battlefield in state.spec.bfs
            for space, kind in enumerate(battlefield.kinds)
            if kind == SPACE_FACE and state.face_on[battlefield.offset + space]]


def attack_totals(state: State) -> dict[str, int]:
    """What an attack at the current battlefield would compare: the gang adds the defence."""
    names = player_names(state)
    bf = state.marker_bf
    defence = state.spec.bfs[bf].defence
    return {names[0]: firepower(state, bf, 0) + defence, names[1]: firepower(state, bf, 1)}


def snapshot(state: State, legal: bool = True) -> dict[str, Any]:
    """The position as JSON-ready data. `border` and `derail_used` keep Revolver's names
    (scenarios read them); `countdown`, `pieces_used` and `characters` say the same in any
    game's words. A character in the pile is in `bandits` with `alive` false."""
    spec = state.spec
    game_rules = spec.game_rules
    names = player_names(state)
    ids = [card.id for card in spec.card_def]
    marker = spec.bfs[state.marker_bf]
    battlefields: dict[str, object] = {}
    for bf in range(spec.n_bf + 1):
        sides = {names[p]: in_play(state, bf, p) for p in (0, 1)}
        if any(sides.values()):
            key = spec.bfs[bf].id if bf < spec.n_bf else "open-range"
            battlefields[key] = sides
    listed: list[dict[str, object]] = [
        {"id": character.id, "alive": state.alive[character.idx],
         **card_tokens(state, spec.character_base + character.idx)}
        for character in spec.characters]
    pile = pile_ids(state) if game_rules.has_pile else None  # None: no pile to recruit from
    held = {spec.characters[index].id: where
            for index, where in game_rules.held_characters(state).items()}
    waiting = {*(pile or ()), *held}  # out of play, yet not dead
    current = state.current_player()
    outcome = state.outcome()
    data: dict[str, object] = {
        "turn": state.turn,
        "active": names[state.active],
        "phase": PHASE_NAMES[state.phase],
        "to_act": player_name(state, current),
        "decision": "" if current == TERMINAL else kind_name(state.pending_kind, state.spec),
        "marker": {"battlefield": marker.id, "space": marker.labels[state.marker_space]},
        "border": state.countdown,
        "face_spaces": active_face_spaces(state),
        "derail_used": "derail" in state.pieces_used,
        "game": game_rules.game,
        "countdown": {"name": game_rules.countdown_name, "tokens": state.countdown},
        "pieces_used": sorted(state.pieces_used),
        "pieces_used_names": [state.spec.game_rules.piece_names.get(piece, piece)
                              for piece in sorted(state.pieces_used)],
        "characters": {
            "name": game_rules.declaration.characters_word,  # "bandits", "guardians"
            "pile": pile,  # None: the game has no pile
            "dead": [entry["id"] for entry in listed
                     if not entry["alive"] and entry["id"] not in waiting],
            **({"held": held} if held else {}),  # out of play, waiting (in the prison)
        },
        "firepower": attack_totals(state),
        "battlefields": battlefields,
        "bandits": listed,
        "hands": {names[p]: sorted(ids[u] for u in state.hands[p]) for p in (0, 1)},
        "decks": {names[p]: {"size": len(state.decks[p]),
                             "top": [ids[u] for u in reversed(state.decks[p][-DECK_TOP_SHOWN:])]}
                  for p in (0, 1)},
        "discards": {names[p]: [ids[u] for u in state.discards[p]] for p in (0, 1)},
        "removed": {names[p]: [ids[u] for u in state.removed[p]] for p in (0, 1)},
        "outcome": None if outcome is None else {
            "winner": player_name(state, outcome.winner),
            "termination": outcome.termination.value,
        },
    }
    if any(state.silver):  # only when someone has dollars: base-game texts stay as they were
        data["silver_dollars"] = {names[p]: state.silver[p] for p in (0, 1)}
    if state.under_characters:
        data["under_characters"] = [
            {"character": spec.characters[index].id, "card": ids[uid]}
            for index, uid in state.under_characters]
    if legal and current != TERMINAL:
        data["legal"] = [state.action_to_string(action) for action in state.legal_actions()]
    return data


def _cards_text(cards: list[dict[str, Any]]) -> str:
    parts = []
    for card in cards:
        extras = [f"{kind.replace('_', ' ')} {count}" for kind, count in card.items()
                  if kind not in ("card", "mode", "under", "hidden")]
        if "under" in card:
            extras.insert(0, f"under {card['under']}" + (", face down" if card.get("hidden")
                                                           else ""))
        if "mode" in card:
            extras.insert(0, f"as: {card['mode']}")
        parts.append(card["card"] + (f" ({', '.join(extras)})" if extras else ""))
    return ", ".join(parts) if parts else "-"


def _characters_text(data: dict[str, Any]) -> list[str]:
    """The characters alive (with their tokens) and dead; in a game with a pile, those in
    play, the number in the pile (face down) and the dead."""
    characters = data["characters"]
    word, pile, dead = characters["name"], characters["pile"], characters["dead"]
    alive = _cards_text([{"card": b["id"], **{k: v for k, v in b.items()
                                               if k not in ("id", "alive")}}
                         for b in data["bandits"] if b["alive"]])
    count = sum(1 for b in data["bandits"] if b["alive"])
    held = [f"{word} held ({len(characters['held'])}): "
            + ", ".join(f"{name} ({where})" for name, where in characters["held"].items())
            ] if characters.get("held") else []
    if pile is None:
        return [f"{word} alive ({count}): {alive}", *held,
                f"{word} dead ({len(dead)}): {', '.join(dead) or '-'}"]
    return [f"{word} in play ({count}): {alive}",
            f"{word} in the pile ({len(pile)}, face down)",
            f"{word} dead ({len(dead)}): {', '.join(dead) or '-'}"]


def render(data: dict[str, Any]) -> list[str]:
    """A snapshot as indented text lines (stable: golden transcripts compare them)."""
    names = list(data["hands"])
    marker = data["marker"]
    lines = [
        f"turn {data['turn']} ({data['active']}, {data['phase']} phase); "
        f"to act: {data['to_act']}" + (f" ({data['decision']})" if data["decision"] else ""),
        f"marker: {marker['battlefield']} space {marker['space']}; "
        f"{data['countdown']['name']} tokens: {data['countdown']['tokens']}; "
        f"face spaces in use: {', '.join(data['face_spaces']) or 'none'}"
        + "".join(f"; {name} used" for name in data.get("pieces_used_names",
                                                         data["pieces_used"])),
        "firepower here: " + ", ".join(f"{who} {value}" for who, value in
                                       data["firepower"].items()),
    ]
    for bf, sides in data["battlefields"].items():
        lines.append(f"at {bf}:")
        for who in names:
            lines.append(f"  {who:<8} {_cards_text(sides[who])}")
    lines.extend(_characters_text(data))
    if data.get("under_characters"):
        lines.append("under character cards: " + ", ".join(
            f"{entry['card']} under {entry['character']}" for entry in data["under_characters"]))
    if data.get("silver_dollars"):
        lines.append("silver dollars: " + ", ".join(
            f"{who} {count}" for who, count in data["silver_dollars"].items()))
    for who in names:
        deck = data["decks"][who]
        lines.append(f"{who}: hand {', '.join(data['hands'][who]) or '-'}")
        lines.append(f"{' ' * len(who)}  deck {deck['size']} (top: {', '.join(deck['top']) or '-'})"
                     f"; discard {', '.join(data['discards'][who]) or '-'}"
                     + (f"; removed {', '.join(data['removed'][who])}"
                        if data["removed"][who] else ""))
    if data["outcome"]:
        outcome = data["outcome"]
        lines.append(f"game over: {outcome['winner']} wins ({outcome['termination']})")
    elif data.get("legal") is not None:
        lines.append("legal: " + "; ".join(data["legal"]))
    return lines
