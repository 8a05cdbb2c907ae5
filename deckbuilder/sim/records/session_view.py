"""What a seat at the table may see and read: the position as JSON-ready data and as text,
and the action texts with the opponent's secrets taken out, so the terminal and the web table
show a person the same picture. The position comes from the engine's `observe`, which leaves
out what the seat may not see; the decision kinds' records say which answers are secret
(`secret_words`: a poker card chosen face down, the card hidden under the Strongbox ...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from deckbuilder.engine.actions import K_REACT, PASS
from deckbuilder.engine.compiled import GameSpec
from deckbuilder.engine.log_lines import SPECTATOR
from deckbuilder.engine.observe import CardView, Observation, observe
from deckbuilder.engine.state import State
from deckbuilder.engine.why_not import not_offered
from deckbuilder.games import game_of_view


def secret_words(spec: GameSpec, kind: int) -> str | None:
    """What the opponent reads instead of the answer to a secret decision of kind `kind`."""
    found = spec.kinds.get(kind)
    if found is None or not found.secret:
        return None
    return found.secret_words or f"answers: {found.words}"


def public_action_text(spec: GameSpec, kind: int, action: int, text: str) -> str | None:
    """The action as the OTHER player reads it; None when he should not learn it was offered (a
    reaction not played: that a side was asked tells that it holds a reaction card)."""
    hidden = secret_words(spec, kind)
    if hidden is not None:
        return hidden
    if kind == K_REACT and action == PASS:
        return None
    return text


def _jsonable(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    return value


def _card(view: CardView) -> dict[str, object]:
    """Every field but the owner; `hidden` and `under` only when they say something."""
    return {key: value for key, value in asdict(view).items()
            if key != "owner" and (value or key not in ("hidden", "under"))}


def _hand_cards(state: State, ids: Iterable[str]) -> list[dict[str, object]]:
    """Cards of a hand, each with the symbols the game counts (`card_symbols`)."""
    symbols_of = state.spec.game_rules.card_symbols
    definitions = {card.id: card for card in state.spec.card_def}
    return [{"id": card_id, "name": definitions[card_id].name,
             **symbols_of(definitions[card_id])} for card_id in ids]


def _symbols(state: State, seen: Observation, hand: list[dict[str, Any]]) -> dict[str, int]:
    """The symbols in the viewer's hand, for those his deck has any of."""
    spec = state.spec
    kinds = set() if seen.viewer == SPECTATOR else {
        kind for uid in spec.decks[seen.player]
        for kind in spec.game_rules.card_symbols(spec.card_def[uid])}
    return {kind: sum(card.get(kind, 0) for card in hand) for kind in sorted(kinds)}


def _battlefields(seen: Observation, by_side: Any) -> list[dict[str, object]]:
    """The battlefields of the row (not those of the sets the game still chooses between)."""
    tokens = dict(seen.game_view).get("battlefield_tokens", ())
    choosable = {bf_id for choice in seen.row_choices for bf_id in choice.ids}
    fields = []
    for index, bf in enumerate(seen.battlefields):
        if bf.id in choosable:
            continue
        entry = {"id": bf.id, "name": bf.name, "defence": bf.defence,
                 "marker": index == seen.marker_index[0] and seen.row_chosen,
                 "firepower": by_side(bf.firepower, int),
                 "cards": by_side(bf.cards, lambda cards: [_card(c) for c in cards])}
        if len(tokens) >= 2 * (index + 1) and any(tokens[2 * index:2 * index + 2]):
            entry["power_tokens"] = by_side(tokens[2 * index:2 * index + 2], int)
        fields.append(entry)
    return fields


def position_view(state: State, viewer: int | None) -> dict[str, Any]:
    """The position as `viewer` sees it (`observe`), named, as JSON-ready data."""
    seen: Observation = observe(state, viewer)
    spec = state.spec
    game_rules = spec.game_rules
    names = list(seen.players)
    definitions = {card.id: card for card in spec.card_def}

    def named(ids: Iterable[str]) -> list[dict[str, str]]:
        return [{"id": i, "name": definitions[i].name if i in definitions else i} for i in ids]

    def by_side(pair: Sequence[object], convert: Any) -> dict[str, object]:
        return {names[p]: convert(pair[p]) for p in (0, 1)}

    hand = _hand_cards(state, seen.hand)
    game_pieces = {key: value for key, value in seen.game_view
                   if key not in ("character_pile", "battlefield_tokens")}
    marker_bf = seen.battlefields[seen.marker_index[0]]
    current = seen.current_player
    view: dict[str, object] = {
        "game": seen.game,
        "player": None if viewer == SPECTATOR else names[seen.player],
        "players": names,
        "turn": seen.turn,
        "active": names[seen.active],
        "phase": seen.phase,
        "to_act": names[current] if current in (0, 1) else None,
        "decision": seen.decision,
        #: False while the game still chooses the battlefield row (Revolver 2's poker
        #: tournament): `row_choices` names the sets, the marker is not placed yet
        "row_known": seen.row_chosen,
        "row_choices": [{"name": choice.name, "battlefields": list(choice.battlefields),
                         "side": None if choice.side is None else names[choice.side]}
                        for choice in seen.row_choices],
        "marker": {"battlefield": seen.marker[0], "name": marker_bf.name,
                   "space": seen.marker[1], "index": seen.marker_index[0]},
        "countdown": {"name": game_rules.countdown_name, "tokens": seen.countdown},
        "pieces_used": [game_rules.piece_names.get(piece, piece) for piece in seen.pieces_used],
        "battlefields": _battlefields(seen, by_side),
        "open_range": by_side(seen.open_range, lambda cards: [_card(c) for c in cards]),
        "characters": {"name": game_rules.declaration.characters_word,
                       "list": [asdict(b) for b in seen.characters],
                       "pile": dict(seen.game_view).get("character_pile", 0)
                       if game_rules.has_pile else None,
                       # who lies face down in the pile (all know it; the order is hidden)
                       "in_pile": list(seen.in_pile),
                       "held": dict(seen.held),  # out of play, waiting (in the prison)
                       "dead": [b.id for b in seen.characters if not b.alive and b.id not in
                                {*seen.in_pile, *dict(seen.held)}]},
        "hand": hand,
        "symbols_in_hand": _symbols(state, seen, hand),
        "opponent_hand": None if viewer == SPECTATOR else seen.opponent_hand_size,
        "hand_sizes": by_side(seen.hand_sizes, int),
        "decks": by_side(seen.deck_sizes, int),
        "discards": by_side(seen.discards, named),
        "removed": by_side(seen.removed, named),
        "silver_dollars": by_side(seen.silver, int),
        "under_characters": [{"character": c, "card": card} for c, card in
                             seen.under_characters],
        "game_pieces": _jsonable(game_pieces),
        "piece_names": game_rules.record_names(state),
        "outcome": None if not seen.terminal else {
            "winner": None if seen.winner is None else names[seen.winner],
            "termination": seen.termination},
    }
    if viewer in (0, 1):  # a seat: why each card of his hand not offered cannot be played
        view["not_offered"] = [why.to_dict() for why in not_offered(state, seen.player)]
    if seen.other_hand is not None:  # everything: the other seat's hand too
        view["other_hand"] = _hand_cards(state, seen.other_hand)
        view["deck_tops"] = by_side(seen.deck_tops or ((), ()), named)
        view["everything"] = True
    return view


def _card_text(card: dict[str, Any]) -> str:
    extras = [f"{kind.replace('_', ' ')} {card[kind]}" for kind in ("power", "true_grit")
              if card.get(kind)]
    if card.get("eagle"):
        extras.append("eagle")
    if card.get("firepower"):
        extras.insert(0, f"firepower {card['firepower']}")
    if card.get("mode") and card["mode"] != card.get("name") and not card.get("hidden"):
        extras.insert(0, f"as: {card['mode']}")
    if card.get("under"):
        extras.insert(0, f"under {card['under']}" + (", face down" if card.get("hidden") else ""))
    return card["name"] + (f" ({', '.join(extras)})" if extras else "")


def _cards_text(cards: Sequence[dict[str, Any]]) -> str:
    return ", ".join(_card_text(card) for card in cards) or "-"


class ViewWords:
    """How `view_lines` words a view's parts, plainly (`table_words.PlayerWords`: for players)."""

    def marker(self, view: dict[str, Any]) -> str:
        marker = view["marker"]
        return f"marker: {marker['name']} space {marker['space']}"

    def character(self, character: dict[str, Any]) -> str:
        return character["name"] + "".join(f" ({kind.replace('_', ' ')} {character[kind]})"
                                           for kind in ("true_grit", "power") if character[kind])

    def characters(self, view: dict[str, Any]) -> list[str]:
        characters = view["characters"]
        word = characters["name"]
        name = {c["id"]: c["name"] for c in characters["list"]}
        alive = [c for c in characters["list"] if c["alive"]]
        lines = [f"{word} in play ({len(alive)}): "
                 + (", ".join(self.character(c) for c in alive) or "-")]
        if characters.get("pile") is not None:  # everything: who comes next
            coming = [name.get(i, i) for i in characters["in_pile"]] if view.get(
                "everything") else []
            lines.append(f"{word} in the pile ({characters['pile']}, face down"
                         + (f"; next {', '.join(coming)}" if coming else "") + ")")
        if characters.get("held"):
            lines.append(f"{word} held ({len(characters['held'])}): " + ", ".join(
                f"{name.get(i, i)} ({where})" for i, where in characters["held"].items()))
        if "dead" in characters:  # (a view read back by `join` may not say)
            lines.append(f"{word} dead ({len(characters['dead'])}): "
                         + (", ".join(name.get(i, i) for i in characters["dead"]) or "-"))
        return lines

    def hand(self, view: dict[str, Any]) -> list[str]:
        symbols = "".join(f"; {kind} in hand: {count}"
                          for kind, count in view["symbols_in_hand"].items())
        return [f"{whose_hand(view)} ({len(view['hand'])}): "
                + (_counted(card["name"] for card in view["hand"]) or "-") + symbols]

    def piece(self, piece_id: str, name: str) -> str:
        return name

    def outcome(self, view: dict[str, Any]) -> str:
        winner = view["outcome"]["winner"] or "nobody"
        return f"game over: {winner} wins ({view['outcome']['termination']})"


PLAIN_WORDS = ViewWords()


def whose_hand(view: Mapping[str, object]) -> str:
    """"your hand" to a seat; with everything open, the first side's by name."""
    return f"{view['player']}'s hand" if view.get("everything") else "your hand"


def view_lines(view: dict[str, Any], words: ViewWords = PLAIN_WORDS) -> list[str]:
    """A view (`position_view`) as text lines, in `words`. Names come from card files: the
    caller escapes them for the terminal."""
    names = view["players"]
    me = view["player"] or names[0]
    other = names[1 - names.index(me)]
    countdown = view["countdown"]
    seat = "everything open" if view.get("everything") else (
        f"you are {me}" if view["player"] else "you watch")
    lines = [f"turn {view['turn']} ({view['active']}, {view['phase']} phase); {seat}"
             + (f"; to act: {view['to_act']} ({view['decision']})" if view["to_act"] else ""),
             (f"{words.marker(view)}; " if view["row_known"]
              else "the battlefields are not chosen yet; ")
             + f"{countdown['name']} tokens: {countdown['tokens']}"
             + "".join(f"; {piece} used" for piece in view["pieces_used"])]
    width = max(len(name) for name in names)
    for battlefield in view["battlefields"] if view["row_known"] else ():
        cards = battlefield["cards"]
        if not battlefield["marker"] and not any(cards.values()):
            continue
        head = (f"{'>' if battlefield['marker'] else ' '} {battlefield['name']} (defence "
                f"{battlefield['defence']}; firepower "
                + ", ".join(f"{who} {n}" for who, n in battlefield["firepower"].items()) + ")")
        if battlefield.get("power_tokens"):
            head += "; power tokens " + ", ".join(
                f"{who} {n}" for who, n in battlefield["power_tokens"].items())
        lines.append(head)
        lines += [f"    {who:<{width}} {_cards_text(cards[who])}" for who in names]
    if any(view["open_range"].values()):
        lines.append("  open range")
        lines += [f"    {who:<{width}} {_cards_text(view['open_range'][who])}" for who in names]
    lines += words.characters(view)
    if view["under_characters"]:
        lines.append("under character cards: " + ", ".join(
            f"{entry['card']} under {entry['character']}" for entry in view["under_characters"]))
    if any(view["silver_dollars"].values()):
        lines.append("silver dollars: " + ", ".join(
            f"{who} {n}" for who, n in view["silver_dollars"].items()))
    lines += pieces_lines(view, words)
    for who in (me, other):
        discards = view["discards"][who]
        top = [card["name"] for card in view.get("deck_tops", {}).get(who, ())]
        lines.append(f"{who}: deck {view['decks'][who]}"
                     + (f" (top: {', '.join(top)})" if top else "")
                     + f"; discard pile {len(discards)}"
                     + (f" (top: {discards[-1]['name']})" if discards else "")
                     + (f"; removed {len(view['removed'][who])}" if view["removed"][who] else ""))
    if "other_hand" in view:
        lines.append(f"{other}'s hand ({len(view['other_hand'])}): "
                     + (_counted(card["name"] for card in view["other_hand"]) or "-"))
    else:
        count = view["opponent_hand"] if view["player"] else view["hand_sizes"][other]
        lines.append(f"{other}'s hand: {count} card{'s' if count != 1 else ''}")
    if view["player"]:
        lines += words.hand(view)
    else:
        lines.append(f"{me}'s hand: {view['hand_sizes'][me]} cards")
    if view["outcome"]:
        lines.append(words.outcome(view))
    return lines


def _counted(names: Iterable[str]) -> str:
    """"Cowboy x3, Deputy": copies of a card named once, in the order first met."""
    return ", ".join(name + (f" x{count}" if count > 1 else "")
                     for name, count in Counter(names).items())


def pieces_lines(view: dict[str, Any], words: ViewWords = PLAIN_WORDS,
                 game_lines: bool = True) -> list[str]:
    """The game's own pieces: those the game words itself (left out without `game_lines`, for
    a page that draws them apart), the others as "name value" pairs."""
    pieces = {key: value for key, value in view["game_pieces"].items()
              if value not in (None, [], -1, False, 0)}
    piece_names = view.get("piece_names", {})

    def named(value: object) -> str:
        if isinstance(value, list):
            return ", ".join(named(item) for item in value) or "-"
        return words.piece(str(value), str(piece_names.get(value, value)))

    lines: list[str] = []
    game = game_of_view(view)
    if game is not None:
        own, pieces = game.rules.pieces_lines(view, pieces, named)
        lines += own if game_lines else []
    if pieces:
        lines.append("table: " + "; ".join(f"{key.replace('_', ' ')} {named(value)}"
                                           for key, value in sorted(pieces.items())))
    return lines
