"""The words a card face uses for the data's values: icons, placements, turn spaces, costs,
factions and games. One place, so the terminal, the web page and a one-line summary agree."""

from __future__ import annotations

from collections.abc import Iterable

from deckbuilder.declared import declaration_of
from deckbuilder.models.cards import TurnSpace
from deckbuilder.models.effects import game_declared

#: Icons whose value does not read as words once the hyphens are spaces.
_ICON_WORDS = {
    "clock-plus-1": "+1 clock",
    "clock-minus-1": "-1 clock",
}

#: Where a card may be placed, as a player reads it (models/cards.py, `Placement`), then each
#: game's own placements (its card model's `PLACEMENT_WORDS`).
PLACEMENT_WORDS = {
    "current": "the current battlefield",
    "any": "any battlefield",
    "opponent-any": "the opponent's side of any battlefield",
    "beside": "beside the current battlefield",
    "open-range": "the open range (no battlefield)",
    **{key: words for own in game_declared("PLACEMENT_WORDS") for key, words in own.items()},
}


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 card`, `2 cards` (`many` for irregular plurals)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


#: How a listing counts its records of a kind, where the kind's id is not the noun.
_KIND_NOUNS = {"special": ("special card", None), "token": ("kind of token", "kinds of token")}


def kind_count(count: int, kind: str) -> str:
    """`1 special card`, `3 kinds of token`: the command line's and the web's listings alike."""
    word, many = _KIND_NOUNS.get(kind, (kind, None))
    return plural(count, word, many)


def icon_words(icons: Iterable[str]) -> str:
    """`true grit, +1 clock` for the data's `[true-grit, clock-plus-1]`."""
    return ", ".join(_ICON_WORDS.get(str(icon), str(icon).replace("-", " ")) for icon in icons)


def game_title(game: str) -> str:
    declaration = declaration_of(game)
    return declaration.title if declaration is not None else game


def faction_title(game: str, faction: str) -> str:
    """A faction as the game titles it (`Colty gang`); `neutral` and unknown ids as they are."""
    declaration = declaration_of(game)
    sides = (*declaration.sides, *declaration.other_factions) if declaration is not None else ()
    return next((side.title for side in sides if side.id == faction), str(faction))


def characters_word(game: str, count: int = 1) -> str:
    """`bandit`/`bandits`, `guardian`/`guardians`: the game's word for its characters."""
    declaration = declaration_of(game)
    if declaration is None:
        return "character" if count == 1 else "characters"
    return declaration.character_word if count == 1 else declaration.characters_word


def cost_words(cost: int) -> str:
    return "free" if cost == 0 else f"discard {plural(cost, 'card')}"


def space_labels(spaces: Iterable[TurnSpace]) -> str:
    """Turn spaces as a player reads them: `-, 1, 2, (3)` (optional spaces in brackets, a
    face space with its face)."""
    return ", ".join(space_label(space) for space in spaces)


def space_label(space: TurnSpace) -> str:
    """One turn space: `1`, `(3)` when optional, `S (Skinny's face)` for a face space."""
    label = str(space.label)
    if space.kind == "optional":
        return f"({label})"
    if space.kind == "face" and space.face and space.face != label:
        return f"{label} ({space.face}'s face)"
    return label


def recruitment_words(spaces: Iterable[TurnSpace], game: str) -> str:
    """`space 2: 1 guardian; space 4: 2 guardians`; empty when no space recruits."""
    return "; ".join(
        f"space {space.label}: {space.recruit} {characters_word(game, space.recruit)}"
        for space in spaces if space.recruit)


def step_names(steps: object) -> list[str]:
    """The names (`do`) of steps and those nested in them, once each, of models or their JSON
    (shown only for a record without text: the project has no wording of steps)."""
    found: list[str] = []

    def walk(item: object) -> None:
        if isinstance(item, dict):
            name, nested = item.get("do"), list(item.values())
        elif isinstance(item, list | tuple):
            name, nested = None, list(item)
        else:
            name, nested = getattr(item, "do", None), getattr(item, "steps", None) or []
        if isinstance(name, str) and name and name not in found:
            found.append(name)
        for each in nested:
            walk(each)

    walk(steps)
    return found
